"""What an event schema publishes beside an engine's own fields, so that every key a client is
sent is declared (and typed in the generated clients):

- the keys the core stamps on the first event of every log (`START_META_KEYS`: `engine`,
  `engine_version`, `seats`, `options`), on the start event's type;
- `private`, the part of an event only one seat sees (`Engine.event_view` shows a seat its own
  part and a spectator none), declared by the engine with `private(shape)`.

Each event type's object is closed (`additionalProperties: false`), so the test kit's check of
real events against the schema fails on a key the engine emits without declaring it.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

# The type of the first event of every log in every engine (the core stamps it with the meta keys).
START_EVENT_TYPE = "game_started"
# Keys of an event's `private` part: seat numbers, as strings.
SEAT_KEY = "^(0|[1-9][0-9]*)$"


def private(shape: Schema) -> Schema:
    """An event's `private` field: seat number (as a string) → what only that seat sees. A
    seat is sent its own part only, a spectator none (so the field is never required)."""
    return {
        "type": "object",
        "description": "what only the seat named by the key (its number) sees: sent to that seat alone",
        "propertyNames": {"pattern": SEAT_KEY},
        "additionalProperties": shape,
    }


def start_fields(options_schema: Schema | None) -> dict[str, Schema]:
    """The meta keys of the first event as published (the options as the engine declares them)."""
    options = {k: v for k, v in (options_schema or {}).items() if k not in ("$schema", "title")}
    return {
        "engine": {"type": "string", "description": "the engine's name"},
        "engine_version": {"type": "integer", "minimum": 1, "description": "the engine version of the log"},
        "seats": {"type": "integer", "minimum": 1, "description": "the number of seats"},
        "options": {**(options or {"type": "object", "properties": {}, "additionalProperties": False}),
                    "description": "the options the game was created with"},
    }


def event_type(t: str, fields: Schema, optional: frozenset[str] | set[str] = frozenset(),
               options_schema: Schema | None = None) -> Schema:
    """One closed event type: its `type`, its fields (`private` never required) and, for the
    start event, the meta keys (optional: old logs may lack some)."""
    props: Schema = {"type": {"const": t}, **fields}
    if t == START_EVENT_TYPE:
        props.update({k: v for k, v in start_fields(options_schema).items() if k not in props})
    return {
        "type": "object",
        "title": t,
        "properties": props,
        "required": ["type", *[k for k in fields if k not in optional and k != "private"]],
        "additionalProperties": False,
    }


def with_start_fields(event_schema: Schema, options_schema: Schema | None) -> Schema:
    """An event schema (a `oneOf` of event types) with the meta keys added to the start event's
    type, for an engine that writes its event schema by hand."""
    out = dict(event_schema)
    out["oneOf"] = [
        {**alt, "properties": {**alt["properties"],
                               **{k: v for k, v in start_fields(options_schema).items()
                                  if k not in alt["properties"]}}}
        if alt.get("title") == START_EVENT_TYPE else alt
        for alt in event_schema["oneOf"]
    ]
    return out


def engine_fields(event_schema: Schema | None) -> Schema | None:
    """The event schema without the start event's meta keys: what the engine itself declares
    (its catalogs word those fields; the options a game was created with are the lobby's)."""
    if not event_schema or "oneOf" not in event_schema:
        return event_schema
    meta = set(start_fields(None))
    return {**event_schema, "oneOf": [
        {**alt, "properties": {k: v for k, v in alt["properties"].items() if k not in meta}}
        if alt.get("title") == START_EVENT_TYPE else alt
        for alt in event_schema["oneOf"]]}
