"""Where ratings live: Redis (shared by every replica) or SQLite (the embedded store's file, or
memory). Both offer the same calls; `commit` is the one atomic step of rating a game.

Redis keys, all with the hash tag `{ratings}` (one slot, so the rating script may touch them
all on a cluster too; a sorted set of millions of members is one key):
  tablero:{ratings}:u:<user>        hash engine -> rating JSON [mu, sigma, games, wins]
  tablero:{ratings}:lb:<engine>     sorted set user -> mu - 3 sigma (the leaderboard)
  tablero:{ratings}:names           hash user -> display name
  tablero:{ratings}:recent:<user>   list of the user's last 20 rated games (JSON, newest first)
  tablero:{ratings}:journal         sorted set game id -> sequence number it was rated with
  tablero:{ratings}:seq             the last sequence number
  tablero:{ratings}:pending         sorted set game id -> when to look at it next (games to rate)
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from tablero.server import luafiles

RECENT = 20
_P = "tablero:{ratings}:"
NONE = "~"  # "no rating yet" in the compare-and-set


@dataclass(frozen=True)
class Change:
    user: str
    expected: str | None  # the rating JSON read before (None: the user had none)
    new: str
    score: float
    name: str | None
    recent: str  # JSON of the game for the user's recent list


@dataclass(frozen=True)
class Player:
    """What a player's page shows, read at one moment: a game's rating commit is seen whole or
    not at all (its recent entry never without the totals it added to)."""
    profile: dict[str, str]  # engine -> rating JSON
    recent: list[str]  # JSON of the recent games, newest first
    name: str | None
    ranks: dict[str, int]  # engine -> players above (0: first)


# The Redis scripts, one file each in lua/ (KEYS, ARGV and replies at the top of each): `commit`
# rates a game in one step, `player` reads a player's page at one moment.
_LUA = luafiles.load(__package__, "commit", "player")


class RedisRatings:
    def __init__(self, client) -> None:
        self._r = client
        self._commit = client.register_script(_LUA["commit"])
        self._player = client.register_script(_LUA["player"])

    async def get(self, engine: str, users: list[str]) -> dict[str, str | None]:
        pipe = self._r.pipeline(transaction=False)
        for u in users:
            pipe.hget(_P + "u:" + u, engine)
        return {u: _text(v) for u, v in zip(users, await pipe.execute(), strict=True)}

    async def commit(self, game_id: str, engine: str, changes: list[Change], replay: bool = False) -> int:
        keys = [_P + "journal", _P + "pending", _P + "seq", _P + "lb:" + engine, _P + "names"]
        args: list[Any] = [game_id, engine, "1" if replay else "0", len(changes)]
        for c in changes:
            keys += [_P + "u:" + c.user, _P + "recent:" + c.user]
            args += [c.user, c.expected or NONE, c.new, repr(c.score), c.name or "", c.recent]
        return int(await self._commit(keys=keys, args=args))

    async def is_rated(self, game_id: str) -> bool:
        return await self._r.zscore(_P + "journal", game_id) is not None

    async def pending_put(self, game_id: str, due: float) -> None:
        await self._r.zadd(_P + "pending", {game_id: due})

    async def pending_remove(self, game_id: str) -> None:
        await self._r.zrem(_P + "pending", game_id)

    async def pending_due(self, now: float, limit: int) -> list[str]:
        return [_text(g) for g in await self._r.zrangebyscore(_P + "pending", "-inf", now, start=0, num=limit)]

    async def pending_count(self) -> int:
        return int(await self._r.zcard(_P + "pending"))

    async def journal(self) -> list[str]:
        return [_text(g) for g in await self._r.zrange(_P + "journal", 0, -1)]

    async def top(self, engine: str, offset: int, count: int) -> list[tuple[str, float]]:
        rows = await self._r.zrevrange(_P + "lb:" + engine, offset, offset + count - 1, withscores=True)
        return [(_text(u), float(s)) for u, s in rows]

    async def rank(self, engine: str, user: str) -> int | None:
        r = await self._r.zrevrank(_P + "lb:" + engine, user)
        return None if r is None else int(r)

    async def size(self, engine: str) -> int:
        return int(await self._r.zcard(_P + "lb:" + engine))

    async def names(self, users: list[str]) -> dict[str, str | None]:
        if not users:
            return {}
        return {u: _text(n) for u, n in zip(users, await self._r.hmget(_P + "names", users), strict=True)}

    async def player(self, user: str, count: int) -> Player:
        """The user's ratings, recent games, name and ranks as of one moment (see Player)."""
        flat, recent, name = await self._player(keys=[_P + "u:" + user, _P + "recent:" + user, _P + "names"],
                                                args=[count, user])
        profile = {_text(flat[i]): _text(flat[i + 1]) for i in range(0, len(flat), 2)}
        ranks = {}
        if profile:
            pipe = self._r.pipeline(transaction=False)
            for engine in profile:
                pipe.zrevrank(_P + "lb:" + engine, user)
            ranks = {e: int(r) for e, r in zip(profile, await pipe.execute(), strict=True) if r is not None}
        return Player(profile, [_text(x) for x in recent], _text(name) or None, ranks)

    async def reset(self) -> None:
        """Forget every rating, leaderboard and recent list (a rebuild follows); the journal and
        the pending games stay."""
        keep = {(_P + k).encode() for k in ("journal", "pending", "seq")}
        async for key in self._r.scan_iter(match=_P.replace("{", "\\{").replace("}", "\\}") + "*", count=1000):
            if key not in keep:
                await self._r.delete(key)


def _text(v: Any) -> Any:
    return v.decode() if isinstance(v, bytes) else v


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rt_ratings (user TEXT NOT NULL, engine TEXT NOT NULL, raw TEXT NOT NULL,
  score REAL NOT NULL, PRIMARY KEY (user, engine));
CREATE INDEX IF NOT EXISTS rt_board ON rt_ratings (engine, score DESC, user DESC);
CREATE TABLE IF NOT EXISTS rt_names (user TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rt_recent (n INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, game TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS rt_recent_user ON rt_recent (user, n DESC);
CREATE TABLE IF NOT EXISTS rt_journal (game_id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS rt_pending (game_id TEXT PRIMARY KEY, due REAL NOT NULL);
"""


# Players above a score in an engine's leaderboard (ties: the greater user id first), its rank - 1.
_ABOVE = "SELECT COUNT(*) FROM rt_ratings WHERE engine = ? AND (score > ? OR (score = ? AND user > ?))"


class SQLiteRatings:
    """One transaction per rated game (BEGIN IMMEDIATE: processes on one file take turns)."""

    def __init__(self, path: str = ":memory:") -> None:
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        if path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    async def _off(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(self._locked, fn, *args)

    def _locked(self, fn: Any, *args: Any) -> Any:
        with self._lock:
            return fn(*args)

    def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        return self._db.execute(sql, args).fetchall()

    async def _q(self, sql: str, args: tuple = ()) -> list[tuple]:
        return await self._off(self._rows, sql, args)

    async def get(self, engine: str, users: list[str]) -> dict[str, str | None]:
        out: dict[str, str | None] = dict.fromkeys(users)
        for u in users:
            rows = await self._q("SELECT raw FROM rt_ratings WHERE user = ? AND engine = ?", (u, engine))
            out[u] = rows[0][0] if rows else None
        return out

    def _commit(self, game_id: str, engine: str, changes: list[Change], replay: bool) -> int:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if not replay and db.execute("SELECT 1 FROM rt_journal WHERE game_id = ?", (game_id,)).fetchone():
                db.execute("ROLLBACK")
                return 0
            for c in changes:
                row = db.execute("SELECT raw FROM rt_ratings WHERE user = ? AND engine = ?", (c.user, engine)).fetchone()
                if (row[0] if row else None) != c.expected:
                    db.execute("ROLLBACK")
                    return -1
            for c in changes:
                db.execute("INSERT OR REPLACE INTO rt_ratings VALUES (?, ?, ?, ?)", (c.user, engine, c.new, c.score))
                if c.name:
                    db.execute("INSERT OR REPLACE INTO rt_names VALUES (?, ?)", (c.user, c.name))
                db.execute("INSERT INTO rt_recent (user, game) VALUES (?, ?)", (c.user, c.recent))
            seq = 1
            if not replay:
                seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM rt_journal").fetchone()[0]
                db.execute("INSERT INTO rt_journal VALUES (?, ?)", (game_id, seq))
            db.execute("DELETE FROM rt_pending WHERE game_id = ?", (game_id,))
            db.execute("COMMIT")
            return seq
        except BaseException:
            db.execute("ROLLBACK")
            raise

    async def commit(self, game_id: str, engine: str, changes: list[Change], replay: bool = False) -> int:
        return await self._off(self._commit, game_id, engine, changes, replay)

    async def is_rated(self, game_id: str) -> bool:
        return bool(await self._q("SELECT 1 FROM rt_journal WHERE game_id = ?", (game_id,)))

    async def pending_put(self, game_id: str, due: float) -> None:
        await self._q("INSERT OR REPLACE INTO rt_pending VALUES (?, ?)", (game_id, due))

    async def pending_remove(self, game_id: str) -> None:
        await self._q("DELETE FROM rt_pending WHERE game_id = ?", (game_id,))

    async def pending_due(self, now: float, limit: int) -> list[str]:
        return [r[0] for r in await self._q("SELECT game_id FROM rt_pending WHERE due <= ? ORDER BY due LIMIT ?",
                                            (now, limit))]

    async def pending_count(self) -> int:
        return int((await self._q("SELECT COUNT(*) FROM rt_pending"))[0][0])

    async def journal(self) -> list[str]:
        return [r[0] for r in await self._q("SELECT game_id FROM rt_journal ORDER BY seq")]

    async def top(self, engine: str, offset: int, count: int) -> list[tuple[str, float]]:
        return [(u, s) for u, s in await self._q(
            "SELECT user, score FROM rt_ratings WHERE engine = ? ORDER BY score DESC, user DESC LIMIT ? OFFSET ?",
            (engine, count, offset))]

    async def rank(self, engine: str, user: str) -> int | None:
        rows = await self._q("SELECT score FROM rt_ratings WHERE engine = ? AND user = ?", (engine, user))
        if not rows:
            return None
        s = rows[0][0]
        above = await self._q(_ABOVE, (engine, s, s, user))
        return int(above[0][0])

    async def size(self, engine: str) -> int:
        return int((await self._q("SELECT COUNT(*) FROM rt_ratings WHERE engine = ?", (engine,)))[0][0])

    async def names(self, users: list[str]) -> dict[str, str | None]:
        out: dict[str, str | None] = dict.fromkeys(users)
        for u in users:
            rows = await self._q("SELECT name FROM rt_names WHERE user = ?", (u,))
            out[u] = rows[0][0] if rows else None
        return out

    def _read_player(self, user: str, count: int) -> Player:
        db = self._db
        db.execute("BEGIN")  # one read transaction: a commit of another connection (process) is all or nothing
        try:
            rows = db.execute("SELECT engine, raw, score FROM rt_ratings WHERE user = ?", (user,)).fetchall()
            recent = [r[0] for r in db.execute("SELECT game FROM rt_recent WHERE user = ? ORDER BY n DESC LIMIT ?",
                                               (user, count)).fetchall()]
            name = db.execute("SELECT name FROM rt_names WHERE user = ?", (user,)).fetchone()
            ranks = {engine: db.execute(_ABOVE, (engine, sc, sc, user)).fetchone()[0] for engine, _raw, sc in rows}
        finally:
            db.execute("COMMIT")
        return Player({e: raw for e, raw, _ in rows}, recent, name[0] if name else None, ranks)

    async def player(self, user: str, count: int) -> Player:
        """The user's ratings, recent games, name and ranks as of one moment (see Player)."""
        return await self._off(self._read_player, user, count)

    async def reset(self) -> None:
        await self._q("DELETE FROM rt_ratings")
        await self._q("DELETE FROM rt_names")
        await self._q("DELETE FROM rt_recent")
