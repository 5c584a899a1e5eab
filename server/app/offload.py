"""Engine calls of the read path (legal actions, views) off the event loop.

New Bedford can list thousands of legal actions (100+ ms of Python); computed on the event
loop, every other game of the process waits that long. `EngineCalls.run` sends such calls to
a bounded thread pool instead (TABLERO_LEGAL_EXECUTOR=thread, the default; pool size
TABLERO_LEGAL_WORKERS). The loop then keeps serving other games: the GIL is handed over
every few milliseconds (`sys.getswitchinterval`), so a long engine call costs other requests
milliseconds, not its whole length.

A thread hop costs tens of microseconds — more than tic-tac-toe's whole legal-action list
— and a shared pool makes a cheap call queue behind slow ones. So each (engine, call) pair
keeps a moving average of its calls' CPU time (the thread's own CPU time, so waiting for
the GIL under load does not count) and runs inline while that average is under
`inline_below` seconds, on the pool while it is over. One slow call (a garbage collection
inside a cheap one) barely moves the average; a heavy engine goes to the pool after a few
calls, and comes back if its calls turn cheap (bench/legal_actions_load.py).
TABLERO_LEGAL_EXECUTOR=inline runs everything on the loop (the previous behaviour).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from tablero.server import gil

T = TypeVar("T")

DEFAULT_INLINE_BELOW = 0.001  # seconds of CPU


class EngineCalls:
    def __init__(self, mode: Literal["thread", "inline"] = "thread", workers: int = 4,
                 inline_below: float = DEFAULT_INLINE_BELOW) -> None:
        if mode not in ("thread", "inline"):
            raise ValueError(f'the legal-action executor must be "thread" or "inline", not {mode!r}')
        if workers < 1:
            raise ValueError(f"the legal-action executor needs at least 1 worker, not {workers}")
        self.mode, self.workers, self.inline_below = mode, workers, inline_below
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        # (engine name, call) -> moving average of its calls' CPU seconds
        self._cost: dict[tuple[str, str], float] = {}
        self._calls: dict[tuple[str, str], int] = {}  # calls per pair (for sampling)
        self.offloaded = 0  # calls sent to the pool (for tests and the bench)
        self._in_flight = 0  # calls on the pool now

    # Weight of the newest call in the moving average: a call several times over the bound
    # moves an engine to the pool within a few calls, a lone outlier does not.
    WEIGHT = 0.25

    def slow(self, engine: str, call: str) -> bool:
        return self._cost.get((engine, call), 0.0) >= self.inline_below

    # Reading a thread's CPU clock is a system call, ~10 µs on some virtual machines — more
    # than a cheap engine call itself. So a pair whose average is far under the bound has one
    # call in SAMPLE timed; its first SAMPLE calls, and every call of a pair near or over the
    # bound, are all timed (a heavy engine is found at once, one that turns heavy within
    # SAMPLE calls).
    SAMPLE = 16

    def _timed(self, key: tuple[str, str], fn: Callable[..., T], *args: Any) -> T:
        n = self._calls[key] = self._calls.get(key, 0) + 1
        if n > self.SAMPLE and n % self.SAMPLE and self._cost.get(key, 0.0) < self.inline_below / 4:
            return fn(*args)
        started = time.thread_time()
        try:
            return fn(*args)
        finally:
            spent = time.thread_time() - started
            self._cost[key] = self._cost.get(key, 0.0) * (1 - self.WEIGHT) + spent * self.WEIGHT

    def inline(self, engine: str, call: str) -> bool:
        """Whether `run` would make this call on the loop now: the caller may then use
        `run_inline` and save a coroutine (a cheap engine's every reply goes this way)."""
        return self.mode == "inline" or (self.inline_below > 0
                                         and self._cost.get((engine, call), 0.0) < self.inline_below)

    def run_inline(self, engine: str, call: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on the loop, timed as `run` times it (for a call `inline` said so of)."""
        if self.mode == "inline":
            return fn(*args)
        return self._timed((engine, call), fn, *args)

    async def run(self, engine: str, call: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` — a pure engine call — inline, or on the pool while this engine's
        `call` is slow on average (always inline in mode "inline")."""
        if self.inline(engine, call):
            return self.run_inline(engine, call, fn, *args)
        key = (engine, call)
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="tablero-engine")
        self.offloaded += 1
        # While engine calls run on the pool they hold the GIL for whole switch intervals: a
        # short one (only then) hands it back to the event loop sooner, so that other games'
        # requests do not queue behind them (a 0.4 s list: moves beside it 380 ms → 55 ms).
        self._in_flight += 1
        try:
            with gil.handing_over():
                return await asyncio.get_running_loop().run_in_executor(
                    self._pool, functools.partial(self._timed, key, fn, *args))
        finally:
            self._in_flight -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
