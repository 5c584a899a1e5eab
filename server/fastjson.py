"""JSON on the hot paths (answers, SSE frames, events read back from a store): orjson,
with the standard library as the fallback for what orjson refuses (integers beyond 64 bits).

Output is compact JSON with non-ASCII kept as UTF-8 — what `json.dumps(...,
ensure_ascii=False, separators=(",", ":"))` gives. Events written to a store keep the
standard library's text (their hashes chain over it): this module only reads them.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def _stdlib(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def dumps(data: Any) -> bytes:
    """Compact UTF-8 JSON bytes. NaN and infinities (which no engine state or view holds:
    every input is strict JSON) come out as null."""
    try:
        return orjson.dumps(data, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return _stdlib(data)  # big integers, ...: the standard library's answer (or its error)


def loads(text: bytes | str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)  # big integers, ...: the standard library's reading (or its error)
