"""Encode once per audience (issue 39): the watch hands every watcher of one audience the same
reply object (server.app.watching), so a transport that has encoded a reply keeps the result
for the next watcher that is sent the same object: one JSON encoding (SSE) or one message
(gRPC, Connect) per event and audience, however many watch.

`Encoded` remembers the last few encodings by the object's identity, holding the object so
that its identity is not reused while it is remembered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Encoded:
    def __init__(self, encode: Callable[[Any], Any], size: int = 256) -> None:
        self._encode = encode
        self._size = size
        self._kept: dict[int, tuple[Any, Any]] = {}
        self.encoded = 0  # encodings made (not found kept)

    def __call__(self, data: Any) -> Any:
        key = id(data)
        found = self._kept.get(key)
        if found is not None and found[0] is data:
            return found[1]
        out = self._encode(data)
        self.encoded += 1
        kept = self._kept
        kept[key] = (data, out)
        if len(kept) > self._size:
            del kept[next(iter(kept))]  # the oldest
        return out
