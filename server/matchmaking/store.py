"""Where tickets wait: Redis (every replica shares the queues), the SQLite file (the processes of
`serve --workers N` on it share them), or this process (no Redis, no file).

Each change of a ticket is one atomic step (a Lua script on Redis), so the replicas may race:
- `add`: a new waiting ticket, unless the same request id made one already, or the user has
  MAX_WAITING waiting tickets;
- `claim`: tickets leave the queue for one match only if every one of them still waits — a
  ticket is claimed once, so no ticket puts its user in two games; the match record (the
  game id chosen up front, the seating) is written in the same step;
- `assign`: the tickets of a claimed match become MATCHED with their game and seat, and the
  match record goes;
- `cancel`, `expire`: a waiting ticket ends.
A replica that dies between `claim` and `assign` leaves a match record: any replica finishes it
(`stale`) by creating the game with the recorded id (a game that exists already is that match's)
and assigning it. Nothing of a ticket lives only in a replica's memory.

Redis keys (hash tag `{mm}`: one slot, so the scripts run on a cluster too):
  tablero:{mm}:t:<ticket>   the ticket, JSON (expires a day after it ends)
  tablero:{mm}:q:<engine>   sorted set: waiting ticket ids by creation time
  tablero:{mm}:engines      set of engines with a queue
  tablero:{mm}:w:<user>     set: the user's waiting tickets
  tablero:{mm}:r:<len(user)>:<user>:<request id>  the ticket a request id made
  tablero:{mm}:m            sorted set: claimed matches by claim time; tablero:{mm}:m:<id> the match
  tablero:{mm}:lease:<engine>  the replica matching that engine now (an optimisation only)
"""

from __future__ import annotations

import json
import time
from typing import Any

from tablero.server import luafiles

MAX_WAITING = 3
KEEP_ENDED = 86400  # seconds an ended ticket stays readable
_P = "tablero:{mm}:"


class TooManyTickets(Exception):
    pass


def request_key(user: str, request_id: str) -> str:
    """A user's request id, unambiguous whatever the ids hold: the user id's length first, so user
    "a" with request "b:c" and user "a:b" with request "c" never share a key."""
    return f"{len(user)}:{user}:{request_id}"


class MemoryTickets:
    """In this process (a server without Redis serves everything itself)."""

    def __init__(self) -> None:
        self.t: dict[str, dict[str, Any]] = {}
        self.requests: dict[str, str] = {}
        self.matches: dict[str, dict[str, Any]] = {}
        self.leases: dict[str, tuple[str, float]] = {}

    async def add(self, ticket: dict[str, Any], request_id: str) -> dict[str, Any]:
        rk = request_key(ticket["user"], request_id)
        if request_id and rk in self.requests:
            return dict(self.t[self.requests[rk]])
        waiting = sum(1 for x in self.t.values() if x["user"] == ticket["user"] and x["status"] == "WAITING")
        if waiting >= MAX_WAITING:
            raise TooManyTickets
        self.t[ticket["id"]] = dict(ticket)
        if request_id:
            self.requests[rk] = ticket["id"]
        return dict(ticket)

    async def get(self, ticket_id: str) -> dict[str, Any] | None:
        x = self.t.get(ticket_id)
        return None if x is None else dict(x)

    async def by_request(self, user: str, request_id: str) -> dict[str, Any] | None:
        known = self.requests.get(request_key(user, request_id))
        return None if known is None else await self.get(known)

    async def engines(self) -> list[str]:
        return sorted({x["engine"] for x in self.t.values() if x["status"] == "WAITING"})

    async def waiting(self, engine: str) -> list[dict[str, Any]]:
        return sorted((dict(x) for x in self.t.values() if x["engine"] == engine and x["status"] == "WAITING"),
                      key=lambda x: x["created"])

    async def _end(self, ticket_id: str, status: str, now: float) -> dict[str, Any] | None:
        x = self.t.get(ticket_id)
        if x is None:
            return None
        if x["status"] == "WAITING" and (status == "CANCELLED" or x["expires"] <= now):
            x.update(status=status, version=x["version"] + 1, endTime=now)
        return dict(x)

    async def cancel(self, ticket_id: str, now: float) -> dict[str, Any] | None:
        return await self._end(ticket_id, "CANCELLED", now)

    async def expire(self, ids: list[str], now: float) -> None:
        for i in ids:
            await self._end(i, "EXPIRED", now)

    async def claim(self, match: dict[str, Any]) -> bool:
        ids = [s["ticket"] for s in match["seats"] if s]
        if any(self.t[i]["status"] != "WAITING" for i in ids):
            return False
        for i in ids:
            self.t[i].update(status="MATCHING", match=match["id"])
        self.matches[match["id"]] = dict(match)
        return True

    async def assign(self, match: dict[str, Any], now: float) -> None:
        for seat, s in enumerate(match["seats"]):
            x = self.t.get(s["ticket"]) if s else None
            if x is not None and x["status"] == "MATCHING" and x.get("match") == match["id"]:
                x.update(status="MATCHED", gameId=match["id"], seat=seat, matchTime=round(now, 3), version=x["version"] + 1)
        self.matches.pop(match["id"], None)

    async def stale(self, before: float) -> list[dict[str, Any]]:
        return [dict(m) for m in self.matches.values() if m["claimed"] <= before]

    async def lease(self, engine: str, owner: str, ttl: float) -> bool:
        holder, until = self.leases.get(engine, ("", 0.0))
        now = time.monotonic()
        if holder not in ("", owner) and until > now:
            return False
        self.leases[engine] = (owner, now + ttl)
        return True


# The Redis scripts, one file each in lua/ (KEYS, ARGV and replies at the top of each). They
# build the keys of tickets and matches themselves, from `local P`, which is _P.
_LUA = luafiles.load(__package__, "add", "end", "claim", "assign", "lease")


def _text(v: Any) -> Any:
    return v.decode() if isinstance(v, bytes) else v


class RedisTickets:
    """Shared by every replica. The scripts name keys built inside them (all in the `{mm}` slot)."""

    def __init__(self, client) -> None:
        self._r = client
        self._add, self._endp = client.register_script(_LUA["add"]), client.register_script(_LUA["end"])
        self._claim, self._assign = client.register_script(_LUA["claim"]), client.register_script(_LUA["assign"])
        self._lease = client.register_script(_LUA["lease"])

    async def add(self, ticket: dict[str, Any], request_id: str) -> dict[str, Any]:
        u = ticket["user"]
        keys = [_P + "t:" + ticket["id"], _P + "q:" + ticket["engine"], _P + "engines", _P + "w:" + u,
                _P + "r:" + request_key(u, request_id)]
        raw = await self._add(keys=keys, args=[json.dumps(ticket), ticket["created"], ticket["id"], ticket["engine"],
                                               MAX_WAITING, "1" if request_id else "0"])
        if not raw:
            raise TooManyTickets
        return json.loads(raw)

    async def get(self, ticket_id: str) -> dict[str, Any] | None:
        raw = await self._r.get(_P + "t:" + ticket_id)
        return None if raw is None else json.loads(raw)

    async def by_request(self, user: str, request_id: str) -> dict[str, Any] | None:
        known = await self._r.get(_P + "r:" + request_key(user, request_id))
        return None if known is None else await self.get(_text(known))

    async def engines(self) -> list[str]:
        return sorted(_text(e) for e in await self._r.smembers(_P + "engines"))

    async def waiting(self, engine: str) -> list[dict[str, Any]]:
        ids = [_text(i) for i in await self._r.zrange(_P + "q:" + engine, 0, 4999)]
        if not ids:
            return []
        raws = await self._r.mget([_P + "t:" + i for i in ids])
        out = [json.loads(r) for r in raws if r is not None]
        return [t for t in out if t["status"] == "WAITING"]

    async def cancel(self, ticket_id: str, now: float) -> dict[str, Any] | None:
        (raw,) = await self._endp(keys=[_P + "m"], args=["CANCELLED", now, KEEP_ENDED, ticket_id])
        return json.loads(raw) if raw else None

    async def expire(self, ids: list[str], now: float) -> None:
        if ids:
            await self._endp(keys=[_P + "m"], args=["EXPIRED", now, KEEP_ENDED, *ids])

    async def claim(self, match: dict[str, Any]) -> bool:
        ids = [s["ticket"] for s in match["seats"] if s]
        return bool(await self._claim(keys=[_P + "m"], args=[json.dumps(match), match["id"], match["claimed"], *ids]))

    async def assign(self, match: dict[str, Any], now: float) -> None:
        pairs: list[Any] = []
        for seat, s in enumerate(match["seats"]):
            if s:
                pairs += [s["ticket"], seat]
        await self._assign(keys=[_P + "m"], args=[match["id"], now, KEEP_ENDED, *pairs])

    async def stale(self, before: float) -> list[dict[str, Any]]:
        ids = [_text(i) for i in await self._r.zrangebyscore(_P + "m", "-inf", before, start=0, num=100)]
        if not ids:
            return []
        raws = await self._r.mget([_P + "m:" + i for i in ids])
        return [json.loads(r) for r in raws if r is not None]

    async def lease(self, engine: str, owner: str, ttl: float) -> bool:
        return bool(await self._lease(keys=[_P + "lease:" + engine], args=[owner, int(ttl * 1000)]))


_SCHEMA = """
CREATE TABLE IF NOT EXISTS mm_tickets (id TEXT PRIMARY KEY, user TEXT NOT NULL, engine TEXT NOT NULL,
  status TEXT NOT NULL, created REAL NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS mm_waiting ON mm_tickets (engine, status, created);
CREATE TABLE IF NOT EXISTS mm_requests (key TEXT PRIMARY KEY, ticket TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mm_matches (id TEXT PRIMARY KEY, claimed REAL NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mm_leases (engine TEXT PRIMARY KEY, owner TEXT NOT NULL, until REAL NOT NULL);
"""


class SQLiteTickets:
    """Beside the embedded store's file, so that the processes of `serve --workers N` on one file
    share the queues; each change is one BEGIN IMMEDIATE transaction (the processes take turns)."""

    def __init__(self, path: str) -> None:
        import sqlite3
        import threading

        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    async def _tx(self, fn: Any, *args: Any) -> Any:
        import asyncio

        def run() -> Any:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    out = fn(self._db, *args)
                    self._db.execute("COMMIT")
                    return out
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise

        return await asyncio.to_thread(run)

    @staticmethod
    def _put(db: Any, t: dict[str, Any]) -> None:
        db.execute("INSERT OR REPLACE INTO mm_tickets VALUES (?, ?, ?, ?, ?, ?)",
                   (t["id"], t["user"], t["engine"], t["status"], t["created"], json.dumps(t)))

    @staticmethod
    def _get(db: Any, ticket_id: str) -> dict[str, Any] | None:
        row = db.execute("SELECT body FROM mm_tickets WHERE id = ?", (ticket_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    async def add(self, ticket: dict[str, Any], request_id: str) -> dict[str, Any]:
        def add(db: Any) -> dict[str, Any] | None:
            rk = request_key(ticket["user"], request_id)
            if request_id:
                row = db.execute("SELECT ticket FROM mm_requests WHERE key = ?", (rk,)).fetchone()
                if row is not None and (known := self._get(db, row[0])) is not None:
                    return known
            waiting = db.execute("SELECT COUNT(*) FROM mm_tickets WHERE user = ? AND status = 'WAITING'",
                                 (ticket["user"],)).fetchone()[0]
            if waiting >= MAX_WAITING:
                return None
            self._put(db, ticket)
            if request_id:
                db.execute("INSERT OR REPLACE INTO mm_requests VALUES (?, ?)", (rk, ticket["id"]))
            return ticket

        out = await self._tx(add)
        if out is None:
            raise TooManyTickets
        return out

    async def get(self, ticket_id: str) -> dict[str, Any] | None:
        return await self._tx(self._get, ticket_id)

    async def by_request(self, user: str, request_id: str) -> dict[str, Any] | None:
        def find(db: Any) -> dict[str, Any] | None:
            row = db.execute("SELECT ticket FROM mm_requests WHERE key = ?", (request_key(user, request_id),)).fetchone()
            return None if row is None else self._get(db, row[0])

        return await self._tx(find)

    async def engines(self) -> list[str]:
        return await self._tx(lambda db: [r[0] for r in db.execute(
            "SELECT DISTINCT engine FROM mm_tickets WHERE status = 'WAITING' ORDER BY engine")])

    async def waiting(self, engine: str) -> list[dict[str, Any]]:
        return await self._tx(lambda db: [json.loads(r[0]) for r in db.execute(
            "SELECT body FROM mm_tickets WHERE engine = ? AND status = 'WAITING' ORDER BY created LIMIT 5000",
            (engine,))])

    def _end(self, db: Any, ids: list[str], status: str, now: float) -> list[dict[str, Any] | None]:
        out = []
        for i in ids:
            t = self._get(db, i)
            if t is not None and t["status"] == "WAITING" and (status == "CANCELLED" or t["expires"] <= now):
                t.update(status=status, version=t["version"] + 1, endTime=now)
                self._put(db, t)
            out.append(t)
        return out

    async def cancel(self, ticket_id: str, now: float) -> dict[str, Any] | None:
        return (await self._tx(self._end, [ticket_id], "CANCELLED", now))[0]

    async def expire(self, ids: list[str], now: float) -> None:
        if ids:
            await self._tx(self._end, ids, "EXPIRED", now)

    async def claim(self, match: dict[str, Any]) -> bool:
        def claim(db: Any) -> bool:
            tickets = [self._get(db, s["ticket"]) for s in match["seats"] if s]
            if any(t is None or t["status"] != "WAITING" for t in tickets):
                return False
            for t in tickets:
                t.update(status="MATCHING", match=match["id"])
                self._put(db, t)
            db.execute("INSERT INTO mm_matches VALUES (?, ?, ?)", (match["id"], match["claimed"], json.dumps(match)))
            return True

        return await self._tx(claim)

    async def assign(self, match: dict[str, Any], now: float) -> None:
        def assign(db: Any) -> None:
            for seat, s in enumerate(match["seats"]):
                t = self._get(db, s["ticket"]) if s else None
                if t is not None and t["status"] == "MATCHING" and t.get("match") == match["id"]:
                    t.update(status="MATCHED", gameId=match["id"], seat=seat, matchTime=round(now, 3), version=t["version"] + 1)
                    self._put(db, t)
            db.execute("DELETE FROM mm_matches WHERE id = ?", (match["id"],))

        await self._tx(assign)

    async def stale(self, before: float) -> list[dict[str, Any]]:
        return await self._tx(lambda db: [json.loads(r[0]) for r in db.execute(
            "SELECT body FROM mm_matches WHERE claimed <= ? LIMIT 100", (before,))])

    async def lease(self, engine: str, owner: str, ttl: float) -> bool:
        def lease(db: Any) -> bool:
            now = time.time()  # the wall clock: shared by the processes on the file
            row = db.execute("SELECT owner, until FROM mm_leases WHERE engine = ?", (engine,)).fetchone()
            if row is not None and row[0] != owner and row[1] > now:
                return False
            db.execute("INSERT OR REPLACE INTO mm_leases VALUES (?, ?, ?)", (engine, owner, now + ttl))
            return True

        return await self._tx(lease)
