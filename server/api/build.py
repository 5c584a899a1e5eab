"""A use case's answer (its JSON form) → the response message, fast.

`json_format.ParseDict` walks the descriptor for every field of every answer, in Python:
about three quarters of the gRPC path's own time per move was there. `Builder` walks each
message type's descriptor once and keeps, per JSON key, the setter for its field, so an answer
is built with direct assignments, `extend` and `Struct.update` (protobuf's public API). The
result equals ParseDict's (tests/server/test_build.py compares them on real answers of every
RPC and engine); anything this builder does not know how to set (a field kind it has no
setter for, a value of an unexpected type) falls back to ParseDict, whose error is the one
raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

Setter = Callable[[Message, Any], None]

_SCALARS = {FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_DOUBLE,
            FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64,
            FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT32,
            FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_FIXED64,
            FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64}
_TIMES = {"google.protobuf.Timestamp", "google.protobuf.Duration"}


class Unsupported(Exception):
    """A field kind this builder leaves to ParseDict."""


def _set_value(value_msg: Message, value: Any) -> None:
    """A google.protobuf.Value from any JSON value."""
    if value is None:
        value_msg.null_value = 0
    elif isinstance(value, bool):
        value_msg.bool_value = value
    elif isinstance(value, (int, float)):
        value_msg.number_value = value
    elif isinstance(value, str):
        value_msg.string_value = value
    elif isinstance(value, dict):
        value_msg.struct_value.update(value)
    elif isinstance(value, list):
        value_msg.list_value.extend(value)
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


class Builder:
    def __init__(self) -> None:
        self._plans: dict[str, dict[str, Setter] | None] = {}

    def build(self, message_cls: type, data: dict[str, Any]) -> Message:
        message = message_cls()
        try:
            self._fill(message, data)
        except Exception:  # noqa: BLE001 - ParseDict decides, and says what is wrong
            return json_format.ParseDict(data, message_cls(), ignore_unknown_fields=True)
        return message

    def _fill(self, message: Message, data: dict[str, Any]) -> None:
        plan = self._plan(message.DESCRIPTOR)
        if plan is None:
            raise Unsupported(message.DESCRIPTOR.full_name)
        for key, value in data.items():
            setter = plan.get(key)
            if setter is not None and value is not None:
                setter(message, value)

    def _plan(self, descriptor: Descriptor) -> dict[str, Setter] | None:
        name = descriptor.full_name
        if name not in self._plans:
            self._plans[name] = None  # a recursive type refers to itself while it is planned
            try:
                plan: dict[str, Setter] = {}
                for f in descriptor.fields:
                    setter = self._setter(f)
                    plan[f.json_name] = plan[f.name] = setter
                self._plans[name] = plan
            except Unsupported:
                self._plans[name] = None
        return self._plans[name]

    def _setter(self, f: FieldDescriptor) -> Setter:
        name = f.name
        repeated = f.is_repeated
        if f.type in _SCALARS:
            if repeated:
                return lambda m, v: getattr(m, name).extend(v)

            def scalar(m: Message, v: Any) -> None:
                setattr(m, name, v)

            return scalar
        if f.type == FieldDescriptor.TYPE_ENUM:
            numbers = {v.name: v.number for v in f.enum_type.values}

            def number(v: Any) -> int:
                return numbers[v] if isinstance(v, str) else int(v)

            if repeated:
                return lambda m, v: getattr(m, name).extend([number(x) for x in v])
            return lambda m, v: setattr(m, name, number(v))
        if f.type != FieldDescriptor.TYPE_MESSAGE:
            raise Unsupported(f.full_name)  # bytes (base64 in JSON), groups
        sub = f.message_type
        full = sub.full_name
        if sub.GetOptions().map_entry:
            value_field = sub.fields_by_name["value"]
            if value_field.type in _SCALARS:
                return lambda m, v: getattr(m, name).update(v)
            if value_field.type == FieldDescriptor.TYPE_MESSAGE and self._plan(value_field.message_type) is not None:
                fill = self._fill

                def map_of_messages(m: Message, v: dict[str, Any]) -> None:
                    target = getattr(m, name)
                    for k, item in v.items():
                        fill(target[k], item)

                return map_of_messages
            raise Unsupported(f.full_name)
        if full == "google.protobuf.Struct":
            if repeated:
                raise Unsupported(f.full_name)
            return lambda m, v: getattr(m, name).update(v)
        if full == "google.protobuf.ListValue":
            if repeated:
                raise Unsupported(f.full_name)
            return lambda m, v: getattr(m, name).extend(v)
        if full == "google.protobuf.Value":
            if repeated:
                return lambda m, v: [_set_value(getattr(m, name).add(), x) for x in v] and None
            return lambda m, v: _set_value(getattr(m, name), v)
        if full in _TIMES:
            if repeated:
                return lambda m, v: [getattr(m, name).add().FromJsonString(x) for x in v] and None
            return lambda m, v: getattr(m, name).FromJsonString(v)
        if full.startswith("google.protobuf."):
            raise Unsupported(f.full_name)  # Any, wrappers, FieldMask, Empty: left to ParseDict
        fill = self._fill
        if repeated:
            def messages(m: Message, v: list[Any]) -> None:
                target = getattr(m, name)
                for item in v:
                    fill(target.add(), item)

            return messages

        def message(m: Message, v: dict[str, Any]) -> None:
            fill(getattr(m, name), v)

        return message


_BUILDER = Builder()
build = _BUILDER.build
