"""Server-Sent Events framing of the watch items (the format is documented in the
OpenAPI document and the README)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from server import fastjson
from server.api import observe
from server.api.watch import WatchItem

# Game events are default messages (no `event:` line), so EventSource.onmessage sees them.
# Control messages are named. After `end` the client should not reconnect (long retry).
OPENING = b": watching\n\n"


def _data(obj: object) -> str:
    return fastjson.dumps(obj).decode()


def frame(item: WatchItem) -> bytes:
    if item.kind == "event":
        return b"id: %d\ndata: %b\n\n" % (item.data["version"], fastjson.dumps(item.data))
    if item.kind == "keepalive":
        return b": keepalive\n\n"
    retry = "retry: 3600000\n" if item.kind == "end" else ""
    if item.kind == "reset":  # a reconnecting EventSource resumes from the reset version
        retry = f"id: {item.data['version']}\n"
    return f"{retry}event: {item.kind}\ndata: {_data(item.data)}\n\n".encode()


def failed(item: WatchItem) -> None:
    """A stream that ends with an error item is recorded (log line, RPC metrics) with that
    error's code, not as OK: its 200 was sent before the failure."""
    observe.current().failed = item.data.get("error", {}).get("code") or "UNKNOWN"


async def stream(items: AsyncIterator[WatchItem]) -> AsyncIterator[bytes]:
    try:
        yield OPENING
        async for item in items:
            if item.kind == "error":
                failed(item)
            yield frame(item)
    finally:  # at once, not when the collector finds it: the watch holds a store watcher
        await items.aclose()  # type: ignore[attr-defined]


def refusal(code: str, message: str) -> bytes:
    """The body of a watch refused before streaming, for a client that asked for SSE."""
    return frame(WatchItem("error", {"error": {"code": code, "message": message}}))
