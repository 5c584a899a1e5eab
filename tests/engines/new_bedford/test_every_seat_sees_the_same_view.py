"""FAQ 1 (000_d80ea33544e097da.txt line 817) and p.3 ("Toda la información es pública"): nothing
in New Bedford is hidden, so every seat and a spectator get the same view and the same events,
at every step of a whole game, with and without Captains; and no view carries anything a table
does not show (no random state, no future draw or roll)."""

import random

import pytest
from tablero.engines.core import LocalGame, canonical_json

from .helpers import ENGINE


@pytest.mark.parametrize(("seats", "options"), [(3, {}), (2, {"captains": ["ahab"]})])
def test_every_seat_and_a_spectator_see_the_same_view_and_events(seats, options):
    g = LocalGame(ENGINE, seats=seats, seed=3, options=options)
    rng = random.Random(3)
    viewers = [*range(seats), None]
    while g.outcome() is None:
        views = [ENGINE.view(g.state, s) for s in viewers]
        assert [v.pop("viewer") for v in views] == viewers
        assert len({canonical_json(v) for v in views}) == 1
        assert not {"rng", "seed", "random"} & set(views[0])
        assert len({canonical_json(ENGINE.event_view(g.events[-1], s)) for s in viewers}) == 1
        (seat,) = g.to_act()
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
