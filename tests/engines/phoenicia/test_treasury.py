"""Rulebook 1c (treasury), 2c (production) and 2d (storage and treasury limits), with
the FAQ's rulings on when limits apply and when disks become cards."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.phoenicia.money import after_limits, income, payment_options

from .helpers import game, player, set_turn, types


def test_production_6_with_an_empty_treasury_is_1_card_and_2_disks():
    assert income(6, 0) == (1, 2)


def test_production_6_with_3_disks_is_2_cards_and_1_disk():
    assert income(6, 3) == (2, 1)


def test_four_or_more_disks_must_become_a_card_at_the_end_of_2c():
    # FAQ: "four or more", not "more than four" as printed.
    assert income(0, 4) == (1, 0)
    assert income(2, 6) == (2, 0)


def test_change_is_given_only_in_disks():
    assert ([6], 0) in payment_options([6], 0, 0, 4)  # pays 6 for 4: two disks back


def _last_turn(seats=2):
    """Seat 0 plays the last turn of the round (seat 1 was Overlord)."""
    g = game(seats, seed=11)
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = []
    return g


def test_ana_11_production_and_2_disks_gets_3_cards_and_1_disk_discards_a_4_and_refills_the_treasury():
    g = _last_turn()
    # Ana (seat 0): 11 production (hunter 1 + farmer 2 + Ships 4 + Caravan 2 + Glassmaking 1 + Smelter 1)
    ana = player(g, 0, hand=[], disks=2, storehouses=2, cards=["Ships", "Caravan", "Glassmaking", "Smelter"])
    assert ana["production"] == 11
    player(g, 1, hand=[], disks=0, storehouses=2)
    g.state["production_deck"][:4] = [4, 6, 5, 5]
    ev = g.act(0, {"type": "end_turn"})
    dealt = {e["seat"]: e for e in ev if e["type"] == "production_dealt"}
    assert (dealt[0]["cards"], dealt[0]["disks"]) == (3, 1)
    assert g.state["players"][0]["hand"] == [4, 5, 6]
    assert g.to_act() == {0}  # 2d: three cards, two storehouses
    assert g.legal_actions(0) == [{"type": "discard", "cards": [6]}, {"type": "discard", "cards": [5]},
                                  {"type": "discard", "cards": [4]}]
    ev = g.act(0, {"type": "discard", "cards": [4]})
    assert ev[0] == {"type": "limits_applied", "seat": 0, "discarded": [4], "disks": 3, "lost": 2}
    assert g.state["players"][0]["disks"] == 3  # two of the 4 refill the free spaces, two are lost
    assert types(ev)[-1] == "round_started"
    assert 4 in g.state["discard_pile"]


def test_refill_after_discarding_is_the_rulebook_arithmetic():
    assert after_limits(1, 3, 4) == (3, 2)
    assert after_limits(0, 6, 5) == (5, 0)
    assert after_limits(5, 3, 0) == (3, 2)


def test_voluntary_conversion_is_one_card_once_per_turn_and_overflow_is_lost():
    g = _last_turn()
    player(g, 0, hand=[4, 6], disks=1, storehouses=2)
    ev = g.act(0, {"type": "convert", "card": 6})
    assert ev[0]["disks_gained"] == 2 and ev[0]["lost"] == 4
    p = g.state["players"][0]
    assert (p["hand"], p["disks"]) == ([4], 3)
    assert not [a for a in g.legal_actions(0) if a["type"] == "convert"]
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "convert", "card": 4})


def test_granary_raises_the_treasury_to_6():
    g = _last_turn()
    player(g, 0, hand=[6], disks=0, cards=["Granary"])
    g.act(0, {"type": "convert", "card": 6})
    assert g.state["players"][0]["disks"] == 6
    assert g.view(1)["players"][0]["treasury_spaces"] == 6


def test_limits_are_applied_at_the_end_of_the_active_players_turn():
    g = game(2, seed=11)
    set_turn(g, [0, 1], turn=0)
    player(g, 0, hand=[4, 5, 6], disks=5, storehouses=2)
    ev = g.act(0, {"type": "end_turn"})
    assert types(ev) == ["discard_required"]
    assert g.to_act() == {0}
    ev = g.act(0, {"type": "discard", "cards": [5]})
    assert types(ev) == ["limits_applied", "turn_ended"]
    p = g.state["players"][0]
    assert (p["hand"], p["disks"]) == ([4, 6], 3)
    assert g.to_act() == {1}


def test_disks_over_the_treasury_are_lost_at_the_end_of_the_turn():
    g = game(2, seed=11)
    set_turn(g, [0, 1], turn=0)
    player(g, 0, hand=[], disks=5)
    ev = g.act(0, {"type": "end_turn"})
    assert ev[0] == {"type": "limits_applied", "seat": 0, "discarded": [], "disks": 3, "lost": 2}


def test_a_non_active_winner_keeps_extra_disks_until_2d():
    g = game(2, seed=11)
    set_turn(g, [0, 1], turn=0)
    g.state["display"] = ["Dyer"]
    player(g, 1, hand=[6], disks=3)
    g.act(0, {"type": "open_auction", "card": "Dyer", "bid": 2})
    g.act(1, {"type": "bid", "amount": 3})
    g.act(0, {"type": "drop_out"})
    g.act(1, {"type": "pay", "cards": [6], "disks": 0})
    assert g.state["players"][1]["disks"] == 6


def test_the_production_deck_is_reshuffled_from_the_discards_when_it_runs_out():
    g = _last_turn()
    player(g, 0, hand=[], disks=1)  # 3 production + 1 disk: one card each
    player(g, 1, hand=[], disks=1)
    g.state["production_deck"] = [5]
    g.state["discard_pile"] = [4, 4, 6]
    ev = g.act(0, {"type": "end_turn"})
    assert "production_reshuffled" in types(ev)
    resh = next(e for e in ev if e["type"] == "production_reshuffled")
    assert sorted(resh["secret"]["deck"]) == [4, 4, 6]
    assert "secret" not in g.event_view(resh, 0)
    assert g.state["discard_pile"] == []
    assert sum(len(p["hand"]) for p in g.state["players"]) == 2


@pytest.mark.parametrize(("disks", "cards", "rest"), [(0, 1, 2), (3, 2, 1)])
def test_production_6_is_dealt_as_cards_of_4_plus_disks_counting_the_treasury(disks, cards, rest):
    g = _last_turn()
    # 6 production: hunter 1 + farmer 2 + a second farmer 2 + Glassmaking 1
    g.state["players"][0]["tiles"][1]["slots"][1] = "w"
    p = player(g, 0, hand=[], disks=disks, storehouses=3, cards=["Glassmaking"])
    assert p["production"] == 6
    ev = g.act(0, {"type": "end_turn"})
    mine = next(e for e in ev if e["type"] == "production_dealt" and e["seat"] == 0)
    assert (mine["cards"], mine["disks"]) == (cards, rest)
    assert (len(g.state["players"][0]["hand"]), g.state["players"][0]["disks"]) == (cards, rest)


def test_production_is_dealt_in_turn_order_from_the_new_overlord():
    g = game(3, seed=2)
    set_turn(g, [0, 1, 2], turn=2)
    for s in range(3):
        player(g, s, hand=[], disks=1)  # 3 + 1: one card each
    g.state["players"][1]["tiles"].append({"kind": "city_center", "slots": ["t"]})  # seat 1 leads
    player(g, 1)
    g.state["production_deck"][:3] = [4, 5, 6]
    ev = g.act(2, {"type": "end_turn"})
    assert [e["seat"] for e in ev if e["type"] == "production_dealt"] == [1, 2, 0]
    assert [g.state["players"][s]["hand"] for s in (1, 2, 0)] == [[4], [5], [6]]


def test_payment_options_leave_out_superfluous_cards_and_disks():
    opts = payment_options([4, 4, 6], 0, 2, 7)
    assert ([4, 4], 0) in opts and ([6], 1) in opts
    assert ([6, 4], 0) in opts  # both needed: without either, less than 7
    assert ([6, 4, 4], 0) not in opts
    assert all(sum(c) + d >= 7 for c, d in opts)
    assert payment_options([5], 1, 0, 5) == [([5], 0)]
