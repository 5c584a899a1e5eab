"""The generic engine test kit. `tests/engines/test_kit.py` runs every registered
engine through it; an engine's own tests may call the checks directly.

Each check raises AssertionError with a readable message.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterable, Iterator
from typing import Any

import jsonschema

try:
    import orjson
except ImportError:  # (the engines do not need it; the kit is faster with it)
    orjson = None  # type: ignore[assignment]
try:
    import jsonschema_rs  # the test extras' (the kit is faster with it)
except ImportError:
    jsonschema_rs = None

from .engine import Engine, clone
from .errors import EngineError, IllegalAction, InvalidAction
from .local import LocalGame, canonical_json, engine_for_log, replay, start_event, state_hash

# How many seeded random playthroughs per engine and seat count (CI default).
GAMES_PER_SEAT_COUNT = int(os.environ.get("TABLERO_KIT_GAMES", "10"))


# A value orjson writes and reads back equal, the standard library does too (orjson refuses sets,
# non-str keys, ints beyond 64 bits and, so told, dataclasses, datetimes and subclasses of the JSON
# types), several times faster; anything else goes to the standard library, which decides.
_STRICT = (orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
           if orjson is not None else 0)


def _json_roundtrip(value: Any, what: str) -> Any:
    if orjson is not None:
        try:
            back = orjson.loads(orjson.dumps(value, option=_STRICT))
        except orjson.JSONEncodeError:
            pass
        else:
            if back == value:
                return back
    # The standard library's verdict, and its words (also for what orjson would pass changed: a
    # NaN it writes as null).
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise AssertionError(f"{what} is not JSON-serialisable: {e}") from None
    back = json.loads(text)
    # (Equality is enough: an int key comes back a string, a tuple a list, and neither equals
    # the original; comparing two more encodings as well cost half of the kit's time.)
    if back != value:
        raise AssertionError(f"{what} changes through JSON (int dict keys or tuples): {value!r:.300}")
    return back


def playthrough(engine: Engine, seats: int, seed: int, options: dict | None = None) -> LocalGame:
    """A seeded random game to the end, checking each step on the way."""
    rng = random.Random(seed)
    g = LocalGame(engine, seats=seats, seed=seed, options=options)
    steps = 0
    while g.outcome() is None:
        assert steps < engine.max_random_steps, (
            f"{engine.name} {seats}p seed {seed}: no end after {steps} actions"
        )
        to_act = g.to_act()
        assert to_act, f"{engine.name}: game not over but nobody may act (seed {seed}, step {steps})"
        for s in to_act:
            assert 0 <= s < seats, f"{engine.name}: to_act names seat {s} of {seats}"
        seat = rng.choice(sorted(to_act))
        actions = g.legal_actions(seat)
        assert actions, f"{engine.name}: seat {seat} must act but has no legal action (seed {seed})"
        _json_roundtrip(actions, "legal actions")
        action = engine.random_action(g.state, seat, actions, rng)
        before = canonical_json(g.state)
        try:  # (on the state itself, not a copy: a change is caught below all the same, and a deep
            # copy of every state was a third of the kit's time)
            new = engine.decide(g.state, seat, action, g.rng)
        except EngineError as e:
            raise AssertionError(f"{engine.name}: legal action {action} rejected: {e}") from None
        assert canonical_json(g.state) == before, f"{engine.name}: decide() mutated the state ({action})"
        assert new, f"{engine.name}: action {action} produced no events"
        for e in new:
            assert isinstance(e, dict) and isinstance(e.get("type"), str), f"event without type: {e!r:.200}"
            text = canonical_json(e)
            g.state = engine.evolve(g.state, e)
            assert canonical_json(e) == text, f"{engine.name}: evolve() mutated the event {e['type']}"
        g.events.extend(new)
        g.decisions.append([seat, action])
        steps += 1
    return g


def check_outcome(g: LocalGame) -> None:
    out = g.outcome()
    assert out is not None
    _json_roundtrip(out, "outcome")
    n = g.seats
    assert isinstance(out.get("scores"), list) and len(out["scores"]) == n, "outcome scores: one per seat"
    assert isinstance(out.get("winners"), list), "outcome winners must be a list"
    assert all(isinstance(w, int) and 0 <= w < n for w in out["winners"]), "winners are seats"
    assert isinstance(out.get("details"), list), "outcome details must be a list"
    assert g.to_act() == set(), "nobody may act once the game is over"


def check_replay(g: LocalGame) -> None:
    """Replaying the JSON log gives the same state as live play."""
    log = _json_roundtrip(g.events, "event log")
    again = replay(log)
    assert state_hash(again.state) == state_hash(g.state), f"{g.engine.name}: replay differs from live state"
    # Replaying from any midpoint (snapshot + tail) gives the same state too.
    mid = len(log) // 2
    head = replay(log[:mid] or log[:1])
    snap = json.loads(json.dumps(head.state))
    for e in log[max(mid, 1):]:
        snap = g.engine.evolve(snap, e)
    assert state_hash(snap) == state_hash(g.state), f"{g.engine.name}: snapshot + tail differs from live state"


def random_turns(engine: str, seats: int, seed: int,
                 options: dict[str, Any] | None = None) -> Iterator[tuple[LocalGame, int, list[dict]]]:
    """A seeded random game one decision at a time: yields (the game, the lowest seat to act,
    its legal actions) before that seat plays a random one of them, until the game ends."""
    g = LocalGame(engine, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    while g.outcome() is None:
        seat = sorted(g.to_act())[0]
        legal = g.legal_actions(seat)
        yield g, seat, legal
        g.act(seat, g.engine.random_action(g.state, seat, legal, rng))


def check_views(g: LocalGame, rng: random.Random, samples: int = 25) -> None:
    """Every view and redacted event is JSON; views never depend on hidden information;
    redacted events carry no secret and no other seat's private part."""
    engine = g.engine
    viewers: list[int | None] = [None, *range(g.seats)]
    for e in g.events:
        for v in viewers:
            red = _json_roundtrip(engine.event_view(e, v), "redacted event")
            assert "secret" not in red, f"{engine.name}: event {e['type']} shows its secret to {v}"
            priv = red.get("private") or {}
            assert set(priv) <= ({str(v)} if v is not None else set()), (
                f"{engine.name}: event {e['type']} shows another seat's private part to {v}"
            )
    # Views along the game, at sampled states.
    states = []
    live = None
    picks = set(rng.sample(range(len(g.events)), min(samples, len(g.events))))
    picks.add(len(g.events) - 1)
    for i, e in enumerate(g.events):
        live = engine.evolve(live, copy.deepcopy(e)) if i == 0 else engine.evolve(live, e)
        if i in picks:
            states.append(copy.deepcopy(live))
    for st in states:
        for v in viewers:
            view = _json_roundtrip(engine.view(st, v), "view")
            alt = engine.resample_hidden(st, v, rng)
            if alt is None:
                continue
            other = engine.view(alt, v)
            assert canonical_json(other) == canonical_json(view), (
                f"{engine.name}: the view of {v} depends on information hidden from it"
            )


def check_every_version(g: LocalGame) -> None:
    """Every prefix of the log (after any event, not only at decision points) is a state the
    API may serve as `?version=N`: `to_act` names valid seats (ints in range, none once the
    game is over) and every seat and the spectator get a JSON view (issue 17 item 5)."""
    engine = g.engine
    n = g.seats
    viewers: list[int | None] = [None, *range(n)]
    state = None
    for i, e in enumerate(g.events):
        state = engine.evolve(state, clone(e))
        where = f"{engine.name} {n}p, version {i + 1} (after {e['type']})"
        try:
            seats = engine.to_act(state)
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            raise AssertionError(f"{where}: to_act fails: {exc!r}") from None
        assert isinstance(seats, set | frozenset | list | tuple), f"{where}: to_act is {seats!r}"
        for s in seats:
            assert isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n, (
                f"{where}: to_act names {s!r}, not a seat of 0..{n - 1}"
            )
        if engine.outcome(state) is not None:
            assert not seats, f"{where}: the game is over but to_act is {sorted(seats)}"
        for v in viewers:
            try:
                view = engine.view(state, v)
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"{where}: view for {v} fails: {exc!r}") from None
            _json_roundtrip(view, f"{where}: view for {v}")


def _malformed(actions: list[dict], rng: random.Random) -> list[Any]:
    bad: list[Any] = [None, 7, "place", [], {}, {"type": 3}, {"type": "no-such-action-xyz"}]
    for a in rng.sample(actions, min(3, len(actions))):
        bad.append({**a, "zz_unknown_field": 1})  # a field the action type doesn't have
        for k in a:
            if k != "type":
                broken = dict(a)
                broken[k] = {"nested": ["garbage"]}
                bad.append(broken)
    return bad


def check_rejections(engine: Engine, seats: int, seed: int, options: dict | None = None, points: int = 6) -> None:
    """At several points of a random game: malformed actions raise InvalidAction (or
    IllegalAction), actions by a seat that may not act raise IllegalAction, and
    neither changes the state."""
    rng = random.Random(seed * 7919 + 1)
    g = LocalGame(engine, seats=seats, seed=seed, options=options)
    steps = 0
    previous: list[dict] = []
    while g.outcome() is None and steps < engine.max_random_steps:
        to_act = sorted(g.to_act())
        seat = rng.choice(to_act)
        actions = g.legal_actions(seat)
        if steps % max(1, engine.max_random_steps // 200) == 0 and points > 0:
            points -= 1
            before = state_hash(g.state)
            n_events = len(g.events)
            for bad in _malformed(actions, rng):
                try:
                    g.act(seat, bad)
                except InvalidAction:
                    pass
                except IllegalAction as e:
                    if isinstance(bad, dict) and "zz_unknown_field" in bad:
                        raise AssertionError(
                            f"{engine.name}: an unknown field must be refused as malformed (InvalidAction), "
                            f"not as against the rules: {e}"
                        ) from None
                else:
                    raise AssertionError(f"{engine.name}: malformed action accepted: {bad!r:.200}")
                assert state_hash(g.state) == before and len(g.events) == n_events, "rejection changed state"
            # Actions that were legal earlier but are not now must be refused.
            stale = [a for a in previous if a not in actions]
            for a in rng.sample(stale, min(5, len(stale))):
                try:
                    g.act(seat, a)
                except (InvalidAction, IllegalAction):
                    pass
                else:
                    raise AssertionError(f"{engine.name}: action {a!r:.200} accepted but not in legal_actions")
                assert state_hash(g.state) == before, "rejection changed state"
            idle = [s for s in range(seats) if s not in to_act]
            for s in idle:
                try:
                    g.act(s, actions[0])
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{engine.name}: seat {s} acted out of turn")
                assert state_hash(g.state) == before, "rejection changed state"
        previous = actions
        g.act(seat, engine.random_action(g.state, seat, actions, rng))
        steps += 1
    assert g.outcome() is not None
    for a in [{"type": "anything"}]:
        try:
            g.act(0, a)
        except (InvalidAction, IllegalAction):
            pass
        else:
            raise AssertionError(f"{engine.name}: action accepted after the end")


_SCHEMA_VALIDATORS: dict[int, Any] = {}


def _validator(schema: dict, cls: Any = None) -> Any:
    v = _SCHEMA_VALIDATORS.get(id(schema))
    if v is None or v.schema is not schema:
        cls = cls or jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        v = _SCHEMA_VALIDATORS[id(schema)] = cls(schema)
    return v


# Values that fit, per schema: a value seen to fit is not checked again. Views of consecutive
# states and of several viewers, events as each seat sees them and recurring legal actions often
# read the same, and validation is most of the time of the tests that walk whole games. Kept
# with the schema's validator (which holds the schema, so its id is not reused while kept);
# bounded: cleared when it holds FITTED_MAX values.
_FITTED: dict[int, tuple[Any, set[str]]] = {}
FITTED_MAX = 50_000
# An object schema with its properties' own schemas left out (each `True`): what is checked of
# the object itself (its type, required and unknown keys) once its properties are checked apart.
_SHALLOW: dict[int, tuple[dict, dict]] = {}


_FAST: dict[int, tuple[dict, Any]] = {}  # id(schema) -> (schema, its jsonschema_rs validator or None)


def _fits_fast(schema: Any, value: Any) -> bool:
    """Whether jsonschema_rs (Rust, tens of times faster) finds that the value fits. A value it
    finds not fitting, or a schema it cannot read, goes to `jsonschema`, which decides and words
    the errors."""
    if jsonschema_rs is None or not isinstance(schema, dict):
        return False
    known = _FAST.get(id(schema))
    if known is None or known[0] is not schema:
        _validator(schema)  # (checks the schema itself against its draft's metaschema, once)
        try:
            fast = jsonschema_rs.validator_for(schema)
        except Exception:  # noqa: BLE001 - what it cannot read, jsonschema reads
            fast = None
        known = _FAST[id(schema)] = (schema, fast)
    return known[1] is not None and known[1].is_valid(value)


def schema_errors(schema: dict, value: Any) -> list[Any]:
    """The value's errors against the schema (jsonschema's, in path order; empty: it fits).
    What jsonschema_rs finds fitting is not checked again. Otherwise an object is checked property
    by property against the properties' own schemas (the engines' schemas have no `$ref`), each
    remembered when it fits: consecutive views share most of their properties (a map, a market),
    so a view that changed in one place costs that place only."""
    if _fits_fast(schema, value):
        return []
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not (isinstance(value, dict) and isinstance(props, dict) and len(props) > 1):
        return _errors(schema, value)
    cls = type(_validator(schema))
    known = _SHALLOW.get(id(schema))
    if known is None or known[0] is not schema:
        known = _SHALLOW[id(schema)] = (schema, {**schema, "properties": {k: True for k in props}})
    errors = list(_validator(known[1], cls).iter_errors(value))
    for k, v in value.items():
        sub = props.get(k)
        if isinstance(sub, dict):
            for e in _errors(sub, v, cls):
                e.path.appendleft(k)  # its place in the whole value
                errors.append(e)
    return sorted(errors, key=lambda e: list(e.absolute_path))


def _errors(schema: dict, value: Any, cls: Any = None) -> list[Any]:
    validator = _validator(schema, cls)
    key = json.dumps(value, sort_keys=True)
    entry = _FITTED.get(id(schema))
    if entry is None or entry[0] is not validator:
        entry = _FITTED[id(schema)] = (validator, set())
    if key in entry[1]:
        return []
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    if not errors:
        if sum(len(fitted) for _, fitted in _FITTED.values()) >= FITTED_MAX:
            _FITTED.clear()
            entry = _FITTED[id(schema)] = (validator, set())
        entry[1].add(key)
    return errors


def _fits(schema: dict | None, value: Any, what: str, engine: Engine) -> None:
    assert isinstance(schema, dict), f"{engine.name}: publishes no JSON Schema of its {what}s"
    errors = schema_errors(schema, value)
    if errors:
        e = errors[0]
        where = "/".join(map(str, e.absolute_path)) or "(top)"
        raise AssertionError(f"{engine.name}: {what} does not fit its schema at {where}: {e.message[:300]}")


def check_schemas(g: LocalGame, rng: random.Random, samples: int = 12) -> None:
    """Every event as each seat and the spectator are sent it (the start event's meta keys and a
    seat's `private` part included: every key declared), sampled legal actions and views along
    the game (each seat and the spectator) and the outcome fit the JSON Schemas the engine
    publishes."""
    engine = g.engine
    for e in g.events:
        for viewer in [None, *range(g.seats)]:
            _fits(engine.event_schema, engine.event_view(e, viewer), "event", engine)
    picks = set(rng.sample(range(len(g.events)), min(samples, len(g.events))))
    picks.add(len(g.events) - 1)
    state = None
    for i, e in enumerate(g.events):
        state = engine.evolve(state, clone(e))
        if i not in picks:
            continue
        for v in [None, *range(g.seats)]:
            _fits(engine.view_schema, engine.view(state, v), "view", engine)
        if engine.outcome(state) is None:
            for s in engine.to_act(state):
                actions = engine.legal_actions(state, s)
                for a in rng.sample(actions, min(20, len(actions))):
                    _fits(engine.action_schema, a, "action", engine)
    outcome = g.outcome()
    if outcome is not None:
        _fits(engine.outcome_schema, outcome, "outcome", engine)


def run_all(engine: Engine, seats: int, seed: int, options: dict | None = None) -> LocalGame:
    g = playthrough(engine, seats, seed, options)
    check_outcome(g)
    check_replay(g)
    check_views(g, random.Random(seed))
    check_schemas(g, random.Random(seed + 1))
    check_every_version(g)
    return g


def _containers(value: Any, out: dict[int, str], where: str) -> None:
    if type(value) is dict:
        out.setdefault(id(value), where)
        for k, v in value.items():
            _containers(v, out, f"{where}.{k}")
    elif type(value) is list:
        out.setdefault(id(value), where)
        for i, v in enumerate(value):
            _containers(v, out, f"{where}[{i}]")


def check_deep_fork(original: Any, forked: Any, what: str = "fork") -> None:
    """`forked` equals `original` and shares no dict or list with it, so evolving the fork
    can never change the original (an engine's hand-written `fork`)."""
    assert type(forked) is type(original), f"{what}: a {type(forked).__name__}, not a {type(original).__name__}"
    assert canonical_json(forked) == canonical_json(original), f"{what}: the copy differs from the original"
    assert forked == original, f"{what}: the copy differs from the original (types of keys or values)"
    mine: dict[int, str] = {}
    _containers(original, mine, "state")
    theirs: dict[int, str] = {}
    _containers(forked, theirs, "state")
    shared = sorted(where for i, where in theirs.items() if i in mine)
    assert not shared, f"{what}: shares mutable parts with the original: {', '.join(shared[:5])}"


def check_forks(engine: Engine, seats: int, seed: int, options: dict | None = None) -> int:
    """Every state of a seeded random game (after each event): `engine.fork` is a deep copy
    (check_deep_fork), and evolving the fork leaves the original unchanged. Returns the
    number of states checked."""
    g = playthrough(engine, seats, seed, options)
    state = None
    checked = 0
    for i, e in enumerate(g.events):
        state = engine.evolve(state, clone(e))
        before = canonical_json(state)
        f = engine.fork(state)
        check_deep_fork(state, f, f"{engine.name} {seats}p seed {seed}, after event {i} ({e['type']})")
        if i + 1 < len(g.events):
            engine.evolve(f, clone(g.events[i + 1]))
            assert canonical_json(state) == before, f"{engine.name}: evolving the fork changed the original"
        checked += 1
    return checked


Step = tuple[str, str, str]  # (phase before, phase after, what: a move's type or "automatic")


def decision_steps(engine: Any, state: Any, seat: int, action: dict, rng: random.Random) -> tuple[list[Step], list]:
    """One decision of a RulesEngine cut where its phase table speaks: the move's own events
    (`Move.resolve`), then each automatic step of the settle loop (`advance`: an `auto`, or a
    declared end with its entry into `then`). Returns the steps, (phase before, phase after,
    the move's type or "automatic"), and all the events, which must be those `decide` gives."""
    move = engine.move(action)
    events = list(move.resolve(state, seat, action, move.check(state, seat, action), rng))
    s = engine.fork(state)
    before = engine.phase_of(s)
    for e in events:
        s = engine.evolve(s, e)
    steps = [(before, engine.phase_of(s), action["type"])]
    while engine.outcome(s) is None:
        before = engine.phase_of(s)
        s, more = engine.advance(s, rng)
        if not more:
            break
        events += more
        steps.append((before, engine.phase_of(s), "automatic"))
    return steps, events


def phase_steps(engine: Any, seats: int, seed: int, options: dict | None = None) -> Iterator[Step]:
    """The steps (`decision_steps`) of a seeded random game; a phase passed through inside one
    step is not a transition. Each decision's steps give exactly the events `decide` gives."""
    rng = random.Random(seed)
    g = LocalGame(engine, seats=seats, seed=seed, options=options)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        action = engine.random_action(g.state, seat, g.legal_actions(seat), rng)
        mine = random.Random()
        mine.setstate(g.rng.getstate())
        steps, events = decision_steps(engine, g.state, seat, action, mine)
        assert events == g.act(seat, action), f"{engine.name}: the walk's steps differ from decide's events"
        yield from steps


def logged_phase_steps(doc: dict) -> Iterator[Step]:
    """The steps of a recorded game (a golden log with its decisions and seed), decided again
    with the recording's random numbers; each decision must give the log's events."""
    events = doc["events"]
    engine = engine_for_log(events)
    first = events[0]
    rng = random.Random(doc["seed"])
    start_event(engine, first["seats"], first.get("options"), rng)
    state = engine.evolve(None, clone(first))
    i = 1
    for seat, action in doc["decisions"]:
        steps, new = decision_steps(engine, state, seat, action, rng)
        assert new == events[i:i + len(new)], f"{engine.name}: the walk's steps differ from the log"
        for e in new:
            state = engine.evolve(state, clone(e))
        i += len(new)
        yield from steps


def check_phase_flow(engine: Any, steps: Iterable[Step], where: str = "") -> set[tuple[str, str]]:
    """Every phase change in `steps` (`phase_steps`, `logged_phase_steps`) is one the phase table
    declares: into a phase the phase left names in `then` (its `successors`), into a `step` from
    any phase, and out of a step back to the phase it interrupted (or to one that phase is
    declared to lead to, or to another step). Returns the changes seen, as (from, to) pairs."""
    table = engine._phase_by_name
    seen = set()
    under = None  # the phase a step interrupted
    for n, (a, b, what) in enumerate(steps):
        if a == b:
            continue
        seen.add((a, b))
        at = f"{engine.name} {where}, step {n} ({what}) leads {a} → {b}"
        assert b in table, f"{at}: {b!r} is not a declared phase"
        if not table[a].step:
            under = a
        if table[b].step:
            continue
        if table[a].step:
            assert under is not None and (b == under or b in table[under].successors()), (
                f"{at}: a step goes back to the phase it interrupted ({under}) or one it leads to "
                f"{table[under].successors() if under else ()}")
            continue
        assert b in table[a].successors(), f"{at}; {a} declares then={table[a].successors()}"
    return seen
