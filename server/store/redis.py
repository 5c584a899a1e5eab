"""The scale-out event store: one Redis Stream per game.

    store = RedisStore("redis://redis:6379/0")            # or "redis+cluster://node:6379"
    await store.create("g1", {"engine": "goofspiel"}, [start_event])
    await store.append("g1", 1, [event], request_id="r1")  # -> 2

Keys of game G, all under the hash tag {G} so that they live in one slot and
every script below runs unchanged on Redis Cluster:

    tablero:{G}:events    Stream; event n is entry "n-0", fields "e" = JSON, "h" = chain hash
    tablero:{G}:meta      string, the metadata JSON as given to create()
    tablero:{G}:claimed   list of the claimed seats, in claim order
    tablero:{G}:req       hash request_id -> version it produced
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
script (EVALSHA, cached by redis-py): the checks and the writes run as one atomic
step on the server. The scripts check everything before their first write,
because Redis does not roll a script back when it fails half-way.

Hash chain: entry n's "h" is the first 16 hex digits of sha1(h(n-1) .. JSON of
event n), h(0) = "". A rollback of Redis (lost AOF tail, failover to a lagging
replica) followed by new writes gives the same versions other hashes, which
append_ex(expected_hash=...) and the watchers detect. Entries written before the
chain existed have no "h" (hash ""), are never reported as rewritten, and the
chain restarts from "" after them.

Watching (see _Hub): one notification subscriber connection per Redis node
(SSUBSCRIBE to the channels of the games watched in this process), a bounded
read pool that fetches new entries once per game and fans them out to every local
watcher, and a periodic sweep over watched games that catches whatever a lost
notification would have delayed. Writes use their own bounded pool.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import marshal
import os
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from server.store import push, redis_sentinel
from server.store.base import (
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
    NotReplicated,
    Snapshot,
    StoreError,
    Trimmed,
)
from server.store.ids import GameKeys, game_keys
from server.store.lean import LeanRedis, leanable, open_push

T = TypeVar("T")
log = logging.getLogger("tablero.store.redis")

_WATCH_PAGE = push.PAGE

_CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}

# Errors after which a call that is safe to repeat is retried (the server restarted, a
# pooled connection went stale, the server is loading its AOF, a failover is under way).
_RETRYABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.NoScriptError,  # a restarted server lost its script cache: nothing ran
    # a cluster client none of whose known nodes answers (the node it knew died): the next
    # attempt initialises it from every node the store has seen (_initialize_cluster)
    redis.exceptions.RedisClusterException,
    OSError,
)


def _out_of_redirections(e: BaseException) -> bool:
    """redis-py's cluster client gave up after its 16 redirections (ASK, MOVED, TRYAGAIN) in a
    row, as it does while a slot's keys are half migrated: no attempt ran the command, and
    the condition is as transient as a TryAgainError."""
    return isinstance(e, redis.exceptions.ClusterError) and "TTL exhausted" in str(e)


# Helpers every script starts with. head(): (version, hash) of the last entry; hash_at(v): the
# hash of entry v ("" for v = 0 or an entry without a hash), nil when it is not kept.
_LIB = """
local function hash_of(fields)
  for i = 1, #fields, 2 do
    if fields[i] == 'h' then return fields[i + 1] end
  end
  return ''
end
local function head(key)
  local last = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  if #last == 0 then return 0, '' end
  return tonumber(string.match(last[1][1], '^(%d+)')), hash_of(last[1][2])
end
local function hash_at(key, v)
  if v == 0 then return '' end
  local e = redis.call('XRANGE', key, v .. '-0', v .. '-0')
  if #e == 0 then return nil end
  return hash_of(e[1][2])
end
local function first_kept(key)
  local f = redis.call('XRANGE', key, '-', '+', 'COUNT', 1)
  if #f == 0 then return nil end
  return tonumber(string.match(f[1][1], '^(%d+)'))
end
-- whether a range read from version `want` on lost its start to a trim: {2, first kept} if it did.
-- Versions are contiguous, so a range that starts at `want` lost nothing; a range past the head
-- is empty, and nothing is trimmed past the head.
local function trimmed(key, entries, want)
  if #entries > 0 and tonumber(string.match(entries[1][1], '^(%d+)')) ~= want then
    local first = first_kept(key)
    if first and first > want then return {2, first} end
  end
  return nil
end
local function chain(prev, e)
  return string.sub(redis.sha1hex(prev .. e), 1, 16)
end
local function expire_all(keys, ms)
  for i = 1, #keys do redis.call('PEXPIRE', keys[i], ms) end
end
-- the TTL the game's keys must carry: the abandoned-game TTL given, else the meta's own (finished)
local function ttl_of(keys, given)
  local ttl = tonumber(given)
  if ttl > 0 then return ttl end
  local m = redis.call('PTTL', keys[2])
  if m > 0 then return m end
  return 0
end
"""

# KEYS: the GameKeys (events, meta, claimed, req, snap, snaps, lobby).
# ARGV: "1" when this is a retry, meta JSON, number of pre-claimed seats, the seats, TTL ms
# (0 = none), then the events' JSON.
# Returns -1 when the game exists, else {version, head hash}. A retry that finds the game with
# exactly its own meta text (which holds a creation time and a fresh id) learns that its first
# attempt landed and gets the head instead of -1.
_CREATE = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[1] == '1' and redis.call('GET', KEYS[2]) == ARGV[2] then
    local v, h = head(KEYS[1])
    return {v, h}
  end
  return -1
end
redis.call('SET', KEYS[2], ARGV[2])
local nclaimed = tonumber(ARGV[3])
for i = 4, 3 + nclaimed do
  redis.call('RPUSH', KEYS[3], ARGV[i])
end
local ttl = tonumber(ARGV[4 + nclaimed])
local v, h = 0, ''
for i = 5 + nclaimed, #ARGV do
  v = v + 1
  h = chain(h, ARGV[i])
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i], 'h', h)
end
if ttl > 0 then expire_all(KEYS, ttl) end
return {v, h}
"""

# An append's notification carries its entries when their events' JSON totals at most this
# many bytes: "<first version> <hash before it>" then "<hash> <event JSON>" per entry, one a
# line (event JSON has no raw newline). A bigger append notifies its new version only.
PUSH_EVENTS_MAX = 16384

# KEYS: the GameKeys (events, meta, claimed, req, snap, snaps, lobby).
# ARGV: expected version, "1"/"0" has request id ("2": has one, and a duplicate writes its record
# again for the WAIT that follows), request id, expected hash ("-" = none),
# tail limit, notification channel ("" = none), abandoned TTL ms (0 = none), then the events' JSON.
# Returns {0, version, hash} appended | {1} unknown game | {2, version} duplicate request |
# {3, actual, head hash[, v1, h1, e1, v2, ...]} conflict (with the tail when asked and short) |
# {4, actual, head hash} history rewritten.
# The expected version's hash is the head's when they are the same entry (the common case):
# read only when the head has moved on.
_APPEND = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {1}
end
if ARGV[2] ~= '0' then
  local seen = redis.call('HGET', KEYS[4], ARGV[3])
  if seen then
    -- '2' (replicated acknowledgement): write the record again, so that the WAIT after this
    -- script covers the replication stream up to the first attempt's write
    if ARGV[2] == '2' then redis.call('HSET', KEYS[4], ARGV[3], seen) end
    return {2, tonumber(seen)}
  end
end
local v, h = head(KEYS[1])
local expected = tonumber(ARGV[1])
if ARGV[4] ~= '-' then
  if v < expected then
    return {4, v, h}
  end
  local at = h
  if v ~= expected then at = hash_at(KEYS[1], expected) end
  if at and at ~= '' and at ~= ARGV[4] then
    return {4, v, h}
  end
end
if v ~= expected then
  local reply = {3, v, h}
  local limit = tonumber(ARGV[5])
  if v > expected and v - expected <= limit then
    local entries = redis.call('XRANGE', KEYS[1], (expected + 1) .. '-0', '+')
    if #entries == v - expected then
      for _, entry in ipairs(entries) do
        reply[#reply + 1] = tonumber(string.match(entry[1], '^(%d+)'))
        reply[#reply + 1] = hash_of(entry[2])
        reply[#reply + 1] = entry[2][2]
      end
    end
  end
  return reply
end
local push = {(v + 1) .. ' ' .. h}
local size = 0
for i = 8, #ARGV do
  v = v + 1
  h = chain(h, ARGV[i])
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i], 'h', h)
  push[#push + 1] = h .. ' ' .. ARGV[i]
  size = size + #ARGV[i]
end
if ARGV[2] ~= '0' then
  redis.call('HSET', KEYS[4], ARGV[3], v)
end
local ttl = ttl_of(KEYS, ARGV[7])
if ttl > 0 then expire_all(KEYS, ttl) end
if #ARGV >= 8 and ARGV[6] ~= '' then
  if size <= PUSH_EVENTS_MAX then
    redis.call('SPUBLISH', ARGV[6], table.concat(push, string.char(10)))
  else
    redis.call('SPUBLISH', ARGV[6], v)
  end
end
return {0, v, h}
""".replace("PUSH_EVENTS_MAX", str(PUSH_EVENTS_MAX))

# KEYS: the GameKeys.  ARGV: abandoned TTL ms, the claim's id ("" = none), the seats, in order of
# preference. A claim with an id is kept as "<seat>:<id>" (a seat token then names it).
# Returns {1, seat} | {0, 0} all taken | {-1, 0} unknown game.
_CLAIM_SEAT = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1, 0}
end
local taken = {}
for _, seat in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  taken[string.match(seat, '^(%d+)')] = true
end
for i = 3, #ARGV do
  if not taken[ARGV[i]] then
    local entry = ARGV[i]
    if ARGV[2] ~= '' then entry = entry .. ':' .. ARGV[2] end
    redis.call('RPUSH', KEYS[3], entry)
    local ttl = ttl_of(KEYS, ARGV[1])
    if ttl > 0 then expire_all(KEYS, ttl) end
    return {1, tonumber(ARGV[i])}
  end
end
return {0, 0}
"""

# KEYS: the GameKeys.  ARGV: version, the snapshot JSON (which starts with
# {"version":<n>,), "1" to trim the events the snapshot covers.
# Returns 1 kept | 0 not newer than the one kept | -1 unknown game.
_PUT_SNAPSHOT = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local kept = redis.call('GET', KEYS[5])
if kept then
  local v = tonumber(string.match(kept, '^{"version":(%d+),'))
  if v and v >= tonumber(ARGV[1]) then
    return 0
  end
end
redis.call('SET', KEYS[5], ARGV[2])
redis.call('HSET', KEYS[6], ARGV[1], ARGV[2])
local keep = tonumber(ARGV[4])
if redis.call('HLEN', KEYS[6]) > keep then
  -- thin: drop the interior snapshot whose removal leaves the smallest gap (base.thinned)
  local vs = {}
  for _, f in ipairs(redis.call('HKEYS', KEYS[6])) do vs[#vs + 1] = tonumber(f) end
  table.sort(vs)
  while #vs > math.max(keep, 2) do
    local best, gap = 2, vs[3] - vs[1]
    for j = 3, #vs - 1 do
      if vs[j + 1] - vs[j - 1] < gap then best, gap = j, vs[j + 1] - vs[j - 1] end
    end
    redis.call('HDEL', KEYS[6], tostring(vs[best]))
    table.remove(vs, best)
  end
end
local ttl = ttl_of(KEYS, '0')
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[5], ttl)
  redis.call('PEXPIRE', KEYS[6], ttl)
end
if ARGV[3] == '1' then
  local v = head(KEYS[1])
  local upto = math.min(tonumber(ARGV[1]), v)
  if upto > 0 then redis.call('XTRIM', KEYS[1], 'MINID', upto .. '-0') end
end
return 1
"""

# KEYS: events, meta, snap.  Trims the events the kept snapshot covers (keeping the snapshot's own
# entry, so the head stays). Returns the first version kept, -1 for an unknown game.
_TRIM = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local kept = redis.call('GET', KEYS[3])
if kept then
  local s = tonumber(string.match(kept, '^{"version":(%d+),'))
  local v = head(KEYS[1])
  local upto = math.min(s, v)
  if upto > 0 then redis.call('XTRIM', KEYS[1], 'MINID', upto .. '-0') end
end
return first_kept(KEYS[1]) or 0
"""

# KEYS: events, meta.  ARGV: first version wanted, count ("" = all), "1" for numbered entries.
# Returns {-1} unknown game | {2, first kept} trimmed | {0, JSON array text} | {0, v1, h1, e1, ...}.
# A single JSON-array bulk reply is far cheaper for the client to parse than XRANGE's nested arrays.
_READ = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1}
end
local want = tonumber(ARGV[1])
local entries
if ARGV[2] == '' then
  entries = redis.call('XRANGE', KEYS[1], want .. '-0', '+')
else
  entries = redis.call('XRANGE', KEYS[1], want .. '-0', '+', 'COUNT', ARGV[2])
end
local cut = trimmed(KEYS[1], entries, want)
if cut then return cut end
if ARGV[3] == '1' then
  local reply = {0}
  for _, entry in ipairs(entries) do
    reply[#reply + 1] = tonumber(string.match(entry[1], '^(%d+)'))
    reply[#reply + 1] = hash_of(entry[2])
    reply[#reply + 1] = entry[2][2]
  end
  return reply
end
local events = {}
for i, entry in ipairs(entries) do
  events[i] = entry[2][2]
end
return {0, '[' .. table.concat(events, ',') .. ']'}
"""

# KEYS: events, meta, snap.  A cold load in one round trip: the newest snapshot and the entries
# from its own version on.  {-1} unknown game | {2, first kept} trimmed |
# {0, snapshot JSON or "", v1, h1, e1, ...}.
_LOAD = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1}
end
local snap = redis.call('GET', KEYS[3])
local want = 1
if snap then
  want = math.max(tonumber(string.match(snap, '^{"version":(%d+),')) or 1, 1)
else
  snap = ''
end
local entries = redis.call('XRANGE', KEYS[1], want .. '-0', '+')
local cut = trimmed(KEYS[1], entries, want)
if cut then return cut end
local reply = {0, snap}
for _, entry in ipairs(entries) do
  reply[#reply + 1] = tonumber(string.match(entry[1], '^(%d+)'))
  reply[#reply + 1] = hash_of(entry[2])
  reply[#reply + 1] = entry[2][2]
end
return reply
"""

# KEYS: events, meta.  {-1} for an unknown game, else {version, hash}.
_HEAD = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1, ''}
end
local v, h = head(KEYS[1])
return {v, h}
"""

# KEYS: the events streams of many games (one server, not a cluster).  {v1, h1, v2, h2, ...}.
_HEADS = _LIB + """
local reply = {}
for i = 1, #KEYS do
  local v, h = head(KEYS[i])
  reply[#reply + 1] = v
  reply[#reply + 1] = h
end
return reply
"""

# KEYS: meta, claimed.  nil for an unknown game, else {meta JSON, {claimed seats}}.
_GET_META = """
local meta = redis.call('GET', KEYS[1])
if not meta then
  return false
end
return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}
"""

# KEYS: the GameKeys.  ARGV: TTL ms.  0 unknown game, 1 set (on every key, the lobby entry too).
_EXPIRE = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  return 0
end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return 1
"""

# KEYS: the GameKeys.  ARGV: the version it must be at ("" = any). Deletes every key, the lobby entry too.
# Returns 1 deleted | 0 unknown game | -2 at another version (nothing deleted).
_DELETE = _LIB + """
if redis.call('EXISTS', KEYS[2]) == 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[1] ~= '' then
  local v = head(KEYS[1])
  if v ~= tonumber(ARGV[1]) then return -2 end
end
redis.call('DEL', unpack(KEYS))
return 1
"""


# KEYS: req.  ARGV: a request id. Writes its record again (when it exists), for a WAIT to follow:
# the version it produced, or false.
_TOUCH_REQUEST = """
local seen = redis.call('HGET', KEYS[1], ARGV[1])
if not seen then return false end
redis.call('HSET', KEYS[1], ARGV[1], seen)
return tonumber(seen)
"""

# KEYS: snap, snaps.  ARGV: a version. The newest snapshot at or before it (its JSON), or false.
_SNAPSHOT_AT = """
local at = tonumber(ARGV[1])
local newest = redis.call('GET', KEYS[1])
if newest then
  local v = tonumber(string.match(newest, '^{"version":(%d+),'))
  if v and v <= at then return newest end
end
local best = nil
for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do
  local v = tonumber(f)
  if v <= at and (best == nil or v > best) then best = v end
end
if best == nil then return false end
return redis.call('HGET', KEYS[2], tostring(best))
"""


def channel_of(game_id: str) -> str:
    """The shard pub/sub channel an append of `game_id` publishes its new version on (same slot)."""
    return f"tablero:{{{game_id}}}:n"


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _existing_game_keys(game_id: str) -> GameKeys:
    """The keys of a game that should exist: an id no store accepts is an unknown game."""
    try:
        return game_keys(game_id)
    except ValueError:
        raise GameNotFound(game_id) from None


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _pushed_rows(data: bytes) -> tuple[str, list[tuple[int, str, bytes]]]:
    """An append's notification with its entries → (the hash before them, the rows)."""
    lines = data.split(b"\n")
    first, _, prev = lines[0].partition(b" ")
    version = int(first)
    rows = []
    for i, line in enumerate(lines[1:]):
        hash_, sep, event = line.partition(b" ")
        if not sep:
            raise ValueError("not an entry")
        rows.append((version + i, hash_.decode(), event))
    if not rows:
        raise ValueError("no entries")
    return prev.decode(), rows


def _snapshot(text: bytes | str) -> Snapshot:
    """A snapshot as the store keeps it (JSON with version, state and, newer ones, platform)."""
    data = json.loads(text)
    return Snapshot(data["version"], data["state"], data.get("platform"))


def _triples(flat: list[Any]) -> list[tuple[int, str, bytes | str]]:
    """(version, hash, event JSON) from a script's flat {v1, h1, e1, v2, ...} reply."""
    return [(int(flat[i]), _text(flat[i + 1]), flat[i + 2]) for i in range(0, len(flat), 3)]


def _seeds(rest: str, known: dict[tuple[str, int], None]) -> str:
    """`a:1,b:2/0` -> `a:1/0`, with (a, 1) and (b, 2) added to `known`."""
    end = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    netloc, slash, path = rest[:end], "", rest[end:]
    auth, at, hosts = netloc.rpartition("@")
    first, *others = hosts.split(",")
    for host_port in (first, *others):
        host, colon, port = host_port.rpartition(":")
        if not colon or host_port.endswith("]"):
            host, port = host_port, "6379"
        if not host or not port.isdigit():
            raise ValueError(f"bad cluster node {host_port!r} in the Redis URL (want host:port)")
        known[(host.strip("[]"), int(port))] = None
    return f"{auth}{at}{first}{slash}{path}"


class _Pool:
    """A bounded pool of one kind of calls: at most `size` in flight (so at most `size`
    connections per Redis node), waiting at most `timeout` seconds for a turn."""

    def __init__(self, client: aioredis.Redis | RedisCluster, size: int, timeout: float) -> None:
        self.client, self.size, self.timeout = client, size, timeout
        self.slots = asyncio.Semaphore(size)


def _raise_if_cancelling() -> None:
    """A cancellation that redis-py turned into a connection error (Python 3.11's
    `asyncio.wait_for`, used for its socket timeouts, can lose a cancel that races the
    operation's end) is still a cancellation: never a retry, never a StoreError the caller
    might retry forever (a stopped server's shutdown hung on such a loop)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _dropped_under_us(e: AttributeError) -> bool:
    """redis-py 8.1's async cluster client can close a connection (resetting its topology
    after a failover) while another command is about to write on it: the command fails with
    "'NoneType' object has no attribute 'writelines'" before a byte is sent. That is a lost
    connection, safe to retry like one, not an internal error."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return (
        tb is not None
        and "'NoneType' object has no attribute" in str(e)
        and f"{os.sep}redis{os.sep}" in tb.tb_frame.f_code.co_filename
    )


def _conflict(game_id: str, expected: int, actual: int, head_hash: str, tail: list[Any]) -> Conflict:
    """The Conflict an append met (with the tail the script sent). Built here, not in a local
    of the frame that raises it: that would be a frame-traceback-exception cycle, garbage
    for the collector on every conflict."""
    conflict = Conflict(game_id, expected, actual)
    conflict.head_hash = head_hash
    if tail:
        conflict.tail = [Entry(v, h, json.loads(e)) for v, h, e in _triples(tail)]
    return conflict


class RedisStore(EventStore):
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

    ACK_CONNECTIONS = 8  # lean connections for creates and appends with min_replicas_ack

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
        scheme, sep, rest = url.partition("://")
        self._sentinel = redis_sentinel.parse(url) if scheme in redis_sentinel.SCHEMES else None
        # Cluster nodes other than the URL's first one: `redis+cluster://a:6379,b:6379,c:6379`
        # names several seeds, and every node either client learns is remembered, so a client
        # whose only known node dies still finds the cluster (and a promoted replica).
        self._known_nodes: dict[tuple[str, int], None] = {}
        if scheme in _CLUSTER_SCHEMES:
            url, cluster = f"{_CLUSTER_SCHEMES[scheme]}{sep}{_seeds(rest, self._known_nodes)}", True
        for name, size in (("write_pool_size", write_pool_size), ("read_pool_size", read_pool_size)):
            if size < 1:
                raise ValueError(f"{name} must be at least 1, not {size}")
        self.url = url
        self.block_ms = block_ms
        self.retries, self.retry_backoff = retries, retry_backoff
        self.socket_timeout = socket_timeout
        self.sweep_interval, self.outage_grace = sweep_interval, outage_grace
        self.finished_ttl, self.abandoned_ttl = finished_ttl, abandoned_ttl
        self.trim_on_snapshot = trim_on_snapshot
        self.snapshot_history = snapshot_history
        self.meta_cache_size = meta_cache_size
        self._cluster = cluster
        if min_replicas_ack < 0 or replicas_ack_timeout <= 0:
            raise ValueError("min_replicas_ack must be >= 0 and replicas_ack_timeout > 0")
        if min_replicas_ack and cluster:
            raise ValueError("min_replicas_ack is not supported on Redis Cluster (WAIT has no key to route by)")
        self.min_replicas_ack, self.replicas_ack_timeout = min_replicas_ack, replicas_ack_timeout
        self._options: dict[str, Any] = {
            "socket_connect_timeout": socket_connect_timeout,
            "socket_keepalive": True,
            "health_check_interval": health_check_interval,
        }

        def client(size: int) -> aioredis.Redis | RedisCluster:
            options = {**self._options, "socket_timeout": socket_timeout, "max_connections": size}
            if cluster:
                return RedisCluster.from_url(url, **options)
            # Retries are ours (_call): only calls that are safe to repeat are repeated.
            return self._plain_client(retry=Retry(NoBackoff(), 0), **options)

        self._writes = _Pool(client(write_pool_size), write_pool_size, pool_timeout)
        self._reads = _Pool(client(read_pool_size), read_pool_size, pool_timeout)
        self._client = self._reads.client  # kept for tools and tests that reach for a client
        self._init_locks: dict[int, asyncio.Lock] = {}
        w: Any = self._writes.client
        r: Any = self._reads.client
        # The scripts (every call of the request path) go over lean pipelined connections on a
        # plain server, one for writes and one for reads (server/store/lean.py); the pools'
        # slots still bound how many are in flight. redis-py serves the rest, and clusters.
        self._lean: list[LeanRedis] = []
        self._ack_lean: list[LeanRedis] = []
        self._ack_turn = 0
        if lean and not cluster and self._sentinel is None and leanable(url):
            self._open_lean(socket_connect_timeout)
            w, r = self._lean
        self._register_scripts(w, r)
        self._meta_cache: collections.OrderedDict[str, bytes] = collections.OrderedDict()  # marshalled
        self._hub = _Hub(self)
        self._closed = False

    def _open_lean(self, connect_timeout: float) -> None:
        """The lean connections (not connected yet): one for writes, one for reads, and with
        min_replicas_ack, ACK_CONNECTIONS for creates and appends and their WAIT (_acked): a
        WAIT holds back what follows it on its connection until the replicas answer."""

        def new() -> LeanRedis:
            return LeanRedis(self.url, socket_timeout=self.socket_timeout, socket_connect_timeout=connect_timeout)

        self._lean = [new(), new()]
        if self.min_replicas_ack:
            self._ack_lean = [new() for _ in range(self.ACK_CONNECTIONS)]

    def _register_scripts(self, w: Any, r: Any) -> None:
        """The scripts, on the clients that carry writes (`w`) and reads (`r`)."""
        self._create = w.register_script(_CREATE)
        self._append = w.register_script(_APPEND)
        self._claim_seat = w.register_script(_CLAIM_SEAT)
        self._put_snapshot = w.register_script(_PUT_SNAPSHOT)
        self._trim = w.register_script(_TRIM)
        self._expire = w.register_script(_EXPIRE)
        self._delete = w.register_script(_DELETE)
        self._read = r.register_script(_READ)
        self._head = r.register_script(_HEAD)
        self._get_meta = r.register_script(_GET_META)
        self._heads_script = r.register_script(_HEADS)
        self._snapshot_at = r.register_script(_SNAPSHOT_AT)
        self._load = r.register_script(_LOAD)
        self._touch_request = self._writes.client.register_script(_TOUCH_REQUEST)

    def _plain_client(self, **options: Any) -> aioredis.Redis:
        """A redis-py client of the URL's server (of the current master, with Sentinel)."""
        if self._sentinel is not None:
            return redis_sentinel.master_client(self._sentinel, **options)
        return aioredis.Redis.from_url(self.url, **options)

    # -- calls -------------------------------------------------------------------------

    async def _call(
        self, pool: _Pool, make: Callable[[], Awaitable[T]], *, retry: bool = True, patient: bool = False
    ) -> T:
        """Run `make()` with a connection of `pool`. Connection loss, timeouts and server
        errors become StoreError; with `retry`, transient ones are retried with backoff
        (only for calls that are safe to repeat: reads, CAS-checked writes). `patient`
        calls (the watchers' reads) wait for a free connection as long as it takes, instead
        of `pool_timeout`: a storm of new watchers queues up rather than failing."""
        if self._closed:
            _raise_if_cancelling()
            raise StoreError("the Redis store is closed")
        attempt = 0
        started = time.monotonic()
        while True:
            try:
                if not pool.slots.locked():  # a free slot: taken at once, no timer needed
                    await pool.slots.acquire()
                else:
                    async with asyncio.timeout(None if patient else pool.timeout):
                        await pool.slots.acquire()
            except TimeoutError:
                raise StoreError(f"redis: no free connection in {pool.timeout} s (pool of {pool.size})") from None
            try:
                if self._cluster and getattr(pool.client, "_initialize", False):
                    await self._initialize_cluster(pool.client)
                return await make()
            except (*_RETRYABLE, AttributeError) as e:
                if isinstance(e, AttributeError) and not _dropped_under_us(e):
                    raise
                _raise_if_cancelling()
                # Timeouts (a frozen server) are retried only within two socket timeouts in
                # all: a call then fails (UNAVAILABLE) rather than hanging for one per retry.
                timed_out = isinstance(e, redis.exceptions.TimeoutError) and self.socket_timeout is not None \
                    and time.monotonic() - started >= 2 * self.socket_timeout
                if not retry or attempt >= self.retries or self._closed or timed_out:
                    lost = "the connection was closed under the command" if isinstance(e, AttributeError) else e
                    raise StoreError(f"redis: {lost}") from e
            except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException) as e:
                _raise_if_cancelling()
                if not (retry and _out_of_redirections(e)) or attempt >= self.retries or self._closed:
                    raise StoreError(f"redis: {e}") from e
            finally:
                pool.slots.release()
            await asyncio.sleep(min(1.0, self.retry_backoff * 2**attempt) * (0.5 + random.random() / 2))
            attempt += 1

    async def _initialize_cluster(self, client: RedisCluster) -> None:
        # redis-py 8.1's async RedisCluster lets commands issued while the client is still
        # initialising use connections that the initialisation then closes ("'NoneType' object
        # has no attribute 'writelines'" under concurrent first calls). Initialise it once,
        # alone, before the first command (and again when it resets itself after a failover).
        lock = self._init_locks.setdefault(id(client), asyncio.Lock())
        async with lock:
            if getattr(client, "_initialize", False):
                await client.initialize(additional_startup_nodes_info=self._cluster_seeds())

    def _cluster_seeds(self) -> list[tuple[str, int]]:
        """Every cluster node the store has known: the URL's, and those either client has
        learnt. redis-py refreshes a client's topology only from the nodes that client knows;
        a client that knew just the URL's node (the read client of a replica serving reads
        from its cache) never found the promoted replica once that node died."""
        for client in (self._writes.client, self._reads.client):
            manager = client.nodes_manager  # type: ignore[union-attr]
            for node in (*manager.nodes_cache.values(), *manager.startup_nodes.values()):
                key = (node.host, int(node.port))
                self._known_nodes.pop(key, None)  # the most recently seen last
                self._known_nodes[key] = None
        while len(self._known_nodes) > 256:  # forget the oldest (long gone) nodes first
            del self._known_nodes[next(iter(self._known_nodes))]
        return list(self._known_nodes)

    async def _acked(self, script: Any, keys: list[str], args: list[Any]) -> tuple[Any, int]:
        """`script(keys, args)` then `WAIT min_replicas_ack timeout` on the same connection, in one
        round trip: (the script's reply, how many replicas confirmed). WAIT covers every write
        this connection made, so it confirms this script's writes (and, the replication stream
        being in order, everything written before them)."""
        wait = ("WAIT", self.min_replicas_ack, max(1, int(self.replicas_ack_timeout * 1000)))
        if self._ack_lean:
            self._ack_turn = (self._ack_turn + 1) % len(self._ack_lean)
            lean = self._ack_lean[self._ack_turn]
            reply, acked = await lean.pipeline(("EVALSHA", script.sha, len(keys), *keys, *args), wait)
            if isinstance(reply, redis.exceptions.NoScriptError):  # a restarted server: EVAL (caches it)
                source = getattr(script, "source", None) or script.script
                reply, acked = await lean.pipeline(("EVAL", source, len(keys), *keys, *args), wait)
        else:
            client = self._writes.client
            async with client.pipeline(transaction=False) as pipe:
                pipe.evalsha(script.sha, len(keys), *keys, *args)
                pipe.execute_command(*wait)
                reply, acked = await pipe.execute(raise_on_error=False)
            if isinstance(reply, redis.exceptions.NoScriptError):  # a new master: load it, then retried
                await client.script_load(script.script)
                raise reply
        for outcome in (reply, acked):
            if isinstance(outcome, Exception):
                raise outcome
        return reply, int(acked)

    def _not_replicated(self, game_id: str, acked: int) -> NotReplicated:
        from server import metrics  # here: the store stays importable without the server

        metrics.REPLICA_ACK_FAILURES.inc()
        return NotReplicated(game_id, acked, self.min_replicas_ack, self.replicas_ack_timeout)

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
    ) -> AppendResult:
        k = _existing_game_keys(game_id)
        args = [
            int(expected_version),
            "0" if request_id is None else "2" if self.min_replicas_ack else "1",
            "" if request_id is None else request_id,
            "-" if expected_hash is None else expected_hash,
            max(int(tail_limit), 0),
            channel_of(game_id),
            self._ttl_ms(self.abandoned_ttl),
            *(_dumps(e) for e in events),
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
            return AppendResult(int(reply[1]), _text(reply[2]))
        if code == 1:
            raise GameNotFound(game_id)
        if code == 2:
            raise DuplicateRequest(game_id, request_id or "", int(reply[1]))
        actual, head_hash = int(reply[1]), _text(reply[2])
        if code == 4:
            raise HistoryRewritten(game_id, expected_version, actual, head_hash)
        raise _conflict(game_id, expected_version, actual, head_hash, reply[3:])

    async def claim_seat(self, game_id: str, seats: list[int], claim: str | None = None) -> int | None:
        k = _existing_game_keys(game_id)
        args = [self._ttl_ms(self.abandoned_ttl), claim or "", *(int(s) for s in seats)]
        # Not retried: a retry after a lost reply would claim a second seat.
        found, seat = await self._call(self._writes, lambda: self._claim_seat(keys=list(k), args=args), retry=False)
        if found < 0:
            raise GameNotFound(game_id)
        return seat if found else None

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
            "requests": {_text(r): int(v) for r, v in requests.items()},
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

    async def warm(self) -> None:
        """Open the pooled connections now: each new one costs a few ms (redis-py reads its
        package metadata for every connection it makes) that would otherwise fall on the
        first requests. Best effort: a store that is not up yet opens them on demand."""
        if self._cluster:
            return
        await asyncio.gather(*(lean.execute("PING") for lean in self._lean), return_exceptions=True)
        for pool in (self._writes, self._reads):
            await asyncio.gather(*(pool.client.ping() for _ in range(pool.size)), return_exceptions=True)

    async def ping(self) -> None:
        await self._call(self._reads, lambda: self._reads.client.ping())

    async def connections(self) -> dict[str, int]:
        """Connections this store holds now, per pool (for metrics and the benches)."""

        def count(client: Any) -> int:
            if isinstance(client, RedisCluster):
                return sum(len(node._connections) for node in client.get_nodes())
            pool = client.connection_pool
            return len(pool._in_use_connections) + len(pool._available_connections)

        lean = [c.connected for c in self._lean] or [0, 0]
        return {
            "write": count(self._writes.client) + lean[0],
            "read": count(self._reads.client) + lean[1],
            "notify": self._hub.subscriber_connections(),
        }

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._hub.close()
        for lean in (*self._lean, *self._ack_lean):
            await lean.aclose()
        await self._writes.client.aclose()
        await self._reads.client.aclose()
        for client in (self._writes.client, self._reads.client):
            for sentinel in getattr(getattr(client, "_tablero_sentinel", None), "sentinels", ()):
                with contextlib.suppress(Exception):
                    await sentinel.aclose()


class _Feed(push.Feed):
    def __init__(self, game_id: str, start: AppendResult) -> None:
        super().__init__(game_id, start.version, start.hash)
        self.channel = channel_of(game_id)


class _Hub:
    """Push for every watcher of this store with a fixed number of Redis connections.

    - Appends SPUBLISH the new version on the game's shard channel.
    - One subscriber connection per Redis node (one on a plain server) SSUBSCRIBEs the
      channels of the games watched here; a notification makes the game's feed fetch the
      new entries ONCE (read pool, XRANGE from its last version) and hand them to every
      local watcher.
    - Every `sweep_interval` each feed fetches anyway: a lost notification (subscriber
      reconnecting, slot moving, ...) delays an event by at most that long, never loses it.
      The fetch starts AT the feed's last version, so a rewritten history is noticed too.
    """

    SWEEP_CHUNK = 500  # games whose heads one pipelined sweep call asks for

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.feeds: dict[str, _Feed] = {}
        self.subscribers: dict[str, _Subscriber] = {}  # node name -> its subscriber
        self.routes: dict[str, str] = {}  # channel -> node name it is subscribed on
        self.sweeper: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    # -- watchers ------------------------------------------------------------------------

    def join(self, game_id: str, watcher: push.Watcher, start: AppendResult) -> _Feed:
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = _Feed(game_id, start)
            self._subscribe(feed)
        elif start.version > feed.last:
            self.fetch(feed)  # the feed is behind what this watcher just saw: catch it up
        feed.watchers.add(watcher)
        if self.sweeper is None or self.sweeper.done():
            self.sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="tablero-redis-sweep")
        return feed

    def leave(self, game_id: str, watcher: push.Watcher) -> None:
        feed = self.feeds.get(game_id)
        if feed is None or watcher not in feed.watchers:
            return
        feed.watchers.discard(watcher)
        if not feed.watchers:
            del self.feeds[game_id]
            node = self.routes.pop(feed.channel, None)
            if node is not None and node in self.subscribers:
                self.subscribers[node].remove(feed.channel)

    # -- notifications -------------------------------------------------------------------

    def _subscribe(self, feed: _Feed) -> None:
        try:
            node, host, port = self._node_of(feed.channel)
        except Exception:  # noqa: BLE001 - the cluster's topology is not known yet: the sweep covers it
            self._spawn(self._route_later(feed.channel))
            return
        subscriber = self.subscribers.get(node)
        if subscriber is None:
            subscriber = self.subscribers[node] = _Subscriber(self, node, host, port)
        self.routes[feed.channel] = node
        subscriber.add(feed.channel)

    def _node_of(self, channel: str) -> tuple[str, str | None, int | None]:
        client = self.store._reads.client
        if isinstance(client, RedisCluster):
            if getattr(client, "_initialize", False):
                raise StoreError("cluster not initialised")
            node = client.get_node_from_key(channel)
            return node.name, node.host, node.port
        return "default", None, None

    async def _route_later(self, channel: str) -> None:
        with contextlib.suppress(StoreError):
            await self.store.ping()  # initialises a cluster client
        await asyncio.sleep(0.1)
        for feed in list(self.feeds.values()):
            if feed.channel == channel and channel not in self.routes:
                self._subscribe(feed)
                self.fetch(feed)

    def rerouted(self, channel: str) -> None:
        """A subscriber lost `channel` (slot moved, MOVED on subscribe): route it again."""
        self.routes.pop(channel, None)
        client = self.store._reads.client
        if isinstance(client, RedisCluster):
            client._initialize = True  # refresh the topology before the next call
        self._spawn(self._route_later(channel))

    def notified(self, channel: str, version: int | None) -> None:
        game_id = channel.removeprefix("tablero:{").removesuffix("}:n")
        feed = self.feeds.get(game_id)
        if feed is not None and (version is None or version > feed.last):
            self.fetch(feed)

    def pushed(self, channel: str, prev_hash: str, rows: list[push.Row]) -> None:
        """A notification that carries its entries: delivered as they are when they follow
        the feed's last entry in the same history (no read), else fetched from the store."""
        game_id = channel.removeprefix("tablero:{").removesuffix("}:n")
        feed = self.feeds.get(game_id)
        if feed is None or rows[-1][0] <= feed.last:
            return
        if not feed.fetching and rows[0][0] == feed.last + 1 and prev_hash == feed.last_hash:
            feed.deliver(rows)
        else:
            self.fetch(feed)

    def resync(self, channels: list[str]) -> None:
        """A subscriber (re)connected: whatever was published meanwhile is fetched now."""
        for channel in channels:
            self.notified(channel, None)

    def subscriber_connections(self) -> int:
        return sum(1 for s in self.subscribers.values() if s.connected)

    # -- fetching ------------------------------------------------------------------------

    def fetch(self, feed: _Feed) -> None:
        if feed.fetching:
            feed.again = True
            return
        feed.fetching = True
        self._spawn(self._fetch(feed))

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _fetch(self, feed: _Feed) -> None:
        try:
            while feed.watchers and self.feeds.get(feed.game_id) is feed:
                feed.again = False
                try:
                    page = await self.store._entries(feed.game_id, max(feed.last, 1), _WATCH_PAGE + 1, patient=True)
                except GameNotFound as e:
                    for watcher in list(feed.watchers):
                        watcher.fail(e)
                    return
                except StoreError as e:
                    now = time.monotonic()
                    feed.failing_since = feed.failing_since or now
                    if now - feed.failing_since >= self.store.outage_grace or self.store._closed:
                        for watcher in list(feed.watchers):
                            watcher.fail(e)
                    return  # the next sweep tries again
                feed.failing_since = None
                if feed.rewritten_at(page):
                    valid = await self.divergence(feed, feed.last)
                    head = await self.store.head(feed.game_id)
                    log.warning("game %s: history rewritten after version %d", feed.game_id, valid)
                    feed.restart(valid, head.version, head.hash)
                    continue
                if feed.last > 0:
                    if not feed.last_hash and page:  # a feed started without the head's hash
                        feed.last_hash = page[0][1]
                    page = page[1:]
                if not feed.primed and len(page) >= _WATCH_PAGE:
                    # A new feed that started far behind the head (a watch from early in a long
                    # game): jump to the head instead of paging the history through; each
                    # watcher reads its own history anyway.
                    head = await self.store.head(feed.game_id)
                    feed.jump(head.version, head.hash)
                    return
                feed.primed = True
                feed.deliver(page)
                if not feed.again and len(page) < _WATCH_PAGE:
                    return
        except StoreError:
            return
        finally:
            feed.fetching = False

    async def divergence(self, feed: _Feed, upto: int) -> int:
        return await push.divergence(feed.ring, upto, lambda first, limit: self.store._entries(feed.game_id, first, limit))

    async def _sweep(self) -> None:
        while self.feeds and not self.store._closed:
            await asyncio.sleep(self.store.sweep_interval)
            feeds = [f for f in self.feeds.values() if not f.fetching]
            if isinstance(self.store._reads.client, RedisCluster):
                for feed in feeds:
                    self.fetch(feed)
            else:
                # One script call per SWEEP_CHUNK games asks for their heads; only the games
                # whose head moved (or changed hash) are fetched.
                for i in range(0, len(feeds), self.SWEEP_CHUNK):
                    chunk = feeds[i : i + self.SWEEP_CHUNK]
                    try:
                        heads = await self.store._heads([f.game_id for f in chunk])
                    except StoreError:
                        heads = [None] * len(chunk)  # the fetches report (and time) the outage
                    for feed, head in zip(chunk, heads, strict=True):
                        if head is None or head != (feed.last, feed.last_hash):
                            self.fetch(feed)
            for channel in [f.channel for f in self.feeds.values() if f.channel not in self.routes]:
                self._spawn(self._route_later(channel))

    async def close(self) -> None:
        feeds, self.feeds = list(self.feeds.values()), {}
        for feed in feeds:
            for watcher in feed.watchers:
                watcher.fail(StoreError("the Redis store is closed"))
        tasks = [*self.tasks, *(s.task for s in self.subscribers.values() if s.task is not None)]
        if self.sweeper is not None:
            tasks.append(self.sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for subscriber in self.subscribers.values():
            await subscriber.close()


class _Subscriber:
    """One pub/sub connection to one Redis node, SSUBSCRIBEd to the channels routed to it.

    Its loop owns the connection: (un)subscriptions are queued and sent between reads, a
    lost connection is reopened with backoff and every channel re-subscribed (then every
    feed fetched, since notifications may have been missed). No read timeout applies
    while it waits for messages; a PING every few seconds finds a dead peer."""

    POLL = 0.05  # seconds between checks for queued (un)subscriptions
    PING_EVERY = 5.0

    def __init__(self, hub: _Hub, node: str, host: str | None, port: int | None) -> None:
        self.hub, self.node = hub, node
        self.host, self.port = host, port
        self.channels: set[str] = set()
        self.pending: set[str] = set()  # to subscribe
        self.dropped: set[str] = set()  # to unsubscribe
        self.leaving: dict[str, int] = {}  # SUNSUBSCRIBEs sent whose confirmation is still to come
        self.connected = False
        self.client: aioredis.Redis | None = None
        self.push: Any = None  # the lean pub/sub connection (plain server), when open
        lean = hub.store._lean[0] if hub.store._lean and host is None else None
        self.task: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._run() if lean is None else self._run_lean(lean), name=f"tablero-redis-notify-{node}"
        )

    def add(self, channel: str) -> None:
        self.channels.add(channel)
        self.dropped.discard(channel)
        if self.push is not None and self.connected:  # lean: sent at once, no reply awaited
            self.push.command("SSUBSCRIBE", channel)
        else:
            self.pending.add(channel)

    def remove(self, channel: str) -> None:
        self.channels.discard(channel)
        self.pending.discard(channel)
        if self.push is not None and self.connected:
            self.push.command("SUNSUBSCRIBE", channel)
            self.leaving[channel] = self.leaving.get(channel, 0) + 1
        else:
            self.dropped.add(channel)

    def _connect(self) -> aioredis.Redis:
        store = self.hub.store
        options = {**store._options, "socket_timeout": None, "retry": Retry(NoBackoff(), 0), "max_connections": 2}
        if self.host is None:
            return store._plain_client(**options)
        scheme = store.url.partition("://")[0]
        auth = store.url.partition("://")[2].rpartition("@")
        userinfo = f"{auth[0]}@" if auth[1] else ""
        return aioredis.Redis.from_url(f"{scheme}://{userinfo}{self.host}:{self.port}/0", **options)

    async def _run(self) -> None:
        backoff = 0.05
        while True:
            pubsub = None
            try:
                self.client = self._connect()
                pubsub = self.client.pubsub()
                await pubsub.ping()
                self.pending = set(self.channels)
                self.dropped.clear()
                self.leaving.clear()
                await self._apply(pubsub)
                self.connected = True
                backoff = 0.05
                self.hub.resync(list(self.channels))
                last_ping = time.monotonic()
                while True:
                    message = await pubsub.get_message(timeout=self.POLL)
                    while message is not None:
                        self._handle(message)
                        message = await pubsub.get_message(timeout=0)
                    await self._apply(pubsub)
                    if time.monotonic() - last_ping > self.PING_EVERY:
                        await pubsub.ping()
                        last_ping = time.monotonic()
            except asyncio.CancelledError:
                raise
            except redis.exceptions.ResponseError as e:
                # MOVED/ASK for an SSUBSCRIBE: our view of the cluster is stale. Route every
                # channel of this node again (most come back here); the sweep covers the gap.
                log.warning("redis notifications from %s: %s; re-routing its channels", self.node, e)
                self.connected = False
                moved, self.channels = list(self.channels), set()
                self.pending.clear()
                for channel in moved:
                    self.hub.rerouted(channel)
            except Exception as e:  # noqa: BLE001 - any failure: reconnect
                if self.connected:
                    log.warning("redis notifications from %s lost (%s); reconnecting", self.node, e)
                self.connected = False
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                if self.client is not None:
                    with contextlib.suppress(Exception):
                        await self.client.aclose()
                    for sentinel in getattr(getattr(self.client, "_tablero_sentinel", None), "sentinels", ()):
                        with contextlib.suppress(Exception):
                            await sentinel.aclose()
                    self.client = None
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    async def _run_lean(self, lean: LeanRedis) -> None:
        """`_run` over a lean push connection (a plain server): (un)subscriptions are written
        as they come, messages handled as they arrive; a PING when quiet for PING_EVERY
        seconds, and a connection silent for three of them is dropped and reopened."""
        backoff = 0.05
        while True:
            try:
                self.push = push = await open_push(lean, self._on_push)
                for channel in sorted(self.channels):
                    push.command("SSUBSCRIBE", channel)
                self.pending.clear()
                self.dropped.clear()
                self.leaving.clear()
                self.connected = True
                backoff = 0.05
                self.hub.resync(list(self.channels))
                while not push.lost.done():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(push.lost), self.PING_EVERY)
                    quiet = time.monotonic() - push.last_seen
                    if quiet > 3 * self.PING_EVERY:
                        push.fail(redis.exceptions.ConnectionError("no answer to PING"))
                    elif quiet > self.PING_EVERY:
                        push.command("PING")
                raise redis.exceptions.ConnectionError("connection lost")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any failure: reconnect
                if self.connected:
                    log.warning("redis notifications from %s lost (%s); reconnecting", self.node, e)
            finally:
                self.connected = False
                if self.push is not None:
                    self.push.fail(redis.exceptions.ConnectionError("closed"))
                    self.push = None
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    def _on_push(self, reply: Any) -> None:
        if isinstance(reply, list) and len(reply) >= 3:
            self._handle({"type": reply[0], "channel": reply[1], "data": reply[2]})

    async def _apply(self, pubsub: Any) -> None:
        # One channel per command: on a cluster node several channels of different slots
        # in one SSUBSCRIBE would be refused (CROSSSLOT).
        while self.pending:
            await pubsub.ssubscribe(self.pending.pop())
        while self.dropped:
            channel = self.dropped.pop()
            self.leaving[channel] = self.leaving.get(channel, 0) + 1
            await pubsub.sunsubscribe(channel)

    def _handle(self, message: dict[str, Any]) -> None:
        kind = _text(message.get("type", b""))
        channel = _text(message.get("channel") or b"")
        if kind == "smessage":
            data = message["data"]
            if isinstance(data, str):
                data = data.encode()
            if b"\n" in data:  # the entries themselves (see PUSH_EVENTS_MAX)
                try:
                    rows = _pushed_rows(data)
                except ValueError:
                    self.hub.notified(channel, None)
                else:
                    self.hub.pushed(channel, rows[0], rows[1])
                return
            try:
                version: int | None = int(data)
            except (TypeError, ValueError):
                version = None
            self.hub.notified(channel, version)
        elif kind == "ssubscribe":
            self.hub.notified(channel, None)  # appended before the subscription took: fetch it
        elif kind == "sunsubscribe":
            left = self.leaving.get(channel, 0)
            if left:  # the confirmation of one we sent (the channel may be wanted again since)
                if left == 1:
                    del self.leaving[channel]
                else:
                    self.leaving[channel] = left - 1
            elif channel in self.channels:
                # Not asked for: the server moved the channel's slot away. Route it again.
                self.channels.discard(channel)
                self.hub.rerouted(channel)

    async def close(self) -> None:
        self.connected = False
        if self.push is not None:
            self.push.fail(redis.exceptions.ConnectionError("closed"))
            self.push = None
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()
