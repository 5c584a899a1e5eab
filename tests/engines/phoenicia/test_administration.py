"""Rulebook 2a-2b and the end: the 32-VP check, the new Overlord, the display refill,
both tie-breaks, and our end rule for an exhausted game."""

import json

from tablero.engines.phoenicia.engine import Phoenicia, dead_end, max_wealth

from .helpers import game, player, set_turn, set_vps, types


def test_the_new_overlord_has_the_most_vp():
    g = game(4, seed=2)
    g.state["overlord"] = 0
    set_vps(g, [5, 9, 7, 3])
    assert Phoenicia.next_overlord(g.state) == 1


def test_an_overlord_tie_goes_to_the_tied_player_furthest_left_of_the_previous_overlord():
    g = game(4, seed=2)
    g.state["overlord"] = 2
    set_vps(g, [9, 9, 4, 4])
    assert Phoenicia.next_overlord(g.state) == 0  # clockwise from seat 2: 3, 0, 1
    g.state["overlord"] = 0
    set_vps(g, [9, 4, 4, 9])
    assert Phoenicia.next_overlord(g.state) == 3
    set_vps(g, [9, 4, 4, 4])
    assert Phoenicia.next_overlord(g.state) == 0  # alone at the top, he stays


def test_display_is_refilled_to_one_card_per_player_and_the_overlord_changes():
    g = game(3, seed=5)
    set_turn(g, [1, 2, 0], turn=2)
    g.state["display"] = ["Dyer"]
    top = g.state["deck"][:2]
    set_vps(g, [2, 2, 6])
    for s in range(3):
        player(g, s, hand=[], disks=0)
    ev = g.act(0, {"type": "end_turn"})
    refill = next(e for e in ev if e["type"] == "display_refilled")
    assert refill["cards"] == top
    assert g.state["display"] == ["Dyer", *top]
    assert g.state["overlord"] == 2
    assert g.state["order"] == [2, 0, 1] and g.to_act() == {2}


def test_the_game_ends_in_2a_when_someone_has_32_vp_most_vp_wins():
    g = game(3, seed=5)
    set_turn(g, [1, 2, 0], turn=2)
    set_vps(g, [20, 33, 35])
    ev = g.act(0, {"type": "end_turn"})
    assert types(ev)[-1] == "game_ended"
    out = g.outcome()
    assert out["winners"] == [2] and out["scores"] == [20, 33, 35]
    assert out["details"][2]["vp"] == 35 and "production" in out["details"][2]
    assert g.to_act() == set()


def test_32_vp_during_the_turns_does_not_end_the_game_before_administration():
    g = game(3, seed=5)
    set_turn(g, [0, 1, 2], turn=0)
    set_vps(g, [33, 2, 2])
    g.act(0, {"type": "end_turn"})
    assert g.outcome() is None and g.to_act() == {1}


def test_a_tie_at_the_end_goes_to_the_overlord_of_the_last_round():
    g = game(3, seed=5)
    set_turn(g, [1, 2, 0], turn=2)
    set_vps(g, [32, 34, 34])
    player(g, 2, hand=[6, 6], disks=3)
    player(g, 1, hand=[], disks=0)
    g.act(0, {"type": "end_turn"})
    assert g.outcome()["winners"] == [1]
    assert g.outcome()["details"][1]["last_overlord"] is True
    assert g.outcome()["decided_by"] == "last_overlord"


def test_a_tie_without_the_overlord_goes_to_the_most_disks_and_production_cards():
    g = game(3, seed=5)
    set_turn(g, [0, 1, 2], turn=2)
    set_vps(g, [20, 34, 34])
    player(g, 1, hand=[4], disks=3)
    player(g, 2, hand=[5], disks=3)
    g.act(2, {"type": "end_turn"})
    out = g.outcome()
    assert out["winners"] == [2]
    assert [d["money"] for d in out["details"]][1:] == [7, 8]
    assert out["decided_by"] == "money"
    assert [d["tie_break"]["production_card_value"] for d in out["details"]][1:] == [4, 5]


def _idle_rounds(g, rounds):
    """Everybody ends his turn at once (and discards the first option) for `rounds` rounds."""
    start = g.state["round"]
    while g.outcome() is None and g.state["round"] < start + rounds:
        for s in sorted(g.to_act()):
            acts = g.legal_actions(s)
            g.act(s, next((a for a in acts if a["type"] == "end_turn"), acts[0]))


def _frozen_village(g, seat):
    """Every work tableau full, no spare workers, no City Center: no VP from workers."""
    p = g.state["players"][seat]
    for t in p["tiles"]:
        t["slots"] = ["w"] * len(t["slots"])
    player(g, seat, untrained=0, trained=0)


def test_an_exhausted_game_ends_only_when_no_vp_can_ever_change_again():
    # Our edition, a safety net: deck and display empty, every village frozen -> nobody can
    # ever reach 32, so the game ends at 2a with the rulebook's ranking and tie-breaks.
    g = game(2, seed=3)
    g.state["deck"], g.state["display"] = [], []
    for s in range(2):
        _frozen_village(g, s)
    assert dead_end(g.state)
    set_turn(g, [0, 1], turn=1)
    ev = g.act(1, {"type": "end_turn"})
    assert ev[-1]["type"] == "game_ended" and ev[-1]["reason"] == "exhausted"
    assert g.outcome()["reason"] == "exhausted"
    assert g.outcome()["winners"] == [0]  # 12 VP each: tie-break 1, the last round's Overlord


def test_a_normal_game_is_never_cut_short_while_a_card_on_display_could_still_be_paid():
    # The player saving up for City Walls (20) with 3 storehouses (3 x 6 + 3 = 21 at most)
    # keeps the game alive however long nothing public happens.
    g = game(2, seed=3)
    g.state["deck"], g.state["display"] = [], ["City Walls"]
    for s in range(2):
        _frozen_village(g, s)
    player(g, 0, storehouses=3)
    assert max_wealth(g.state["players"][0]) == 21
    assert not dead_end(g.state)
    _idle_rounds(g, 12)
    assert g.outcome() is None
    # With 2 storehouses (at most 15) nobody could ever pay it: then the game is exhausted.
    player(g, 0, storehouses=2)
    assert dead_end(g.state)


def test_a_normal_game_is_never_cut_short_while_a_worker_can_still_be_placed_or_moved_or_vp_bought():
    g = game(2, seed=3)
    g.state["deck"], g.state["display"] = [], []
    for s in range(2):
        _frozen_village(g, s)
    assert dead_end(g.state)
    cases = {
        "spare worker and a free space": lambda p: (p.update(untrained=1), p["tiles"][0]["slots"].__setitem__(5, None)),
        "trained worker and a tool disk": lambda p: (p.update(trained=1), p["tiles"][0]["slots"].__setitem__(5, "t")),
        "a hunter and a free farming space": lambda p: p["tiles"][1]["slots"].__setitem__(5, None),
        "a City Center space": lambda p: p["tiles"].append({"kind": "city_center", "slots": ["t", None, None]}),
    }
    for what, change in cases.items():
        g2 = game(2, seed=3)
        g2.state = json.loads(json.dumps(g.state))
        change(g2.state["players"][1])
        assert not dead_end(g2.state), what


def test_a_full_display_nobody_can_ever_pay_stops_the_deck_so_the_game_is_exhausted():
    g = game(2, seed=3)
    assert g.state["deck"]
    g.state["display"] = ["City Walls", "City Walls"]
    for s in range(2):
        _frozen_village(g, s)
    assert dead_end(g.state)
    g.state["display"] = ["City Walls"]  # 2b would turn up a new card
    assert not dead_end(g.state)


def test_granaries_and_forts_may_come_up_in_the_display_from_round_2_on():
    g = game(2, seed=5)
    set_turn(g, [0, 1], turn=1)
    g.state["display"] = []
    g.state["deck"][:2] = ["Granary", "Fort"]
    g.act(1, {"type": "end_turn"})
    while g.state["phase"] == "limits":
        s = min(g.to_act())
        g.act(s, g.legal_actions(s)[0])
    assert g.state["display"] == ["Granary", "Fort"] and g.state["round"] == 2


def test_administration_runs_2a_overlord_2b_refill_2c_production_2d_limits_in_that_order():
    g = game(3, seed=5)
    set_turn(g, [1, 2, 0], turn=2)
    g.state["display"] = ["Dyer"]
    for s in range(3):
        player(g, s, hand=[5, 5], disks=3, storehouses=2)  # 3 + 3 -> one more card: one too many
    ev = g.act(0, {"type": "end_turn"})
    assert types(ev) == ["turn_ended", "overlord_changed", "display_refilled", "production_dealt",
                         "production_dealt", "production_dealt", "discard_required"]
    for s in (0, 1, 2):
        g.act(s, g.legal_actions(s)[0])
    assert types(g.events[-1:]) == ["round_started"]
