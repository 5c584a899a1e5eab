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
