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
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

from tablero.server.api.status import app_error_body, error_body
from tablero.server.errors import AppError
from tablero.server.store.base import NUDGE, POKED, Nudge, Reset, StoreError

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


# Per shutdown event: the watchers to stop when it is set, and the one task that waits for it.
_STOPPERS: dict[asyncio.Event, tuple[set[Callable[[], None]], asyncio.Task[None]]] = {}


def _stoppers(shutting_down: asyncio.Event) -> set[Callable[[], None]]:
    """The watchers to stop when `shutting_down` is set: one task waits for it for all of them."""
    loop = asyncio.get_running_loop()
    known = _STOPPERS.get(shutting_down)
    if known is not None and not known[1].done() and known[1].get_loop() is loop:
        return known[0]
    stoppers: set[Callable[[], None]] = set()

    async def wait() -> None:
        try:
            await shutting_down.wait()
            for stop in list(stoppers):
                stop()
        finally:
            if _STOPPERS.get(shutting_down, (None, None))[1] is asyncio.current_task():
                del _STOPPERS[shutting_down]

    _STOPPERS[shutting_down] = (stoppers, loop.create_task(wait()))
    return stoppers


def items(events: AsyncIterator[dict[str, Any]], shutting_down: asyncio.Event,
          keepalive: float | None = None, nudge: Nudge | None = None,
          first: float | None = None) -> AsyncIterator[WatchItem]:
    """With `nudge` (the use case's watch reaches a store's watch, which attaches to it), the
    caller's task drives the events itself and the keep-alive timer and the shutdown nudge
    them; without, a pump task reads them (any async iterator). `first`: with `nudge`, a
    stream that has sent nothing after this many seconds sends a keep-alive then (a transport
    whose client learns that the stream is answered only from a first message)."""
    if nudge is not None:
        return _nudged(events, shutting_down, keepalive, nudge, first)
    return _pumped(events, shutting_down, keepalive)


async def _pumped(events: AsyncIterator[dict[str, Any]], shutting_down: asyncio.Event,
                  keepalive: float | None) -> AsyncIterator[WatchItem]:
    # A pump task reads the use case's events into a queue; the loop below takes them. The
    # shutdown (one task for all watchers) and the keep-alives (a timer, when nothing came for
    # `keepalive` seconds) reach the queue as sentinels, so each item costs one queue get, and
    # each watcher one task.
    queue: asyncio.Queue = asyncio.Queue(maxsize=_QUEUE)
    loop = asyncio.get_running_loop()
    last = loop.time()  # when the loop last took an item

    async def pump() -> None:
        try:
            async for item in events:
                await queue.put(item)
            await queue.put(_DONE)
        except Exception as e:  # the watcher is told (_failed), and may resume
            await queue.put(e)

    def stop_now() -> None:
        while True:  # ahead of whatever the pump queued: a full queue drops its oldest item
            try:
                queue.put_nowait(_STOP)
                return
            except asyncio.QueueFull:
                queue.get_nowait()

    def tick() -> None:
        # A keep-alive after `keepalive` quiet seconds: a timer, not a task, per watcher.
        nonlocal timer, last
        quiet = loop.time() - last
        if quiet >= keepalive:  # type: ignore[operator]
            if queue.empty():
                queue.put_nowait(_KEEPALIVE)
            last, quiet = loop.time(), 0.0
        timer = loop.call_later(keepalive - quiet, tick)  # type: ignore[operator]

    task = asyncio.create_task(pump())
    timer = loop.call_later(keepalive, tick) if keepalive is not None else None
    stoppers = _stoppers(shutting_down)
    stoppers.add(stop_now)
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
                yield _END
                return
            if isinstance(item, Exception):
                yield _failed(item)
                return
            yield _item(item)
    finally:
        stoppers.discard(stop_now)
        if timer is not None:
            timer.cancel()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        with contextlib.suppress(Exception):
            await events.aclose()


_END = WatchItem("end", {"status": "GAME_STATUS_FINISHED"})


def _item(item: Any) -> WatchItem:
    if isinstance(item, Reset):
        return WatchItem("reset", {"version": item.version})
    return WatchItem("event", item)


def _failed(e: Exception) -> WatchItem:
    """How a watch that failed mid-stream ends: the error's own code, or (a store failure,
    logged) UNAVAILABLE."""
    if isinstance(e, AppError):
        return WatchItem("error", app_error_body(e))
    if isinstance(e, StoreError):  # an outage ends every watch of it: one line each, no traceback
        log.warning("watch stream failed", extra={"fields": {"error": str(e)[:200]}})
    else:
        log.warning("watch stream failed", exc_info=e)
    return WatchItem("error", error_body("UNAVAILABLE", "the watch failed; watch again from the last id"))


async def _nudged(events: AsyncIterator[Any], shutting_down: asyncio.Event, keepalive: float | None,
                  nudge: Nudge, first: float | None = None) -> AsyncIterator[WatchItem]:
    # No task and no queue of its own: each item is one step of the events' iterator in the
    # consumer's task. A keep-alive due or the shutdown pokes the store's waiter, which then
    # yields POKED up the chain, and this loop looks at why.
    loop = asyncio.get_running_loop()
    last = loop.time()  # when the last item went out
    timer: asyncio.TimerHandle | None = None
    # Quiet seconds before a keep-alive: `first` until something went out, then `keepalive`.
    due = first if first is not None and keepalive is not None else keepalive

    def tick() -> None:
        nonlocal timer
        quiet = loop.time() - last
        if quiet >= due:  # type: ignore[operator]
            nudge.poke()
            quiet = 0.0
        timer = loop.call_later(max(keepalive - quiet, 0.0), tick)  # type: ignore[operator]

    if keepalive is not None:
        timer = loop.call_later(due, tick)  # type: ignore[arg-type]
    stoppers = _stoppers(shutting_down)
    stoppers.add(nudge.poke)
    token: Any = NUDGE.set(nudge)  # the store's watch attaches to it in its first step
    try:
        while True:
            if shutting_down.is_set():
                yield WatchItem("shutdown", {})
                return
            try:
                item = await anext(events)
            except StopAsyncIteration:
                yield _END
                return
            except Exception as e:  # the watcher is told, and may resume
                yield _failed(e)
                return
            finally:
                if token is not None:
                    NUDGE.reset(token)
                    token = None
            if item is POKED:
                if shutting_down.is_set():
                    continue  # the top of the loop says so
                if keepalive is not None and loop.time() - last >= due:  # type: ignore[operator]
                    last, due = loop.time(), keepalive
                    yield WatchItem("keepalive", {})
                continue
            last, due = loop.time(), keepalive
            yield _item(item)
    finally:
        stoppers.discard(nudge.poke)
        if timer is not None:
            timer.cancel()
        # `tick` refers to itself (it schedules itself): a reference cycle that would keep the
        # timer, the nudge, the watcher and its context alive until a collection, thousands
        # of objects a second under load. Broken here, they go at once.
        tick = timer = None  # type: ignore[assignment]
        if token is not None:
            NUDGE.reset(token)
        with contextlib.suppress(Exception):
            await events.aclose()  # type: ignore[attr-defined]
