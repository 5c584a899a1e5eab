"""The scale-out event store: one Redis Stream per game.

    store = RedisStore("redis://redis:6379/0")            # or "redis+cluster://node:6379"
    await store.create("g1", {"engine": "goofspiel"}, [start_event])
    await store.append("g1", 1, [event], request_id="r1")  # -> 2

Keys of game G, all under the hash tag {G} so that they live in one slot and
every script below runs unchanged on Redis Cluster:

    tablero:{G}:events    Stream; event n has entry id "n-0", field "e" = JSON
    tablero:{G}:meta      string, the metadata JSON as given to create()
    tablero:{G}:claimed   list of the claimed seats, in claim order
    tablero:{G}:req       hash request_id -> version it produced
    tablero:{G}:snap      string {"version": n, "state": ...}

The version is XLEN of the stream (nothing is ever trimmed). Every write that
checks something is ONE Lua script (EVALSHA, cached by redis-py): the checks
and the writes run as one atomic step on the server, never a read in Python
followed by a write. The scripts check everything before their first write,
because Redis does not roll a script back when it fails half-way.

The claimed seats sit in their own list, not in the meta JSON: the scripts then
never decode and re-encode the metadata (Redis' cjson would turn `[]` into `{}`
and round large numbers). get_meta() puts them back under "claimed".

`watch` is XREAD BLOCK from entry id "<after_version>-0": history first, then
each event as soon as any replica appends it.
"""

from __future__ import annotations

import asyncio
import collections
import inspect
import json
from collections.abc import AsyncIterator, Awaitable
from typing import Any, NamedTuple, TypeVar

import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import RedisCluster

from server.store.base import Conflict, DuplicateRequest, Event, EventStore, GameExists, GameNotFound, StoreError
from server.store.ids import check_game_id

T = TypeVar("T")

# Events are read in pages of this size while catching up in watch().
_WATCH_PAGE = 500

_CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}

# KEYS: events, meta, claimed.  ARGV: meta JSON, number of pre-claimed seats, the seats, the events' JSON.
_CREATE = """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then
  return -1
end
redis.call('SET', KEYS[2], ARGV[1])
local nclaimed = tonumber(ARGV[2])
for i = 3, 2 + nclaimed do
  redis.call('RPUSH', KEYS[3], ARGV[i])
end
local v = 0
for i = 3 + nclaimed, #ARGV do
  v = v + 1
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i])
end
return v
"""

# KEYS: events, meta, req.  ARGV: expected version, "1"/"0" has request id, request id, the events' JSON.
# Returns {0, new version} | {1, 0} unknown game | {2, version} duplicate request | {3, actual} conflict.
_APPEND = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {1, 0}
end
if ARGV[2] == '1' then
  local seen = redis.call('HGET', KEYS[3], ARGV[3])
  if seen then
    return {2, tonumber(seen)}
  end
end
local v = redis.call('XLEN', KEYS[1])
if v ~= tonumber(ARGV[1]) then
  return {3, v}
end
for i = 4, #ARGV do
  v = v + 1
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i])
end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[3], ARGV[3], v)
end
return {0, v}
"""

# KEYS: meta, claimed.  ARGV: the seats, in order of preference.
# Returns {1, seat} | {0, 0} all taken | {-1, 0} unknown game.
_CLAIM_SEAT = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {-1, 0}
end
local taken = {}
for _, seat in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  taken[seat] = true
end
for i = 1, #ARGV do
  if not taken[ARGV[i]] then
    redis.call('RPUSH', KEYS[2], ARGV[i])
    return {1, tonumber(ARGV[i])}
  end
end
return {0, 0}
"""

# KEYS: snap, meta.  ARGV: version, the snapshot JSON (which starts with {"version":<n>,).
# Returns 1 kept | 0 not newer than the one kept | -1 unknown game.
_PUT_SNAPSHOT = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local kept = redis.call('GET', KEYS[1])
if kept then
  local v = tonumber(string.match(kept, '^{"version":(%d+),'))
  if v and v >= tonumber(ARGV[1]) then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""

# KEYS: events, meta.  ARGV: first entry id, count ("" = all).  nil for an unknown game, else the
# events as ONE JSON array text: a single bulk reply is far cheaper for the client to parse than
# XRANGE's nested arrays (3 bulk strings per entry).
_READ = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return false
end
local entries
if ARGV[2] == '' then
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+')
else
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
end
local events = {}
for i, entry in ipairs(entries) do
  events[i] = entry[2][2]
end
return '[' .. table.concat(events, ',') .. ']'
"""

# KEYS: events, meta.  -1 for an unknown game.
_VERSION = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
return redis.call('XLEN', KEYS[1])
"""

# KEYS: meta, claimed.  nil for an unknown game, else {meta JSON, {claimed seats}}.
_GET_META = """
local meta = redis.call('GET', KEYS[1])
if not meta then
  return false
end
return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}
"""


class GameKeys(NamedTuple):
    events: str
    meta: str
    claimed: str
    req: str
    snap: str


def game_keys(game_id: str) -> GameKeys:
    """The keys of one game, all sharing the hash tag {game_id}. ValueError for an id
    that would not make a hash tag (see server.store.ids)."""
    check_game_id(game_id)
    prefix = f"tablero:{{{game_id}}}:"
    return GameKeys(prefix + "events", prefix + "meta", prefix + "claimed", prefix + "req", prefix + "snap")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _existing_game_keys(game_id: str) -> GameKeys:
    """The keys of a game that should exist: an id no store accepts is an unknown game."""
    try:
        return game_keys(game_id)
    except ValueError:
        raise GameNotFound(game_id) from None


def _version_of(entry_id: bytes | str) -> int:
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.partition("-")[0])


class RedisStore(EventStore):
    """EventStore on Redis Streams; `redis+cluster://host:port` (or cluster=True) for Redis Cluster."""

    def __init__(self, url: str, *, block_ms: int = 5000, cluster: bool = False) -> None:
        scheme, sep, rest = url.partition("://")
        if scheme in _CLUSTER_SCHEMES:
            url, cluster = f"{_CLUSTER_SCHEMES[scheme]}{sep}{rest}", True
        self.block_ms = block_ms
        options: dict[str, Any] = {"socket_connect_timeout": 5, "socket_keepalive": True}
        self._client: aioredis.Redis | RedisCluster
        if cluster:
            self._client = RedisCluster.from_url(url, **options)
        else:
            self._client = aioredis.Redis.from_url(url, **options)
        self._cluster = cluster
        self._cluster_lock = asyncio.Lock()
        self._feeds: dict[str, _Feed] = {}  # game_id -> the shared XREAD loop of its watchers
        self._create = self._client.register_script(_CREATE)
        self._append = self._client.register_script(_APPEND)
        self._claim_seat = self._client.register_script(_CLAIM_SEAT)
        self._put_snapshot = self._client.register_script(_PUT_SNAPSHOT)
        self._read = self._client.register_script(_READ)
        self._version = self._client.register_script(_VERSION)
        self._get_meta = self._client.register_script(_GET_META)

    async def _call(self, awaitable: Awaitable[T]) -> T:
        """Await a Redis call; connection loss, timeouts and server errors become StoreError."""
        try:
            if self._cluster and getattr(self._client, "_initialize", False):
                await self._initialize_cluster()
            return await awaitable
        except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException, OSError) as e:
            raise StoreError(f"redis: {e}") from e
        finally:
            if inspect.iscoroutine(awaitable) and inspect.getcoroutinestate(awaitable) == inspect.CORO_CREATED:
                awaitable.close()  # never started because the cluster could not be reached

    async def _initialize_cluster(self) -> None:
        # redis-py 8.1's async RedisCluster lets commands issued while the client is still
        # initialising use connections that the initialisation then closes ("'NoneType' object
        # has no attribute 'writelines'" under concurrent first calls). Initialise it once,
        # alone, before the first command (and again when it resets itself after a failover;
        # commands already in flight then are out of our hands).
        async with self._cluster_lock:
            if getattr(self._client, "_initialize", False):
                await self._client.initialize()

    # -- writes ------------------------------------------------------------------------

    async def create(self, game_id: str, meta: dict[str, Any], events: list[Event]) -> int:
        k = game_keys(game_id)
        claimed = [int(seat) for seat in meta.get("claimed", [])]
        args = [_dumps(meta), len(claimed), *claimed, *(_dumps(e) for e in events)]
        version = await self._call(self._create(keys=[k.events, k.meta, k.claimed], args=args))
        if version < 0:
            raise GameExists(game_id)
        return version

    async def append(
        self, game_id: str, expected_version: int, events: list[Event], request_id: str | None = None
    ) -> int:
        k = _existing_game_keys(game_id)
        args = [
            expected_version,
            "0" if request_id is None else "1",
            "" if request_id is None else request_id,
            *(_dumps(e) for e in events),
        ]
        code, version = await self._call(self._append(keys=[k.events, k.meta, k.req], args=args))
        if code == 0:
            return version
        if code == 1:
            raise GameNotFound(game_id)
        if code == 2:
            raise DuplicateRequest(game_id, request_id or "", version)
        raise Conflict(game_id, expected_version, version)

    async def claim_seat(self, game_id: str, seats: list[int]) -> int | None:
        k = _existing_game_keys(game_id)
        found, seat = await self._call(self._claim_seat(keys=[k.meta, k.claimed], args=[int(s) for s in seats]))
        if found < 0:
            raise GameNotFound(game_id)
        return seat if found else None

    async def put_snapshot(self, game_id: str, version: int, state: Any) -> None:
        k = _existing_game_keys(game_id)
        # "version" first: the script reads it back with a pattern instead of decoding the state.
        text = f'{{"version":{int(version)},"state":{_dumps(state)}}}'
        if await self._call(self._put_snapshot(keys=[k.snap, k.meta], args=[int(version), text])) < 0:
            raise GameNotFound(game_id)

    # -- reads -------------------------------------------------------------------------

    async def read(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Event]:
        k = _existing_game_keys(game_id)
        if limit is not None and limit <= 0:
            await self.version(game_id)  # still GameNotFound for an unknown game
            return []
        first = f"{max(after_version, 0) + 1}-0"
        text = await self._call(self._read(keys=[k.events, k.meta], args=[first, "" if limit is None else limit]))
        if not text:  # nil (RESP2) or false (RESP3): unknown game
            raise GameNotFound(game_id)
        return json.loads(text)

    async def version(self, game_id: str) -> int:
        k = _existing_game_keys(game_id)
        version = await self._call(self._version(keys=[k.events, k.meta]))
        if version < 0:
            raise GameNotFound(game_id)
        return version

    async def get_meta(self, game_id: str) -> dict[str, Any]:
        k = _existing_game_keys(game_id)
        found = await self._call(self._get_meta(keys=[k.meta, k.claimed]))
        if not found:  # nil (RESP2) or false (RESP3): unknown game
            raise GameNotFound(game_id)
        meta_json, claimed = found
        meta = json.loads(meta_json)
        if claimed or "claimed" in meta:
            meta["claimed"] = [int(seat) for seat in claimed]
        return meta

    async def request_version(self, game_id: str, request_id: str) -> int | None:
        try:
            key = game_keys(game_id).req
        except ValueError:
            return None
        version = await self._call(self._client.hget(key, request_id))
        return None if version is None else int(version)

    async def get_snapshot(self, game_id: str) -> tuple[int, Any] | None:
        try:
            key = game_keys(game_id).snap
        except ValueError:
            return None
        text = await self._call(self._client.get(key))
        if text is None:
            return None
        snapshot = json.loads(text)
        return snapshot["version"], snapshot["state"]

    # -- watch -------------------------------------------------------------------------

    async def watch(self, game_id: str, after_version: int) -> AsyncIterator[tuple[int, Event]]:
        current = await self.version(game_id)  # GameNotFound for an unknown game, before any waiting
        last = max(after_version, 0)
        watcher = _Watcher()
        # Subscribe first, then read: whatever is appended after the read reaches us through
        # the feed, and what both deliver is skipped by version. A new feed starts at the
        # current version: the history is this watcher's own read, not the feed's business.
        self._subscribe(game_id, watcher, current)
        try:
            catch_up = True
            while True:
                watcher.wakeup.clear()
                if watcher.error is not None:
                    raise watcher.error
                if watcher.overflow:
                    watcher.overflow, catch_up = False, True
                    watcher.buffer.clear()
                while not catch_up and watcher.buffer:
                    version, text = watcher.buffer.popleft()
                    if version == last + 1:
                        last = version
                        yield version, json.loads(text)  # parsed per watcher: no two share an event dict
                    elif version > last + 1:  # pushed before we caught up: read the gap
                        catch_up = True
                if catch_up:
                    page = await self.read(game_id, last, _WATCH_PAGE)
                    for event in page:
                        last += 1
                        yield last, event
                    catch_up = len(page) == _WATCH_PAGE
                    continue
                await watcher.wakeup.wait()
        finally:
            self._unsubscribe(game_id, watcher)

    def _subscribe(self, game_id: str, watcher: _Watcher, after_version: int) -> None:
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = _Feed(after_version)
            feed.task = asyncio.get_running_loop().create_task(
                self._run_feed(game_id, feed), name=f"tablero-redis-feed-{game_id}"
            )
        feed.watchers.add(watcher)

    def _unsubscribe(self, game_id: str, watcher: _Watcher) -> None:
        feed = self._feeds.get(game_id)
        if feed is None or watcher not in feed.watchers:
            return
        feed.watchers.discard(watcher)
        if not feed.watchers:
            # Cancelling the blocked XREAD makes redis-py drop its connection, which
            # unblocks it on the server.
            del self._feeds[game_id]
            if feed.task is not None:
                feed.task.cancel()

    async def _run_feed(self, game_id: str, feed: _Feed) -> None:
        """One XREAD BLOCK loop per watched game in this process, shared by its watchers:
        a replica holds one blocked Redis connection per game watched, not per watcher."""
        key = game_keys(game_id).events
        try:
            while feed.watchers:
                reply = await self._call(
                    self._client.xread({key: f"{feed.last}-0"}, count=_WATCH_PAGE, block=self.block_ms)
                )
                batch = [(_version_of(entry_id), fields[b"e"]) for entry_id, fields in _stream_entries(reply)]
                if batch:
                    feed.last = batch[-1][0]
                    for watcher in list(feed.watchers):
                        watcher.push(batch)
        except StoreError as e:
            for watcher in list(feed.watchers):
                watcher.fail(e)
        finally:
            if self._feeds.get(game_id) is feed:
                del self._feeds[game_id]

    # -- lifecycle ---------------------------------------------------------------------

    async def ping(self) -> None:
        await self._call(self._client.ping())

    async def close(self) -> None:
        feeds, self._feeds = list(self._feeds.values()), {}
        for feed in feeds:
            for watcher in feed.watchers:
                watcher.fail(StoreError("the Redis store is closed"))
            if feed.task is not None:
                feed.task.cancel()
        await asyncio.gather(*(feed.task for feed in feeds if feed.task is not None), return_exceptions=True)
        await self._client.aclose()


class _Watcher:
    """What the feed hands to one watch() iteration: a bounded buffer and a wake-up."""

    # A watcher that falls this far behind drops its buffer and re-reads from the store.
    MAX_BUFFER = 1000

    def __init__(self) -> None:
        self.buffer: collections.deque[tuple[int, bytes]] = collections.deque()  # (version, event JSON)
        self.wakeup = asyncio.Event()
        self.overflow = False
        self.error: StoreError | None = None

    def push(self, batch: list[tuple[int, bytes]]) -> None:
        if self.overflow or len(self.buffer) + len(batch) > self.MAX_BUFFER:
            self.overflow = True
            self.buffer.clear()
        else:
            self.buffer.extend(batch)
        self.wakeup.set()

    def fail(self, error: StoreError) -> None:
        self.error = error
        self.wakeup.set()


class _Feed:
    def __init__(self, after_version: int) -> None:
        self.last = after_version  # the feed reads entries after "<last>-0"
        self.watchers: set[_Watcher] = set()
        self.task: asyncio.Task[None] | None = None


def _stream_entries(reply: Any) -> list[tuple[Any, Any]]:
    """The entries of the one stream in an XREAD reply (a list in RESP2, a dict in RESP3)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return next(iter(reply.values()))[0]
    return reply[0][1]
