"""FAQ 1 (000_d80ea33544e097da.txt line 817) and p.3 ("Toda la información es pública"): nothing
in New Bedford is hidden, so every seat and a spectator get the same view and the same events,
at every step of a whole game, with and without Captains, at every number of seats; and no view
carries anything a table does not show (no random state, no future draw or roll).

Every event is checked, not only the last one of each decision: a decision that runs Captain
turns, returns, sales or the whaling draw makes several events, and each reaches the log."""

import random

import pytest
from tablero.engines.core import LocalGame, canonical_json

from .helpers import ENGINE

# The inner loop keeps four short games; the others (whole games of a heavy engine, seconds
# each: tests/markers.py) run with the slow tests.
_SLOW = pytest.mark.slow
CASES = [
    pytest.param(1, {}, id="1p-starbuck"),  # solo against Starbuck (the default Captain)
    pytest.param(1, {"captains": ["stubb", "flask", "ahab"], "expert": True}, id="1p-stubb-flask-ahab", marks=_SLOW),
    pytest.param(2, {}, id="2p-none"),
    pytest.param(2, {"captains": ["starbuck", "flask"]}, id="2p-starbuck-flask", marks=_SLOW),
    pytest.param(3, {}, id="3p-none", marks=_SLOW),
    pytest.param(3, {"captains": ["ahab"]}, id="3p-ahab"),
    pytest.param(4, {}, id="4p-none"),
]


def _no_random_state(view: dict) -> None:
    assert not {"rng", "seed", "random"} & set(view)
    text = canonical_json(view)
    assert '"rng"' not in text and '"seed"' not in text


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_every_seat_and_a_spectator_see_the_same_view_and_events(seats, options):
    g = LocalGame(ENGINE, seats=seats, seed=3 + seats, options=options)
    rng = random.Random(3 + seats)
    viewers = [*range(seats), None]
    checked = 0
    while True:
        views = [ENGINE.view(g.state, s) for s in viewers]
        assert [v.pop("viewer") for v in views] == viewers
        assert len({canonical_json(v) for v in views}) == 1
        _no_random_state(views[0])
        for e in g.events[checked:]:
            redacted = [ENGINE.event_view(e, s) for s in viewers]
            assert len({canonical_json(r) for r in redacted}) == 1, e["type"]
            assert "secret" not in redacted[0] and "private" not in redacted[0], e["type"]
        checked = len(g.events)
        if g.outcome() is not None:
            break
        (seat,) = g.to_act()
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    assert checked == len(g.events) and g.outcome() is not None
