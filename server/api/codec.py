"""Requests on the wire → one JSON form (the protobuf JSON mapping, lowerCamelCase).

REST bodies, path and query parameters are checked strictly against the request
message's descriptor (unknown fields, wrong JSON types); gRPC messages are already
typed and only converted. Either way the use cases get the same dict.
"""

from __future__ import annotations

import math
import re
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from tablero.server.api.build import build
from tablero.server.errors import InvalidArgument

_INTS = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32,
         FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32}
_INTEGER = re.compile(r"-?[0-9]{1,30}")
_FLOATS = {FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT}
_JSON_VALUES = {"google.protobuf.Struct": dict, "google.protobuf.Value": object, "google.protobuf.ListValue": list}


_EXACT = 2.0**53  # a double holds every integer up to here exactly


def struct_to_json(value: Any) -> Any:
    """google.protobuf.Struct numbers are doubles: give integral ones back as ints (those a
    double holds exactly: 1e40 stays a float, as REST reads it, not a 41-digit integer)."""
    if isinstance(value, float) and value.is_integer() and -_EXACT <= value <= _EXACT:
        return int(value)
    if isinstance(value, dict):
        return {k: struct_to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [struct_to_json(v) for v in value]
    return value


def from_message(message: Message) -> dict[str, Any]:
    """A gRPC request as its JSON form (unset fields absent)."""
    try:
        return struct_to_json(json_format.MessageToDict(message))
    except (json_format.Error, ValueError) as e:  # NaN/Infinity in a Struct, ...
        raise InvalidArgument(f"not JSON: {e}") from None


def to_message(message_cls: type, data: dict[str, Any]) -> Message:
    """A use case's answer (already in the JSON form) as the response message (unknown keys
    ignored), as json_format.ParseDict builds it, faster (server.api.build)."""
    return build(message_cls, data)


def _kind(f: FieldDescriptor) -> str:
    if f.type in _INTS:
        return "an integer"
    if f.type in _FLOATS:
        return "a number"
    if f.type == FieldDescriptor.TYPE_BOOL:
        return "true or false"
    if f.type == FieldDescriptor.TYPE_ENUM:
        return "one of " + ", ".join(v.name for v in f.enum_type.values[1:])
    if f.type == FieldDescriptor.TYPE_MESSAGE:
        return "a JSON object" if _JSON_VALUES.get(f.message_type.full_name, dict) is dict else "a JSON value"
    return "a string"


def _as_proto_json(f: FieldDescriptor, value: Any) -> Any:
    """A scalar in a form the protobuf JSON mapping also accepts, as its usual one: an integer
    field's decimal string ("5"; proto3 JSON parsers take both), an enum's number."""
    if isinstance(value, str) and f.type in _INTS and _INTEGER.fullmatch(value):
        return int(value)
    if f.type == FieldDescriptor.TYPE_ENUM and isinstance(value, int) and not isinstance(value, bool):
        named = f.enum_type.values_by_number.get(value)
        return named.name if named is not None else value
    return value


def _check_scalar(f: FieldDescriptor, value: Any, where: str, ignore_unknown: bool = False) -> None:
    ok: bool
    if f.type in _INTS:
        # Out-of-range integers are left to the use case, whose message says what range fits.
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif f.type in _FLOATS:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    elif f.type == FieldDescriptor.TYPE_BOOL:
        ok = isinstance(value, bool)
    elif f.type == FieldDescriptor.TYPE_ENUM:
        ok = isinstance(value, str) and value in f.enum_type.values_by_name
    elif f.type == FieldDescriptor.TYPE_MESSAGE:
        full = f.message_type.full_name
        if full in _JSON_VALUES:
            ok = isinstance(value, _JSON_VALUES[full])
        else:
            if not isinstance(value, dict):
                raise InvalidArgument(f"{where} must be a JSON object")
            check(f.message_type, value, where + ".", ignore_unknown)
            return
    else:
        ok = isinstance(value, str)
    if not ok:
        given = f", not {value!r}"[:80] if f.type == FieldDescriptor.TYPE_ENUM and isinstance(value, str) else ""
        raise InvalidArgument(f"{where} must be {_kind(f)}{given}")


_FIELDS: dict[str, dict[str, FieldDescriptor]] = {}


def _json_fields(message: Descriptor) -> dict[str, FieldDescriptor]:
    """A message's fields by JSON name (asked for every request body: kept per message)."""
    fields = _FIELDS.get(message.full_name)
    if fields is None:
        fields = _FIELDS[message.full_name] = {f.json_name: f for f in message.fields}
    return fields


_ALIASES: dict[str, dict[str, str]] = {}


def _proto_names(message: Descriptor) -> dict[str, str]:
    """A message's proto field names that differ from their JSON names (on_leave -> onLeave)."""
    aliases = _ALIASES.get(message.full_name)
    if aliases is None:
        aliases = _ALIASES[message.full_name] = {f.name: f.json_name for f in message.fields if f.name != f.json_name}
    return aliases


def check(message: Descriptor, data: dict[str, Any], prefix: str = "", ignore_unknown: bool = False) -> None:
    """Raise InvalidArgument unless `data` is `message` in the JSON mapping: known field
    names, each with its JSON type. As the protobuf JSON mapping says of parsers, a field may
    be named by its proto name too (`on_leave`): `data` is then given its lowerCamelCase name
    (`onLeave`), the one form the use cases see. `ignore_unknown` (Connect JSON: forward
    compatibility) leaves unknown field names in `data`, unchecked, instead of refusing them."""
    fields = _json_fields(message)
    unknown = [k for k in data if k not in fields]
    if unknown:
        aliases = _proto_names(message)
        for k in unknown:
            if k in aliases:
                if aliases[k] in data:
                    raise InvalidArgument(f"{prefix}{aliases[k]} is given twice (also as {prefix}{k})")
                data[aliases[k]] = data.pop(k)
        unknown = sorted(k for k in unknown if k not in aliases)
    if unknown and not ignore_unknown:
        raise InvalidArgument(f"unknown field(s) {', '.join(prefix + u for u in unknown)}; "
                              f"expected {', '.join(sorted(fields))}")
    for name, value in data.items():
        if name not in fields:
            continue  # unknown, and ignored (ignore_unknown)
        f, where = fields[name], prefix + name
        if value is None:
            continue  # JSON null is "not set"
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            if not isinstance(value, dict):
                raise InvalidArgument(f"{where} must be a JSON object")
            vf = f.message_type.fields_by_name["value"]
            for k, v in value.items():
                value[k] = v = _as_proto_json(vf, v)
                _check_scalar(vf, v, f"{where}.{k}", ignore_unknown)
        elif f.is_repeated:
            if not isinstance(value, list):
                raise InvalidArgument(f"{where} must be a list")
            for i, v in enumerate(value):
                value[i] = v = _as_proto_json(f, v)
                _check_scalar(f, v, f"{where}[{i}]", ignore_unknown)
        else:
            if value.__class__ is str or f.type == FieldDescriptor.TYPE_ENUM:
                data[name] = value = _as_proto_json(f, value)
            _check_scalar(f, value, where, ignore_unknown)


def query_value(f: FieldDescriptor, raw: str) -> Any:
    """A query-string parameter as its JSON value (integers parsed; an enum's number as its name,
    as in a body: `?status=1` is `GAME_STATUS_RUNNING`; strings as they are)."""
    if f.type == FieldDescriptor.TYPE_ENUM and _INTEGER.fullmatch(raw):
        return _as_proto_json(f, int(raw))
    if f.type in _INTS:
        # ASCII digits only, as JSON writes them: int() would also take " 1", "1_0", "+1" and
        # other scripts' digits.
        if not _INTEGER.fullmatch(raw):
            raise InvalidArgument(f"query parameter {f.json_name} must be an integer")
        return int(raw)
    if f.type == FieldDescriptor.TYPE_BOOL:
        if raw not in ("true", "false"):
            raise InvalidArgument(f"query parameter {f.json_name} must be true or false")
        return raw == "true"
    return raw


LARGE = 64 * 1024  # bytes of JSON, roughly: from here on answers are encoded in a worker thread


def _estimate(value: Any, depth: int = 0) -> int:
    """A rough JSON size: lists count as their length times their first item's size, so
    the cost is that of one item per list, not of the whole answer."""
    if isinstance(value, dict):
        if depth > 8:
            return 16 * len(value)
        return 2 + sum(len(k) + 4 + _estimate(v, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return 2 + len(value) * (1 + _estimate(value[0], depth + 1)) if value else 2
    if isinstance(value, str):
        return len(value) + 2
    return 4


LONG = 64  # items: only an answer holding a list longer than this can be large


def _has_long_list(value: Any, depth: int = 0) -> bool:
    if type(value) is list and len(value) > LONG:
        return True
    if depth < 6:  # a plain loop: this runs for every answer
        for v in value.values() if type(value) is dict else value:
            if (type(v) is dict or type(v) is list) and _has_long_list(v, depth + 1):
                return True
    return False


def is_large(value: Any, limit: int = LARGE) -> bool:
    """Whether `value`'s JSON is likely over `limit` bytes (estimated, not encoded). What
    grows without bound is lists (legal actions, event pages, logs): an answer without a
    long one is small, which is found without sizing it (most answers: a game's view)."""
    if not (type(value) is dict or type(value) is list) or not _has_long_list(value):
        return False
    return _estimate(value) > limit
