"""The game repository (unit of work): everything between the use cases and the event store.

It owns the in-process cache of game states, the per-game lock, loading from the
newest snapshot plus the tail of the log, the compare-and-set commit with its
bounded retry on conflicts, idempotency by request id, and periodic snapshots.
Every store call is timed and its failures mapped (GameNotFound → NotFound, any
other StoreError → Unavailable).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from tablero.engines.core import Engine, UnknownEngine, clone
from tablero.server import metrics
from tablero.server.errors import (
    AppError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    TooManyConflicts,
    Unavailable,
    outage,
)
from tablero.server.portal.table import Table, is_platform
from tablero.server.store.base import (
    AppendResult,
    Conflict,
    DuplicateRequest,
    Entry,
    Event,
    EventStore,
    GameExists,
    GameNotFound,
    HistoryRewritten,
    NotReplicated,
    StoreError,
    Trimmed,
)

from tablero import engines

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _chains(version: int, prev_hash: str, last: int, last_hash: str) -> bool:
    """Whether the entry `version`, written after `prev_hash`, follows on from the entry `last`
    (hash `last_hash`): the next version, after a known hash (none only before the first)."""
    return version == last + 1 and prev_hash == last_hash and (bool(prev_hash) or last == 0)


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
        """Who left and who forfeited, from the platform events. Read only: it is kept until
        a platform event is added (`copy()` it to change it)."""
        cached = self.__dict__.get("_table")
        if cached is not None and cached[0] == len(self.platform):
            return cached[1]
        t = Table.new(self.meta["players"], self.meta["seats"])
        for e in self.platform:
            t.apply(e)
        self.__dict__["_table"] = (len(self.platform), t)
        return t

    @property
    def outcome(self) -> dict[str, Any] | None:
        # Asked several times per request (finished, to_act, the reply): computed once per
        # version (evolve may change a state in place, so whoever evolves a LoadedGame's state
        # moves its version on) and number of platform events.
        key = (self.state, self.version, len(self.platform))
        cached = self.__dict__.get("_outcome")
        if cached is not None and cached[0] is key[0] and cached[1:3] == key[1:]:
            return cached[3]
        out = self.table.outcome(self.engine.outcome(self.state))
        self.__dict__["_outcome"] = (*key, out)
        return out

    @property
    def to_act(self) -> set[int]:
        return set() if self.outcome is not None else self.table.to_act(self.engine.to_act(self.state))

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def kinds(self) -> list[str]:
        """Seat kinds now: a seat that left (resigned, timed out) is played by a bot."""
        bots = self.table.bots
        return ["bot" if s in bots else k for s, k in enumerate(self.meta["seats"])]

    @property
    def levels(self) -> list[str | None]:
        """The bot seats' levels ("easy", "medium", "hard"; None: plain "bot", easy), from
        creation; a seat played by a bot after its player left plays easy."""
        levels = self.meta.get("bot_levels")
        if not levels:
            return []
        seats = self.meta["seats"]
        return [lv if seats[s] == "bot" else None for s, lv in enumerate(levels)]


@dataclass
class Decision:
    """What a use case decided: the events to append and the state they lead to.

    `state` None means "not evolved yet": the repository evolves the cached state with
    `events` only once the append succeeded, so a stale cache can catch up with the tail
    a Conflict carries and decide again without a read."""

    events: list[Event]
    state: Any = None


@dataclass
class Committed:
    game: LoadedGame
    appended: bool  # False when an earlier request with the same id answered


# Request ids of appends sent without one: unique per process (a random prefix drawn once, and
# again in a forked child) and a counter, with no system call per append.
_AUTO = [secrets.token_hex(8), itertools.count()]


def _same_request(key: str, asked: str, recorded: str) -> None:
    """A request id's record answers a retry only: one recorded for another request (both
    fingerprints known and different) is refused."""
    if asked and recorded and asked != recorded:
        rid = key.split(":", 1)[-1]
        raise InvalidArgument(f"requestId {rid!r} was already used by this seat for another action; a new "
                              "action needs a new requestId", "REQUEST_ID_REUSED")


def _auto_key() -> str:
    return f"auto:{_AUTO[0]}-{next(_AUTO[1])}"  # type: ignore[call-overload]


def _new_auto_prefix() -> None:
    _AUTO[:] = [secrets.token_hex(8), itertools.count()]


os.register_at_fork(after_in_child=_new_auto_prefix)


def new_game_id() -> str:
    """12 URL-safe characters (72 random bits) that start with a letter or digit: an id (and
    a seat token, which begins with it) starting with '-' would read as an option on a
    command line. Nor with `eyJ`: a seat token would then look like a portal JWT to a client
    that tells them apart by that prefix (docs/api.md)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if game_id[0].isalnum() and not game_id.startswith("eyJ"):
            return game_id


@dataclass
class _Cached:
    engine: Engine
    version: int
    state: Any
    hash: str | None = ""  # the chain hash of the event at `version` ("" for none / pre-chain logs)
    platform: list[Event] = field(default_factory=list)
    checked: float = 0.0  # time.monotonic() when this replica last found it the store's head
    # Entries after `version` a watcher of this replica was sent (GameRepository.observed):
    # (version, hash, the hash before it, a private copy of the event), folded under the
    # game's lock when the cache is next used.
    pending: list[tuple[int, str, str, Event]] = field(default_factory=list)

    def game(self, game_id: str, meta: dict[str, Any]) -> LoadedGame:
        """The cached game as a LoadedGame (its own list of platform events)."""
        return LoadedGame(game_id, meta, self.engine, self.version, self.state, list(self.platform))


class _Timed:
    """Times one store call into tablero_store_latency_seconds and maps store failures."""

    def __init__(self, op: str) -> None:
        self.op = op

    def __enter__(self) -> None:
        self.t = time.perf_counter()

    def __exit__(self, exc_type, exc, tb) -> bool:
        metrics.child(metrics.STORE_LATENCY, self.op).observe(time.perf_counter() - self.t)
        if exc_type is not None and issubclass(exc_type, GameNotFound):
            raise NotFound(f"no game {str(exc)!r}" if str(exc) else "no such game", "GAME_NOT_FOUND") from exc
        if exc_type is not None and issubclass(exc_type, Trimmed):
            raise FailedPrecondition(
                f"versions before {exc.first_kept} of this game are no longer kept (a snapshot covers them; "
                f"ask for version {exc.first_kept} or later)", "HISTORY_TRIMMED") from exc
        if exc_type is not None and issubclass(exc_type, NotReplicated):
            raise Unavailable(
                f"the write (a move, a join, a new game) was made but not yet confirmed by {exc.wanted} Redis replica(s) within "
                f"{exc.timeout:g} s (TABLERO_REDIS_MIN_REPLICAS_ACK); retry with the same requestId: it is "
                "applied exactly once", "NOT_REPLICATED") from exc
        if (
            exc_type is not None
            and issubclass(exc_type, StoreError)
            and not issubclass(exc_type, (Conflict, DuplicateRequest, GameExists))
        ):
            raise outage("the event store", exc) from exc
        return False


class GameRepository:
    """`tail_limit`: how many events a stale cache may catch up from a Conflict's tail
    without a read. Snapshots and finish() are written off the reply path (background
    tasks, drained by `drain()`)."""

    def __init__(self, store: EventStore, *, cache_size: int = 1000, snapshot_every: int = 100,
                 max_retries: int = 5, tail_limit: int = 32) -> None:
        self.store = store
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self.max_retries = max_retries
        self.tail_limit = tail_limit
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self._background: set[asyncio.Task] = set()
        # Called with (game_id, LoadedGame) after every successful create/append (the bot worker).
        self.on_commit: Callable[[LoadedGame], None] | None = None
        # Replays of past versions run through it (server/app/offload.py) when set: on a thread
        # once an engine's replays have been slow.
        self.engine_calls: Any = None

    # --- reading ---------------------------------------------------------------------
    async def meta(self, game_id: str, *, exact: bool = False) -> dict[str, Any]:
        """The game's metadata; from the per-replica cache unless `exact` (the "claimed"
        list may be stale in the cache: claims only grow)."""
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {str(game_id)[:80]!r}: game ids are 1-64 letters, digits, '-' or '_'",
                           "GAME_NOT_FOUND")
        if not exact:  # from the cache: no store call to time
            meta = self.store.cached_meta(game_id)
            if meta is not None and len(meta.get("claimed", ())) >= sum(k == "open" for k in meta.get("seats", ())):
                return meta
        with _Timed("get_meta"):
            meta = await self.store.get_meta(game_id, cached=not exact)
            if not exact and len(meta.get("claimed", ())) < sum(k == "open" for k in meta.get("seats", ())):
                meta = await self.store.get_meta(game_id)  # open seats left: claims may be newer
            return meta

    def engine_of(self, meta: dict[str, Any]) -> Engine:
        try:
            engine = engines.get(meta["engine"])
        except UnknownEngine:
            raise Unavailable(f"this server does not run the engine {meta['engine']!r}", "ENGINE_UNAVAILABLE") from None
        v = meta.get("engine_version", engine.version)
        if v != engine.version and v not in engine.supported_versions:
            raise Unavailable(f"this game was written by {engine.name} v{v}; this server runs v{engine.version}",
                              "ENGINE_UNAVAILABLE")
        return engine

    async def current(self, game_id: str, meta: dict[str, Any] | None = None) -> LoadedGame:
        """The game now (cached state caught up with the store, its history checked)."""
        meta = meta or await self.meta(game_id)
        async with self._lock(game_id):
            c = await self._load(game_id, meta, fresh=True)
            game = c.game(game_id, meta)
        if self.on_commit is not None:  # a game waiting for its bots is played by whoever sees it
            self.on_commit(game)
        return game

    def holds(self, game_id: str) -> bool:
        """Whether this replica's cache holds the game (at some version)."""
        return game_id in self._cache

    async def hold(self, game_id: str, meta: dict[str, Any]) -> LoadedGame:
        """The game read into the cache, unless the cache holds it by the time the game's lock
        is taken (two watches opened at once read it once)."""
        async with self._lock(game_id):
            c = self._cache.get(game_id)
            if c is None:
                c = await self._load(game_id, meta, fresh=True)
            return c.game(game_id, meta)

    def recent(self, game_id: str, meta: dict[str, Any], within: float) -> LoadedGame | None:
        """The cached game when this replica found it the store's head (wrote it, or read
        the store's tail) less than `within` seconds ago — no store call; else None."""
        c = self._cache.get(game_id)
        if c is None or time.monotonic() - c.checked > within:
            return None
        return c.game(game_id, meta)

    async def at(self, game_id: str, version: int, meta: dict[str, Any] | None = None) -> LoadedGame:
        """The game at a past version (1..current), replayed from the newest snapshot not past it."""
        meta = meta or await self.meta(game_id)
        engine = self.engine_of(meta)
        current = await self.version(game_id)
        if version > current:
            raise InvalidArgument(f"version {version} is beyond the game's current version {current}")
        with _Timed("get_snapshot"):
            snap = await self.store.snapshot_at(game_id, version)
        start, state = (snap.version, snap.state) if snap else (0, None)
        events = []
        if version > start:
            with _Timed("read"):
                events = await self.store.read(game_id, after_version=start, limit=version - start)
        platform = snap.platform if snap and snap.platform is not None else \
            await self._platform_before(game_id, start)
        if self.engine_calls is not None:
            state = await self.engine_calls.run(engine.name, "replay", _fold, engine, state, platform, events)
        else:
            state = _fold(engine, state, platform, events)
        metrics.REPLAYED_EVENTS.observe(len(events))
        return LoadedGame(game_id, meta, engine, version, state, platform)

    async def _platform_before(self, game_id: str, version: int) -> list[Event]:
        """The platform events among the first `version` (those a snapshot at `version` covers).
        Where trimming dropped them, none are known (retention's trim is off by default)."""
        if version == 0:
            return []
        try:
            with _Timed("read"):
                head = await self.store.read(game_id, after_version=0, limit=version)
        except FailedPrecondition:
            return []
        return [e for e in head if is_platform(e)]

    async def version(self, game_id: str) -> int:
        with _Timed("version"):
            return await self.store.version(game_id)

    async def events(self, game_id: str, after: int, limit: int) -> list[Entry]:
        """ListEvents' page: up to `limit` entries (version, chain hash, event) after `after`.
        A start the store no longer keeps is refused naming the afterVersion a listing may
        start from instead."""
        with _Timed("read"):
            try:
                return await self.store.read_entries(game_id, after_version=after, limit=limit)
            except Trimmed as exc:
                raise FailedPrecondition(
                    f"events before version {exc.first_kept} of this game are no longer kept (trimmed after "
                    f"a snapshot); list with afterVersion={exc.first_kept - 1} or later", "HISTORY_TRIMMED") from exc

    @property
    def trims(self) -> bool:
        """Whether the store drops the events a snapshot covers (TABLERO_TRIM_ON_SNAPSHOT): a
        read or a watch from before the newest snapshot may then find its start gone."""
        return self.store.trim_on_snapshot

    async def head(self, game_id: str) -> AppendResult:
        """The log's head: its version and its last event's chain hash ("" for none)."""
        with _Timed("head"):
            return await self.store.head(game_id)

    def watch(self, game_id: str, after_version: int, after_hash: str | None = None) -> AsyncIterator[Any]:
        """(version, event) pairs (`Watched`, with the event's chain hash), and `Reset(v)` markers
        when the store's history was rewritten under the watcher (every event after v it was
        given is void), or, given `after_hash`, before it came back."""
        return self.store.watch(game_id, after_version, after_hash=after_hash, resets=True)

    async def answered(self, game_id: str, key: str | None) -> int | None:
        """The version an earlier request with this idempotency key produced, if any."""
        if key is None:
            return None
        with _Timed("request_version"):
            return await self.store.request_version(game_id, key)

    # --- writing ---------------------------------------------------------------------
    async def create(self, meta: dict[str, Any], engine: Engine, decision: Decision,
                     game_id: str | None = None) -> LoadedGame:
        game_id = game_id or new_game_id()
        state = decision.state
        platform = [e for e in decision.events if is_platform(e)]
        if state is None:
            state = _fold(engine, state, [], decision.events)
        with _Timed("create"):
            version = await self.store.create(game_id, meta, decision.events)
        # The head hash is not known without a read: the first write checks no hash (the
        # version CAS still holds) and learns it.
        self._remember(game_id, _Cached(engine, version, state, None, platform, time.monotonic()))
        game = LoadedGame(game_id, meta, engine, version, state, list(platform))
        self._committed(game, 0)
        return game

    async def claim_seat(self, game_id: str, seats: list[int], claim: str | None = None) -> int | None:
        with _Timed("claim_seat"):
            return await self.store.claim_seat(game_id, seats, claim)

    async def confirm_replicated(self, game_id: str) -> None:
        with _Timed("confirm_replicated"):
            await self.store.confirm_replicated(game_id)

    async def update(self, game_id: str, decide: Callable[[LoadedGame], Any],
                     key: str | None = None, meta: dict[str, Any] | None = None,
                     fingerprint: str = "") -> Committed:
        """Decide on the cached game and append the decision if the store is still where
        the cache is — same version AND same history (hash chain) — in one round trip;
        the request-id check is in the same atomic step. A stale cache catches up from
        the Conflict's tail and decides again; a rewritten history is dropped and reloaded.
        A request whose `key` was already answered appends nothing and gets that answer's
        game, unless that answer was to another request (`fingerprint`, what this one asks,
        differs from the one recorded): REQUEST_ID_REUSED. `decide` may return a Decision or
        an awaitable of one."""
        meta = meta or await self.meta(game_id)
        # Every append carries a request id: when a store reply is lost and the append
        # retried, the store then answers DuplicateRequest instead of applying it twice.
        store_key = key or _auto_key()
        fresh = False
        for _attempt in range(self.max_retries):
            async with self._lock(game_id):
                c = await self._load(game_id, meta, fresh=fresh)
                game = c.game(game_id, meta)
                try:
                    decision = decide(game)
                    if inspect.isawaitable(decision):
                        decision = await decision
                except AppError:
                    self._evict_if_mutated(game_id, c, game)
                    if not fresh:
                        # The cache may be behind the store (another replica moved): refusals
                        # are only given on a state checked against the store.
                        fresh = True
                        continue
                    # A concurrent retry of this request may have been applied meanwhile.
                    if (done := await self.answered(game_id, key)) is not None:
                        if fingerprint and key is not None:
                            _same_request(key, fingerprint, await self.store.request_fingerprint(game_id, key))
                        return Committed(await self._replayed(game_id, done, meta), appended=False)
                    raise
                except BaseException:
                    self._evict(game_id)  # deciding may have evolved the cached state
                    raise
                evolved = decision.state is not None
                try:
                    with _Timed("append"):
                        head = await self.store.append_ex(
                            game_id, c.version, decision.events, store_key,
                            expected_hash=c.hash, tail_limit=0 if evolved else self.tail_limit,
                            fingerprint=fingerprint)
                except HistoryRewritten:
                    self._evict(game_id)
                    metrics.CONFLICTS.inc()
                    metrics.HISTORY_REWRITTEN.inc()
                    continue
                except Conflict as conflict:
                    metrics.CONFLICTS.inc()
                    if not evolved and conflict.tail and conflict.tail[0].version == c.version + 1:
                        self._catch_up(c, conflict.tail)
                    else:
                        self._evict(game_id)
                    continue
                except DuplicateRequest as d:
                    if evolved:
                        self._evict(game_id)
                    _same_request(store_key, fingerprint, d.fingerprint)
                    return Committed(await self._replayed(game_id, d.version, meta), appended=False)
                except BaseException:
                    self._evict(game_id)
                    raise
                state = decision.state
                if not evolved:
                    state = _fold(c.engine, c.state, [], decision.events)
                c.platform.extend(e for e in decision.events if is_platform(e))
                before = c.version
                c.version, c.hash, c.state = head.version, head.hash, state
                c.checked = time.monotonic()
                done = LoadedGame(game_id, meta, c.engine, head.version, state, list(c.platform))
                self._committed(done, before)
                return Committed(done, appended=True)
        raise TooManyConflicts("the game changed too often while applying your action; retry")

    async def _replayed(self, game_id: str, version: int, meta: dict[str, Any]) -> LoadedGame:
        """The answer to a retried request: the game at the version its first attempt wrote,
        or, where a snapshot trimmed the events that led there (TABLERO_TRIM_ON_SNAPSHOT), the
        game now, which holds that request's effect and what followed (the retry is still
        applied once; a refusal would tell the client its applied action failed). The caller
        holds the game's lock."""
        try:
            return await self.at(game_id, version, meta)
        except FailedPrecondition as e:
            if not isinstance(e.__cause__, Trimmed):
                raise
            c = await self._load(game_id, meta, fresh=True)
            return c.game(game_id, meta)

    def _committed(self, game: LoadedGame, before: int) -> None:
        """After a write: the snapshot (when due) and finish() go off the reply path."""
        if before // self.snapshot_every != game.version // self.snapshot_every:
            self._spawn(self._snapshot(game.id, game.version, clone(game.state), list(game.platform)))
        if game.finished and self.store.finished_ttl:  # no TTL: nothing to do
            self._spawn(self._finish(game.id))
        if self.on_commit is not None:
            self.on_commit(game)

    async def _snapshot(self, game_id: str, version: int, state: Any, platform: list[Event]) -> None:
        with contextlib.suppress(AppError):  # a lost snapshot only costs a longer replay later
            with _Timed("put_snapshot"):
                await self.store.put_snapshot(game_id, version, state, platform)

    async def _finish(self, game_id: str) -> None:
        with contextlib.suppress(AppError, NotImplementedError):
            with _Timed("finish"):
                await self.store.finish(game_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for the background writes (snapshots, finish) started so far."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    # --- cache and locks ---------------------------------------------------------------
    def clear_cache(self) -> None:
        self._cache.clear()

    def running(self) -> int:
        """Games in this replica's cache whose engine state has no outcome yet (a metric: a
        game ended by its platform events alone, e.g. every seat left, still counts)."""
        count = 0
        for c in list(self._cache.values()):
            try:
                count += c.engine.outcome(c.state) is None
            except Exception:  # noqa: BLE001 - a metric never fails a request
                continue
        return count

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

    def forget_meta(self, game_id: str) -> None:
        """Drop the game's cached metadata: its next read asks the store (a seat was claimed)."""
        self.store.forget_meta(game_id)

    def forget(self, game_id: str) -> None:
        """The store found the game gone (deleted, expired, lost): nothing of it stays cached."""
        self._evict(game_id)
        self.store.forget_meta(game_id)

    def _evict_if_mutated(self, game_id: str, c: _Cached, game: LoadedGame) -> None:
        # Deciders that evolve (bots) may have changed the state before refusing.
        if game.state is not c.state:
            self._evict(game_id)

    # Entries a cached game takes from its watchers before a write folds them in: beyond
    # that, the entry is dropped (a game this replica only watches, and long).
    PENDING_MAX = 256

    def observed(self, game_id: str, engine: Engine, version: int, hash_: str, prev_hash: str | None,
                 event: Event) -> None:
        """A watcher of this replica was sent the store's entry `version` (hash `hash_`, after
        `prev_hash`). The cached game keeps it, to fold in when a write of this replica next
        uses the cache: a game this replica only watched so far is then written without a
        load and without a conflict. A game not cached starts from version 0 with its first
        entry. Only entries that chain on to what the cache holds are kept (a known hash
        after a known hash); every write still checks version and hash with the store."""
        if not hash_ or prev_hash is None:
            return
        c = self._cache.get(game_id)
        if c is None:
            if version != 1 or prev_hash or len(self._cache) >= self.cache_size:
                return
            c = self._cache[game_id] = _Cached(engine, 0, None, "")
            self._cache.move_to_end(game_id, last=False)  # only watched: the first to go
        last, last_hash = (c.pending[-1][0], c.pending[-1][1]) if c.pending else (c.version, c.hash or "")
        if not _chains(version, prev_hash, last, last_hash):
            return
        if len(c.pending) >= self.PENDING_MAX:
            self._evict(game_id)
            return
        c.pending.append((version, hash_, prev_hash, clone(event)))

    @staticmethod
    def _take_pending(c: _Cached) -> None:
        """Fold what watchers brought (the caller holds the game's lock), as far as it follows on
        from the cached version and hash; the rest is dropped."""
        pending, c.pending = c.pending, []
        for version, hash_, prev, event in pending:
            if version <= c.version:
                continue  # a write of this replica got there first
            if not _chains(version, prev, c.version, c.hash or ""):
                return
            c.state = _fold(c.engine, c.state, c.platform, [event])
            c.version, c.hash = version, hash_

    @staticmethod
    def _catch_up(c: _Cached, entries: list[Entry]) -> None:
        for entry in entries:
            c.state = _fold(c.engine, c.state, c.platform, [entry.event])
            c.version, c.hash = entry.version, entry.hash

    async def _load(self, game_id: str, meta: dict[str, Any], *, fresh: bool) -> _Cached:
        """The cached state; with `fresh`, caught up with the store and its history checked
        (snapshot + replay on a miss, or when the store's history is not the cache's)."""
        c = self._cache.get(game_id)
        if c is not None and c.pending:
            self._take_pending(c)
        if c is not None and not fresh:
            self._cache.move_to_end(game_id)
            metrics.CACHE_HITS.inc()
            return c
        if c is not None:
            # Read from the cache's own last event: its hash tells whether the history the
            # cache was built from is still the store's.
            try:
                with _Timed("read"):
                    tail = await self.store.read_entries(game_id, after_version=max(c.version - 1, 0))
            except FailedPrecondition:  # trimmed under the cache: reload from the snapshot
                tail = None
            if tail is not None and c.version > 0:
                if not tail or tail[0].version != c.version or (
                        c.hash and tail[0].hash and tail[0].hash != c.hash):
                    tail = None
                    metrics.HISTORY_REWRITTEN.inc()
                else:
                    if c.hash is None or not c.hash:
                        c.hash = tail[0].hash
                    tail = tail[1:]
            if tail is not None:
                self._catch_up(c, tail)
                c.checked = time.monotonic()
                self._cache.move_to_end(game_id)
                metrics.CACHE_HITS.inc()
                return c
            self._evict(game_id)
        metrics.CACHE_MISSES.inc()
        engine = self.engine_of(meta)
        with _Timed("load"):
            # The newest snapshot and the entries from its own event on (always kept: its hash
            # is the head's when nothing follows), in one round trip where the store can.
            snap, entries = await self.store.load_newest(game_id)
        version, state = (snap.version, snap.state) if snap else (0, None)
        head_hash = ""
        if version > 0 and entries and entries[0].version == version:
            head_hash = entries[0].hash
            entries = entries[1:]
        platform = snap.platform if snap and snap.platform is not None else \
            await self._platform_before(game_id, version)
        for entry in entries:
            state = _fold(engine, state, platform, [entry.event])
            version, head_hash = entry.version, entry.hash
        metrics.REPLAYED_EVENTS.observe(len(entries))
        c = _Cached(engine, version, state, head_hash, platform, time.monotonic())
        self._remember(game_id, c)
        return c
