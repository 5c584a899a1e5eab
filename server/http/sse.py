"""Server-Sent Events framing of the watch items (the format is documented in the
OpenAPI document and the README)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from tablero.server import fastjson
from tablero.server.api import observe
from tablero.server.api.fanout import Encoded
from tablero.server.api.status import app_error_body
from tablero.server.api.watch import WatchItem
from tablero.server.errors import AppError

# Game events are default messages (no `event:` line), so EventSource.onmessage sees them.
# Control messages are named `tablero-<kind>` (`tablero-end`, `tablero-reset`, `tablero-shutdown`,
# `tablero-error`): none collides with EventSource's own `open`, `message` and `error` events.
# After `tablero-end` the client should not reconnect (long retry).
# Until the next major version, `end`, `reset` and `shutdown` (the names before) come first, each
# followed by its new name: a client written against the old names acts on the first and stops
# (end) or reconnects (shutdown) before it meets a name it does not know. The old `event: error`
# is not sent any more (an EventSource delivered it to onerror, mixed with connection errors).
OPENING = b": watching\n\n"
PREFIX = "tablero-"
LEGACY = frozenset({"end", "reset", "shutdown"})


def _data(obj: object) -> str:
    return fastjson.dumps(obj).decode()


def _encode_event(data: dict) -> bytes:
    return b"id: %d\ndata: %b\n\n" % (data["version"], fastjson.dumps(data))


# One encoding per event and audience, however many watch it (server.api.fanout).
_event_frame = Encoded(_encode_event)


def frame(item: WatchItem, legacy: bool = True) -> bytes:
    """One SSE message (two for a control message with a legacy name, unless `legacy` is off:
    the caller said it is an EventSource, WatchGameRequest.event_source)."""
    if item.kind == "event":
        return _event_frame(item.data)
    if item.kind == "keepalive":
        return b": keepalive\n\n"
    retry = "retry: 3600000\n" if item.kind == "end" else ""
    if item.kind == "reset":  # a reconnecting EventSource resumes from the reset version
        retry = f"id: {item.data['version']}\n"
    data = _data(item.data)
    new = f"event: {PREFIX}{item.kind}\ndata: {data}\n\n"
    if legacy and item.kind in LEGACY:
        return f"{retry}event: {item.kind}\ndata: {data}\n\n{new}".encode()
    return f"{retry}{new}".encode()


def event_source(request: Any, rpc: Any = None) -> bool:
    """`?eventSource=true` (WatchGameRequest.event_source): the caller is a browser EventSource.
    Only on a watch whose request has the field (`rpc`'s query names): on another the parameter
    is an unknown one, refused as any other, not half honoured."""
    return request.query_params.get("eventSource") == "true" and (rpc is None or "eventSource" in rpc.query_names)


def failed(item: WatchItem) -> None:
    """A stream that ends with an error item is recorded (log line, RPC metrics) with that
    error's code, not as OK: its 200 was sent before the failure."""
    observe.current().failed = item.data.get("error", {}).get("code") or "UNKNOWN"


# The items that say how a stream ended, for its log line (record below).
ENDINGS = frozenset({"error", "shutdown"})


def record(item: WatchItem) -> None:
    """How the stream ended, on its call: an error item's code (failed), or a graceful shutdown's
    `"ended": "shutdown"` (code OK: a watch served to its planned end, as gRPC's line says it)."""
    if item.kind == "error":
        failed(item)
    elif item.kind == "shutdown":
        observe.current().fields["ended"] = "shutdown"


async def stream(items: AsyncIterator[WatchItem], legacy: bool = True) -> AsyncIterator[bytes]:
    try:
        yield OPENING
        async for item in items:
            if item.kind in ENDINGS:
                record(item)
            yield frame(item, legacy)
    finally:  # at once, not when the collector finds it: the watch holds a store watcher
        await items.aclose()  # type: ignore[attr-defined]


def refusal(e: AppError) -> bytes:
    """The body of a watch refused before streaming, for a client that asked for SSE: one
    `tablero-error` message with the error's code, message and reason."""
    return frame(WatchItem("error", app_error_body(e)))
