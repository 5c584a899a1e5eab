"""The in-process driver (`LocalGame`), log replay and the helpers the server shares."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import jsonschema

from .engine import Action, Engine, Event, State
from .errors import InvalidOptions, VersionMismatch
from .registry import get
from .rules import decide_action


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: State) -> str:
    """A stable digest of a state (used by golden logs and replay checks)."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


_VALIDATORS: dict[str, Any] = {}


def validate_setup(engine: Engine, seats: Any, options: Any) -> dict[str, Any]:
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise InvalidOptions("seats must be an integer")
    if not engine.min_seats <= seats <= engine.max_seats:
        raise InvalidOptions(
            f"{engine.title or engine.name} takes {engine.min_seats}-{engine.max_seats} players, not {seats}"
        )
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidOptions("options must be a JSON object")
    validator = _VALIDATORS.get(engine.name)
    if validator is None or validator.schema is not engine.options_schema:
        cls = jsonschema.validators.validator_for(engine.options_schema)
        cls.check_schema(engine.options_schema)
        validator = _VALIDATORS[engine.name] = cls(engine.options_schema)
    try:
        validator.validate(options)
    except jsonschema.ValidationError as e:
        where = "/".join(str(p) for p in e.absolute_path)
        raise InvalidOptions(f"invalid option {where}: {e.message}" if where else f"invalid options: {e.message}") from None
    return options


def start_event(engine: Engine, seats: int, options: dict[str, Any] | None, rng: random.Random) -> Event:
    """The engine's first event, stamped with the engine, its version, seats and options."""
    options = validate_setup(engine, seats, options)
    event = dict(engine.start(seats, options, rng))
    event.update(engine=engine.name, engine_version=engine.version, seats=seats, options=options)
    return event


def engine_for_log(events: list[Event]) -> Engine:
    if not events:
        raise ValueError("an empty log has no engine")
    first = events[0]
    engine = get(first.get("engine", ""))
    v = first.get("engine_version")
    if v != engine.version and v not in engine.supported_versions:
        raise VersionMismatch(
            f"log written by {engine.name} v{v}; this server replays v{engine.version}"
            + (f" and {list(engine.supported_versions)}" if engine.supported_versions else "")
        )
    return engine


PLATFORM_PREFIX = "tablero."


def is_platform_event(event: Event) -> bool:
    """Facts the server records beside a game's own events (`tablero.*`: a seat left, a
    timeout); the engine never sees them."""
    return isinstance(event, dict) and str(event.get("type", "")).startswith(PLATFORM_PREFIX)


def fold(engine: Engine, events: list[Event], state: State | None = None) -> State:
    for e in events:
        if not is_platform_event(e):
            state = engine.evolve(state, e)
    return state


class LocalGame:
    """Play a game in-process: `LocalGame("tic-tac-toe", seats=2, seed=7)`."""

    def __init__(
        self,
        engine: str | Engine,
        seats: int | None = None,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        *,
        events: list[Event] | None = None,
    ) -> None:
        self.engine = get(engine) if isinstance(engine, str) else engine
        self.rng = random.Random(seed)
        # [seat, action] of every decision taken through this object (golden logs keep them).
        self.decisions: list[list[Any]] = []
        if events is not None:
            self.events: list[Event] = list(events)
            self.state: State = fold(self.engine, self.events)
        else:
            if seats is None:
                seats = self.engine.min_seats
            first = start_event(self.engine, seats, options, self.rng)
            self.events = [first]
            self.state = self.engine.evolve(None, first)

    @property
    def seats(self) -> int:
        return self.events[0]["seats"]

    @property
    def version(self) -> int:
        return len(self.events)

    def to_act(self) -> set[int]:
        if self.engine.outcome(self.state) is not None:
            return set()
        return set(self.engine.to_act(self.state))

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        return self.engine.legal_actions(self.state, seat)

    def act(self, seat: int, action: Action) -> list[Event]:
        new = decide_action(self.engine, self.state, seat, action, self.rng)
        for e in new:
            self.state = self.engine.evolve(self.state, e)
        self.events.extend(new)
        self.decisions.append([seat, action])
        return new

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.engine.view(self.state, seat)

    def event_view(self, event: Event, seat: int | None = None) -> Event:
        return self.engine.event_view(event, seat)

    def outcome(self) -> dict[str, Any] | None:
        return self.engine.outcome(self.state)

    def play_random(self, max_steps: int | None = None, rng: random.Random | None = None) -> int:
        """Play random legal actions until the game ends or `max_steps`; returns steps taken."""
        rng = rng or self.rng
        limit = self.engine.max_random_steps if max_steps is None else max_steps
        steps = 0
        while steps < limit and self.outcome() is None:
            seat = rng.choice(sorted(self.to_act()))
            actions = self.engine.legal_actions(self.state, seat)
            if not actions:
                raise AssertionError(f"{self.engine.name}: seat {seat} must act but has no legal action")
            self.act(seat, self.engine.random_action(self.state, seat, actions, rng))
            steps += 1
        return steps


def replay(events: list[Event], seed: int | None = None) -> LocalGame:
    """Rebuild a LocalGame from a log (checking the engine version it was written with)."""
    engine = engine_for_log(events)
    return LocalGame(engine, seed=seed, events=events)
