"""The lobby: games a portal's users can find (`GET /v1/games`, gRPC `ListGames`).

The list lives in the store, so every replica sees the same one: Redis keeps a
sorted set of games by creation time plus one small JSON entry per game (and one
set per user for "mine"); the embedded store keeps a table beside the events.
Entries change only when a game is created, a seat is claimed or left, and when
the game ends; the current version of each listed game is read from the event
store when the page is served.

Newest first, paginated by an opaque page token (the position after the last
entry scanned), filtered by engine, status, open seats and user.

On Redis a game's entry is one of the game's own keys (server/store/ids.py GameKeys): it
carries the TTL the store gives the game (abandoned, finished) and is deleted with it. The
index is in another slot; the members of gone games are dropped when a listing meets them
and by RedisLobby.prune, which the server runs in the background (server/runner.py).
"""

from __future__ import annotations

import asyncio
import base64
import json
import math
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any

from redis import exceptions as rex
from tablero.server import gil, luafiles
from tablero.server.store.ids import game_keys

MAX_PAGE = 100
DEFAULT_PAGE = 20
# At most this many entries are scanned for one page; a page may come back short
# (with a next page token) when filters skip many games.
_SCAN_LIMIT = 2000


class BadPageToken(ValueError):
    pass


@dataclass(frozen=True)
class Filter:
    engine: str | None = None
    status: str | None = None  # "RUNNING" | "FINISHED"
    open_seats: bool | None = None
    # only the user's own games (`mine`): a seat they hold, or a game of bots only they started
    # (its entry's `owner`: it counts against their open-games cap, so they see it)
    user: str | None = None
    # only games that count against this user's open-games cap: a seat they hold, or a game of
    # bots only they started (its entry's `owner`; server/app/lobby.py check_open_games)
    counted_for: str | None = None

    def admits(self, entry: dict[str, Any]) -> bool:
        if self.engine is not None and entry["engine"] != self.engine:
            return False
        if self.status is not None and entry["status"] != self.status:
            return False
        if self.open_seats is not None:
            has_open = entry["status"] == "RUNNING" and any(
                s["kind"] == "open" and not s["taken"] for s in entry["seats"]
            )
            if has_open != self.open_seats:
                return False
        if self.user is not None and entry.get("owner") != self.user and \
                not any((s.get("user") or {}).get("id") == self.user for s in entry["seats"]):
            return False
        if self.counted_for is not None and entry.get("owner") != self.counted_for and \
                not any((s.get("user") or {}).get("id") == self.counted_for for s in entry["seats"]):
            return False
        return True


def encode_token(created: float, game_id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([created, game_id]).encode()).decode().rstrip("=")


def decode_token(token: str) -> tuple[float, str]:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        created, gid = json.loads(raw)
        # A creation time is a finite number (a made-up NaN or Infinity would reach the
        # store's range query as bad input, not be refused here as a bad token); bool is no number.
        if isinstance(created, bool) or not isinstance(created, int | float) or not isinstance(gid, str) \
                or not math.isfinite(float(created)):
            raise ValueError
        return float(created), gid
    except (ValueError, TypeError, OverflowError, UnicodeDecodeError, json.JSONDecodeError):
        raise BadPageToken("pageToken is not a token this server issued") from None


def _after(entries_key: tuple[float, str], cursor: tuple[float, str] | None) -> bool:
    """Newest first: an entry comes after the cursor when it is older (ties by id)."""
    return cursor is None or entries_key < cursor


def _marked(entry: dict[str, Any], seat: int | None, user: dict[str, Any] | None,
            status: str | None, bots: list[int] | None = None, acted: list[int] | None = None) -> dict[str, Any]:
    """The entry with `seat` taken (by `user`, when given), the new `status`, the seats `bots`
    (whose players left with onLeave "bot") played by bots, and/or the seats `acted` marked as
    having made a move of their own (docs/ratings.md: a game some user never moved in is not rated)."""
    for s in entry["seats"]:
        if s["seat"] == seat:
            s["taken"] = True
            if user is not None:
                s["user"] = user
        if bots and s["seat"] in bots:
            s["kind"] = "bot"
        if acted and s["seat"] in acted:
            s["acted"] = True
    if status is not None:
        entry["status"] = status
    return entry


class MemoryLobby:
    """In process (the in-memory SQLite store's lobby: one process serves everything)."""

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Any]] = {}
        self._holds: dict[tuple[str, str], float] = {}  # (key, user) -> until (time.monotonic())

    async def add(self, entry: dict[str, Any]) -> None:
        self._entries[entry["gameId"]] = json.loads(json.dumps(entry))

    async def get(self, game_id: str) -> dict[str, Any] | None:
        e = self._entries.get(game_id)
        return None if e is None else json.loads(json.dumps(e))

    async def put(self, entry: dict[str, Any]) -> None:
        if entry["gameId"] in self._entries:
            await self.add(entry)

    async def remove(self, game_id: str) -> None:
        self._entries.pop(game_id, None)

    async def hold(self, key: str, user_id: str, ttl: float) -> bool:
        """Take (`key`, `user_id`) for at most `ttl` seconds, unless it is held already (until
        `release`, or until its `ttl` runs out): what a user does one at a time on every
        replica. `key` is a game id (their join to it), or "*" (all their games: the cap)."""
        now = time.monotonic()
        key_ = (key, user_id)
        if self._holds.get(key_, 0.0) > now:
            return False
        self._holds[key_] = now + ttl
        return True

    async def release(self, key: str, user_id: str) -> None:
        self._holds.pop((key, user_id), None)

    async def mark(self, game_id: str, *, seat: int | None = None, user: dict[str, Any] | None = None,
                   status: str | None = None, bots: list[int] | None = None, acted: list[int] | None = None) -> None:
        """Atomically: `seat` taken (by `user`), the game's new `status`, the seats `bots`
        played by bots now, and/or the seats `acted` that have moved."""
        if game_id in self._entries:
            _marked(self._entries[game_id], seat, user, status, bots, acted)

    async def list(self, f: Filter, page_size: int, token: str | None) -> tuple[list[dict[str, Any]], str]:
        cursor = decode_token(token) if token else None
        ordered = sorted(self._entries.values(), key=lambda e: (e["created"], e["gameId"]), reverse=True)
        out: list[dict[str, Any]] = []
        scanned = 0
        last = None
        for e in ordered:
            key = (e["created"], e["gameId"])
            if not _after(key, cursor):
                continue
            scanned += 1
            last = key
            if f.admits(e):
                out.append(json.loads(json.dumps(e)))
            if len(out) >= page_size or scanned >= _SCAN_LIMIT:
                break
        more = last is not None and any(_after((e["created"], e["gameId"]), last) for e in ordered)
        return out, encode_token(*last) if more and last else ""


class SQLiteLobby(MemoryLobby):
    """Beside the embedded store's file, so every process on the file sees one lobby."""

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        # As the store's own connection on the file: a commit survives a crash of the process,
        # and is not an fsync each (FULL, the default, synced every lobby write: a game's
        # creation and end each waited for the disk while holding the file's write lock).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS lobby (game_id TEXT PRIMARY KEY, created REAL NOT NULL, entry TEXT NOT NULL)"
        )
        self._db.execute("CREATE INDEX IF NOT EXISTS lobby_created ON lobby (created DESC, game_id DESC)")
        self._db.execute("CREATE TABLE IF NOT EXISTS holds (key TEXT NOT NULL, user_id TEXT NOT NULL, "
                         "until REAL NOT NULL, PRIMARY KEY (key, user_id))")

    @staticmethod
    async def _off(fn: Any, *args: Any) -> Any:
        """`fn(*args)` on a thread, the GIL handed over sooner meanwhile (server/gil.py)."""
        with gil.handing_over():
            return await asyncio.to_thread(fn, *args)

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    async def add(self, entry: dict[str, Any]) -> None:
        await self._off(self._run, "INSERT OR REPLACE INTO lobby VALUES (?, ?, ?)",
                        (entry["gameId"], entry["created"], json.dumps(entry)))

    async def get(self, game_id: str) -> dict[str, Any] | None:
        rows = await self._off(self._run, "SELECT entry FROM lobby WHERE game_id = ?", (game_id,))
        return json.loads(rows[0][0]) if rows else None

    async def put(self, entry: dict[str, Any]) -> None:
        await self._off(self._run, "UPDATE lobby SET entry = ? WHERE game_id = ?",
                        (json.dumps(entry), entry["gameId"]))

    async def remove(self, game_id: str) -> None:
        await self._off(self._run, "DELETE FROM lobby WHERE game_id = ?", (game_id,))

    def _hold(self, key: str, user_id: str, ttl: float) -> bool:
        now = time.time()  # wall clock: shared by the processes on the file
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM holds WHERE until <= ?", (now,))
                taken = self._db.execute("INSERT OR IGNORE INTO holds VALUES (?, ?, ?)",
                                         (key, user_id, now + ttl)).rowcount == 1
                self._db.execute("COMMIT")
                return taken
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    async def hold(self, key: str, user_id: str, ttl: float) -> bool:
        return await self._off(self._hold, key, user_id, ttl)

    async def release(self, key: str, user_id: str) -> None:
        await self._off(self._run, "DELETE FROM holds WHERE key = ? AND user_id = ?", (key, user_id))

    def _mark(self, game_id: str, seat: int | None, user: dict[str, Any] | None, status: str | None,
              bots: list[int] | None, acted: list[int] | None = None) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")  # other processes on the file wait
            try:
                rows = self._db.execute("SELECT entry FROM lobby WHERE game_id = ?", (game_id,)).fetchall()
                if rows:
                    entry = _marked(json.loads(rows[0][0]), seat, user, status, bots, acted)
                    self._db.execute("UPDATE lobby SET entry = ? WHERE game_id = ?", (json.dumps(entry), game_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    async def mark(self, game_id: str, *, seat: int | None = None, user: dict[str, Any] | None = None,
                   status: str | None = None, bots: list[int] | None = None, acted: list[int] | None = None) -> None:
        await self._off(self._mark, game_id, seat, user, status, bots, acted)

    async def list(self, f: Filter, page_size: int, token: str | None) -> tuple[list[dict[str, Any]], str]:
        cursor = decode_token(token) if token else (float("inf"), "")
        out: list[dict[str, Any]] = []
        scanned = 0
        last: tuple[float, str] | None = None
        while len(out) < page_size and scanned < _SCAN_LIMIT:
            c, g = last or cursor
            rows = await self._off(
                self._run,
                "SELECT created, game_id, entry FROM lobby WHERE created < ? OR (created = ? AND game_id < ?) "
                "ORDER BY created DESC, game_id DESC LIMIT 200",
                (c, c, g),
            )
            if not rows:
                return out, ""
            for created, gid, text in rows:
                scanned += 1
                last = (created, gid)
                e = json.loads(text)
                if f.admits(e):
                    out.append(e)
                if len(out) >= page_size or scanned >= _SCAN_LIMIT:
                    break
        assert last is not None
        more = await self._off(
            self._run, "SELECT 1 FROM lobby WHERE created < ? OR (created = ? AND game_id < ?) LIMIT 1",
            (last[0], last[0], last[1]),
        )
        return out, encode_token(*last) if more else ""


_INDEX = "tablero:lobby"

# Index members RedisLobby.prune looks at per call (ZSCAN's COUNT: a hint, a small sorted set
# comes back whole). On a plain server one step is one script run in Redis (~0.1 ms for 200);
# on a cluster, a pipeline parsed here (~7 ms of this process's loop for 200).
PRUNE_BATCH = 200

# The Redis scripts, one file each in lua/ (KEYS, ARGV and replies at the top of each):
# `lobby_add` writes a game's entry (and its index member on a plain server), `lobby_mark` marks
# a seat, a status or bots in it, `lobby_prune` is one step of the index's cleanup on a plain
# server (the game keys it names are not in KEYS, which only a cluster needs; it is given a
# game's meta and entry key split around its id, _PRUNE_PARTS: the names are defined once, in
# ids.game_keys).
_LUA = luafiles.load(__package__, "lobby_add", "lobby_mark", "lobby_prune")

_SAMPLE_ID = "game-id"
_PRUNE_PARTS = [*game_keys(_SAMPLE_ID).meta.split(_SAMPLE_ID), game_keys(_SAMPLE_ID).lobby.split(_SAMPLE_ID)[1]]


def _entry_key(game_id: str) -> str:
    """The game's entry: one of its keys (same hash tag, expires and is deleted with it)."""
    return game_keys(game_id).lobby


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _hold_key(key: str, user_id: str) -> str:
    """(`key`, `user_id`) held (RedisLobby.hold)."""
    return f"tablero:{{{key}}}:hold:{user_id}"


# A write over the lean connection that fails on a lost connection or a timeout is tried
# again (both writes are idempotent), as redis-py's clients retry theirs.
_LEAN_ATTEMPTS = 3


class RedisLobby:
    """In Redis, shared by every replica: `tablero:lobby` (sorted set: game id by creation
    time) and `tablero:{<game>}:lobby` (the entry, JSON).

    `fast`: the store's lean pipelined connection (server/store/lean.py), on a plain server.
    The writes of the request path (a game created, a seat claimed, a game over) then go over
    it as one script each instead of through redis-py's client (a few per cent of a worker's
    time under load); everything else uses `client`."""

    def __init__(self, client, fast: Any = None) -> None:
        from redis.asyncio.cluster import RedisCluster  # here: SQLite-only setups never load it

        self._r, self._fast = client, fast
        self._cluster = isinstance(client, RedisCluster)
        self._mark = (fast or client).register_script(_LUA["lobby_mark"])
        self._add = (fast or client).register_script(_LUA["lobby_add"])
        self._prune_cursor = 0  # where the next prune() goes on in the index (0: from the start)
        self._prune = None if self._cluster else (fast or client).register_script(_LUA["lobby_prune"])

    async def _script(self, script: Any, keys: list[str], args: list[Any]) -> None:
        """One call of `script`; over the lean connection, tried again on a lost connection
        (redis-py's client retries its own)."""
        if self._fast is None:
            await script(keys=keys, args=args)
            return
        for attempt in range(_LEAN_ATTEMPTS):
            try:
                await script(keys=keys, args=args)
                return
            except (rex.ConnectionError, rex.TimeoutError):
                if attempt == _LEAN_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.05 * 2**attempt)

    async def mark(self, game_id: str, *, seat: int | None = None, user: dict[str, Any] | None = None,
                   status: str | None = None, bots: list[int] | None = None, acted: list[int] | None = None) -> None:
        """Atomically (one script): `seat` taken (by `user`), the game's new `status`, the
        seats `bots` played by bots now, and/or the seats `acted` that have moved."""
        await self._script(self._mark, [_entry_key(game_id)], [
            "" if seat is None else str(seat), "" if user is None else json.dumps(user), status or "",
            "".join(f",{int(b)}," for b in bots or ()), "".join(f",{int(a)}," for a in acted or ())])

    async def add(self, entry: dict[str, Any]) -> None:
        k = game_keys(entry["gameId"])
        args = [json.dumps(entry), entry["created"], entry["gameId"]]
        if not self._cluster:  # one script, one round trip
            await self._script(self._add, [k.lobby, k.meta, _INDEX], args)
            return
        # The index is in another slot: the entry first, so that no index member of a running
        # game is ever without its entry (prune() drops such members).
        await self._script(self._add, [k.lobby, k.meta], args)
        await self._r.zadd(_INDEX, {entry["gameId"]: entry["created"]})

    async def get(self, game_id: str) -> dict[str, Any] | None:
        try:
            key = _entry_key(game_id)
        except ValueError:  # an id no store accepts: no such game
            return None
        raw = await self._r.get(key)
        return None if raw is None else json.loads(raw)

    async def put(self, entry: dict[str, Any]) -> None:
        # KEEPTTL: the entry keeps the game's TTL (a plain SET would make it live forever)
        await self._r.set(_entry_key(entry["gameId"]), json.dumps(entry), xx=True, keepttl=True)

    async def remove(self, game_id: str) -> None:
        await self._r.delete(_entry_key(game_id))
        await self._r.zrem(_INDEX, game_id)

    async def prune(self, count: int = PRUNE_BATCH) -> int:
        """One bounded step of the index's cleanup: the next ~`count` members of the index
        (ZSCAN, its cursor kept between calls, so that successive calls walk the whole index
        and start again), whose game and entry are checked in one pipelined round trip. The
        members of gone games (meta gone: expired or deleted), and those without an entry,
        are removed, with the entry of a gone game still there (one written before entries
        expired with their games). Returns how many members it removed.

        Safe while games are created: a game's meta is written before its entry, and its entry
        before (or with) its index member."""
        if self._prune is not None:  # a plain server: the whole step in Redis, no reply to parse
            cursor, removed = await self._prune(keys=[_INDEX], args=[self._prune_cursor, count, *_PRUNE_PARTS])
            self._prune_cursor = int(cursor)
            return int(removed)
        cursor, members = await self._r.zscan(_INDEX, self._prune_cursor, count=count)
        self._prune_cursor = int(cursor)
        keys = []
        for member, _ in members:
            try:
                keys.append((_text(member), game_keys(_text(member))))
            except ValueError:  # not a game id at all
                keys.append((_text(member), None))
        if not keys:
            return 0
        pipe = self._r.pipeline(transaction=False)
        for _, k in keys:
            if k is not None:
                pipe.exists(k.meta)
                pipe.exists(k.lobby)
        found = iter(await pipe.execute())
        gone, orphans = [], []
        for game_id, k in keys:
            game, entry = (next(found), next(found)) if k is not None else (0, 0)
            if not game or not entry:
                gone.append(game_id)
            if k is not None and not game and entry:
                orphans.append(k.lobby)
        if not gone:
            return 0
        pipe = self._r.pipeline(transaction=False)
        for key in orphans:  # one DEL each: on a cluster they are in different slots
            pipe.delete(key)
        pipe.zrem(_INDEX, *gone)
        await pipe.execute()
        return len(gone)

    async def hold(self, key: str, user_id: str, ttl: float) -> bool:
        return bool(await self._r.set(_hold_key(key, user_id), "1", nx=True, px=max(1, int(ttl * 1000))))

    async def release(self, key: str, user_id: str) -> None:
        await self._r.delete(_hold_key(key, user_id))

    async def list(self, f: Filter, page_size: int, token: str | None) -> tuple[list[dict[str, Any]], str]:
        import redis.exceptions

        try:
            return await self._list(f, page_size, token)
        except redis.exceptions.ConnectionError:
            # Idle pooled connections from before a Redis restart are all dead, and a listing
            # reads on several at once: drop them and read again once (a read: safe to repeat).
            # (A cluster client keeps a pool per node and renews them itself.)
            pool = getattr(self._r, "connection_pool", None)
            if pool is None:
                raise
            await pool.disconnect(inuse_connections=False)
            return await self._list(f, page_size, token)

    async def _list(self, f: Filter, page_size: int, token: str | None) -> tuple[list[dict[str, Any]], str]:
        cursor = decode_token(token) if token else None
        out: list[dict[str, Any]] = []
        scanned = 0
        last: tuple[float, str] | None = cursor
        while len(out) < page_size and scanned < _SCAN_LIMIT:
            top = "+inf" if last is None else last[0]
            batch = await self._r.zrevrangebyscore(_INDEX, top, "-inf", start=0, num=200 + 50, withscores=True)
            ids = [(g.decode() if isinstance(g, bytes) else g, s) for g, s in batch]
            ids = [(g, s) for g, s in ids if _after((s, g), last)][:200]
            if not ids:
                return out, ""
            raws = await asyncio.gather(*(self._r.get(_entry_key(g)) for g, _ in ids))
            for (g, s), raw in zip(ids, raws, strict=True):
                scanned += 1
                last = (s, g)
                if raw is None:  # expired or deleted: drop it from the index
                    await self._r.zrem(_INDEX, g)
                    continue
                e = json.loads(raw)
                if f.admits(e):
                    out.append(e)
                if len(out) >= page_size or scanned >= _SCAN_LIMIT:
                    break
        assert last is not None
        more = await self._r.zrevrangebyscore(_INDEX, last[0], "-inf", start=0, num=50, withscores=True)
        rest = [g for g, s in more if _after((s, g.decode() if isinstance(g, bytes) else g), last)]
        return out, encode_token(*last) if rest else ""
