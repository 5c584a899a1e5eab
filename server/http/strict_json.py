"""Request JSON, strictly: duplicate keys, NaN/Infinity, nesting deeper than
`MAX_DEPTH` and integers longer than `MAX_INT_DIGITS` are refused with a message
naming the problem (instead of "the last key wins" or a 500)."""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64
MAX_INT_DIGITS = 30


class BadJson(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise BadJson(f"duplicate key {k!r} in the JSON body")
        out[k] = v
    return out


def _constant(name: str) -> Any:
    raise BadJson(f"{name} is not valid JSON")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadJson(f"a number in the JSON body has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> int | float:
    # A number with no fraction (4.0, 1e2) is that integer, as JSON Schema and gRPC (whose
    # Struct numbers are all doubles) take it: 4.0 is the same cell as 4 on both transports.
    value = float(text)
    return int(value) if value.is_integer() and abs(value) <= 2**53 else value


def _depth_ok(raw: str) -> bool:
    depth = 0
    in_str = esc = False
    for ch in raw:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")

# One decoder for every body (json.loads with hooks builds a decoder and its scanner per call).
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_int=_int, parse_float=_float)


def loads(raw: bytes | str) -> Any:
    """Parse a request body; BadJson with a readable reason otherwise."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise BadJson("the body is not UTF-8") from None
    if len(text) > MAX_DEPTH and not _depth_ok(text):  # a shorter text cannot nest deeper
        raise BadJson(f"the JSON body nests deeper than {MAX_DEPTH} levels")
    try:
        value = _DECODER.decode(text)
    except BadJson:
        raise
    except json.JSONDecodeError as e:
        raise BadJson(f"malformed JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        # A lone surrogate escape ("\\ud800" without its pair) decodes to a str that is not
        # Unicode text: stored, it would fail every answer that shows it (a user name in the
        # lobby). A pair (an emoji written as two escapes) is one character and passes.
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise BadJson("a string in the JSON body holds a lone UTF-16 surrogate escape (\\ud800-\\udfff "
                          "without its pair): not Unicode text") from None
    return value


def last_event_id(value: str | None, max_digits: int = 10) -> int | None:
    """A `Last-Event-ID` header as a version, or None when absent/not a plain number
    of at most `max_digits` digits (so 5,000-digit ids are ignored, not a 500)."""
    if not value or len(value) > max_digits or not value.isdigit() or not value.isascii():
        return None
    return int(value)
