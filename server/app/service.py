"""The use cases: load → decide → append (compare-and-set) → evolve → reply.

Transports call these coroutines and turn the returned dicts into JSON (REST) or
protobuf messages (gRPC): the dicts already follow the protobuf JSON mapping
(lowerCamelCase). Errors are AppError subclasses with stable codes.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import logging
import random
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import engines
from engines.core import (
    Engine,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    UnknownEngine,
    check_action,
    start_event,
)
from server import metrics
from server.auth import TokenSigner
from server.store.base import (
    Conflict,
    DuplicateRequest,
    EventStore,
    GameNotFound,
    StoreError,
)

from .errors import Aborted, FailedPrecondition, InvalidArgument, NotFound, Unavailable

log = logging.getLogger("tablero.app")

SEAT_KINDS = ("human", "open", "bot")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_REQUEST_ID = 128
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


@dataclass
class _Cached:
    engine: Engine
    version: int
    state: Any


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


class GameService:
    def __init__(
        self,
        store: EventStore,
        signer: TokenSigner,
        *,
        cache_size: int = 1000,
        snapshot_every: int = 100,
        max_retries: int = 5,
    ) -> None:
        self.store = store
        self.signer = signer
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self.max_retries = max_retries
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}

    # --- engines ------------------------------------------------------------
    async def list_engines(self) -> dict[str, Any]:
        out = []
        for name in engines.names():
            e = engines.get(name)
            out.append({
                "name": e.name, "title": e.title, "minSeats": e.min_seats, "maxSeats": e.max_seats,
                "optionsSchema": e.options_schema, "version": e.version,
            })
        return {"engines": out}

    # --- create / join --------------------------------------------------------
    async def create_game(
        self, engine_name: Any, players: Any, options: Any = None, seat_kinds: Any = None
    ) -> dict[str, Any]:
        if not isinstance(engine_name, str) or not engine_name:
            raise InvalidArgument('"engine" must name an engine (see GET /v1/engines)')
        try:
            engine = engines.get(engine_name)
        except UnknownEngine as e:
            raise InvalidArgument(str(e)) from None
        if players is None:
            players = len(seat_kinds) if isinstance(seat_kinds, list) and seat_kinds else engine.min_seats
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidArgument('"players" must be an integer')
        if not engine.min_seats <= players <= engine.max_seats:
            raise InvalidArgument(
                f"{engine.title} takes {engine.min_seats}-{engine.max_seats} players, not {players}"
            )
        if seat_kinds is not None and not isinstance(seat_kinds, list):
            raise InvalidArgument('"seats" must be a list of seat kinds ("human", "open" or "bot")')
        kinds = list(seat_kinds) if seat_kinds else ["human"] * players
        if len(kinds) != players or any(k not in SEAT_KINDS for k in kinds):
            raise InvalidArgument(f'"seats" must list {players} seat kinds, each one of {", ".join(SEAT_KINDS)}')
        rng = random.Random(secrets.randbits(64))
        try:
            first = start_event(engine, players, options, rng)
        except InvalidOptions as e:
            raise InvalidArgument(str(e)) from None
        state = engine.evolve(None, copy.deepcopy(first))
        events = [first]
        state, bot_events = self._play_bots(engine, state, kinds, rng)
        events += bot_events
        game_id = secrets.token_urlsafe(9)
        meta = {
            "engine": engine.name, "engine_version": engine.version, "players": players,
            "seats": kinds, "claimed": [], "created": time.time(),
        }
        with _Timed("create"):
            version = await self.store.create(game_id, meta, events)
        metrics.GAMES_CREATED.labels(engine.name).inc()
        if engine.outcome(state) is not None:
            metrics.GAMES_FINISHED.labels(engine.name).inc()
        self._remember(game_id, _Cached(engine, version, state))
        tokens = [{"seat": s, "token": self.signer.issue(game_id, s)} for s, k in enumerate(kinds) if k == "human"]
        return {"game": self._game(game_id, meta, engine, version, state, None), "seats": tokens}

    async def join_game(self, game_id: str) -> dict[str, Any]:
        meta = await self._meta(game_id)
        open_seats = [s for s, k in enumerate(meta["seats"]) if k == "open"]
        if not open_seats:
            raise FailedPrecondition("this game has no open seats")
        with _Timed("claim_seat"):
            seat = await self.store.claim_seat(game_id, open_seats)
        if seat is None:
            raise FailedPrecondition("every open seat of this game is taken")
        return {"gameId": game_id, "seat": seat, "token": self.signer.issue(game_id, seat)}

    def seat_of(self, token: str | None, game_id: str) -> int | None:
        return None if token is None else self.signer.verify(token, game_id)

    # --- reads -----------------------------------------------------------------
    async def get_game(self, game_id: str, seat: int | None, version: Any = None) -> dict[str, Any]:
        meta = await self._meta(game_id)
        if version is not None:
            return await self._game_at(game_id, meta, seat, version)
        async with self._lock(game_id):
            c = await self._load(game_id, meta)
            return self._game(game_id, meta, c.engine, c.version, c.state, seat)

    async def legal_actions(self, game_id: str, seat: int) -> dict[str, Any]:
        meta = await self._meta(game_id)
        async with self._lock(game_id):
            c = await self._load(game_id, meta)
            acts = []
            if c.engine.outcome(c.state) is None and seat in c.engine.to_act(c.state):
                acts = c.engine.legal_actions(c.state, seat)
            return {"actions": acts, "version": c.version, "seat": seat}

    async def list_events(
        self, game_id: str, seat: int | None, page_size: Any = None, page_token: Any = None
    ) -> dict[str, Any]:
        meta = await self._meta(game_id)
        size = DEFAULT_PAGE_SIZE if page_size in (None, 0, "") else page_size
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_PAGE_SIZE:
            raise InvalidArgument(f"pageSize must be between 1 and {MAX_PAGE_SIZE}")
        after = _decode_page_token(game_id, page_token) if page_token else 0
        engine = self._engine_of(meta)
        with _Timed("read"):
            current = await self.store.version(game_id)
            if after > current:
                raise InvalidArgument("pageToken is not a token this game's ListEvents returned")
            events = await self.store.read(game_id, after_version=after, limit=size)
        out = [
            {"gameId": game_id, "version": after + i + 1, "event": engine.event_view(e, seat)}
            for i, e in enumerate(events)
        ]
        last = after + len(events)
        nxt = _encode_page_token(game_id, last) if events and last < current else ""
        return {"events": out, "nextPageToken": nxt}

    async def watch(self, game_id: str, seat: int | None, after_version: int = 0) -> AsyncIterator[dict[str, Any]]:
        """Redacted events after `after_version`, then live ones, pushed by the store."""
        if not isinstance(after_version, int) or after_version < 0:
            raise InvalidArgument("afterVersion must be a non-negative integer")
        meta = await self._meta(game_id)
        engine = self._engine_of(meta)
        with _Timed("version"):
            current = await self.store.version(game_id)
        if after_version > current:
            raise InvalidArgument(f"afterVersion {after_version} is beyond the game's current version {current}")
        async with self._lock(game_id):
            c = await self._load(game_id, meta)
            state, version = copy.deepcopy(c.state), c.version
        return self._watch(game_id, engine, seat, after_version, state, version)

    async def _watch(self, game_id, engine, seat, after_version, state, known):
        """Stream until the consumer stops, or until the game's last event has been sent
        (the watcher keeps its own copy of the state to know when the game is over)."""
        finished = engine.outcome(state) is not None
        if finished and after_version >= known:
            return
        metrics.WATCH_STREAMS.inc()
        try:
            async for version, event in self.store.watch(game_id, after_version):
                yield {"gameId": game_id, "version": version, "event": engine.event_view(event, seat)}
                if version > known:
                    state = engine.evolve(state, event)
                    known = version
                    finished = engine.outcome(state) is not None
                if finished and version >= known:
                    return
        finally:
            metrics.WATCH_STREAMS.dec()

    # --- the write path -------------------------------------------------------------
    async def submit_action(
        self,
        game_id: str,
        seat: int,
        action: Any,
        request_id: Any = None,
        expected_version: Any = None,
    ) -> dict[str, Any]:
        if not isinstance(action, dict):
            raise InvalidArgument('"action" must be a JSON object with a "type"')
        if request_id in ("", None):
            request_id = None
        elif not isinstance(request_id, str) or len(request_id) > MAX_REQUEST_ID:
            raise InvalidArgument(f"requestId must be a string of at most {MAX_REQUEST_ID} characters")
        if expected_version is not None and (
            not isinstance(expected_version, int) or isinstance(expected_version, bool) or expected_version < 0
        ):
            raise InvalidArgument("expectedVersion must be a non-negative integer")
        meta = await self._meta(game_id)
        if request_id is not None:
            # Request ids are the client's, per seat: two seats may use the same id.
            request_id = f"seat{seat}:{request_id}"
            with _Timed("request_version"):
                done = await self.store.request_version(game_id, request_id)
            if done is not None:
                return await self._game_at(game_id, meta, seat, done)
        engine = self._engine_of(meta)
        # Every append carries a request id: when a store reply is lost and the append
        # retried, the store then answers DuplicateRequest instead of applying it twice.
        store_request_id = request_id or f"auto:{secrets.token_hex(12)}"
        for _attempt in range(self.max_retries):
            async with self._lock(game_id):
                c = await self._load(game_id, meta)
                if expected_version is not None and expected_version != c.version:
                    metrics.ACTIONS.labels(engine.name, "stale").inc()
                    raise Aborted(f"stale version: the game is at version {c.version}, not {expected_version}")
                rng = random.Random(secrets.randbits(64))
                try:
                    check_action(engine, c.state, seat, action)
                    events = engine.decide(c.state, seat, action, rng)
                except (InvalidAction, IllegalAction) as e:
                    # A concurrent retry of this request may have been applied meanwhile.
                    done = request_id and await self.store.request_version(game_id, request_id)
                    if done:
                        return await self._game_at(game_id, meta, seat, done)
                    if isinstance(e, InvalidAction):
                        metrics.ACTIONS.labels(engine.name, "invalid").inc()
                        raise InvalidArgument(str(e)) from None
                    metrics.ACTIONS.labels(engine.name, "illegal").inc()
                    raise FailedPrecondition(str(e)) from None
                # Apply to the cached state now; any failure below evicts it.
                state = c.state
                try:
                    for e in events:
                        state = engine.evolve(state, e)
                    state, bot_events = self._play_bots(engine, state, meta["seats"], rng)
                    events += bot_events
                    with _Timed("append"):
                        version = await self.store.append(game_id, c.version, events, store_request_id)
                except Conflict:
                    self._evict(game_id)
                    metrics.CONFLICTS.inc()
                    continue
                except DuplicateRequest as d:
                    self._evict(game_id)
                    return await self._game_at(game_id, meta, seat, d.version)
                except BaseException:
                    self._evict(game_id)
                    raise
                before = c.version
                c.version, c.state = version, state
                metrics.ACTIONS.labels(engine.name, "ok").inc()
                if engine.outcome(state) is not None:
                    metrics.GAMES_FINISHED.labels(engine.name).inc()
                if before // self.snapshot_every != version // self.snapshot_every:
                    with _Timed("put_snapshot"):
                        await self.store.put_snapshot(game_id, version, copy.deepcopy(state))
                return self._game(game_id, meta, engine, version, state, seat)
        metrics.ACTIONS.labels(engine.name, "conflict").inc()
        raise Aborted("the game changed too often while applying your action; retry")

    # --- internals --------------------------------------------------------------------
    def _play_bots(self, engine: Engine, state: Any, kinds: list[str], rng: random.Random) -> tuple[Any, list]:
        """The server plays bot seats: random legal actions, recorded as ordinary events."""
        out: list[dict] = []
        steps = 0
        while steps < engine.max_random_steps and engine.outcome(state) is None:
            bots = sorted(s for s in engine.to_act(state) if kinds[s] == "bot")
            if not bots:
                break
            seat = bots[0]
            actions = engine.legal_actions(state, seat)
            if not actions:
                log.error("bot seat %s of %s has no legal action", seat, engine.name)
                break
            for e in engine.decide(state, seat, engine.random_action(state, seat, actions, rng), rng):
                state = engine.evolve(state, e)
                out.append(e)
            steps += 1
        return state, out

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

    async def _meta(self, game_id: Any) -> dict[str, Any]:
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {str(game_id)[:80]!r}: game ids are 1-64 letters, digits, '-' or '_'")
        with _Timed("get_meta"):
            return await self.store.get_meta(game_id)

    def _engine_of(self, meta: dict[str, Any]) -> Engine:
        try:
            engine = engines.get(meta["engine"])
        except UnknownEngine:
            raise Unavailable(f"this server does not run the engine {meta['engine']!r}") from None
        v = meta.get("engine_version", engine.version)
        if v != engine.version and v not in engine.supported_versions:
            raise Unavailable(f"this game was written by {engine.name} v{v}; this server runs v{engine.version}")
        return engine

    async def _load(self, game_id: str, meta: dict[str, Any]) -> _Cached:
        """The cached state caught up with the store (snapshot + replay on a miss)."""
        c = self._cache.get(game_id)
        if c is not None:
            with _Timed("read"):
                tail = await self.store.read(game_id, after_version=c.version)
            for e in tail:
                c.state = c.engine.evolve(c.state, e)
            c.version += len(tail)
            self._cache.move_to_end(game_id)
            metrics.CACHE_HITS.inc()
            return c
        metrics.CACHE_MISSES.inc()
        engine = self._engine_of(meta)
        with _Timed("get_snapshot"):
            snap = await self.store.get_snapshot(game_id)
        version, state = snap if snap else (0, None)
        with _Timed("read"):
            events = await self.store.read(game_id, after_version=version)
        for e in events:
            state = engine.evolve(state, e)
        metrics.REPLAYED_EVENTS.observe(len(events))
        c = _Cached(engine, version + len(events), state)
        self._remember(game_id, c)
        return c

    async def _game_at(self, game_id: str, meta: dict[str, Any], seat: int | None, version: Any) -> dict[str, Any]:
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise InvalidArgument("version must be a positive integer")
        engine = self._engine_of(meta)
        with _Timed("version"):
            current = await self.store.version(game_id)
        if version > current:
            raise InvalidArgument(f"version {version} is beyond the game's current version {current}")
        # Start from the newest snapshot when it is not past the asked version (a retried
        # request's answer is usually recent), else from the first event.
        with _Timed("get_snapshot"):
            snap = await self.store.get_snapshot(game_id)
        start, state = snap if snap and snap[0] <= version else (0, None)
        events = []
        if version > start:
            with _Timed("read"):
                events = await self.store.read(game_id, after_version=start, limit=version - start)
        for e in events:
            state = engine.evolve(state, e)
        metrics.REPLAYED_EVENTS.observe(len(events))
        return self._game(game_id, meta, engine, version, state, seat)

    def _game(self, game_id, meta, engine: Engine, version: int, state: Any, seat: int | None) -> dict[str, Any]:
        outcome = engine.outcome(state)
        claimed = set(meta.get("claimed", []))
        game: dict[str, Any] = {
            "id": game_id,
            "name": f"games/{game_id}",
            "engine": engine.name,
            "engineVersion": meta.get("engine_version", engine.version),
            "version": version,
            "players": meta["players"],
            "seats": [
                {"seat": s, "kind": k, "claimed": k != "open" or s in claimed} for s, k in enumerate(meta["seats"])
            ],
            "toAct": [] if outcome is not None else sorted(engine.to_act(state)),
            "view": engine.view(state, seat),
            "status": "FINISHED" if outcome is not None else "RUNNING",
        }
        if outcome is not None:
            game["outcome"] = outcome
        if seat is not None:
            game["yourSeat"] = seat
        return game


def _encode_page_token(game_id: str, after: int) -> str:
    return base64.urlsafe_b64encode(f"{game_id}:{after}".encode()).decode().rstrip("=")


def _decode_page_token(game_id: str, token: Any) -> int:
    try:
        raw = base64.urlsafe_b64decode(str(token) + "=" * (-len(str(token)) % 4)).decode()
        gid, after = raw.rsplit(":", 1)
        if gid != game_id or not after.isdigit():
            raise ValueError
        return int(after)
    except (ValueError, UnicodeDecodeError):
        raise InvalidArgument("pageToken is not a token this game's ListEvents returned") from None
