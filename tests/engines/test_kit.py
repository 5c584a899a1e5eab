"""Every registered engine through the generic kit, for every seat count (the heavy engines' random
playthroughs are in files of their own, test_kit_<engine>.py, so that the parallel suite spreads
them over its workers)."""

import pathlib
import random

import pytest
from tablero.engines.core import testkit

from tablero import engines

from .kit_cases import HEAVY, cases, play


@pytest.mark.parametrize(("name", "seats", "seed"), list(cases(*(n for n in engines.names() if n not in HEAVY))))
def test_random_playthrough_replays_and_hides(name, seats, seed):
    play(name, seats, seed)


def test_every_heavy_engine_has_its_playthrough_file():
    files = [p.read_text() for p in pathlib.Path(__file__).parent.glob("test_kit_*.py")]
    for name in HEAVY:
        assert sum(f'cases("{name}")' in text for text in files) == 1, name


@pytest.mark.parametrize(
    ("name", "seats"),
    [(n, s) for n in engines.names() for s in range(engines.get(n).min_seats, engines.get(n).max_seats + 1)],
)
def test_bad_actions_are_rejected_without_change(name, seats):
    testkit.check_rejections(engines.get(name), seats, seed=seats * 31)


@pytest.mark.parametrize("name", engines.names())
def test_engine_metadata(name):
    e = engines.get(name)
    assert e.name == name and e.title
    assert 1 <= e.min_seats <= e.max_seats
    assert isinstance(e.version, int) and e.version >= 1
    assert e.options_schema.get("type") == "object"
    g = engines.LocalGame(name, seats=e.min_seats, seed=1)
    assert g.events[0]["engine"] == name and g.events[0]["engine_version"] == e.version


@pytest.mark.parametrize("name", engines.names())
def test_bad_seat_counts_and_options_are_refused(name):
    e = engines.get(name)
    for seats in (e.min_seats - 1, e.max_seats + 1, "2"):
        with pytest.raises(engines.InvalidOptions):
            engines.LocalGame(name, seats=seats, seed=1)
    with pytest.raises(engines.InvalidOptions):
        engines.LocalGame(name, seats=e.min_seats, seed=1, options={"no_such_option_xyz": 1})


def test_unknown_engine():
    with pytest.raises(engines.UnknownEngine):
        engines.get("chess-9000")
    with pytest.raises(engines.UnknownEngine):
        engines.replay([{"type": "game_started", "engine": "chess-9000", "engine_version": 1}])


def test_old_log_version_is_refused():
    g = engines.LocalGame("tic-tac-toe", seats=2, seed=1)
    log = [dict(g.events[0], engine_version=999)]
    with pytest.raises(engines.VersionMismatch):
        engines.replay(log)


def test_kit_catches_a_leaking_view():
    """The kit's hidden-information check can fail: a Goofspiel that shows pending bids."""
    from tablero.engines.goofspiel import Goofspiel

    class Leaky(Goofspiel):
        name = "leaky-goofspiel"

        def view(self, state, seat):
            v = super().view(state, seat)
            v["bids"] = list(state["bids"])
            return v

    g = testkit.playthrough(Leaky(), 2, 5)
    with pytest.raises(AssertionError, match="depends on information hidden"):
        testkit.check_views(g, random.Random(1), samples=len(g.events))


@pytest.mark.parametrize(("bad", "why"), [({1: "a"}, "int dict keys"), ((1, 2), "tuples"),
                                           (float("nan"), "not JSON-serialisable"),
                                           ({"a"}, "not JSON-serialisable")])
def test_kit_catches_a_view_that_json_changes_or_refuses(bad, why):
    """A view the API could not send as it is: an int key or a tuple comes back otherwise
    through JSON, NaN and a set do not go at all."""
    from tablero.engines.goofspiel import Goofspiel

    class Odd(Goofspiel):
        name = "odd-goofspiel"

        def view(self, state, seat):
            return {**super().view(state, seat), "odd": bad}

    g = testkit.playthrough(Odd(), 2, 5)
    with pytest.raises(AssertionError, match=why):
        testkit.check_every_version(g)


def test_kit_catches_an_invalid_to_act_between_two_events_of_one_decision():
    """The every-version check can fail: a Goofspiel whose state between the last bid and the
    reveal (never a decision point, but served as ?version=N) names no valid seat."""
    from tablero.engines.goofspiel import Goofspiel

    class Gappy(Goofspiel):
        name = "gappy-goofspiel"

        def to_act(self, state):
            if state["bids"] and all(b is not None for b in state["bids"]):
                return {None}
            return super().to_act(state)

    g = testkit.playthrough(Gappy(), 2, 5)  # decision points are fine
    with pytest.raises(AssertionError, match="to_act names None"):
        testkit.check_every_version(g)


def test_kit_catches_a_view_that_fails_between_two_events():
    from tablero.engines.goofspiel import Goofspiel

    class Crashy(Goofspiel):
        name = "crashy-goofspiel"

        def view(self, state, seat):
            if state["bids"] and all(b is not None for b in state["bids"]):
                raise KeyError("bids")
            return super().view(state, seat)

    g = testkit.playthrough(Crashy(), 3, 5)
    with pytest.raises(AssertionError, match="view for None fails"):
        testkit.check_every_version(g)


def test_clone_copies_plain_json_deeply_without_aliases_and_keeps_other_values():
    from collections import OrderedDict

    from tablero.engines.core import clone

    shared = [1, {"a": None}]
    state = {"x": shared, "y": shared, "z": {"n": 2.5, "t": True, "s": "é"}, 3: [[]]}
    copy = clone(state)
    assert copy == state and copy is not state
    assert copy["x"] is not shared and copy["x"] is not copy["y"], "no shared lists in the copy"
    copy["x"][1]["a"] = 1
    assert shared[1]["a"] is None and copy["y"][1]["a"] is None
    assert type(copy["z"]["t"]) is bool
    # A value marshal refuses is copied by the Python walk, as before: plain dicts and lists
    # copied, anything else kept as it is.
    odd = OrderedDict(k=[1])
    copy = clone({"odd": odd, "l": [odd]})
    assert copy["odd"] is odd and copy["l"] is not None and copy["l"][0] is odd


def test_kit_catches_a_decide_that_changes_the_state():
    """The playthrough hands decide() the game's own state and compares its JSON after: an engine
    whose decide() writes into the state it was given fails."""
    from tablero.engines.goofspiel import Goofspiel

    class Writer(Goofspiel):
        name = "writer-goofspiel"

        def decide(self, state, seat, action, rng):
            events = super().decide(state, seat, action, rng)
            state["scribbled"] = state.get("scribbled", 0) + 1
            return events

    with pytest.raises(AssertionError, match=r"decide\(\) mutated the state"):
        testkit.playthrough(Writer(), 2, 5)
