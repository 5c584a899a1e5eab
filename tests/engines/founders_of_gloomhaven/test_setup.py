"""Setup (facts B.2; the order and the numbered spaces are ours): the race resource is fixed, the
others are drafted, the starting trade stalls go on grey numbered spaces; 2-3 players leave two
neutral resources."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.founders_of_gloomhaven.board import board_of

from tablero import engines

from .helpers import RACES


def _g(seats):
    return engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=2, options={"races": RACES[:seats]})


def test_the_draft_runs_in_reverse_turn_order_and_snakes_with_two_players():
    g = _g(4)
    assert g.view(None)["phase"] == "draft" and g.to_act() == {3}
    assert [p["resources"] for p in g.state["players"]] == [["metal"], ["knowledge"], ["population"], ["wood"]]
    with pytest.raises(IllegalAction, match="not available"):
        g.act(3, {"type": "draft_resource", "resource": "metal"})
    for seat, res in ((3, "stone"), (2, "clay"), (1, "plant"), (0, "animals")):
        assert g.to_act() == {seat}
        g.act(seat, {"type": "draft_resource", "resource": res})
    assert g.state["neutral"] == [] and g.view(None)["phase"] == "setup_place"
    g2 = _g(2)
    order = []
    for res in ("stone", "clay", "plant", "animals"):
        (seat,) = g2.to_act()
        order.append(seat)
        g2.act(seat, {"type": "draft_resource", "resource": res})
    assert order == [1, 0, 0, 1]
    assert g2.state["neutral"] == ["population", "wood"]  # the two left are neutral
    assert [len(p["resources"]) for p in g2.state["players"]] == [3, 3]


def test_starting_stalls_go_on_free_grey_numbered_spaces_in_turn_order_then_play_begins():
    g = _g(3)
    for res in ("stone", "clay", "plant"):
        (seat,) = g.to_act()
        g.act(seat, {"type": "draft_resource", "resource": res})
    assert g.state["neutral"] == ["animals", "wood"]
    assert g.to_act() == {0}
    one, four = (board_of(g.state).number_cell[k] for k in (1, 4))  # spaces 1 (left) and 4 (middle)
    with pytest.raises(IllegalAction, match="grey numbered"):
        g.act(0, {"type": "place_start", "resource": "metal", "cell": 0})
    g.act(0, {"type": "place_start", "resource": "metal", "cell": one})
    with pytest.raises(IllegalAction, match="grey numbered"):
        g.act(0, {"type": "place_start", "resource": "plant", "cell": one})  # taken
    g.act(0, {"type": "place_start", "resource": "plant", "cell": four})
    assert g.to_act() == {1}
    while g.view(None)["phase"] == "setup_place":
        (seat,) = g.to_act()
        g.act(seat, g.legal_actions(seat)[0])
    assert g.view(None)["phase"] == "play" and g.to_act() == {0}
    assert sum(1 for t in g.state["tiles"] if t["kind"] == "stall") == 6


@pytest.mark.parametrize("seats,options,reason", [
    (2, {"solo_section": "right"}, "does not apply with several players"),
    (3, {"solo_section": "left"}, "does not apply with several players"),
    (1, {"solo_section": "middle", "map": "symmetric"}, "always of normal difficulty"),
    (1, {"no_workers": True}, "cannot be combined with the solo game"),
])
def test_options_that_would_change_nothing_are_refused(seats, options, reason):
    # An option the game would silently ignore is refused: the player learns it does not apply.
    with pytest.raises(engines.InvalidOptions, match=reason):
        engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=1, options=options)
    # the same game without it starts
    rest = {k: v for k, v in options.items() if k not in ("solo_section", "no_workers")}
    engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=1, options=rest)
