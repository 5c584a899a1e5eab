"""Rulebook 1a: auctions of development cards, payment, change and discounts."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.phoenicia import data
from tablero.engines.phoenicia.engine import discount

from .helpers import game, player, set_turn, types


def _three(display=("Caravan", "Dye House", "Ships")):
    g = game(3, seed=4)
    set_turn(g, [0, 1, 2])
    g.state["display"] = list(display)
    for s in range(3):
        player(g, s, hand=[6, 6], disks=3, storehouses=4)
    return g


def test_opening_bid_must_reach_the_printed_minimum():
    g = _three()
    with pytest.raises(IllegalAction, match="minimum bid"):
        g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 8})
    assert {"type": "open_auction", "card": "Caravan", "bid": 9} in g.legal_actions(0)
    assert {"type": "open_auction", "card": "Caravan", "bid": 8} not in g.legal_actions(0)


def test_you_cannot_bid_more_than_you_can_pay():
    g = _three()
    assert max(a["bid"] for a in g.legal_actions(0) if a["type"] == "open_auction") == 15
    with pytest.raises(IllegalAction, match="cannot pay"):
        g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 16})


def test_bidding_goes_clockwise_and_to_act_names_the_bidder():
    g = _three()
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert g.to_act() == {1}
    g.act(1, {"type": "bid", "amount": 10})
    assert g.to_act() == {2}
    g.act(2, {"type": "drop_out"})
    assert g.to_act() == {0}
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "bid", "amount": 10})
    ev = g.act(0, {"type": "drop_out"})
    assert types(ev) == ["dropped_out", "auction_won"]
    assert ev[-1]["seat"] == 1 and ev[-1]["price"] == 10
    assert g.to_act() == {1}  # the winner chooses how to pay


def test_a_player_who_dropped_out_does_not_come_back():
    g = _three()
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    g.act(1, {"type": "drop_out"})
    g.act(2, {"type": "bid", "amount": 10})
    assert g.to_act() == {0}
    g.act(0, {"type": "bid", "amount": 11})
    assert g.to_act() == {2}  # seat 1 is out for good


def test_players_whose_turn_is_over_take_no_part_in_later_auctions():
    g = _three()
    set_turn(g, [2, 0, 1], turn=1)  # seat 2 already played this round
    g.state["display"] = ["Caravan", "Ships"]
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert g.state["auction"]["bidders"] == [0, 1]


def test_the_last_player_of_the_round_wins_his_own_auction_at_his_bid():
    g = _three()
    set_turn(g, [1, 2, 0], turn=2)
    ev = g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert types(ev) == ["auction_opened", "auction_won"]
    assert ev[-1]["price"] == 9


def test_the_winner_pays_with_cards_and_disks_and_takes_change_in_disks():
    g = _three()
    set_turn(g, [1, 2, 0], turn=2)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    pays = g.legal_actions(0)
    assert {"type": "pay", "cards": [6, 6], "disks": 0} in pays
    assert {"type": "pay", "cards": [6], "disks": 3} in pays
    ev = g.act(0, {"type": "pay", "cards": [6, 6], "disks": 0})
    assert ev[-1]["type"] == "development_bought" and ev[-1]["change"] == 3
    p = g.state["players"][0]
    assert p["hand"] == [] and p["disks"] == 6  # 3 + 3 change; the limit waits for the end of 1c
    assert g.state["discard_pile"] == [6, 6]
    # Caravan: +2 production, +1 VP, +1 storehouse; the card leaves the display unreplaced
    assert (p["production"], p["vp"], p["storehouses"]) == (5, 3, 5)
    assert g.state["display"] == ["Dye House", "Ships"]


def test_no_card_or_disk_may_be_handed_over_when_it_is_not_needed():
    g = _three()
    set_turn(g, [1, 2, 0], turn=2)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    with pytest.raises(IllegalAction, match="not needed"):
        g.act(0, {"type": "pay", "cards": [6, 6], "disks": 1})


def test_the_active_player_may_open_several_auctions_in_his_turn():
    g = _three()
    set_turn(g, [1, 2, 0], turn=2)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    g.act(0, {"type": "pay", "cards": [6], "disks": 3})
    assert any(a["type"] == "open_auction" and a["card"] == "Dye House" for a in g.legal_actions(0)) is False
    player(g, 0, hand=[6, 6, 6], disks=0)
    g.act(0, {"type": "open_auction", "card": "Ships", "bid": 14})
    assert g.state["players"][0]["cards"] == ["Caravan"]
    assert g.state["payment"]["card"] == "Ships"


def test_two_dyers_give_7_off_the_dye_house_and_three_give_9_only_the_largest_counts():
    g = _three()
    p = player(g, 0, cards=["Dyer"])
    assert discount(p, "Dye House") == data.DISCOUNTS[0]["amounts"][0]
    p = player(g, 0, cards=["Dyer", "Dyer"])
    assert discount(p, "Dye House") == 7
    p = player(g, 0, cards=["Dyer", "Dyer", "Dyer"])
    assert discount(p, "Dye House") == 9  # not 4 + 7 + 9
    assert discount(p, "Ships") == 0


def test_discount_lowers_the_price_paid_not_the_bid_and_raises_what_you_may_bid():
    g = _three()
    set_turn(g, [1, 2, 0], turn=2)
    player(g, 0, cards=["Dyer", "Dyer", "Dyer"], hand=[], disks=5)
    assert max(a["bid"] for a in g.legal_actions(0) if a.get("card") == "Dye House") == 14
    ev = g.act(0, {"type": "open_auction", "card": "Dye House", "bid": 14})
    assert ev[-1]["discount"] == 9 and ev[-1]["price"] == 5
    g.act(0, {"type": "pay", "cards": [], "disks": 5})
    p = g.state["players"][0]
    assert p["disks"] == 0 and "Dye House" in p["cards"]
    assert [t["kind"] for t in p["tiles"]] == ["hunting", "farming", "clothmaking"]


def test_discounts_from_different_rows_do_not_add_up():
    g = _three()
    p = player(g, 0, cards=["Shipyard", "Dyer"])
    assert discount(p, "Ships") == data.DISCOUNTS[4]["amounts"][0]


def test_fort_gives_three_untrained_workers_and_indentured_worker_a_trained_one():
    g = _three(("Fort", "Indentured Worker", "Ships"))
    set_turn(g, [1, 2, 0], turn=2)
    player(g, 0, hand=[6, 6, 6, 6])
    g.act(0, {"type": "open_auction", "card": "Fort", "bid": 7})
    g.act(0, {"type": "pay", "cards": [6], "disks": 1})
    g.act(0, {"type": "open_auction", "card": "Indentured Worker", "bid": 3})
    g.act(0, {"type": "pay", "cards": [6], "disks": 0})
    p = g.state["players"][0]
    assert (p["untrained"], p["trained"]) == (4, 1)


def test_only_the_active_player_opens_auctions_and_only_in_his_step_1a():
    g = _three()
    assert not g.legal_actions(1)
    with pytest.raises(IllegalAction):
        g.act(1, {"type": "open_auction", "card": "Caravan", "bid": 9})
    g.act(0, {"type": "train", "cards": [], "disks": 2})  # on to 1b
    assert not [a for a in g.legal_actions(0) if a["type"] == "open_auction"]
    with pytest.raises(IllegalAction, match="auctions come first"):
        g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})


def test_a_bidder_out_of_turn_may_only_raise_or_drop_out():
    g = _three()
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert {a["type"] for a in g.legal_actions(1)} == {"bid", "drop_out"}
    with pytest.raises(IllegalAction):
        g.act(1, {"type": "convert", "card": 6})


def test_a_bidder_who_cannot_raise_must_still_say_drop_out_himself():
    # His hand stays secret: nobody learns that he could not have raised.
    g = _three()
    player(g, 1, hand=[], disks=3)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert g.to_act() == {1}
    assert g.legal_actions(1) == [{"type": "drop_out"}]


def test_the_winners_own_discount_applies_whoever_opened_the_auction():
    g = _three(("Smelter", "Ships", "Caravan"))
    player(g, 1, cards=["Prospector", "Prospector"])
    g.act(0, {"type": "open_auction", "card": "Smelter", "bid": 6})
    g.act(1, {"type": "bid", "amount": 7})
    g.act(2, {"type": "drop_out"})
    ev = g.act(0, {"type": "drop_out"})
    won = ev[-1]
    assert (won["seat"], won["bid"], won["discount"], won["price"]) == (1, 7, 4, 3)
    assert data.DISCOUNTS[1]["holder"] == "Prospector" and data.DISCOUNTS[1]["amounts"][1] == 4
