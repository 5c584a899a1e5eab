"""Thinking bots (levels `medium` and `hard`) off the serving processes.

A thinking bot's turn is a durable queue entry in the store (`BotQueue`): the game's id,
scored by when a worker may take it. Whoever commits a write after which such a bot must act
offers the game (the bot worker's `notice`, on every replica); taking it leases it for `lease`
seconds (the score moves that far into the future), so a worker that dies mid-thought loses
the turn to another worker once the lease lapses, not the game. The thought itself runs in
another process — a small pool that `tablero serve` starts (TABLERO_BOT_PROCESSES), or a
`tablero bots` process of its own (k8s: the bot-worker Deployment) — and its move is committed
through the ordinary compare-and-set write, so exactly one move lands: a game that moved
meanwhile (the thought is stale) is simply offered again.

Two lanes, in the one score (BOT_ONLY_LANE): a turn of a game a person waits in (any seat not a
bot at the game's creation: human, open, "me"; `rules.bot_only`) is always taken before any turn
of a game whose every seat is a bot, whatever their times; within a lane, the oldest due turn
first. Bot-only games (anyone may start many) so wait behind people's, not the other way round.

Easy bots never come here: their moves are cheap and stay on the request path and the
in-process bot worker (server/app/bots.py). A game's turn clock bounds a thought: the bot plays
its best move so far before the seat's time is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import random
import secrets
import threading
import time
from typing import Any

from tablero.engines.core import clone, search
from tablero.server import luafiles, metrics
from tablero.server.errors import AppError
from tablero.server.logs import Outage

from tablero import engines

from . import idle, rules
from .repository import LoadedGame

log = logging.getLogger("tablero.bots")

LEASE = 20.0  # seconds a taken turn stays with its worker
POLL = 0.05  # seconds between two looks at an empty queue, right after a turn was taken
IDLE_POLL = 0.4  # ... doubling up to this while it stays empty (a turn offered here wakes the worker at once)
AGAIN_AFTER = 1.0  # seconds before a turn the store refused (an outage, NOT_REPLICATED) is due again
CLOCK_SHARE = 0.5  # a thought uses at most this share of a turn clock's seconds
MIN_THOUGHT = 0.05  # seconds a clocked thought gets at least (after the pool's start)


class _Offers:
    """`offered`: set when this process offers a turn, so that its own workers take it at
    once instead of at their next look (an idle worker looks less and less often)."""

    offered: asyncio.Event | None = None

    def _offered(self) -> None:
        if self.offered is None:
            self.offered = asyncio.Event()
        self.offered.set()


# Two lanes in one score (one key on Redis, one column on SQLite, so a cluster's script keys
# share a slot and entries written before the lanes are still taken): a game a person waits in
# is scored by when a worker may take it; a game whose every seat was a bot at its creation by
# that time plus BOT_ONLY_LANE, past any epoch time (the year 2286), so every bot-only entry
# sorts after every person's. Taking looks for a due person's entry first, then for a due
# bot-only one (its score less the offset is its time): 15 bot-only games no longer hold up a
# person's reply. (Doubles keep about 2 µs of the offset times: plenty.)
BOT_ONLY_LANE = 1e10


def _score(t: float, bot_only: bool) -> float:
    return t + BOT_ONLY_LANE if bot_only else t


def _in_bot_lane(score: float) -> bool:
    return score >= BOT_ONLY_LANE


def _waited(now: float, score: float | None) -> float:
    """How long the entry of `score` has been due (0: not due, or no entry)."""
    if score is None:
        return 0.0
    t = score - BOT_ONLY_LANE if _in_bot_lane(score) else score
    return max(0.0, now - t)


class MemoryBotQueue(_Offers):
    """The queue of one process (an in-memory store: nothing else can see its games).
    `bot_only`: the game's lane (`rules.bot_only(meta)`); `again` without it keeps the entry's lane."""

    def __init__(self) -> None:
        self._ready: dict[str, float] = {}  # game id -> score (lane and time, see BOT_ONLY_LANE)

    async def offer(self, game_id: str, bot_only: bool = False) -> None:
        self._ready.setdefault(game_id, _score(time.time(), bot_only))
        self._offered()

    async def again(self, game_id: str, bot_only: bool | None = None) -> None:
        if bot_only is None:
            bot_only = _in_bot_lane(self._ready.get(game_id, 0.0))
        self._ready[game_id] = _score(time.time(), bot_only)
        self._offered()

    async def take(self, lease: float) -> str | None:
        now = time.time()
        due = [(s, g) for g, s in self._ready.items() if s <= now or BOT_ONLY_LANE <= s <= now + BOT_ONLY_LANE]
        if not due:
            return None
        score, game_id = min(due)  # a person's entry first (below the offset), then the oldest
        self._ready[game_id] = _score(now + lease, _in_bot_lane(score))
        return game_id

    async def release(self, game_id: str) -> None:
        self._ready.pop(game_id, None)

    async def depth(self) -> int:
        return len(self._ready)

    async def oldest(self) -> float:
        now = time.time()
        return max((_waited(now, s) for s in self._ready.values()), default=0.0)


class RedisBotQueue(_Offers):
    """`tablero:bots:queue`: a sorted set, game id by its score (lane and when a worker may
    take it, see BOT_ONLY_LANE; one key, so one slot on a cluster). Taking is one script: the
    first due person's id, else the first due bot-only id, leased in its lane; `again` without
    a lane is one script too (the entry's own lane, read and kept)."""

    KEY = "tablero:bots:queue"
    _TAKE = luafiles.source(__package__, "thinkers_take")  # lua/thinkers_take.lua
    _AGAIN = luafiles.source(__package__, "thinkers_again")  # lua/thinkers_again.lua

    def __init__(self, client) -> None:
        self._r = client
        # EVALSHA (the script text is sent again only if the server lost it): workers poll
        # this every few tens of milliseconds
        self._take = client.register_script(self._TAKE)
        self._again = client.register_script(self._AGAIN)

    async def offer(self, game_id: str, bot_only: bool = False) -> None:
        await self._r.zadd(self.KEY, {game_id: _score(time.time(), bot_only)}, nx=True)
        self._offered()

    async def again(self, game_id: str, bot_only: bool | None = None) -> None:
        now = time.time()
        if bot_only is None:
            await self._again(keys=[self.KEY], args=[game_id, repr(now), repr(now + BOT_ONLY_LANE),
                                                     repr(BOT_ONLY_LANE)])
        else:
            await self._r.zadd(self.KEY, {game_id: _score(now, bot_only)})
        self._offered()

    async def take(self, lease: float) -> str | None:
        now = time.time()
        got = await self._take(keys=[self.KEY], args=[repr(now), repr(now + lease), repr(BOT_ONLY_LANE),
                                                      repr(now + BOT_ONLY_LANE), repr(now + lease + BOT_ONLY_LANE)])
        return got.decode() if isinstance(got, bytes) else got

    async def release(self, game_id: str) -> None:
        await self._r.zrem(self.KEY, game_id)

    async def depth(self) -> int:
        return int(await self._r.zcard(self.KEY))

    async def oldest(self) -> float:
        """The longest a due entry of either lane has waited."""
        now = time.time()
        pipe = self._r.pipeline(transaction=False)
        pipe.zrangebyscore(self.KEY, "-inf", repr(now), start=0, num=1, withscores=True)
        pipe.zrangebyscore(self.KEY, repr(BOT_ONLY_LANE), repr(now + BOT_ONLY_LANE), start=0, num=1, withscores=True)
        firsts = await pipe.execute()
        return max((_waited(now, first[0][1]) for first in firsts if first), default=0.0)


class SQLiteBotQueue(_Offers):
    """Beside the embedded store's file, so every process on the file shares the queue (its
    `ready` column is the score: lane and time, see BOT_ONLY_LANE)."""

    def __init__(self, path: str) -> None:
        import sqlite3
        import threading

        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS bot_queue (game_id TEXT PRIMARY KEY, ready REAL NOT NULL)")

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _take(self, lease: float) -> str | None:
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # a person's due entry sorts before any bot-only one (below the offset)
                row = self._db.execute("SELECT game_id, ready FROM bot_queue WHERE ready <= ? OR ready BETWEEN ? AND ? "
                                       "ORDER BY ready LIMIT 1", (now, BOT_ONLY_LANE, now + BOT_ONLY_LANE)).fetchone()
                if row is not None:
                    self._db.execute("UPDATE bot_queue SET ready = ? WHERE game_id = ?",
                                     (_score(now + lease, _in_bot_lane(row[1])), row[0]))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return None if row is None else row[0]

    async def offer(self, game_id: str, bot_only: bool = False) -> None:
        await asyncio.to_thread(self._run, "INSERT OR IGNORE INTO bot_queue VALUES (?, ?)",
                                (game_id, _score(time.time(), bot_only)))
        self._offered()

    async def again(self, game_id: str, bot_only: bool | None = None) -> None:
        now = time.time()
        if bot_only is None:  # the entry's own lane (a person's when it has none)
            await asyncio.to_thread(
                self._run, "INSERT INTO bot_queue VALUES (?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "ready = CASE WHEN ready >= ? THEN ? ELSE ? END", (game_id, now, BOT_ONLY_LANE, now + BOT_ONLY_LANE, now))
        else:
            await asyncio.to_thread(self._run, "INSERT OR REPLACE INTO bot_queue VALUES (?, ?)",
                                    (game_id, _score(now, bot_only)))
        self._offered()

    async def take(self, lease: float) -> str | None:
        return await asyncio.to_thread(self._take, lease)

    async def release(self, game_id: str) -> None:
        await asyncio.to_thread(self._run, "DELETE FROM bot_queue WHERE game_id = ?", (game_id,))

    async def depth(self) -> int:
        return (await asyncio.to_thread(self._run, "SELECT COUNT(*) FROM bot_queue"))[0][0]

    async def oldest(self) -> float:
        """The longest a due entry of either lane has waited."""
        now = time.time()
        (person, robots), = await asyncio.to_thread(
            self._run, "SELECT (SELECT MIN(ready) FROM bot_queue WHERE ready <= ?), "
            "(SELECT MIN(ready) FROM bot_queue WHERE ready BETWEEN ? AND ?)", (now, BOT_ONLY_LANE, now + BOT_ONLY_LANE))
        return max(_waited(now, person), _waited(now, robots))


def think(engine_name: str, state: Any, seat: int, level: str, seed: int, seconds: float | None) -> dict[str, Any]:
    """A thinking bot's move (in a worker process): its level's choice within its budget, and
    within `seconds` of wall time when a turn clock runs (its best move so far, then)."""
    engine = engines.get(engine_name)
    deadline = None if seconds is None else time.perf_counter() + seconds
    thoughts = idle.THOUGHTS  # set in a pool process at the idle priority: guarded against starving
    if thoughts is not None:
        thoughts.begin()
    try:
        return search.choose(engine, state, seat, level, random.Random(seed), deadline=deadline).action
    finally:
        if thoughts is not None:
            thoughts.end()


POOL_CLOSE_WAIT = 5.0  # seconds a closing server waits for its bot pool to terminate
POOL_NICE = 10  # pool processes yield the CPU to their server when both want it (TABLERO_BOT_NICE)


def _warm(nice: int = POOL_NICE, idle_priority: bool = True) -> None:
    """A pool process: dies with its server (Linux), runs at a lower priority than the server
    (thinking is background work: a person's move must not wait behind it on a busy machine:
    its nice value, and the idle priority when `idle_priority`, see server/app/idle.py), and
    imports the engines before its first thought."""
    import ctypes
    import os
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    # Ctrl-C at a terminal reaches the whole process group: the server stops its pool itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if idle_priority:
        idle.enter()
    engines.names()


def _pong() -> bool:
    """A pool process's first task: it answers once its initializer (`_warm`) has run."""
    return True


class Thinkers:
    """Takes thinking bots' turns from the queue, thinks on a process pool (or, in a `tablero
    bots` process, on a thread of its own process), and commits the move."""

    def __init__(self, service: Any, queue: Any, *, processes: int = 1, lease: float = LEASE,
                 concurrency: int | None = None, in_process: bool = False, nice: int = POOL_NICE,
                 idle_priority: bool = True, think: bool = True) -> None:
        self.service = service
        # think=False: only the queue's gauges (a server whose bots think in `tablero bots`
        # workers still reports the store-wide depth and age, which alert when no worker runs).
        self.think = think
        self.queue = queue
        self.processes = processes
        self.lease = lease
        self.concurrency = concurrency or max(1, processes)
        self.in_process = in_process
        self.nice = nice
        self.idle_priority = idle_priority
        self.played = 0
        self._pool: Any = None  # multiprocessing.pool.Pool, from the first thought on
        self._warm: asyncio.Future[None] | None = None  # done once the pool's processes answered
        self._pids: set[int] = set()  # the processes the pool started
        self._tasks: list[asyncio.Task] = []
        self._stop = asyncio.Event()

    def start(self) -> None:
        # The pool starts with the first thought, not with the server: a fresh interpreter that
        # imports the engines costs about 0.4 s of CPU, which a server that just became ready
        # would share with its first requests (their p99 rose by a quarter in the side-by-side,
        # twice over with `--workers 2`), and most servers never host a thinking bot.
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._loop(), name=f"tablero-thinker-{i}")
                       for i in range(self.concurrency if self.think else 0)]
        self._tasks.append(loop.create_task(self._gauge(), name="tablero-bot-queue-depth"))

    async def close(self) -> None:
        self._stop.set()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        if self._pool is not None:
            # A thought under way is dropped (its lease lapses elsewhere).
            await asyncio.to_thread(self._drop_pool().wait, POOL_CLOSE_WAIT)

    def _drop_pool(self) -> threading.Event:
        """Let the pool go (the next thought starts another); the event is set once it is gone.
        Pool.terminate() can block for good when a pool process died holding the pool's queue
        lock (a SIGTERM to the whole process group kills it beside the server, an OOM kill or
        a `kill -9` of one): it runs on a daemon thread; the pool's processes die with the
        server anyway."""
        done = threading.Event()
        pool, self._pool, self._warm, self._pids = self._pool, None, None, set()

        def terminate() -> None:
            if pool is not None:
                pool.terminate()
            done.set()

        threading.Thread(target=terminate, name="tablero-bot-pool-close", daemon=True).start()
        return done

    def _lost_a_process(self) -> bool:
        """Whether a process the pool started has died since. The pool starts another, but one
        killed while it waited for a task held the pool's queue lock, and nothing is read from
        that queue again: every later thought would wait for ever."""
        alive = {p.pid for p in multiprocessing.active_children()}
        return not self._pids <= alive

    async def _pool_ready(self) -> None:
        """Until the pool's processes can think (started here on the first call, and again
        after one of its processes died or it stopped answering)."""
        if self._pool is not None and self._lost_a_process():
            log.warning("a bot pool process died: starting the pool again")
            self._drop_pool()
        if self._pool is None:
            before = {p.pid for p in multiprocessing.active_children()}
            self._pool = self._new_pool()
            self._pids = {p.pid for p in multiprocessing.active_children()} - before
        if self._warm is None:
            loop = asyncio.get_running_loop()
            warm: asyncio.Future[None] = loop.create_future()
            left = [self.processes]

            def one(_: Any) -> None:
                left[0] -= 1
                if left[0] == 0 and not warm.done():
                    warm.set_result(None)

            def failed(e: BaseException) -> None:
                if not warm.done():
                    warm.set_exception(e)

            for _ in range(self.processes):  # (a process takes a ping only once it is warm)
                self._pool.apply_async(_pong, callback=lambda v: loop.call_soon_threadsafe(one, v),
                                       error_callback=lambda e: loop.call_soon_threadsafe(failed, e))
            self._warm = warm
        try:
            await asyncio.wait_for(asyncio.shield(self._warm), self.lease)
        except TimeoutError:
            self._drop_pool()  # it does not answer: the next thought starts another
            raise
        except Exception:
            if self._warm is not None and self._warm.done():  # it failed: the next thought asks again
                self._warm = None
            raise

    def _new_pool(self) -> Any:
        # A multiprocessing pool replaces a worker that dies; the thought it held never answers,
        # so it is given up after the lease (another worker then takes the turn).
        return multiprocessing.get_context("spawn").Pool(self.processes, initializer=_warm,
                                                         initargs=(self.nice, self.idle_priority))

    async def _gauge(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(Exception):
                metrics.BOT_QUEUE_DEPTH.set(await self.queue.depth())
                metrics.BOT_QUEUE_OLDEST.set(await self.queue.oldest())
            await asyncio.sleep(1.0)

    async def _loop(self) -> None:
        outage = Outage(log, "bot queue unavailable", "bot queue works again")
        wait = POLL
        while not self._stop.is_set():
            offered = getattr(self.queue, "offered", None)
            if offered is not None:
                offered.clear()  # (an offer from here on wakes the wait below)
            try:
                game_id = await self.queue.take(self.lease)
            except Exception as e:  # the store is away: try again shortly
                outage.failed(e)
                await asyncio.sleep(1.0)
                continue
            outage.over()
            if game_id is None:
                await self._idle(wait)
                wait = min(wait * 2, IDLE_POLL)
                continue
            wait = POLL
            try:
                await self.turn(game_id)
            except asyncio.CancelledError:
                await self._hand_back(game_id)
                raise
            except AppError as e:
                # An answer, not a bug: the store away for a moment, or a move written that its
                # replicas did not confirm in time (NOT_REPLICATED). One line, and the turn is due
                # again after a pause (the game moved on if the move landed), not after the lease.
                log.warning("bot turn not completed", extra={"fields": {
                    "game": game_id, "reason": e.reason, "error": str(e)[:200]}})
                await asyncio.sleep(AGAIN_AFTER)
                await self._hand_back(game_id)
            except Exception:  # the lease lapses and another worker (or this one) tries again
                log.exception("thinking bot turn failed", extra={"fields": {"game": game_id}})

    async def _idle(self, seconds: float) -> None:
        """Until the queue's next look: `seconds`, or less if this process offers a turn (an
        idle server polled its store 20 times a second for nothing)."""
        offered = getattr(self.queue, "offered", None)
        if offered is None:  # nothing offered here yet: nobody is playing against a bot here
            offered = self.queue.offered = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(offered.wait(), seconds)

    async def _hand_back(self, game_id: str) -> None:
        """A stop (SIGTERM: a rollout, a scale-down) in the middle of a turn: the turn is due again
        now, for another worker, rather than when this one's lease lapses (the game stood still for
        TABLERO_BOT_LEASE seconds). A move that landed meanwhile is harmless: the next taker finds
        the game moved on."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.queue.again(game_id), 2.0)

    async def _think(self, engine: str, state: Any, seat: int, level: str, seconds: float | None) -> dict[str, Any]:
        seed = secrets.randbits(64)
        if self.in_process or self.processes <= 0:
            return await asyncio.to_thread(think, engine, state, seat, level, seed, seconds)
        await self._pool_ready()
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[dict[str, Any]] = loop.create_future()

        def settle(setter: Any, value: Any) -> None:
            if not answer.done():
                setter(value)

        self._pool.apply_async(
            think, (engine, state, seat, level, seed, seconds),
            callback=lambda v: loop.call_soon_threadsafe(settle, answer.set_result, v),
            error_callback=lambda e: loop.call_soon_threadsafe(settle, answer.set_exception, e))
        try:
            return await asyncio.wait_for(answer, self.lease)
        except TimeoutError:
            self._drop_pool()  # a stuck pool (see _lost_a_process): the next thought starts another
            raise

    async def turn(self, game_id: str) -> bool:
        """Play the thinking bot's turn of `game_id` (taken from the queue); True if a move landed."""
        try:
            game = await self.service.games.current(game_id)
        except AppError:
            await self.queue.release(game_id)
            return False
        seat = None if game.finished else rules.thinking_bot(game.engine, game.state, game.kinds, game.levels)
        if seat is None:
            await self.queue.release(game_id)
            return False
        level = rules.level_of(game.levels, seat)
        clock = game.meta.get("clock")
        seconds = clock["moveSeconds"] * CLOCK_SHARE if clock else None  # else the level's own budget
        version = game.version
        if seconds is not None and not self.in_process and self.processes > 0:
            began = time.monotonic()
            await self._pool_ready()  # the first thought waits for the pool's start: its clock does not
            seconds = max(MIN_THOUGHT, seconds - (time.monotonic() - began))
        action = await self._think(game.engine.name, game.state, seat, level, seconds)
        landed = await self._commit(game_id, version, seat, action)
        metrics.BOT_STEPS.labels(game.engine.name).inc(1 if landed is not None else 0)
        after = landed if landed is not None else await self.service.games.current(game_id)
        if not after.finished and rules.thinking_bot(after.engine, after.state, after.kinds, after.levels) is not None:
            await self.queue.again(game_id, rules.bot_only(after.meta))
        else:
            await self.queue.release(game_id)
        return landed is not None

    async def _commit(self, game_id: str, version: int, seat: int, action: dict[str, Any]) -> LoadedGame | None:
        def decide(game: LoadedGame):
            if game.version != version:
                raise _Stale("the game moved while the bot thought")
            return asyncio.to_thread(rules.play, game.engine, clone(game.state), seat, action, game.kinds,
                                     random.Random(secrets.randbits(64)), None, game.levels)

        try:
            done = await self.service.games.update(game_id, decide)
        except _Stale:
            return None
        if done.appended:
            self.played += 1
            await self.service.written(done.game)
            return done.game
        return None


class _Stale(AppError):
    code = "ABORTED"
