"""The core's checks before decide(): a malformed action is refused as malformed (400) whoever
sends it and whenever, before the turn (409) and game-over checks."""

from __future__ import annotations

import pytest
from tablero.engines import IllegalAction, InvalidAction

from tablero import engines


@pytest.mark.parametrize("action,reason", [
    ({"type": "nonsense"}, "unknown action type"),
    ({"type": "place", "cell": "x"}, "must be an integer"),
    ({"type": "place"}, "cell"),
])
def test_a_malformed_action_out_of_turn_is_refused_as_malformed(action, reason):
    g = engines.LocalGame("tic-tac-toe", seats=2, seed=1)
    (on_turn,) = g.to_act()
    with pytest.raises(InvalidAction, match=reason):
        g.act(1 - on_turn, action)
    with pytest.raises(IllegalAction, match="may not act now"):  # well formed, out of turn
        g.act(1 - on_turn, {"type": "place", "cell": 0})


@pytest.mark.parametrize("cell,said", [
    (1e300, r"field 'cell' is out of range \(1e\+300\); it must be from 0 to 8"),  # whole, too large to be an int
    (-1e20, r"is out of range \(-1e\+20\)"),
    (4.5, r"field 'cell' must be an integer"),  # a fraction is not an integer
])
def test_a_whole_number_too_large_is_out_of_range_not_a_fraction(cell, said):
    """Found by an outside acceptance pass: `"cell": 1e300` was "must be an integer" (it is one;
    the API reads whole numbers up to 2**53 as integers, and this one is out of the board)."""
    g = engines.LocalGame("tic-tac-toe", seats=2, seed=1)
    (on_turn,) = g.to_act()
    with pytest.raises(InvalidAction, match=said):
        g.act(on_turn, {"type": "place", "cell": cell})


def test_an_unknown_option_is_worded_once():
    from tablero.engines.core.local import InvalidOptions

    with pytest.raises(InvalidOptions) as e:
        engines.LocalGame("tic-tac-toe", seats=2, seed=1, options={"cardz": 1})
    assert str(e.value).startswith("invalid options: ") and "options options" not in str(e.value), str(e.value)
