"""The engine contract: a game's rules as a pure, deterministic event-sourced reducer.

State is a plain JSON value (dicts with string keys, lists, str, int, float, bool,
None).  That keeps snapshots, hashing and replay comparisons trivial; an engine
that wants richer structure converts at its own edges.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from marshal import dumps as _marshal_dumps
from marshal import loads as _marshal_loads
from typing import Any

from .errors import InvalidAction

State = Any
Event = dict[str, Any]
Action = dict[str, Any]

def clone(value: Any) -> Any:
    """Deep copy of a plain JSON value: the one state-copy helper of every engine
    (several times faster than copy.deepcopy on JSON data).

    Plain values (dict, list, str, int, float, bool, None) are copied in C by a `marshal`
    round trip, format 2: no shared references, so the copy never aliases the original or
    itself; about twice as fast as the Python walk. A value marshal refuses (a dict or list
    subclass, an object) is walked in Python, where anything but a plain dict or list is shared."""
    try:
        return _marshal_loads(_marshal_dumps(value, 2))
    except ValueError:
        return _clone_walk(value)


_ABSENT = object()


def fork_by_table(state: dict, copy: dict[str, Any], named: frozenset[str]) -> dict:
    """A deep copy of `state` made by hand, key by key — an engine's look-ahead `fork` (several
    times faster than `clone` of the whole state): `copy[k](value)` copies key k; keys in
    `named` but not in `copy` hold scalars and are shared; any other key (a result, a newer
    field) is `clone`d. `testkit.check_deep_fork` proves an engine's table in its tests."""
    out = dict(state)
    for k, f in copy.items():
        v = out.get(k, _ABSENT)
        if v is not _ABSENT:
            out[k] = f(v)
    for k in out.keys() - named:  # keys of no known shape
        v = out[k]
        if type(v) in (dict, list):
            out[k] = clone(v)
    return out


def _clone_walk(value: Any) -> Any:
    if type(value) is dict:
        return {k: _clone_walk(v) if type(v) in (dict, list) else v for k, v in value.items()}
    if type(value) is list:
        return [_clone_walk(v) if type(v) in (dict, list) else v for v in value]
    return value


# Keys the core stamps on the first event of every log.
START_META_KEYS = ("engine", "engine_version", "seats", "options")


class Engine:
    """Base class of every game engine. Subclasses set the class attributes and
    implement the eight contract methods."""

    name: str = ""
    title: str = ""
    min_seats: int = 1
    max_seats: int = 1
    version: int = 1
    # Older log versions this code still replays faithfully (old behaviour kept or migrated).
    supported_versions: tuple[int, ...] = ()
    options_schema: dict[str, Any] = {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    # JSON Schemas (draft 2020-12) of the engine's actions, view and events, served by
    # the API (`GET /v1/engines/{name}`) and checked by the test kit on random games.
    # `RulesEngine` derives the action and event schemas from its declarations.
    action_schema: dict[str, Any] | None = None
    view_schema: dict[str, Any] | None = None
    event_schema: dict[str, Any] | None = None
    # JSON Schema of what `outcome()` returns once the game is over (its scores, winners and
    # details), served with the others; the server adds its own keys when seats forfeit
    # (server.portal.table.outcome_schema).
    outcome_schema: dict[str, Any] | None = None
    # Upper bound of actions in one random playthrough, used by the test kit.
    max_random_steps: int = 10_000

    # --- the contract -------------------------------------------------------
    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> Event:
        """The first event of the log, with every setup outcome written into it."""
        raise NotImplementedError

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event. `state` is None for the first event. May mutate `state`,
        never `event`, and never draws randomness."""
        raise NotImplementedError

    def decide(self, state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
        """Validate `action` by `seat` and return the events it causes (never mutating
        `state`). Automatic follow-up steps are decided here too."""
        raise NotImplementedError

    def decide_checked(self, state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
        """decide() for an action the core's `check_action` accepted (the decide loop,
        `rules.decide_action`): an engine whose shapes are declared skips checking them a
        second time. By default, decide()."""
        return self.decide(state, seat, action, rng)

    def check_shape(self, action: Action) -> None:
        """InvalidAction when `action` is malformed (its shape, not its legality). The core
        asks it before the turn and game-over checks, so a malformed action is refused as
        such whoever sends it; an engine without declarations checks shapes in decide().
        The core has checked that `action` is an object with a string "type"."""

    def to_act(self, state: State) -> set[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def event_view(self, event: Event, seat: int | None) -> Event:
        """Redact an event for `seat` (None = spectator).

        Default convention: an event's `"secret"` key is seen by nobody, and its
        `"private"` key maps a seat number (as a string) to what only that seat sees.
        """
        if "secret" not in event and "private" not in event:
            return event
        out = {k: v for k, v in event.items() if k not in ("secret", "private")}
        private = event.get("private") or {}
        if seat is not None and str(seat) in private:
            out["private"] = {str(seat): private[str(seat)]}
        return out

    def outcome(self, state: State) -> dict[str, Any] | None:
        raise NotImplementedError

    # --- optional hooks -----------------------------------------------------
    def resample_hidden(self, state: State, viewer: int | None, rng: random.Random) -> State | None:
        """Return a copy of `state` in which everything hidden from `viewer` is
        re-drawn consistently with what `viewer` sees, or None when the game has no
        hidden information. The test kit checks that `view(state, viewer)` does not
        change, i.e. views never depend on what the viewer may not know."""
        return None

    def random_action(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """The random player's choice among `actions` (bots and the test kit). Engines
        whose uniform play stalls may weight it toward progress."""
        return rng.choice(actions)

    # --- helpers for subclasses --------------------------------------------
    def simulate(self, state: State, events: list[Event]) -> State:
        """A deep copy of `state` with `events` applied; decide() uses it to look ahead."""
        s = clone(state)
        for e in events:
            s = self.evolve(s, e)
        return s

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options_schema": self.options_schema,
            "version": self.version,
            "action_schema": self.action_schema,
            "view_schema": self.view_schema,
            "event_schema": self.event_schema,
            "outcome_schema": self.outcome_schema,
        }


def require_action_type(action: Any, known: set[str] | dict) -> str:
    """Check the common shape of an action and return its type."""
    if not isinstance(action, dict):
        raise InvalidAction("an action must be a JSON object")
    t = action.get("type")
    if not isinstance(t, str):
        raise InvalidAction('an action needs a string "type"')
    if t not in known:
        raise InvalidAction(f"unknown action type {t!r}; expected one of {sorted(known)}")
    return t


def reject_unknown_fields(action: Action, allowed: set[str] | frozenset[str] | tuple[str, ...]) -> None:
    """Refuse an action that carries fields its type doesn't have ("type" is always allowed)."""
    extra = sorted(set(action) - set(allowed) - {"type"})
    if extra:
        raise InvalidAction(
            f"{action.get('type')}: unknown field(s) {', '.join(map(repr, extra))}; "
            f"expected {', '.join(sorted(set(allowed) - {'type'})) or 'no other field'}"
        )


def require_fields(action: Action, required: Iterable[str]) -> None:
    """Refuse an action that lacks a field its type needs, naming the missing ones."""
    required = list(required)
    missing = [k for k in required if k not in action]
    if missing:
        raise InvalidAction(
            f"{action.get('type')}: missing field(s) {', '.join(map(repr, missing))}; expected {', '.join(required)}"
        )


def too_large_whole(v: Any) -> bool:
    """A whole number too large to arrive as an integer (JSON's 1e300: the API reads whole
    numbers up to 2**53 as integers): out of range, not a fraction."""
    return isinstance(v, float) and v.is_integer() and abs(v) > 2**53


def require_int(action: Action, key: str, lo: int | None = None, hi: int | None = None) -> int:
    v = action.get(key)
    if too_large_whole(v):
        where = f"; it must be between {lo} and {hi}" if lo is not None and hi is not None else ""
        raise InvalidAction(f"{action.get('type')}: field {key!r} is out of range ({v:g}){where}")
    if not isinstance(v, int) or isinstance(v, bool):
        raise InvalidAction(f"{action.get('type')}: field {key!r} must be an integer")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise InvalidAction(f"{action.get('type')}: field {key!r} must be between {lo} and {hi}")
    return v


def require_str(action: Action, key: str, choices: Any = None) -> str:
    v = action.get(key)
    if not isinstance(v, str):
        raise InvalidAction(f"{action.get('type')}: field {key!r} must be a string")
    if choices is not None and v not in choices:
        raise InvalidAction(f"{action.get('type')}: {key!r} must be one of {sorted(choices)}")
    return v
