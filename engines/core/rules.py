"""Rules as data: every move and every phase of a game declared once.

An engine built on `RulesEngine` lists its moves and phases as tables, in the
order the rulebook tells them, the way boardgame.io declares `moves` and
`phases`:

    MOVES = (
        Move("place", fields={"cell": integer(0, 8)}, phases={"play"},
             check=_check_place, resolve=_place, candidates=_cells,
             rule="Rules §2: a player marks an empty cell"),
    )
    PHASES = (
        Phase("play", to_act=lambda s: {s["next"]}, then="over"),
        Phase("over", to_act=lambda s: ()),
    )

From these declarations the core derives everything else:

- `decide`: shape check against the move's field schemas → the phase allows the
  move → `check` (legality, raising `IllegalAction` with the reason a player
  reads) → `resolve` (the events) → automatic steps until a real decision is
  awaited or the game is over: a phase's `auto` (a step within it), else, when it
  `ends`, its `on_end` events and the entry into the phase its `then` names
  (`enter_phase`, the engine's phase-start event). Engines do not repeat these checks.
- `legal_actions`: each move allowed in the current phase lists its actions,
  either with `options` (an exact generator) or with `candidates` filtered
  through the same `check` that `decide` runs, so the list and the check cannot
  disagree. Checking one action never enumerates all of them.
- `to_act`: the current phase's `to_act`.
- `evolve`: a table of event handlers (`on`), one per event type.
- `action_schema` / `event_schema`: JSON Schemas (a `oneOf` over types) built from
  the move fields and the event field declarations; served by the API and checked
  by the test kit.

Moves and phases are plain frozen dataclasses holding functions; the state stays
plain JSON.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from .engine import Action, Engine, Event, State, clone, too_large_whole
from .errors import IllegalAction, InvalidAction
from .event_schema import event_type

Schema = dict[str, Any]
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


# --- field schemas: small constructors for the common cases ------------------------------
def integer(lo: int | None = None, hi: int | None = None, **extra: Any) -> Schema:
    s: Schema = {"type": "integer", **extra}
    if lo is not None:
        s["minimum"] = lo
    if hi is not None:
        s["maximum"] = hi
    return s


def string(choices: Iterable[str] | None = None, **extra: Any) -> Schema:
    s: Schema = {"type": "string", **extra}
    if choices is not None:
        s["enum"] = sorted(choices)
    return s


def boolean(**extra: Any) -> Schema:
    return {"type": "boolean", **extra}


def array(items: Schema, min_items: int | None = None, max_items: int | None = None, **extra: Any) -> Schema:
    s: Schema = {"type": "array", "items": items, **extra}
    if min_items is not None:
        s["minItems"] = min_items
    if max_items is not None:
        s["maxItems"] = max_items
    return s


def counts(kinds: Iterable[str], lo: int = 0, hi: int | None = None, **extra: Any) -> Schema:
    """An object of non-negative counts by kind, e.g. {"wood": 2, "brick": 1}."""
    return {
        "type": "object",
        "properties": {k: integer(lo, hi) for k in kinds},
        "additionalProperties": False,
        **extra,
    }


def obj(properties: Mapping[str, Schema], required: Iterable[str] = (), **extra: Any) -> Schema:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
        **extra,
    }


def document(title: str, properties: Mapping[str, Schema], required: Iterable[str] | None = None,
             **extra: Any) -> Schema:
    """A top-level JSON Schema document (2020-12) of an object, e.g. an engine's `view_schema`:
    its properties typed, all of them required unless `required` names fewer, no other key."""
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "title": title,
        "type": "object",
        "properties": dict(properties),
        "required": list(properties if required is None else required),
        "additionalProperties": False,
        **extra,
    }


# --- validating a value against a field schema (the subset the constructors produce) -----
_TYPES: dict[str, Callable[[Any], bool]] = {
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def _type_name(t: str | list[str]) -> str:
    names = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "true or false",
             "object": "an object", "array": "a list", "null": "null"}
    if isinstance(t, list):
        return " or ".join(names.get(x, x) for x in t)
    return names.get(t, t)


def validate_value(schema: Schema, value: Any, where: str) -> None:
    """Raise InvalidAction naming `where` when `value` does not fit `schema`.

    Supports type, enum, const, minimum/maximum, minLength/maxLength, items,
    minItems/maxItems, uniqueItems, properties/required/additionalProperties,
    and anyOf/oneOf of such schemas.
    """
    for key in ("anyOf", "oneOf"):
        if key in schema:
            for alt in schema[key]:
                try:
                    validate_value(alt, value, where)
                    break
                except InvalidAction:
                    continue
            else:
                raise InvalidAction(f"{where} does not fit any allowed form")
    t = schema.get("type")
    if t is not None:
        ok = any(_TYPES[x](value) for x in t) if isinstance(t, list) else _TYPES[t](value)
        if not ok:
            if too_large_whole(value) and "integer" in t:
                bounds = (f"; it must be from {schema['minimum']} to {schema['maximum']}"
                          if "minimum" in schema and "maximum" in schema else "")
                raise InvalidAction(f"{where} is out of range ({value:g}){bounds}")
            raise InvalidAction(f"{where} must be {_type_name(t)}")
    if "const" in schema and value != schema["const"]:
        raise InvalidAction(f"{where} must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        raise InvalidAction(f"{where} must be one of {', '.join(map(str, schema['enum']))}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise InvalidAction(f"{where} must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise InvalidAction(f"{where} must be at most {schema['maximum']}")
    elif isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            raise InvalidAction(f"{where} must have at least {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise InvalidAction(f"{where} must have at most {schema['maxLength']} characters")
    elif isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise InvalidAction(f"{where} must have at least {schema['minItems']} item(s)")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise InvalidAction(f"{where} must have at most {schema['maxItems']} item(s)")
        if schema.get("uniqueItems") and len({repr(v) for v in value}) != len(value):
            raise InvalidAction(f"{where} must not repeat an item")
        items = schema.get("items")
        if items is not None:
            for i, v in enumerate(value):
                validate_value(items, v, f"{where}[{i}]")
    elif isinstance(value, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", ()):
            if k not in value:
                raise InvalidAction(f"{where} needs {k!r}")
        extra = schema.get("additionalProperties", True)
        for k, v in value.items():
            if k in props:
                validate_value(props[k], v, f"{where}.{k}")
            elif extra is False:
                allowed = ", ".join(props) or "none"
                raise InvalidAction(f"{where} has unknown key {k!r} (allowed: {allowed})")
            elif isinstance(extra, dict):
                validate_value(extra, v, f"{where}.{k}")


def accepts(schema: Schema) -> Callable[[Any], bool]:
    """A predicate compiled once from a field schema: true exactly when `validate_value`
    would accept the value. The decide loop checks fields with it and calls
    `validate_value` only to word the error of a value it refuses."""
    checks: list[Callable[[Any], bool]] = []
    for key in ("anyOf", "oneOf"):
        if key in schema:
            alts = [accepts(alt) for alt in schema[key]]
            checks.append(lambda v, alts=alts: any(a(v) for a in alts))
    t = schema.get("type")
    if t is not None:
        if isinstance(t, list):
            tests = [_TYPES[x] for x in t]
            checks.append(lambda v, tests=tests: any(f(v) for f in tests))
        else:
            checks.append(_TYPES[t])
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda v, c=const: not v != c)
    if "enum" in schema:
        enum = schema["enum"]
        checks.append(lambda v, e=enum: v in e)
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if lo is not None or hi is not None:
        def number_ok(v: Any, lo: Any = lo, hi: Any = hi) -> bool:
            if isinstance(v, int | float) and not isinstance(v, bool):
                return not ((lo is not None and v < lo) or (hi is not None and v > hi))
            return True
        checks.append(number_ok)
    min_len, max_len = schema.get("minLength"), schema.get("maxLength")
    if min_len is not None or max_len is not None:
        def str_ok(v: Any, lo: Any = min_len, hi: Any = max_len) -> bool:
            if isinstance(v, str) and not (isinstance(v, int | float) and not isinstance(v, bool)):
                return not ((lo is not None and len(v) < lo) or (hi is not None and len(v) > hi))
            return True
        checks.append(str_ok)
    min_items, max_items = schema.get("minItems"), schema.get("maxItems")
    unique = bool(schema.get("uniqueItems"))
    items = accepts(schema["items"]) if schema.get("items") is not None else None
    if min_items is not None or max_items is not None or unique or items is not None:
        def list_ok(v: Any, lo: Any = min_items, hi: Any = max_items, unique: bool = unique,
                    items: Any = items) -> bool:
            if not isinstance(v, list) or isinstance(v, str | int | float):
                return True
            if (lo is not None and len(v) < lo) or (hi is not None and len(v) > hi):
                return False
            if unique and len({repr(x) for x in v}) != len(v):
                return False
            return items is None or all(items(x) for x in v)
        checks.append(list_ok)
    props = {k: accepts(sub) for k, sub in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    extra_ok = accepts(extra) if isinstance(extra, dict) else None
    if props or required or extra is not True:
        def dict_ok(v: Any, props: Any = props, required: Any = required, closed: bool = extra is False,
                    extra_ok: Any = extra_ok) -> bool:
            if not isinstance(v, dict) or isinstance(v, str | int | float | list):
                return True
            for k in required:
                if k not in v:
                    return False
            for k, x in v.items():
                p = props.get(k)
                if p is not None:
                    if not p(x):
                        return False
                elif closed:
                    return False
                elif extra_ok is not None and not extra_ok(x):
                    return False
            return True
        checks.append(dict_ok)
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(c(v) for c in checks)


# --- declarations ---------------------------------------------------------------------------
Check = Callable[[State, int, Action], Any]
Resolve = Callable[[State, int, Action, Any, random.Random], list[Event]]
Lister = Callable[[State, int], Iterable[Action]]


def _no_check(state: State, seat: int, action: Action) -> None:
    return None


@dataclass(frozen=True)
class Move:
    """One kind of action, declared once.

    - `type`: the action's `"type"`, the rulebook's verb (`place_worker`, `launch`).
    - `fields`: JSON Schema of each field besides `type`; all required unless named
      in `optional`.
    - `phases`: the phases in which the move may be made (None: any phase).
    - `check(state, seat, action) -> ctx`: the rules' legality test. Raises
      `IllegalAction` with the reason a player reads; may return a context object
      (what it computed on the way) that `resolve` receives.
    - `resolve(state, seat, action, ctx, rng) -> events`: what the move does.
    - `options(state, seat)`: every legal instance, exactly; or instead
      `candidates(state, seat)`: instances that `check` then filters.
    - `rule`: where the rulebook says it (page/section), shown in docs and schemas.
    - `elsewhere(state, seat, action) -> str` (optional): the reason a player reads when
      the move is tried in a phase that does not allow it (default: "… is not possible now").
    """

    type: str
    resolve: Resolve
    fields: Mapping[str, Schema] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()
    phases: frozenset[str] | None = None
    check: Check = _no_check
    options: Lister | None = None
    candidates: Lister | None = None
    rule: str = ""
    doc: str = ""
    elsewhere: Callable[[State, int, Action], str] | None = None

    def __post_init__(self) -> None:
        if self.phases is not None and not isinstance(self.phases, frozenset):
            object.__setattr__(self, "phases", frozenset(self.phases))
        if not isinstance(self.optional, frozenset):
            object.__setattr__(self, "optional", frozenset(self.optional))
        if (self.options is None) == (self.candidates is None):
            raise TypeError(f"move {self.type!r}: give exactly one of options= or candidates=")
        # Compiled once: each field's acceptance predicate and the required fields.
        object.__setattr__(self, "_accepts", {k: accepts(v) for k, v in self.fields.items()})
        object.__setattr__(self, "_required", tuple(k for k in self.fields if k not in self.optional))

    def schema(self) -> Schema:
        desc = " ".join(x for x in (self.doc, f"({self.rule})" if self.rule else "") if x)
        s: Schema = {
            "type": "object",
            "title": self.type,
            "properties": {"type": {"const": self.type}, **{k: dict(v) for k, v in self.fields.items()}},
            "required": ["type", *[k for k in self.fields if k not in self.optional]],
            "additionalProperties": False,
        }
        if desc:
            s["description"] = desc
        return s

    def validate_shape(self, action: Action) -> None:
        """InvalidAction unless `action` has this move's fields, each fitting its schema. The
        compiled predicates decide; a refused action is worded by `_shape_error`."""
        acc = self._accepts  # type: ignore[attr-defined]
        for k, v in action.items():
            if k != "type":
                ok = acc.get(k)
                if ok is None or not ok(v):
                    return self._shape_error(action)
        for k in self._required:  # type: ignore[attr-defined]
            if k not in action:
                return self._shape_error(action)
        return None

    def _shape_error(self, action: Action) -> None:
        # A field the move does not have is named first: it is the likeliest mistake.
        for k in action:
            if k != "type" and k not in self.fields:
                raise InvalidAction(
                    f"{self.type}: unknown field {k!r}; expected {', '.join(self.fields) or 'no other field'}"
                )
        for k in self.fields:
            if k not in action and k not in self.optional:
                missing = [f for f in self.fields if f not in action and f not in self.optional]
                raise InvalidAction(
                    f"{self.type}: missing field(s) {', '.join(map(repr, missing))}; "
                    f"expected {', '.join(self.fields)}"
                )
        for k, v in action.items():
            if k != "type":
                validate_value(self.fields[k], v, f"{self.type}: field {k!r}")

    def legal(self, state: State, seat: int) -> list[Action]:
        if self.options is not None:
            return list(self.options(state, seat))
        out = []
        for a in self.candidates(state, seat):  # type: ignore[misc]
            try:
                self.check(state, seat, a)
            except IllegalAction:
                continue
            out.append(a)
        return out


@dataclass(frozen=True)
class Branch:
    """A `then` that depends on the state: `choose(state)` names the phase that follows, one of
    `to` (declared, so that the table names every phase a phase may lead to)."""

    choose: Callable[[State], str]
    to: tuple[str, ...]

    def __call__(self, state: State) -> str:
        name = self.choose(state)
        if name not in self.to:
            raise RuntimeError(f"phase branch chose {name!r}, not one of {self.to}")
        return name


def branch(choose: Callable[[State], str], *to: str) -> Branch:
    """`then=branch(lambda s: "over" if s["round"] == LAST else "draft", "draft", "over")`."""
    return Branch(choose, tuple(to))


@dataclass(frozen=True)
class Phase:
    """One phase (or step) of the game, declared once, with its end and what follows.

    - `to_act(state)`: the seats that must decide now (empty while the game runs an
      automatic step, or once it is over).
    - `auto(state, rng) -> events | None`: an automatic step *within* the phase (dealing,
      a refill, an automa's turn, dropping a step with nothing to choose). Returning
      events advances the game; None (or []) means nothing is automatic now.
    - `ends(state) -> bool`: the phase is over: no decision and no automatic step of its
      own remains. The core's settle loop asks it when `auto` gives nothing. `None`: the
      phase has no end of its own for the loop to check; its moves' events (or a step's
      consumed item) leave it, or it is the game's last.
    - `on_end(state, rng) -> events`: what the end itself does (a round's scoring), before
      the phase that follows is entered.
    - `then`: the phase that follows. A name; a `Branch` (`branch(choose, *names)`) when the
      state decides (the last round → the game's end); with `ends=None`, a tuple of the
      phases its moves' events may lead to (declared for readers and checked by the tests).
      The engine's `enter_phase(state, name, rng)` makes the events that enter it.
    - `step`: a decision a seat owes inside whichever phase pushed it (a pending queue's
      item): entered from any phase and left back to it by event handlers.
    - `rule`, `doc`: rulebook reference and a line for the docs; `ends_doc`, the end in
      words for the docs (default: the first line of `ends.__doc__`).
    """

    name: str
    to_act: Callable[[State], Iterable[int]]
    auto: Callable[[State, random.Random], list[Event] | None] | None = None
    rule: str = ""
    doc: str = ""
    ends: Callable[[State], bool] | None = None
    then: str | Branch | tuple[str, ...] | None = None
    on_end: Callable[[State, random.Random], list[Event]] | None = None
    step: bool = False
    ends_doc: str = ""

    def __post_init__(self) -> None:
        if self.ends is not None and not isinstance(self.then, str | Branch):
            raise TypeError(f"phase {self.name!r}: an end (ends=) needs then= a name or a branch()")
        if self.on_end is not None and self.ends is None:
            raise TypeError(f"phase {self.name!r}: on_end= needs ends=")
        if self.step and (self.ends is not None or self.then is not None):
            raise TypeError(f"phase {self.name!r}: a step is left by event handlers (no ends=, no then=)")

    def successors(self) -> tuple[str, ...]:
        """Every phase declared to follow this one."""
        if self.then is None:
            return ()
        if isinstance(self.then, str):
            return (self.then,)
        if isinstance(self.then, Branch):
            return self.then.to
        return tuple(self.then)

    def describe_end(self) -> str:
        """When the phase ends, in words (the docs' flow table)."""
        if self.ends_doc:
            return self.ends_doc
        if self.ends is not None:
            return _first_line(self.ends)
        if self.step:
            return "its item is consumed (event handlers)"
        return "by its moves' events" if self.then else "never: the game is over"

    def describe_on_end(self) -> str:
        return _first_line(self.on_end) if self.on_end is not None else ""


def _first_line(fn: Callable[..., Any]) -> str:
    doc = (fn.__doc__ or "").strip().splitlines()
    return doc[0].rstrip(".") if doc else fn.__name__.strip("_").replace("_", " ")


class RulesEngine(Engine):
    """An engine whose rules are the tables `moves`, `phases` and `on` (event handlers).

    Subclasses set:
    - `moves`: tuple of `Move`;
    - `phases`: tuple of `Phase`;
    - `on`: mapping event type → handler(state, event) returning the new state
      (or None when it mutated `state` in place); the start event's handler gets
      `state=None`;
    - `event_fields` (optional): mapping event type → {field: schema} for the event
      schema; event types absent from it are published with their type only; a type's
      object is closed, so every key an event carries is declared (`private` with
      `event_schema.private(shape)`; the start event's meta keys are added by the core);
    - `event_optional` (optional): mapping event type → the fields of `event_fields` that
      some of its events leave out (published, not required);
    - `view_schema`: JSON Schema of `view()`;
    - `phase_of(state)` if the phase is not `state["phase"]`;
    - `enter_phase(state, name, rng)` if any phase declares an end (`Phase.ends`): the
      events that start the phase `name` (the engine's own phase-start event).
    """

    moves: tuple[Move, ...] = ()
    phases: tuple[Phase, ...] = ()
    on: Mapping[str, Callable[[State, Event], State | None]] = {}
    event_fields: Mapping[str, Mapping[str, Schema]] = {}
    event_optional: Mapping[str, frozenset[str]] = {}
    # Safety bound of automatic steps after one decision.
    max_auto_steps: int = 100_000
    #: Event types after which an automatic step may follow. `None`: any event may (the
    #: settle loop then always looks ahead). An engine that knows which events lead into a
    #: phase with an `auto` step names them, and every other decision skips the look-ahead.
    auto_after: frozenset[str] | None = None
    # Built from the tables by `_build_tables` when a subclass is declared.
    _move_by_type: ClassVar[dict[str, Move]]
    _phase_by_name: ClassVar[dict[str, Phase]]
    _moves_in_phase: ClassVar[dict[str, tuple[Move, ...]]]
    _has_auto: ClassVar[bool]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._build_tables()

    @classmethod
    def _build_tables(cls) -> None:
        cls._move_by_type = {}
        for m in cls.moves:
            if m.type in cls._move_by_type:
                raise TypeError(f"{cls.__name__}: move {m.type!r} declared twice")
            cls._move_by_type[m.type] = m
        cls._phase_by_name = {}
        for p in cls.phases:
            if p.name in cls._phase_by_name:
                raise TypeError(f"{cls.__name__}: phase {p.name!r} declared twice")
            cls._phase_by_name[p.name] = p
        for m in cls.moves:
            for ph in m.phases or ():
                if ph not in cls._phase_by_name:
                    raise TypeError(f"{cls.__name__}: move {m.type!r} names unknown phase {ph!r}")
        for p in cls.phases:
            for ph in p.successors():
                if ph not in cls._phase_by_name:
                    raise TypeError(f"{cls.__name__}: phase {p.name!r} names unknown phase {ph!r} to follow")
        ending = [p.name for p in cls.phases if p.ends is not None]
        if ending and cls.enter_phase is RulesEngine.enter_phase:
            raise TypeError(f"{cls.__name__}: phase(s) {ending} declare an end: the engine needs enter_phase")
        cls._moves_in_phase = {
            p.name: tuple(m for m in cls.moves if m.phases is None or p.name in m.phases) for p in cls.phases
        }
        cls._has_auto = any(p.auto is not None or p.ends is not None for p in cls.phases)
        if cls.moves:
            cls.action_schema = {
                "$schema": JSON_SCHEMA_DIALECT,
                "title": f"{cls.name} action",
                "oneOf": [m.schema() for m in cls.moves],
            }
        if cls.on:
            cls.event_schema = {
                "$schema": JSON_SCHEMA_DIALECT,
                "title": f"{cls.name} event",
                "oneOf": [event_type(t, dict(cls.event_fields.get(t, {})), cls.event_optional.get(t, frozenset()),
                                     cls.options_schema) for t in cls.on],
            }

    # --- the tables' interpreters -------------------------------------------------------------
    def phase_of(self, state: State) -> str:
        return state["phase"]

    def phase(self, state: State) -> Phase:
        return self._phase_by_name[self.phase_of(state)]

    def move(self, action: Any) -> Move:
        """The move an action names, its shape checked (InvalidAction otherwise)."""
        if not isinstance(action, dict):
            raise InvalidAction("an action must be a JSON object")
        if not isinstance(action.get("type"), str):
            raise InvalidAction('an action needs a string "type"')
        return self._declared_move(action)

    def _declared_move(self, action: Action) -> Move:
        # `action` is an object with a string "type" (move(), or the core's check_action).
        t = action["type"]
        m = self._move_by_type.get(t)
        if m is None:
            raise InvalidAction(f"unknown action type {t!r}; expected one of {sorted(self._move_by_type)}")
        m.validate_shape(action)
        return m

    def check_shape(self, action: Action) -> None:
        self._declared_move(action)

    def decide(self, state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
        return self._decide(self.move(action), state, seat, action, rng)

    def decide_checked(self, state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
        # check_action validated the shape (check_shape): the move is only looked up.
        return self._decide(self._move_by_type[action["type"]], state, seat, action, rng)

    def _decide(self, m: Move, state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
        phase = self.phase_of(state)
        if m.phases is not None and phase not in m.phases:
            raise IllegalAction(self.wrong_phase(state, seat, m, action))
        ctx = m.check(state, seat, action)
        events = list(m.resolve(state, seat, action, ctx, rng))
        return self.settle(state, events, rng)

    def settle(self, state: State, events: list[Event], rng: random.Random) -> list[Event]:
        """`events` followed by the automatic steps they set off, until a decision is
        awaited or the game is over. `state` is not mutated."""
        if not self._has_auto:
            return events
        if self.auto_after is not None and not any(e["type"] in self.auto_after for e in events):
            return events
        s = self.fork(state)
        for e in events:
            s = self.evolve(s, e)
        for _ in range(self.max_auto_steps):
            if self.outcome(s) is not None:
                return events
            s, more = self.advance(s, rng)
            if not more:
                return events
            events.extend(more)
        raise RuntimeError(f"{self.name}: automatic steps did not stop after {self.max_auto_steps}")

    def advance(self, s: State, rng: random.Random) -> tuple[State, list[Event]]:
        """One automatic step from `s`, evolved into it (`s` is the settle loop's own copy): the
        current phase's `auto`; else, when the phase `ends`, its `on_end` and the entry into its
        `then` (chosen after `on_end`'s events). No events: a decision is awaited."""
        phase = self._phase_by_name[self.phase_of(s)]
        if phase.auto is not None:
            more = phase.auto(s, rng)
            if more:
                for e in more:
                    s = self.evolve(s, e)
                return s, more
        if phase.ends is None or not phase.ends(s):
            return s, []
        out: list[Event] = []
        if phase.on_end is not None:
            out = list(phase.on_end(s, rng))
            for e in out:
                s = self.evolve(s, e)
        then = phase.then
        if not isinstance(then, str):
            then = cast(Branch, then)(s)  # Phase() allows only a name or a Branch beside ends=
        entry = self.enter_phase(s, then, rng)
        for e in entry:
            s = self.evolve(s, e)
        out.extend(entry)
        return s, out

    def enter_phase(self, state: State, name: str, rng: random.Random) -> list[Event]:
        """The events that start phase `name` after a declared end (`Phase.then`): the engine's
        own phase-start event. `state` is after the ending phase's `on_end` events. An engine
        whose phases declare no end needs none (one that does without it is refused when its
        class is declared); this default is never reached."""
        raise TypeError(f"{self.name}: a phase declares an end but the engine has no enter_phase")

    def fork(self, state: State) -> State:
        """The look-ahead copy `settle` evolves (the caller's `state` is never mutated). A full
        `clone` by default; an engine whose event handlers touch only part of the state may
        return a shallower copy of that part."""
        return clone(state)

    def wrong_phase(self, state: State, seat: int, move: Move, action: Action) -> str:
        """The reason a player reads when `move` is tried in a phase that does not allow it:
        the move's own `elsewhere`, else a generic sentence. Engines may override it."""
        if move.elsewhere is not None:
            return move.elsewhere(state, seat, action)
        return f"{move.type} is not possible now ({self.describe_phase(state)})"

    def describe_phase(self, state: State) -> str:
        p = self.phase(state)
        return p.doc or f"phase {p.name}"

    def to_act(self, state: State) -> set[int]:
        return set(self.phase(state).to_act(state))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        out: list[Action] = []
        for m in self._moves_in_phase[self.phase_of(state)]:
            out.extend(m.legal(state, seat))
        return out

    def evolve(self, state: State, event: Event) -> State:
        new = self.on[event["type"]](state, event)
        return state if new is None else new

    def rules_table(self) -> list[dict[str, Any]]:
        """The declarations as rows (for docs): moves then phases, with their references."""
        rows: list[dict[str, Any]] = [
            {"kind": "move", "name": m.type, "phases": sorted(m.phases or ()), "rule": m.rule, "doc": m.doc}
            for m in self.moves]
        rows += [{"kind": "phase", "name": p.name, "rule": p.rule, "doc": p.doc, "ends": p.describe_end(),
                  "then": list(p.successors()), "automatic": p.ends is not None, "step": p.step}
                 for p in self.phases]
        return rows

    def flow(self) -> str:
        """The declared flow as a Markdown table, a row a phase: when it ends (automatic: the
        settle loop checks `ends`; else its moves' events end it), what its end does, and the
        phase(s) that follow. Each engine's RULES.md shows it (`python -m tablero.engines.core.flow`)."""
        rows = ["| Phase | Ends | At its end | Then |", "|---|---|---|---|"]
        for p in self.phases:
            end = p.describe_end()
            if p.ends is not None and not end.startswith("at once"):
                end = f"automatic: {end}"
            then = "back to the phase it interrupted" if p.step else " or ".join(f"`{n}`" for n in p.successors())
            rows.append(f"| `{p.name}`{' (step)' if p.step else ''} | {end} | {p.describe_on_end()} | {then or '-'} |")
        return "\n".join(rows) + "\n"


def decide_action(engine: Engine, state: State, seat: Any, action: Any, rng: random.Random) -> list[Event]:
    """The decide loop's one entry for an action from outside (a player, a replayed log): the
    core's checks (`check_action`), then the engine's decide, which does not check the shape
    again. Every layer validates what it owns once: the transports that a request is an
    object, the service its own fields (request id, expected version, the caller's seat),
    this the action (shape, seat, turn, game over), the engine's moves its legality."""
    check_action(engine, state, seat, action)
    return engine.decide_checked(state, seat, action, rng)


def check_action(engine: Engine, state: State, seat: Any, action: Any) -> None:
    """Checks the core does before an engine's decide(): shape, seat, turn, game over."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise InvalidAction('an action must be a JSON object with a string "type"')
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InvalidAction("seat must be an integer")
    engine.check_shape(action)  # a malformed action is that, whoever sends it and whenever
    if engine.outcome(state) is not None:
        raise IllegalAction("the game is over")
    if seat not in engine.to_act(state):
        raise IllegalAction(f"seat {seat} may not act now; waiting for {sorted(engine.to_act(state))}")
