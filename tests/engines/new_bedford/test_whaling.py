"""Rulebook p.8 (Fase de Balleneo): the bag, the draw and the picks."""

import pytest
from tablero.engines.core import IllegalAction

from .helpers import at_sea, finish_action_phase, game, give, on_dock, own, place, player, set_bag, types


def test_no_tokens_are_drawn_when_no_ship_is_at_sea():
    g = game()
    evs = finish_action_phase(g)
    drawn = [e for e in evs if e["type"] == "whales_drawn"][0]
    assert sum(drawn["drawn"].values()) == 0
    assert g.state["bag"] == {"right": 18, "bowhead": 10, "sperm": 2, "empty": 8}


def test_one_token_plus_one_per_ship_at_sea_is_drawn():
    g = game(seats=3)
    at_sea(g, 0, 1, 3)
    at_sea(g, 1, 1, 5)
    finish_action_phase(g)
    assert sum(g.state["sea_tokens"].values()) == 3
    assert sum(g.state["bag"].values()) == 3 * 19 - 3


def test_ships_pick_farthest_from_return_first_then_by_rank():
    g = game(seats=3)
    at_sea(g, 2, 1, 3)
    at_sea(g, 1, 1, 3)
    at_sea(g, 0, 2, 2)
    at_sea(g, 0, 1, 6)
    set_bag(g, right=9)
    finish_action_phase(g)
    # After movement: seat 0 Ship 1 on 5; seats 2 and 1 on 2 (ranks kept); seat 0 Ship 2 on 1.
    assert g.state["picks"] == [[0, 1], [2, 1], [1, 1], [0, 2]]
    order = []
    while g.state["phase"] == "whaling":
        (seat,) = g.to_act()
        order.append((seat, g.state["picks"][0][1]))
        g.act(seat, {"type": "pick_whale", "kind": "right"})
    assert order == [(0, 1), (2, 1), (1, 1), (0, 2)]
    assert g.state["sea_tokens"]["right"] == 1


def test_a_pick_is_optional():
    g = game()
    at_sea(g, 0, 1, 4)
    set_bag(g, sperm=2)
    finish_action_phase(g)
    assert g.legal_actions(0) == [{"type": "pick_whale", "kind": "sperm"}, {"type": "pass"}]
    g.act(0, {"type": "pass"})
    assert player(g, 0)["ships"][0]["hold"]["sperm"] == 0
    assert g.state["round"] == 2


def test_each_ship_takes_at_most_one_token_into_its_own_hold():
    g = game()
    at_sea(g, 0, 1, 4)
    at_sea(g, 0, 2, 5)
    set_bag(g, bowhead=1, right=2)
    finish_action_phase(g)
    g.act(0, {"type": "pick_whale", "kind": "bowhead"})  # Ship 2 is farther out
    assert player(g, 0)["ships"][1]["hold"]["bowhead"] == 1
    assert g.state["picks"] == [[0, 1]]
    g.act(0, {"type": "pick_whale", "kind": "right"})
    assert player(g, 0)["ships"][0]["hold"]["right"] == 1
    assert g.state["phase"] == "actions"


def test_empty_sea_tokens_can_never_be_picked():
    g = game()
    at_sea(g, 0, 1, 4)
    set_bag(g, empty=1, right=1)
    finish_action_phase(g)
    assert {"type": "pick_whale", "kind": "empty"} not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="Empty Sea"):
        g.act(0, {"type": "pick_whale", "kind": "empty"})


def test_picks_are_skipped_when_only_empty_sea_was_drawn():
    g = game()
    at_sea(g, 0, 1, 4)
    set_bag(g, empty=5)
    evs = finish_action_phase(g)
    assert types(evs)[-2:] == ["whales_drawn", "round_ended"]
    assert g.state["sea_tokens"]["empty"] == 2


def test_unpicked_tokens_stay_out_until_the_next_whaling_phase_then_go_back_in_the_bag():
    g = game()
    at_sea(g, 0, 1, 5)
    set_bag(g, right=1, empty=1)
    finish_action_phase(g)
    g.act(0, {"type": "pass"})
    assert g.state["sea_tokens"] == {"right": 1, "bowhead": 0, "sperm": 0, "empty": 1}
    assert sum(g.state["bag"].values()) == 0
    evs = finish_action_phase(g)
    drawn = [e for e in evs if e["type"] == "whales_drawn"][0]
    assert drawn["returned_to_bag"] == {"right": 1, "bowhead": 0, "sperm": 0, "empty": 1}
    assert sum(drawn["drawn"].values()) == 2


def test_taken_whales_leave_the_bag_for_good_so_the_ocean_empties():
    g = game()
    at_sea(g, 0, 1, 5)
    set_bag(g, sperm=1, empty=3)
    finish_action_phase(g)
    if g.state["sea_tokens"]["sperm"]:
        g.act(0, {"type": "pick_whale", "kind": "sperm"})
        assert g.state["bag"]["sperm"] + g.state["sea_tokens"]["sperm"] == 0


def test_the_draw_takes_what_is_left_when_the_bag_runs_short():
    g = game(seats=3)
    for seat in range(3):
        at_sea(g, seat, 1, 4)
        at_sea(g, seat, 2, 5)
    set_bag(g, right=2)
    finish_action_phase(g)
    assert g.state["sea_tokens"]["right"] == 2 and sum(g.state["bag"].values()) == 0


def test_the_draw_is_a_chance_outcome_written_into_the_event():
    g = game(seats=2, seed=5)
    at_sea(g, 0, 1, 4)
    evs = finish_action_phase(g)
    drawn = [e for e in evs if e["type"] == "whales_drawn"][0]["drawn"]
    assert sum(drawn.values()) == 2
    assert {k: v for k, v in g.state["sea_tokens"].items() if v} == {k: v for k, v in drawn.items() if v}


def test_tavern_sees_the_empty_sea_tokens_of_the_last_whaling_phase():
    g = game()
    own(g, 1, "tavern")
    at_sea(g, 0, 1, 5)
    set_bag(g, empty=2)
    finish_action_phase(g)
    assert g.state["sea_tokens"]["empty"] == 2
    assert g.to_act() == {1}  # round 2: the Ship's Wheel passed to seat 1
    place(g, 1, "tavern", remove=2)
    assert g.state["out_of_game"]["empty"] == 2


def _launch_and_sail_home(to):
    """Seat 0 launches Ship 1 to space `to` in round 1, then every ship always takes the
    first drawn whale; returns how many whaling phases the ship took part in."""
    g = game(seats=2)
    on_dock(g, 0, 1)
    give(g, 0, food=6, money=100)
    set_bag(g, right=30)
    place(g, 0, "city_pier", ship=1, to=to)
    whalings = 0
    while player(g, 0)["ships"][0]["at"] != "home":
        if g.state["phase"] == "actions":
            finish_action_phase(g)
        elif g.state["phase"] == "whaling":
            whalings += 1
            g.act(0, {"type": "pick_whale", "kind": "right"})
        else:
            (seat,) = g.to_act()
            hold = player(g, seat)["ships"][0]["hold"]
            g.act(seat, {"type": "return_ship", "pay": dict(hold), "sell": {k: 0 for k in hold}})
    return whalings, player(g, 0)["returned"]["right"]


def test_a_ship_launched_to_space_1_returns_in_the_same_round_before_any_whaling():
    # Rulebook p.4/p.7/p.8: actions, then movement (every ship one space toward Return),
    # then whaling. A ship on space 1 reaches Return in the movement of its own round.
    assert _launch_and_sail_home(1) == (0, 0)


@pytest.mark.parametrize("to", [2, 3, 6])
def test_a_ship_launched_to_space_n_takes_part_in_n_minus_1_whaling_phases(to):
    assert _launch_and_sail_home(to) == (to - 1, to - 1)
