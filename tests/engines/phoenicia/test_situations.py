"""Rules that come into play only in some situations (third reading of seed-P and the
facts file): player counts, auctions with many or few bidders, ties, limits, the
production deck running dry, repeated development cards."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.phoenicia import data
from tablero.engines.phoenicia.engine import Phoenicia, _new_tile, treasury_capacity

from .helpers import game, player, set_turn, set_vps, tile, types


def _rich(g, seats):
    for s in range(seats):
        player(g, s, hand=[6, 6], disks=3, storehouses=4)


# --- setup by player count (seed-P Configuración inicial) ----------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_each_card_type_is_in_play_as_often_as_the_setup_table_says(seats):
    g = game(seats, seed=seats)
    st = g.state
    cards = st["deck"] + st["display"]
    a, b = data.COPIES[seats]["A"], data.COPIES[seats]["B"]
    for c in data.CARDS:
        assert cards.count(c["name"]) == (a if c["ab"] == "A" else b), c["name"]
    assert len(st["display"]) == seats
    assert all(data.CARD[c]["set"] == 1 for c in st["display"])


def test_2b_turns_up_only_the_cards_left_when_the_deck_runs_short():
    g = game(3, seed=5)
    set_turn(g, [0, 1, 2], turn=2)
    g.state["display"], g.state["deck"] = [], ["Ships"]
    for s in range(3):
        player(g, s, hand=[], disks=0)
    ev = g.act(2, {"type": "end_turn"})
    assert next(e for e in ev if e["type"] == "display_refilled")["cards"] == ["Ships"]
    assert g.state["display"] == ["Ships"] and g.state["deck"] == []


# --- auctions with many or few bidders (seed-P 1a, 1b, end of 1c) ----------------------------
def test_five_players_the_overlords_auction_goes_round_everyone_and_skips_those_who_dropped_out():
    g = game(5, seed=3)
    set_turn(g, [2, 3, 4, 0, 1])
    g.state["display"] = ["Caravan"]
    _rich(g, 5)
    g.act(2, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert g.state["auction"]["bidders"] == [2, 3, 4, 0, 1]
    g.act(3, {"type": "drop_out"})
    assert g.to_act() == {4}
    g.act(4, {"type": "bid", "amount": 10})
    g.act(0, {"type": "drop_out"})
    g.act(1, {"type": "bid", "amount": 11})
    assert g.to_act() == {2}  # back to the opener, seat 3 and seat 0 are out for good
    g.act(2, {"type": "bid", "amount": 12})
    assert g.to_act() == {4}
    g.act(4, {"type": "drop_out"})
    ev = g.act(1, {"type": "drop_out"})
    assert ev[-1]["type"] == "auction_won" and ev[-1]["seat"] == 2 and ev[-1]["price"] == 12


def test_the_fourth_of_five_players_auctions_against_the_fifth_only():
    g = game(5, seed=3)
    set_turn(g, [2, 3, 4, 0, 1], turn=3)
    g.state["display"] = ["Caravan"]
    _rich(g, 5)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert g.state["auction"]["bidders"] == [0, 1]
    assert g.to_act() == {1}
    ev = g.act(1, {"type": "drop_out"})
    assert ev[-1]["type"] == "auction_won" and ev[-1]["seat"] == 0


def test_a_later_players_change_from_an_auction_may_be_spent_in_his_own_turn_before_the_limit():
    # P-FAQ: limits are checked at the end of his own 1c, not when the change arrives.
    g = game(2, seed=11)
    set_turn(g, [0, 1], turn=0)
    g.state["display"] = ["Dyer", "Tracker"]
    player(g, 1, hand=[6], disks=3, trained=1)
    g.act(0, {"type": "open_auction", "card": "Dyer", "bid": 2})
    g.act(1, {"type": "bid", "amount": 3})
    g.act(0, {"type": "drop_out"})
    g.act(1, {"type": "pay", "cards": [6], "disks": 0})
    assert g.state["players"][1]["disks"] == 6
    g.act(0, {"type": "end_turn"})
    g.act(1, {"type": "employ", "tableau": "farming", "cards": [], "disks": 5})
    assert g.state["players"][1]["disks"] == 1


# --- ties (seed-P 2a, Fin del juego) ---------------------------------------------------------
def test_an_overlord_tied_for_most_vp_hands_the_overlord_on_to_the_other_tied_player():
    # Ours (RULES.md): the previous Overlord counts last among the tied.
    g = game(3, seed=2)
    g.state["overlord"] = 1
    set_vps(g, [9, 9, 4])
    assert Phoenicia.next_overlord(g.state) == 0


def test_most_vp_wins_even_against_the_overlord_of_the_last_round():
    g = game(3, seed=5)
    set_turn(g, [2, 0, 1], turn=2)
    set_vps(g, [34, 20, 33])
    g.act(1, {"type": "end_turn"})
    assert g.outcome()["winners"] == [0] and g.outcome()["decided_by"] == "vp"


def test_a_three_way_tie_without_the_overlord_and_equal_money_is_shared():
    g = game(4, seed=5)
    set_turn(g, [3, 0, 1, 2], turn=3)
    set_vps(g, [33, 33, 33, 20])
    for s in range(3):
        player(g, s, hand=[5], disks=2)
    g.act(2, {"type": "end_turn"})
    out = g.outcome()
    assert out["winners"] == [0, 1, 2] and out["decided_by"] == "shared"


# --- production cards (seed-P setup, 2c, 2d) ----------------------------------------------
def test_a_preset_card_discarded_at_2d_goes_back_to_the_box_not_to_the_discard_pile():
    g = game(2, seed=11, options={"preset_production": True})
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = []
    player(g, 0, hand=[], preset=1, disks=3, storehouses=1)  # 3 + 3 -> one more card: two in hand
    player(g, 1, hand=[], preset=0, disks=0)
    g.state["production_deck"][:2] = [4, 4]
    g.act(0, {"type": "end_turn"})
    assert g.to_act() == {0}
    g.act(0, {"type": "discard", "cards": [5]})
    assert g.state["players"][0]["preset"] == 0
    assert 5 not in g.state["discard_pile"]


def test_when_neither_deck_nor_discards_can_supply_a_card_it_is_paid_as_4_disks_then_trimmed():
    g = game(2, seed=11)
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = []
    for s in range(2):
        player(g, s, hand=[], disks=1)  # 3 + 1: one card each
    g.state["production_deck"], g.state["discard_pile"] = [5], []
    ev = g.act(0, {"type": "end_turn"})
    dealt = [e for e in ev if e["type"] == "production_dealt"]
    # A tie for the Overlord: seat 0 (left of seat 1) is dealt first and takes the last card.
    assert [(e["seat"], e["cards"], e["undealt"], e["disks"]) for e in dealt] == [(0, 1, 0, 0), (1, 0, 1, 4)]
    assert g.state["players"][1]["disks"] == 3  # 2d: a treasury of 3


def test_a_granary_treasury_takes_up_to_6_disks_and_all_of_them_count_in_2c():
    g = game(2, seed=11)
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = []
    player(g, 0, hand=[], disks=5, cards=["Granary"], storehouses=4)
    player(g, 1, hand=[], disks=0)
    ev = g.act(0, {"type": "end_turn"})
    assert not [e for e in ev if e["type"] == "limits_applied" and e["seat"] == 0]  # 5 of 6: kept
    p = g.state["players"][0]
    assert (len(p["hand"]), p["disks"]) == (2, 0)  # production 3 + 5 disks = 8: two cards


# --- repeated development cards (ours where the sources are silent: RULES.md) ---------------------
def test_a_second_granary_adds_storehouses_but_the_treasury_stays_6():
    g = game(2, seed=1)
    p = player(g, 0, cards=["Granary", "Granary"])
    assert treasury_capacity(p) == 6


def test_a_second_city_center_adds_three_more_vp_spaces():
    g = game(4, seed=1)
    set_turn(g, [0, 1, 2, 3])
    g.state["display"] = []
    p = player(g, 0, cards=["City Center", "City Center"], hand=[6, 6, 6, 6], disks=0, storehouses=4)
    p["tiles"] += [_new_tile("city_center"), _new_tile("city_center")]
    vp = player(g, 0)["vp"]
    for _ in range(4):
        g.act(0, {"type": "buy_vp", "cards": [6], "disks": 0})
    assert g.state["players"][0]["vp"] == vp + 4
    assert [t["slots"] for t in g.state["players"][0]["tiles"] if t["kind"] == "city_center"] == [
        ["t", "t", "t"], ["t", None, None]]


# --- workers and tools in special positions (seed-P 1b, 1c) ----------------------------------
def test_a_worker_employed_on_the_second_space_of_improved_hunting_produces_2():
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, hand=[6], disks=0, trained=1, cards=["Tracker"])
    prod = g.state["players"][0]["production"]
    g.act(0, {"type": "employ", "tableau": "hunting", "cards": [6], "disks": 0})
    assert g.state["players"][0]["production"] == prod + 2
    assert tile(g, 0, "hunting")["slots"][:2] == ["w", "w"]


def test_a_tool_bought_in_1c_waits_for_a_later_turn():
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, hand=[6], disks=3, trained=1)
    g.act(0, {"type": "buy_tool", "tableau": "hunting", "cards": [], "disks": 2})
    assert not [a for a in g.legal_actions(0) if a["type"] == "employ"]


def test_a_conversion_into_a_full_treasury_loses_the_whole_card():
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    player(g, 0, hand=[6], disks=3)
    ev = g.act(0, {"type": "convert", "card": 6})
    assert ev[0]["disks_gained"] == 0 and ev[0]["lost"] == 6
    assert [a["type"] for a in g.legal_actions(0)] == ["end_turn"]


def test_storehouses_from_clothmaking_workers_placed_this_turn_count_at_the_end_of_the_turn():
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, hand=[6, 6, 5], disks=0, trained=1, storehouses=3, cards=["Dye House"])
    g.state["players"][0]["tiles"].append(_new_tile("clothmaking"))
    tile(g, 0, "clothmaking")["slots"][0] = "t"  # a tool disk: the worker goes there for free
    g.act(0, {"type": "employ", "tableau": "clothmaking"})
    assert g.state["players"][0]["storehouses"] == 4
    ev = g.act(0, {"type": "end_turn"})
    assert types(ev) == ["turn_ended"]


def test_nobody_may_bid_past_what_he_could_pay_even_with_many_bidders():
    g = game(4, seed=3)
    set_turn(g, [0, 1, 2, 3])
    g.state["display"] = ["Caravan"]
    _rich(g, 4)
    player(g, 2, hand=[6], disks=3)  # 9: may bid 9 only
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    g.act(1, {"type": "drop_out"})
    assert [a["type"] for a in g.legal_actions(2)] == ["drop_out"]
    with pytest.raises(IllegalAction, match="cannot pay"):
        g.act(2, {"type": "bid", "amount": 10})


def test_a_second_prospector_brings_a_second_mining_tile():
    g = game(4, seed=1)
    set_turn(g, [1, 2, 3, 0], turn=3)  # seat 0 last: he wins his own auctions
    g.state["display"] = ["Prospector", "Prospector"]
    player(g, 0, hand=[6, 6], disks=3, storehouses=4)
    for _ in range(2):
        g.act(0, {"type": "open_auction", "card": "Prospector", "bid": 2})
        g.act(0, {"type": "pay", "cards": [], "disks": 2} if g.state["players"][0]["disks"] >= 2
              else {"type": "pay", "cards": [6], "disks": 0})
    mining = [t for t in g.state["players"][0]["tiles"] if t["kind"] == "mining"]
    assert len(mining) == 2 and all(len(t["slots"]) == data.TABLEAUS["mining"]["slots"] for t in mining)


def test_a_discount_is_not_used_up_it_applies_to_the_next_copy_too():
    g = game(4, seed=1)
    set_turn(g, [1, 2, 3, 0], turn=3)  # seat 0 last: he wins his own auctions
    g.state["display"] = ["Dye House", "Dye House"]
    player(g, 0, hand=[6, 6, 6], disks=0, storehouses=4, cards=["Dyer", "Dyer"])  # 7 off
    for _ in range(2):
        ev = g.act(0, {"type": "open_auction", "card": "Dye House", "bid": 14})
        assert ev[-1]["price"] == 7
        g.act(0, g.legal_actions(0)[0])
    assert g.state["players"][0]["cards"].count("Dye House") == 2
