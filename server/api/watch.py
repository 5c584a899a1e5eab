"""The one watch loop both transports stream from: game events, then control messages.

`items()` turns a use case's event iterator into WatchItems: each event; `end`
after the last event of a finished game; `shutdown` when the server stops;
`error` when the stream fails after it started; `keepalive` after a quiet period
(only when asked: SSE wants them, gRPC has its own pings); `reset` with {"version": N}
when the store's history was rewritten under the watcher (it lost acknowledged events,
e.g. a Redis crash inside the AOF fsync window): every event after version N the client
was sent is void, and the events that follow are versions N+1... of the new history.
SSE sends it as a named `reset` message; gRPC ends the stream with ABORTED.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal

from server.api.status import error_body
from server.errors import AppError
from server.store.base import Reset

log = logging.getLogger("tablero.api")

Kind = Literal["event", "end", "shutdown", "error", "keepalive", "reset"]


@dataclass(frozen=True)
class WatchItem:
    kind: Kind
    data: dict[str, Any]


_DONE = object()
_STOP = object()  # the server is stopping
_KEEPALIVE = object()  # nothing came for a while
_QUEUE = 256


async def items(events: AsyncIterator[dict[str, Any]], shutting_down: asyncio.Event,
                keepalive: float | None = None) -> AsyncIterator[WatchItem]:
    # A pump task reads the use case's events into a queue; the loop below takes them. The
    # shutdown and the keep-alives (when nothing came for `keepalive` seconds) reach the queue
    # as sentinels from their own tasks, so each item costs one queue get: no task, wait or
    # timer per item.
    queue: asyncio.Queue = asyncio.Queue(maxsize=_QUEUE)
    loop = asyncio.get_running_loop()
    last = loop.time()  # when the loop last took an item

    async def pump() -> None:
        try:
            async for item in events:
                await queue.put(item)
            await queue.put(_DONE)
        except AppError as e:
            await queue.put(e)
        except Exception as e:  # a store failure mid-stream: the watcher is told, and may resume
            log.warning("watch stream failed", exc_info=True)
            await queue.put(e)

    async def stopping() -> None:
        await shutting_down.wait()
        while True:  # ahead of whatever the pump queued: a full queue drops its oldest item
            try:
                queue.put_nowait(_STOP)
                return
            except asyncio.QueueFull:
                queue.get_nowait()

    async def ticking(every: float) -> None:
        nonlocal last
        while True:
            quiet = loop.time() - last
            if quiet < every:
                await asyncio.sleep(every - quiet)
                continue
            if queue.empty():
                queue.put_nowait(_KEEPALIVE)
            last = loop.time()

    task = asyncio.create_task(pump())
    stop = asyncio.create_task(stopping())
    tick = asyncio.create_task(ticking(keepalive)) if keepalive is not None else None
    try:
        while True:
            if shutting_down.is_set():
                yield WatchItem("shutdown", {})
                return
            item = await queue.get()
            last = loop.time()
            if item is _KEEPALIVE:
                yield WatchItem("keepalive", {})
                continue
            if item is _STOP:
                yield WatchItem("shutdown", {})
                return
            if item is _DONE:
                yield WatchItem("end", {"status": "GAME_STATUS_FINISHED"})
                return
            if isinstance(item, AppError):
                yield WatchItem("error", error_body(item.code, item.message))
                return
            if isinstance(item, Exception):
                yield WatchItem("error", error_body("UNAVAILABLE", "the watch failed; watch again from the last id"))
                return
            if isinstance(item, Reset):
                yield WatchItem("reset", {"version": item.version})
                continue
            yield WatchItem("event", item)
    finally:
        stop.cancel()
        if tick is not None:
            tick.cancel()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        with contextlib.suppress(Exception):
            await events.aclose()
