"""The scale-out event store: one Redis Stream per game.

    store = RedisStore("redis://redis:6379/0")            # or "redis+cluster://node:6379"
    await store.create("g1", {"engine": "goofspiel"}, [start_event])
    await store.append("g1", 1, [event], request_id="r1")  # -> 2

Keys of game G, all under the hash tag {G} so that they live in one slot and
every script below runs unchanged on Redis Cluster:

    tablero:{G}:events    Stream; event n is entry "n-0", fields "e" = JSON, "h" = chain hash
    tablero:{G}:meta      string, the metadata JSON as given to create()
    tablero:{G}:claimed   list of the claimed seats, in claim order
    tablero:{G}:req       hash request_id -> version it produced (and "#fp:<request_id>" -> the
                          request's fingerprint, when the append was given one)
    tablero:{G}:snap      string {"version": n, "state": ...}
    tablero:{G}:snaps     hash version -> past snapshot JSON (see SNAPSHOT_HISTORY)
    tablero:{G}:lobby     string, the game's lobby entry (written by server/portal/lobby.py)
    tablero:{G}:n         (a shard pub/sub channel, not a key) "<version>" after each append

The key names are defined once, in server/store/ids.py (GameKeys). Every TTL the store sets
(the abandoned-game TTL on create/append/claim, the finished TTL of finish()) is set on all
of them, the lobby entry included, and delete_game deletes all of them: a game's lobby entry
goes with the game. (The lobby's index, the sorted set `tablero:lobby`, is in another slot:
the lobby drops the members of gone games itself, see RedisLobby.prune.)

The version is the id of the stream's last entry (entries covered by a snapshot
may be trimmed, so it is not XLEN). Every write that checks something is ONE Lua
script (EVALSHA, cached by redis-py), kept in server/store/lua/<name>.lua
(server/store/redis_scripts.py loads them): the checks and the writes run as one atomic
step on the server. The scripts check everything before their first write,
because Redis does not roll a script back when it fails half-way.

Hash chain: entry n's "h" is the first 16 hex digits of sha1(h(n-1) .. JSON of
event n), h(0) = "". A rollback of Redis (lost AOF tail, failover to a lagging
replica) followed by new writes gives the same versions other hashes, which
append_ex(expected_hash=...) and the watchers detect. Entries written before the
chain existed have no "h" (hash ""), are never reported as rewritten, and the
chain restarts from "" after them.

Watching (server/store/redis_watch.py): one notification subscriber connection per
Redis node (SSUBSCRIBE to the channels of the games watched in this process), a bounded
read pool that fetches new entries once per game and fans them out to every local
watcher, and a periodic sweep over watched games that catches whatever a lost
notification would have delayed. Writes use their own bounded pool; the pools, the lean
connections and the retrying call are in server/store/redis_clients.py.
"""


from __future__ import annotations

import collections
import json
import marshal
from collections.abc import AsyncIterator, Awaitable
from typing import Any

from tablero.server.store import push
from tablero.server.store.base import (
    SNAPSHOT_HISTORY,
    AppendResult,
    Conflict,
    DuplicateRequest,
    Entry,
    Event,
    EventStore,
    GameExists,
    GameNotFound,
    HistoryRewritten,
    Snapshot,
    Trimmed,
    compact_json,
)
from tablero.server.store.ids import GameKeys, game_keys
from tablero.server.store.redis_clients import RedisClients, _text
from tablero.server.store.redis_scripts import SCRIPTS, constant
from tablero.server.store.redis_watch import WatchHub, channel_of

__all__ = ["PUSH_EVENTS_MAX", "RedisStore", "channel_of", "game_keys"]

# An append's notification carries its entries when their events' JSON totals at most this
# many bytes (declared in lua/append.lua, which enforces it; redis_watch reads such entries).
PUSH_EVENTS_MAX = constant("append", "PUSH_EVENTS_MAX")


_dumps = compact_json  # (store/base.py)


def _existing_game_keys(game_id: str) -> GameKeys:
    """The keys of a game that should exist: an id no store accepts is an unknown game."""
    try:
        return game_keys(game_id)
    except ValueError:
        raise GameNotFound(game_id) from None


def _snapshot(text: bytes | str) -> Snapshot:
    """A snapshot as the store keeps it (JSON with version, state and, newer ones, platform)."""
    data = json.loads(text)
    return Snapshot(data["version"], data["state"], data.get("platform"))


def _triples(flat: list[Any]) -> list[tuple[int, str, bytes | str]]:
    """(version, hash, event JSON) from a script's flat {v1, h1, e1, v2, ...} reply."""
    return [(int(flat[i]), _text(flat[i + 1]), flat[i + 2]) for i in range(0, len(flat), 3)]


def _conflict(game_id: str, expected: int, actual: int, head_hash: str, tail: list[Any]) -> Conflict:
    """The Conflict an append met (with the tail the script sent). Built here, not in a local
    of the frame that raises it: that would be a frame-traceback-exception cycle, garbage
    for the collector on every conflict."""
    conflict = Conflict(game_id, expected, actual)
    conflict.head_hash = head_hash
    if tail:
        conflict.tail = [Entry(v, h, json.loads(e)) for v, h, e in _triples(tail)]
    return conflict


class RedisStore(RedisClients, EventStore):
    """EventStore on Redis Streams; `redis+cluster://host:port` (or cluster=True) for Redis Cluster.

    Settings (keyword arguments, all optional):
      write_pool_size   connections (per node) for create/append/claim/snapshot calls (16)
      read_pool_size    connections (per node) for reads, including the watchers' fetches (16)
      pool_timeout      seconds a call may wait for a free connection before StoreError (5)
      socket_timeout    seconds a reply may take before the call fails (10; no call blocks
                        on the server, so this never cuts a watch short)
      health_check_interval  seconds idle before a pooled connection is PINGed before use (2)
      retries           attempts after the first for calls safe to repeat (5; calls that time
                        out are retried within two socket timeouts in all), with
      retry_backoff     exponential backoff from this many seconds (0.05), capped at 1 s
      sweep_interval    seconds between catch-up sweeps over watched games: the most a lost
                        notification can delay an event (1.0)
      outage_grace      seconds the store may stay unreachable before watchers end with
                        StoreError (10)
      finished_ttl      seconds finish() keeps a finished game (None: forever)
      abandoned_ttl     seconds a game is kept after its last write (None: forever)
      trim_on_snapshot  drop the events a new snapshot covers (False)
      meta_cache_size   games whose meta get_meta(cached=True) keeps (10000)
      snapshot_history  past snapshots kept per game, thinned evenly (16; see snapshot_at)
      min_replicas_ack  replicas that must confirm (WAIT) a create or an append before it is
                        acknowledged (0: none, asynchronous replication); not on a cluster
      replicas_ack_timeout  seconds to wait for them (1.0): past it the call raises
                        NotReplicated (written on the master, maybe not on a replica)

    `redis+sentinel://[[user]:password@]host:port[,host:port...]/<master name>[/db]` reaches the
    master through Sentinels (server/store/redis_sentinel.py).
    """

    def __init__(
        self,
        url: str,
        *,
        block_ms: int = 5000,  # accepted for compatibility: nothing blocks on the server any more
        cluster: bool = False,
        write_pool_size: int = 16,
        read_pool_size: int = 16,
        pool_timeout: float = 5.0,
        socket_timeout: float | None = 10.0,
        socket_connect_timeout: float = 5.0,
        health_check_interval: float = 2.0,
        retries: int = 5,
        retry_backoff: float = 0.05,
        sweep_interval: float = 1.0,
        outage_grace: float = 10.0,
        finished_ttl: float | None = None,
        abandoned_ttl: float | None = None,
        trim_on_snapshot: bool = False,
        meta_cache_size: int = 10000,
        snapshot_history: int = SNAPSHOT_HISTORY,
        lean: bool = True,
        min_replicas_ack: int = 0,
        replicas_ack_timeout: float = 1.0,
    ) -> None:
        super().__init__(
            url, cluster=cluster, write_pool_size=write_pool_size, read_pool_size=read_pool_size,
            pool_timeout=pool_timeout, socket_timeout=socket_timeout, socket_connect_timeout=socket_connect_timeout,
            health_check_interval=health_check_interval, retries=retries, retry_backoff=retry_backoff, lean=lean,
            min_replicas_ack=min_replicas_ack, replicas_ack_timeout=replicas_ack_timeout,
        )
        self.block_ms = block_ms
        self.sweep_interval, self.outage_grace = sweep_interval, outage_grace
        self.finished_ttl, self.abandoned_ttl = finished_ttl, abandoned_ttl
        self.trim_on_snapshot = trim_on_snapshot
        self.snapshot_history = snapshot_history
        self.meta_cache_size = meta_cache_size
        self._register_scripts(*self._script_clients)
        self._meta_cache: collections.OrderedDict[str, bytes] = collections.OrderedDict()  # marshalled
        self._hub = WatchHub(self)

    def _register_scripts(self, w: Any, r: Any) -> None:
        """The scripts (server/store/lua), on the clients that carry writes (`w`) and reads (`r`)."""
        self._create = w.register_script(SCRIPTS["create"])
        self._append = w.register_script(SCRIPTS["append"])
        self._claim_seat = w.register_script(SCRIPTS["claim_seat"])
        self._put_snapshot = w.register_script(SCRIPTS["put_snapshot"])
        self._trim = w.register_script(SCRIPTS["trim"])
        self._expire = w.register_script(SCRIPTS["expire"])
        self._delete = w.register_script(SCRIPTS["delete"])
        self._read = r.register_script(SCRIPTS["read"])
        self._head = r.register_script(SCRIPTS["head"])
        self._get_meta = r.register_script(SCRIPTS["get_meta"])
        self._heads_script = r.register_script(SCRIPTS["heads"])
        self._snapshot_at = r.register_script(SCRIPTS["snapshot_at"])
        self._load = r.register_script(SCRIPTS["load"])
        self._touch_request = self._writes.client.register_script(SCRIPTS["touch_request"])
        self._touch_game = self._writes.client.register_script(SCRIPTS["touch_game"])

    def _ttl_ms(self, seconds: float | None) -> int:
        return 0 if not seconds else max(1, int(seconds * 1000))

    # -- writes ------------------------------------------------------------------------

    async def create(self, game_id: str, meta: dict[str, Any], events: list[Event]) -> int:
        k = game_keys(game_id)
        claimed = [int(seat) for seat in meta.get("claimed", [])]
        args = [_dumps(meta), len(claimed), *claimed, self._ttl_ms(self.abandoned_ttl), *(_dumps(e) for e in events)]
        attempts = [0]

        def attempt() -> Awaitable[Any]:
            # A retry (the first attempt's reply was lost) accepts the game if it holds exactly
            # our meta text: it is our own first attempt, not someone else's game.
            attempts[0] += 1
            argv = ["1" if attempts[0] > 1 else "0", *args]
            if self.min_replicas_ack:
                return self._acked(self._create, list(k), argv)
            return self._create(keys=list(k), args=argv)

        reply = await self._call(self._writes, attempt)
        if self.min_replicas_ack:
            reply, acked = reply
            if reply != -1 and acked < self.min_replicas_ack:
                raise self._not_replicated(game_id, acked)
        if reply == -1:
            raise GameExists(game_id)
        # Cached as get_meta would read it back.
        self._cache_meta(game_id, {**meta, "claimed": claimed} if claimed or "claimed" in meta else meta)
        return int(reply[0])

    async def append(
        self, game_id: str, expected_version: int, events: list[Event], request_id: str | None = None
    ) -> int:
        return (await self.append_ex(game_id, expected_version, events, request_id)).version

    async def append_ex(
        self,
        game_id: str,
        expected_version: int,
        events: list[Event],
        request_id: str | None = None,
        *,
        expected_hash: str | None = None,
        tail_limit: int = 0,
        fingerprint: str = "",
    ) -> AppendResult:
        k = _existing_game_keys(game_id)
        texts = [_dumps(e) for e in events]
        args = [
            int(expected_version),
            "0" if request_id is None else ("2" if self.min_replicas_ack else "1") + fingerprint,
            "" if request_id is None else request_id,
            "-" if expected_hash is None else expected_hash,
            max(int(tail_limit), 0),
            channel_of(game_id),
            self._ttl_ms(self.abandoned_ttl),
            *texts,
        ]
        # Safe to repeat: a retry of an append that did land meets its own request id
        # (DuplicateRequest with the version it produced) or, without one, a moved version
        # (Conflict) — never a second copy.
        if self.min_replicas_ack:
            # Acknowledged means replicated: the append (or, for a retry, the request's record
            # written again) and a WAIT for that many replicas. Not confirmed in time: the move
            # may be on the master only; NotReplicated (UNAVAILABLE), and the client's retry
            # with the same request id gets DuplicateRequest once a replica has it, or lands
            # anew on a promoted replica that never got it: exactly once either way.
            reply, acked = await self._call(self._writes, lambda: self._acked(self._append, list(k), args))
            if int(reply[0]) in (0, 2) and acked < self.min_replicas_ack:
                raise self._not_replicated(game_id, acked)
        else:
            reply = await self._call(self._writes, lambda: self._append(keys=list(k), args=args))
        code = int(reply[0])
        if code == 0:
            result = AppendResult(int(reply[1]), _text(reply[2]))
            self._hub.appended(game_id, result, texts)  # this process's watchers hear of it now
            return result
        if code == 1:
            raise GameNotFound(game_id)
        if code == 2:
            raise DuplicateRequest(game_id, request_id or "", int(reply[1]), _text(reply[2]) if len(reply) > 2 else "")
        actual, head_hash = int(reply[1]), _text(reply[2])
        if code == 4:
            raise HistoryRewritten(game_id, expected_version, actual, head_hash)
        raise _conflict(game_id, expected_version, actual, head_hash, reply[3:])

    async def claim_seat(self, game_id: str, seats: list[int], claim: str | None = None) -> int | None:
        k = _existing_game_keys(game_id)
        args = [self._ttl_ms(self.abandoned_ttl), claim or "", *(int(s) for s in seats)]
        # Not retried: a retry after a lost reply would claim a second seat.
        if self.min_replicas_ack:  # acknowledged means replicated, a join as a move (append_ex)
            (found, seat), acked = await self._call(
                self._writes, lambda: self._acked(self._claim_seat, list(k), args), retry=False)
            if found > 0 and acked < self.min_replicas_ack:
                raise self._not_replicated(game_id, acked)
        else:
            found, seat = await self._call(self._writes, lambda: self._claim_seat(keys=list(k), args=args),
                                           retry=False)
        if found < 0:
            raise GameNotFound(game_id)
        return seat if found else None

    async def confirm_replicated(self, game_id: str) -> None:
        if not self.min_replicas_ack:
            return
        key = _existing_game_keys(game_id).meta
        found, acked = await self._call(self._writes, lambda: self._acked(self._touch_game, [key], []))
        if not found:
            raise GameNotFound(game_id)
        if acked < self.min_replicas_ack:
            raise self._not_replicated(game_id, acked)

    async def put_snapshot(self, game_id: str, version: int, state: Any,
                           platform: list[Event] | None = None) -> None:
        k = _existing_game_keys(game_id)
        # "version" first: the script reads it back with a pattern instead of decoding the state.
        extra = "" if platform is None else f',"platform":{_dumps(platform)}'
        text = f'{{"version":{int(version)},"state":{_dumps(state)}{extra}}}'
        args = [int(version), text, "1" if self.trim_on_snapshot else "0", self.snapshot_history]
        if await self._call(self._writes, lambda: self._put_snapshot(keys=list(k), args=args)) < 0:
            raise GameNotFound(game_id)

    # -- retention ---------------------------------------------------------------------

    async def finish(self, game_id: str, ttl: float | None = None) -> bool:
        ttl = self.finished_ttl if ttl is None else ttl
        k = _existing_game_keys(game_id)
        if not ttl:
            await self.version(game_id)  # GameNotFound all the same
            return False
        if not await self._call(self._writes, lambda: self._expire(keys=list(k), args=[self._ttl_ms(ttl)])):
            raise GameNotFound(game_id)
        return True

    async def delete_game(self, game_id: str, if_version: int | None = None) -> bool:
        try:
            k = game_keys(game_id)
        except ValueError:
            return False
        args = ["" if if_version is None else int(if_version)]
        done = await self._call(self._writes, lambda: self._delete(keys=list(k), args=args))
        self._meta_cache.pop(game_id, None)
        if done == -2:
            raise Conflict(game_id, int(if_version or 0), await self.version(game_id))
        return done == 1

    async def trim(self, game_id: str) -> int:
        k = _existing_game_keys(game_id)
        first = await self._call(self._writes, lambda: self._trim(keys=[k.events, k.meta, k.snap]))
        if first < 0:
            raise GameNotFound(game_id)
        return int(first)

    async def export_game(self, game_id: str) -> dict[str, Any]:
        meta = await self.get_meta(game_id)
        snapshot = await self.get_snapshot(game_id)
        k = game_keys(game_id)
        first = 1
        try:
            entries = await self.read_entries(game_id)
        except Trimmed as t:
            first = t.first_kept
            entries = await self.read_entries(game_id, first - 1)
        requests = await self._call(self._reads, lambda: self._reads.client.hgetall(k.req))
        return {
            "game_id": game_id,
            "meta": meta,
            "version": entries[-1].version if entries else 0,
            "first_kept": first,
            "events": [e.event for e in entries],
            "hashes": [e.hash for e in entries],
            "requests": {_text(r): int(v) for r, v in requests.items() if not _text(r).startswith("#fp:")},
            "snapshot": None if snapshot is None else {"version": snapshot[0], "state": snapshot[1]},
        }

    # -- reads -------------------------------------------------------------------------

    async def read(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Event]:
        k = _existing_game_keys(game_id)
        if limit is not None and limit <= 0:
            await self.version(game_id)  # still GameNotFound for an unknown game
            return []
        args = [max(after_version, 0) + 1, "" if limit is None else limit, "0"]
        reply = await self._call(self._reads, lambda: self._read(keys=[k.events, k.meta], args=args))
        self._check_read(game_id, reply)
        return json.loads(reply[1])

    async def read_entries(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Entry]:
        return [Entry(v, h, json.loads(e)) for v, h, e in await self._entries(game_id, after_version + 1, limit)]

    async def _entries(
        self, game_id: str, first: int, limit: int | None, *, patient: bool = False
    ) -> list[tuple[int, str, bytes | str]]:
        """(version, hash, event JSON) of the entries from version `first` on (inclusive)."""
        k = _existing_game_keys(game_id)
        if limit is not None and limit <= 0:
            await self.version(game_id)
            return []
        args = [max(first, 1), "" if limit is None else limit, "1"]
        reply = await self._call(
            self._reads, lambda: self._read(keys=[k.events, k.meta], args=args), patient=patient
        )
        self._check_read(game_id, reply)
        return _triples(reply[1:])

    async def load_newest(self, game_id: str) -> tuple[Snapshot | None, list[Entry]]:
        k = _existing_game_keys(game_id)
        reply = await self._call(self._reads, lambda: self._load(keys=[k.events, k.meta, k.snap]))
        self._check_read(game_id, reply)
        return _snapshot(reply[1]) if reply[1] else None, [Entry(v, h, json.loads(e)) for v, h, e in _triples(reply[2:])]

    @staticmethod
    def _check_read(game_id: str, reply: list[Any]) -> None:
        if reply[0] == -1:
            raise GameNotFound(game_id)
        if reply[0] == 2:
            raise Trimmed(game_id, int(reply[1]))

    async def head(self, game_id: str, *, patient: bool = False) -> AppendResult:
        k = _existing_game_keys(game_id)
        version, hash_ = await self._call(self._reads, lambda: self._head(keys=[k.events, k.meta]), patient=patient)
        if version < 0:
            raise GameNotFound(game_id)
        return AppendResult(int(version), _text(hash_))

    async def version(self, game_id: str) -> int:
        return (await self.head(game_id)).version

    async def _heads(self, game_ids: list[str]) -> list[tuple[int, str] | None]:
        """(version, hash) of many games in one script call (not on a cluster: the keys span
        slots); a game without events answers (0, "")."""

        keys = [game_keys(game_id).events for game_id in game_ids]
        flat = await self._call(self._reads, lambda: self._heads_script(keys=keys))
        return [(int(flat[i]), _text(flat[i + 1])) for i in range(0, len(flat), 2)]

    async def get_meta(self, game_id: str, *, cached: bool = False) -> dict[str, Any]:
        if cached:
            meta = self.cached_meta(game_id)
            if meta is not None:
                return meta
        k = _existing_game_keys(game_id)
        found = await self._call(self._reads, lambda: self._get_meta(keys=[k.meta, k.claimed]))
        if not found:  # nil (RESP2) or false (RESP3): unknown game
            raise GameNotFound(game_id)
        meta_json, claimed = found
        meta = json.loads(meta_json)
        if claimed or "claimed" in meta:
            entries = [_text(entry).partition(":") for entry in claimed]
            meta["claimed"] = [int(seat) for seat, _, _ in entries]
            claims = {seat: claim for seat, _, claim in entries if claim}
            if claims:
                meta["claims"] = claims
        self._cache_meta(game_id, meta)
        return meta

    def cached_meta(self, game_id: str) -> dict[str, Any] | None:
        blob = self._meta_cache.get(game_id)
        if blob is None:
            return None
        self._meta_cache.move_to_end(game_id)
        return marshal.loads(blob)  # the caller's own copy (JSON data)

    def forget_meta(self, game_id: str) -> None:
        self._meta_cache.pop(game_id, None)

    def _cache_meta(self, game_id: str, meta: dict[str, Any]) -> None:
        if self.meta_cache_size > 0:
            self._meta_cache[game_id] = marshal.dumps(meta)
            self._meta_cache.move_to_end(game_id)
            while len(self._meta_cache) > self.meta_cache_size:
                self._meta_cache.popitem(last=False)

    async def request_version(self, game_id: str, request_id: str) -> int | None:
        try:
            key = game_keys(game_id).req
        except ValueError:
            return None
        if self.min_replicas_ack:  # an answer given from it must be replicated too (see append_ex)
            version, acked = await self._call(self._writes, lambda: self._acked(self._touch_request, [key], [request_id]))
            if version is not None and acked < self.min_replicas_ack:
                raise self._not_replicated(game_id, acked)
        else:
            version = await self._call(self._reads, lambda: self._reads.client.hget(key, request_id))
        return None if version is None else int(version)

    async def request_fingerprint(self, game_id: str, request_id: str) -> str:
        try:
            key = game_keys(game_id).req
        except ValueError:
            return ""
        fp = await self._call(self._reads, lambda: self._reads.client.hget(key, "#fp:" + request_id))
        return "" if fp is None else _text(fp)

    async def get_snapshot(self, game_id: str) -> tuple[int, Any] | None:
        try:
            key = game_keys(game_id).snap
        except ValueError:
            return None
        text = await self._call(self._reads, lambda: self._reads.client.get(key))
        if text is None:
            return None
        snapshot = json.loads(text)
        return snapshot["version"], snapshot["state"]

    async def snapshot_at(self, game_id: str, at_most: int) -> Snapshot | None:
        try:
            k = game_keys(game_id)
        except ValueError:
            return None
        text = await self._call(self._reads, lambda: self._snapshot_at(keys=[k.snap, k.snaps], args=[int(at_most)]))
        if not text:
            return None
        return _snapshot(text)

    # -- watch -------------------------------------------------------------------------

    async def watch(
        self, game_id: str, after_version: int, *, after_hash: str | None = None, resets: bool = False
    ) -> AsyncIterator[Any]:
        feed = self._hub.feeds.get(game_id)
        if feed is not None:  # watched here already: the feed knows the head
            start = AppendResult(feed.last, feed.last_hash)
        else:
            # No round trip for the head: a new feed starts where this watcher does, and the
            # fetch that follows its subscription brings it to the head (an unknown game then
            # fails the watcher's own first read with GameNotFound).
            # The client's after_hash is not the feed's: the feed learns the store's hash at its
            # first fetch (a client holding another history is told so by its own read, below;
            # a made-up hash then resets that watcher, not the feed every watcher shares).
            start = AppendResult(max(after_version, 0), "")
        watcher = push.Watcher()
        # Join the game's feed first, then read: whatever is appended after the read reaches us
        # through the feed, and what both deliver is skipped by version.
        feed = self._hub.join(game_id, watcher, start)
        # A watch from the start of a game whose feed has not fetched yet (a page opened right
        # after the game was created): the feed's first fetch, which follows its subscription,
        # brings this watcher every event too, so it skips its own read. (Not when snapshots
        # trim the stream: the start may be gone, and the watcher's own read says so at once.)
        follow = after_version <= 0 and after_hash is None and not feed.primed and feed.last == 0 \
            and not self.trim_on_snapshot
        try:
            async for item in push.watch_loop(
                game_id, after_version, after_hash, resets, feed, watcher,
                lambda first, limit: self._entries(game_id, first, limit, patient=True),
                catch_up=not follow,
            ):
                yield item
        finally:
            self._hub.leave(game_id, watcher)

    # -- lifecycle ---------------------------------------------------------------------

    async def connections(self) -> dict[str, int]:
        """Connections this store holds now, per pool (for metrics and the benches)."""
        return {**self._pool_connections(), "notify": self._hub.subscriber_connections()}

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._hub.close()
        await self._close_clients()
