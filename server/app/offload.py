"""Engine calls of the read path (legal actions, views) off the event loop.

New Bedford can list thousands of legal actions (100+ ms of Python); computed on the event
loop, every other game of the process waits that long. `EngineCalls.run` sends such calls to
a bounded thread pool instead (TABLERO_LEGAL_EXECUTOR=thread, the default; pool size
TABLERO_LEGAL_WORKERS). The loop then keeps serving other games: the GIL is handed over
every few milliseconds (`sys.getswitchinterval`), so a long engine call costs other requests
milliseconds, not its whole length.

A thread hop costs tens of microseconds — more than tic-tac-toe's whole legal-action list
— and a shared pool makes a cheap call queue behind slow ones. So each (engine, call) pair
runs inline until one of its calls has taken `inline_below` seconds of CPU (the thread's
own CPU time, so waiting for the GIL under load does not count, and a call during which the
garbage collector ran is not judged); from then on that pair
always goes to the pool (inline_below = 0: every call does). A heavy engine therefore blocks the loop at most once per process
(its first slow call); cheap ones never pay the hop (bench/legal_actions_load.py).
TABLERO_LEGAL_EXECUTOR=inline runs everything on the loop (the previous behaviour).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import gc
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

T = TypeVar("T")

DEFAULT_INLINE_BELOW = 0.001  # seconds of CPU

# Garbage collections started in this process: a call during which the collector ran is not
# judged (a full collection costs milliseconds of CPU to whichever call triggered it).
_collections = [0]


def _count_collection(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _collections[0] += 1


gc.callbacks.append(_count_collection)


class EngineCalls:
    def __init__(self, mode: Literal["thread", "inline"] = "thread", workers: int = 4,
                 inline_below: float = DEFAULT_INLINE_BELOW) -> None:
        if mode not in ("thread", "inline"):
            raise ValueError(f'the legal-action executor must be "thread" or "inline", not {mode!r}')
        if workers < 1:
            raise ValueError(f"the legal-action executor needs at least 1 worker, not {workers}")
        self.mode, self.workers, self.inline_below = mode, workers, inline_below
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        # (engine name, call) pairs that once took inline_below or more: always on the pool
        self._slow: set[tuple[str, str]] = set()
        self.offloaded = 0  # calls sent to the pool (for tests and the bench)

    def _timed(self, key: tuple[str, str], fn: Callable[..., T], *args: Any) -> T:
        collections, started = _collections[0], time.thread_time()
        try:
            return fn(*args)
        finally:
            if time.thread_time() - started >= self.inline_below and _collections[0] == collections:
                self._slow.add(key)

    async def run(self, engine: str, call: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` — a pure engine call — inline, or on the pool once this engine's `call`
        has been slow (always inline in mode "inline")."""
        if self.mode == "inline":
            return fn(*args)
        key = (engine, call)
        if key not in self._slow and self.inline_below > 0:
            return self._timed(key, fn, *args)
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="tablero-engine")
        self.offloaded += 1
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, functools.partial(fn, *args))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
