"""The game repository (unit of work): everything between the use cases and the event store.

It owns the in-process cache of game states, the per-game lock, loading from the
newest snapshot plus the tail of the log, the compare-and-set commit with its
bounded retry on conflicts, idempotency by request id, and periodic snapshots.
Every store call is timed and its failures mapped (GameNotFound → NotFound, any
other StoreError → Unavailable).
"""

from __future__ import annotations

import asyncio
import copy
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from engines.core import Engine, UnknownEngine
from server import metrics
from server.errors import AppError, InvalidArgument, NotFound, TooManyConflicts, Unavailable
from server.portal.table import Table, is_platform
from server.store.base import Conflict, DuplicateRequest, Event, EventStore, GameNotFound, StoreError

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _fold(engine: Engine, state: Any, platform: list[Event], events: list[Event]) -> Any:
    """Engine events evolve the state; platform events (`tablero.*`) go to `platform`."""
    for e in events:
        if is_platform(e):
            platform.append(e)
        else:
            state = engine.evolve(state, e)
    return state


@dataclass
class LoadedGame:
    """A game's state at a version. `state` belongs to the repository: read it, don't mutate it.
    `platform`: the game's platform events (who left, timeouts), which the engine never sees."""

    id: str
    meta: dict[str, Any]
    engine: Engine
    version: int
    state: Any
    platform: list[Event] = field(default_factory=list)

    @property
    def table(self) -> Table:
        t = Table.new(self.meta["players"], self.meta["seats"])
        for e in self.platform:
            t.apply(e)
        return t

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.table.outcome(self.engine.outcome(self.state))

    @property
    def to_act(self) -> set[int]:
        return set() if self.outcome is not None else self.table.to_act(self.engine.to_act(self.state))

    @property
    def finished(self) -> bool:
        return self.outcome is not None


@dataclass
class Decision:
    """What a use case decided: the events to append and the state they lead to."""

    events: list[Event]
    state: Any


@dataclass
class Committed:
    game: LoadedGame
    appended: bool  # False when an earlier request with the same id answered


@dataclass
class _Cached:
    engine: Engine
    version: int
    state: Any
    platform: list[Event] = field(default_factory=list)


class _Timed:
    """Times one store call into tablero_store_latency_seconds and maps store failures."""

    def __init__(self, op: str) -> None:
        self.op = op

    def __enter__(self) -> None:
        self.t = time.perf_counter()

    def __exit__(self, exc_type, exc, tb) -> bool:
        metrics.STORE_LATENCY.labels(self.op).observe(time.perf_counter() - self.t)
        if exc_type is not None and issubclass(exc_type, GameNotFound):
            raise NotFound(f"no game {str(exc)!r}" if str(exc) else "no such game") from exc
        if (
            exc_type is not None
            and issubclass(exc_type, StoreError)
            and not issubclass(exc_type, (Conflict, DuplicateRequest))
        ):
            raise Unavailable(f"event store unavailable: {exc}") from exc
        return False


class GameRepository:
    def __init__(self, store: EventStore, *, cache_size: int = 1000, snapshot_every: int = 100,
                 max_retries: int = 5) -> None:
        self.store = store
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self.max_retries = max_retries
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}

    # --- reading ---------------------------------------------------------------------
    async def meta(self, game_id: str) -> dict[str, Any]:
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {str(game_id)[:80]!r}: game ids are 1-64 letters, digits, '-' or '_'")
        with _Timed("get_meta"):
            return await self.store.get_meta(game_id)

    def engine_of(self, meta: dict[str, Any]) -> Engine:
        try:
            engine = engines.get(meta["engine"])
        except UnknownEngine:
            raise Unavailable(f"this server does not run the engine {meta['engine']!r}") from None
        v = meta.get("engine_version", engine.version)
        if v != engine.version and v not in engine.supported_versions:
            raise Unavailable(f"this game was written by {engine.name} v{v}; this server runs v{engine.version}")
        return engine

    async def current(self, game_id: str, meta: dict[str, Any] | None = None) -> LoadedGame:
        """The game now (cached state caught up with the store)."""
        meta = meta or await self.meta(game_id)
        async with self._lock(game_id):
            c = await self._load(game_id, meta)
            return LoadedGame(game_id, meta, c.engine, c.version, c.state, list(c.platform))

    async def at(self, game_id: str, version: int, meta: dict[str, Any] | None = None) -> LoadedGame:
        """The game at a past version (1..current), replayed from the newest snapshot not past it."""
        meta = meta or await self.meta(game_id)
        engine = self.engine_of(meta)
        current = await self.version(game_id)
        if version > current:
            raise InvalidArgument(f"version {version} is beyond the game's current version {current}")
        with _Timed("get_snapshot"):
            snap = await self.store.get_snapshot(game_id)
        start, state = snap if snap and snap[0] <= version else (0, None)
        events = []
        if version > start:
            with _Timed("read"):
                events = await self.store.read(game_id, after_version=start, limit=version - start)
        platform = await self._platform_before(game_id, start)
        state = _fold(engine, state, platform, events)
        metrics.REPLAYED_EVENTS.observe(len(events))
        return LoadedGame(game_id, meta, engine, version, state, platform)

    async def _platform_before(self, game_id: str, version: int) -> list[Event]:
        """The platform events among the first `version` (those a snapshot at `version` covers)."""
        if version == 0:
            return []
        with _Timed("read"):
            head = await self.store.read(game_id, after_version=0, limit=version)
        return [e for e in head if is_platform(e)]

    async def version(self, game_id: str) -> int:
        with _Timed("version"):
            return await self.store.version(game_id)

    async def events(self, game_id: str, after: int, limit: int) -> list[Event]:
        with _Timed("read"):
            return await self.store.read(game_id, after_version=after, limit=limit)

    def watch(self, game_id: str, after_version: int) -> AsyncIterator[tuple[int, Event]]:
        return self.store.watch(game_id, after_version)

    async def answered(self, game_id: str, key: str | None) -> int | None:
        """The version an earlier request with this idempotency key produced, if any."""
        if key is None:
            return None
        with _Timed("request_version"):
            return await self.store.request_version(game_id, key)

    # --- writing ---------------------------------------------------------------------
    async def create(self, meta: dict[str, Any], engine: Engine, decision: Decision) -> LoadedGame:
        game_id = secrets.token_urlsafe(9)
        with _Timed("create"):
            version = await self.store.create(game_id, meta, decision.events)
        platform = [e for e in decision.events if is_platform(e)]
        self._remember(game_id, _Cached(engine, version, decision.state, platform))
        return LoadedGame(game_id, meta, engine, version, decision.state, list(platform))

    async def claim_seat(self, game_id: str, seats: list[int]) -> int | None:
        with _Timed("claim_seat"):
            return await self.store.claim_seat(game_id, seats)

    async def update(self, game_id: str, decide: Callable[[LoadedGame], Decision],
                     key: str | None = None, meta: dict[str, Any] | None = None) -> Committed:
        """Load the game, `decide`, and append the decision if the game has not moved
        meanwhile (else reload and decide again, a bounded number of times). A request
        whose `key` was already answered appends nothing and gets that answer's game."""
        meta = meta or await self.meta(game_id)
        if (done := await self.answered(game_id, key)) is not None:
            return Committed(await self.at(game_id, done, meta), appended=False)
        # Every append carries a request id: when a store reply is lost and the append
        # retried, the store then answers DuplicateRequest instead of applying it twice.
        store_key = key or f"auto:{secrets.token_hex(12)}"
        for _attempt in range(self.max_retries):
            async with self._lock(game_id):
                c = await self._load(game_id, meta)
                game = LoadedGame(game_id, meta, c.engine, c.version, c.state, list(c.platform))
                try:
                    decision = decide(game)
                except AppError:
                    # A concurrent retry of this request may have been applied meanwhile.
                    if (done := await self.answered(game_id, key)) is not None:
                        return Committed(await self.at(game_id, done, meta), appended=False)
                    raise
                except BaseException:
                    self._evict(game_id)  # deciding may have evolved the cached state
                    raise
                try:
                    with _Timed("append"):
                        version = await self.store.append(game_id, c.version, decision.events, store_key)
                except Conflict:
                    self._evict(game_id)
                    metrics.CONFLICTS.inc()
                    continue
                except DuplicateRequest as d:
                    self._evict(game_id)
                    return Committed(await self.at(game_id, d.version, meta), appended=False)
                except BaseException:
                    self._evict(game_id)
                    raise
                before = c.version
                c.version, c.state = version, decision.state
                c.platform.extend(e for e in decision.events if is_platform(e))
                if before // self.snapshot_every != version // self.snapshot_every:
                    with _Timed("put_snapshot"):
                        await self.store.put_snapshot(game_id, version, copy.deepcopy(decision.state))
                return Committed(LoadedGame(game_id, meta, c.engine, version, decision.state, list(c.platform)),
                                 appended=True)
        raise TooManyConflicts("the game changed too often while applying your action; retry")

    # --- cache and locks ---------------------------------------------------------------
    def clear_cache(self) -> None:
        self._cache.clear()

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            if len(self._locks) > 4 * self.cache_size:
                for k in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[k]
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _remember(self, game_id: str, c: _Cached) -> None:
        self._cache[game_id] = c
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _evict(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    async def _load(self, game_id: str, meta: dict[str, Any]) -> _Cached:
        """The cached state caught up with the store (snapshot + replay on a miss)."""
        c = self._cache.get(game_id)
        if c is not None:
            with _Timed("read"):
                tail = await self.store.read(game_id, after_version=c.version)
            c.state = _fold(c.engine, c.state, c.platform, tail)
            c.version += len(tail)
            self._cache.move_to_end(game_id)
            metrics.CACHE_HITS.inc()
            return c
        metrics.CACHE_MISSES.inc()
        engine = self.engine_of(meta)
        with _Timed("get_snapshot"):
            snap = await self.store.get_snapshot(game_id)
        version, state = snap if snap else (0, None)
        with _Timed("read"):
            events = await self.store.read(game_id, after_version=version)
        platform = await self._platform_before(game_id, version)
        state = _fold(engine, state, platform, events)
        metrics.REPLAYED_EVENTS.observe(len(events))
        c = _Cached(engine, version + len(events), state, platform)
        self._remember(game_id, c)
        return c
