"""Every intermediate state of a log is valid (issue 17 item 5): after ANY event, not
only at decision points, `to_act` is a set of seats (possibly empty: the game is running
an automatic step) and every seat's and the spectator's view fits the published view
schema. The API serves `?version=N` for any N."""

import random

import pytest
from tablero.engines.core import clone, testkit

from tablero import engines

from .helpers import ENGINE


def _random_log(seats, seed, version):
    g = engines.LocalGame(ENGINE, seats=seats, seed=seed)
    if version != ENGINE.version:
        g = engines.LocalGame(ENGINE, seed=seed, events=[dict(g.events[0], engine_version=version)])
    g.play_random(rng=random.Random(seed))
    return g.events


@pytest.mark.parametrize(("seats", "version"), [(2, 1), (5, 1), (2, 2), (5, 2), (2, 3), (3, 3), (4, 3), (5, 3)])
def test_every_version_of_a_game_has_a_valid_to_act_and_valid_views(seats, version):
    events = _random_log(seats, 40 + seats, version)
    state = None
    between = 0  # versions that are not decision points
    for n, e in enumerate(events, start=1):
        state = ENGINE.evolve(state, clone(e))
        to_act = ENGINE.to_act(state)
        assert isinstance(to_act, set) and all(isinstance(s, int) and 0 <= s < seats for s in to_act), (
            f"version {n} after {e['type']}: to_act {to_act!r}")
        between += not to_act and ENGINE.outcome(state) is None
        for viewer in [None, *range(seats)]:
            view = ENGINE.view(state, viewer)
            assert view["to_act"] == sorted(to_act)
            assert (view["awaiting"] is None) == (not to_act)
            if viewer == (None, *range(seats))[n % (seats + 1)]:  # the schema check, one viewer in turn
                errors = testkit.schema_errors(ENGINE.view_schema, view)
                assert not errors, f"version {n} after {e['type']}, viewer {viewer}: {errors[0].message[:200]}"
        for s in to_act:  # whoever must act can
            assert ENGINE.legal_actions(state, s), f"version {n}: seat {s} must act but has no action"
    assert between > 0  # the test does visit states inside one action's events


def test_a_won_auction_between_its_events_waits_for_nobody():
    """The state after the last bidder but one drops out, before `auction_won`: the
    v1 engine answered to_act [None] there."""
    events = _random_log(3, 8, 2)
    state = None
    seen = 0
    for i, e in enumerate(events):
        state = ENGINE.evolve(state, clone(e))
        if e["type"] == "dropped_out" and events[i + 1]["type"] == "auction_won":
            assert ENGINE.to_act(state) == set()
            assert ENGINE.view(state, 0)["awaiting"] is None
            seen += 1
    assert seen
