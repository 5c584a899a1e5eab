"""The durable notification queue, in the store every replica shares.

Two stages, both at least once and both surviving a replica that dies mid-step:

1. **Signals** — "game G changed". Written by the replica that committed the write, before
   it answers (so a write whose answer was lost is signalled again by the client's retry,
   which reaches `Bookkeeping._record` through the duplicate-request path). On Redis: the stream
   `tablero:notify:{n}:signals` with the consumer group `derive`; a replica that dies with
   signals in its pending list leaves them to `XAUTOCLAIM` by another after `SIGNAL_IDLE`.
   A signal is a wake-up, not the event: the deriver reads the game's own log from the
   game's cursor, so signals may be lost between two writes of a game, repeated, or
   coalesced without changing what is derived. A signal lost for good (its replica died
   between the commit and the signal, on the game's last write) is made up by the sweep:
   the cursor's atomic step also keeps the set `open` of games derived unfinished (a new game
   joins it before its creation commits, `expect_open`), and `take_open` hands each
   open game to one sweeper per period, which derives it when its log is ahead of its cursor.
2. **Deliveries** — per target (a webhook endpoint, or "push") and game, a *lane*: a FIFO
   list of the events to send there, in the order they were derived. Lanes that are due sit
   in a sorted set per target scored by when they are next due. A replica *claims* a lane
   by moving its score to now + lease (the score is the claim's token); the lane's head is
   sent, then acknowledged (popped) or rescheduled with backoff — only by the holder of the
   token. A replica that dies holding a lane loses nothing: the lease runs out and any
   replica claims it again (and sends the same event with the same webhook-id).
   Deliveries of one game to one target are therefore sent one at a time, in order; lanes
   of other games and targets are independent. The derivation's cursor and its deliveries
   are written in one atomic step (a CAS on the cursor), so an event is queued once.

`RedisQueue` uses one hash tag (`{n}`) for all its keys: every script runs on one node of a
cluster. `SQLiteQueue` keeps the same in tables (a file: several processes; or in memory).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from typing import Any

from tablero.server import luafiles

P = "tablero:notify:{n}:"
SIGNALS, GROUP = P + "signals", "derive"
SIGNAL_IDLE_MS = 5000  # a pending signal this old belongs to a dead (or stuck) deriver: claimed again
SIGNALS_MAXLEN = 1_000_000

# The Redis scripts, one file each in lua/ (KEYS, ARGV and replies at the top of each).
_LUA = luafiles.load(__package__, "commit", "claim", "settle", "replay", "take_open", "drop")


def _now_us() -> int:
    return int(time.time() * 1_000_000)


class RedisQueue:
    """The queue on Redis (a redis.asyncio client of its own: the deriver blocks on XREADGROUP)."""

    def __init__(self, client: Any) -> None:
        self.r = client
        self._commit = client.register_script(_LUA["commit"])
        self._claim = client.register_script(_LUA["claim"])
        self._settle = client.register_script(_LUA["settle"])
        self._replay = client.register_script(_LUA["replay"])
        self._take_open = client.register_script(_LUA["take_open"])
        self._drop = client.register_script(_LUA["drop"])
        self._group_ready = False

    async def _group(self) -> None:
        if self._group_ready:
            return
        try:
            await self.r.xgroup_create(SIGNALS, GROUP, id="0", mkstream=True)
        except Exception as e:  # noqa: BLE001 - BUSYGROUP: it exists
            if "BUSYGROUP" not in str(e):
                raise
        self._group_ready = True

    async def signal(self, game_ids: list[str]) -> None:
        async with self.r.pipeline(transaction=False) as p:
            for g in game_ids:
                p.xadd(SIGNALS, {"g": g}, maxlen=SIGNALS_MAXLEN, approximate=True)
            await p.execute()

    async def read_signals(self, consumer: str, count: int, block_ms: int) -> list[tuple[str, str]]:
        """Signals for `consumer`: the stale pending ones of dead consumers first, then new ones."""
        await self._group()
        out: list[tuple[str, str]] = []
        claimed = await self.r.xautoclaim(SIGNALS, GROUP, consumer, SIGNAL_IDLE_MS, "0-0", count=count)
        for sid, fields in claimed[1]:
            if fields:
                out.append((_s(sid), _s(fields.get(b"g") or fields.get("g"))))
        if out:
            return out
        reply = await self.r.xreadgroup(GROUP, consumer, {SIGNALS: ">"}, count=count, block=block_ms)
        for _stream, entries in reply or ():
            for sid, fields in entries:
                out.append((_s(sid), _s(fields.get(b"g") or fields.get("g"))))
        return out

    async def ack_signals(self, sids: list[str]) -> None:
        if sids:
            async with self.r.pipeline(transaction=False) as p:
                p.xack(SIGNALS, GROUP, *sids)
                p.xdel(SIGNALS, *sids)
                await p.execute()

    async def cursor(self, game_id: str) -> str | None:
        raw = await self.r.get(P + "cursor:" + game_id)
        return None if raw is None else _s(raw)

    async def commit(self, game_id: str, old: str | None, new: str,
                     deliveries: list[tuple[str, str, str]], ttl: float | None = None) -> bool:
        """Move the game's cursor from `old` to `new` and queue `deliveries` (target, lane, item)
        in one atomic step; False (nothing written) when the cursor is not `old` any more.
        `ttl`: seconds the cursor is kept (a finished game's), None: for ever."""
        args: list[Any] = [game_id, old or "", new, _now_us(), int((ttl or 0) * 1000)]
        for target, lane, raw in deliveries:
            args += [target, lane, raw]
        return bool(await self._commit(keys=[P + "cursor:" + game_id, P], args=args))

    async def take_open(self, older_than: float, limit: int) -> list[tuple[str, str | None]]:
        """Up to `limit` open games (derived, not finished) not derived or checked for
        `older_than` seconds, oldest first, with their cursors; each counts as checked now."""
        now = _now_us()
        reply = [_s(x) for x in await self._take_open(keys=[P], args=[now - int(older_than * 1e6), now, limit])]
        return [(reply[i], reply[i + 1] or None) for i in range(0, len(reply), 2)]

    async def expect_open(self, game_id: str) -> None:
        """A game about to be created: open (checked by the sweep) even if its signal is lost."""
        await self.r.zadd(P + "open", {game_id: _now_us()}, nx=True)

    async def forget_open(self, game_id: str) -> None:
        await self.r.zrem(P + "open", game_id)

    async def claim(self, target: str, limit: int, lease: float) -> list[tuple[str, str, str, str]]:
        now = _now_us()
        token_base = now + int(lease * 1_000_000)
        reply = await self._claim(keys=[P], args=[target, now, token_base, limit])
        reply = [_s(x) for x in reply]
        # The token is the lane's new score (computed here: Lua would print it in %.14g).
        return [(reply[i], str(token_base + int(reply[i + 1])), reply[i + 2], reply[i + 3])
                for i in range(0, len(reply), 4)]

    async def settle(self, target: str, lane: str, token: str, action: str, due_us: int, extra: str = "") -> bool:
        return bool(await self._settle(keys=[P], args=[target, lane, token, action, due_us, extra]))

    async def dead_letters(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in await self.r.lrange(P + "dead", 0, -1)]

    async def replay(self, event_id: str = "*") -> int:
        return int(await self._replay(keys=[P], args=[_now_us(), event_id]))

    async def queued_targets(self) -> list[str]:
        """Every target with deliveries queued (whether or not this process's settings name it)."""
        depths = await self.r.hgetall(P + "depth")
        return sorted(_s(t) for t, n in depths.items() if int(n or 0) > 0)

    async def drop(self, target: str) -> int:
        """Delete every delivery queued for `target` (an endpoint no server sends to any more);
        how many there were. Its dead letters stay."""
        dropped = 0
        while True:
            lanes, n = await self._drop(keys=[P], args=[target, 100])
            dropped += int(n)
            if not int(lanes):
                return dropped

    async def stats(self, targets: list[str]) -> dict[str, tuple[int, float]]:
        """target -> (deliveries queued, age in seconds of the oldest due one's event)."""
        out = {}
        now = time.time()
        for t in targets:
            depth = int(await self.r.hget(P + "depth", t) or 0)
            age = 0.0
            first = await self.r.zrange(P + "due:" + t, 0, 0)
            if first:
                head = await self.r.lindex(P + "lane:" + t + "|" + _s(first[0]), 0)
                if head is not None:
                    age = max(0.0, now - json.loads(head).get("queued", now))
            out[t] = (max(depth, 0), age)
        return out

    # -- a small key-value space per namespace (subscriptions, inboxes, presence) --
    async def kv_get(self, ns: str, key: str) -> str | None:
        raw = await self.r.hget(P + "kv:" + ns, key)
        return None if raw is None else _s(raw)

    async def kv_set(self, ns: str, key: str, value: str) -> None:
        await self.r.hset(P + "kv:" + ns, key, value)

    async def kv_del(self, ns: str, key: str) -> None:
        await self.r.hdel(P + "kv:" + ns, key)

    async def kv_all(self, ns: str) -> dict[str, str]:
        return {_s(k): _s(v) for k, v in (await self.r.hgetall(P + "kv:" + ns)).items()}

    async def close(self) -> None:
        await self.r.aclose()


def _s(x: Any) -> str:
    return x.decode() if isinstance(x, bytes) else str(x)


class SQLiteQueue:
    """The same queue in SQLite tables (a file shared by processes, or in memory for one)."""

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS notify_signals (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL,
        owner TEXT, taken REAL);
    CREATE TABLE IF NOT EXISTS notify_cursors (game TEXT PRIMARY KEY, cursor TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS notify_open (game TEXT PRIMARY KEY, checked INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS notify_open_checked ON notify_open (checked);
    CREATE TABLE IF NOT EXISTS notify_items (id INTEGER PRIMARY KEY AUTOINCREMENT, target TEXT NOT NULL,
        lane TEXT NOT NULL, raw TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS notify_items_lane ON notify_items (target, lane, id);
    CREATE TABLE IF NOT EXISTS notify_due (target TEXT NOT NULL, lane TEXT NOT NULL, due INTEGER NOT NULL,
        att TEXT NOT NULL DEFAULT '', PRIMARY KEY (target, lane));
    CREATE INDEX IF NOT EXISTS notify_due_time ON notify_due (target, due);
    CREATE TABLE IF NOT EXISTS notify_dead (id INTEGER PRIMARY KEY AUTOINCREMENT, raw TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS notify_kv (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (ns, key));
    """

    def __init__(self, path: str | None) -> None:
        self.db = sqlite3.connect(path or ":memory:", isolation_level=None, check_same_thread=False, timeout=5)
        # A file is shared with other processes (their locks may make a call wait): its calls run
        # on a thread, never on the event loop. In memory they take microseconds and run inline.
        self._threaded = path not in (None, ":memory:")
        if self._threaded:
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(self.SCHEMA)
        self._lock = threading.Lock()

    def _tx(self, fn: Any, *args: Any) -> Any:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                out = fn(*args)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return out

    async def _run(self, fn: Any, *args: Any) -> Any:
        if self._threaded:
            return await asyncio.to_thread(self._tx, fn, *args)
        return self._tx(fn, *args)

    async def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        return await self._run(lambda: self.db.execute(sql, args).fetchall())

    async def signal(self, game_ids: list[str]) -> None:
        await self._run(lambda: self.db.executemany("INSERT INTO notify_signals (game) VALUES (?)",
                                                    [(g,) for g in game_ids]))

    async def read_signals(self, consumer: str, count: int, block_ms: int) -> list[tuple[str, str]]:
        def take() -> list[tuple[str, str]]:
            stale = time.time() - SIGNAL_IDLE_MS / 1000
            rows = self.db.execute("SELECT id, game FROM notify_signals WHERE owner IS NULL OR taken < ? "
                                   "ORDER BY id LIMIT ?", (stale, count)).fetchall()
            self.db.executemany("UPDATE notify_signals SET owner = ?, taken = ? WHERE id = ?",
                                [(consumer, time.time(), r[0]) for r in rows])
            return [(str(r[0]), r[1]) for r in rows]

        out = await self._run(take)
        if not out:
            await asyncio.sleep(min(block_ms, 100) / 1000)
        return out

    async def ack_signals(self, sids: list[str]) -> None:
        await self._run(lambda: self.db.executemany("DELETE FROM notify_signals WHERE id = ?",
                                                    [(int(s),) for s in sids]))

    async def cursor(self, game_id: str) -> str | None:
        rows = await self._read("SELECT cursor FROM notify_cursors WHERE game = ?", (game_id,))
        return rows[0][0] if rows else None

    async def commit(self, game_id: str, old: str | None, new: str, deliveries: list[tuple[str, str, str]],
                     ttl: float | None = None) -> bool:
        def tx() -> bool:  # (a finished game's cursor is kept: the SQLite table is small)
            row = self.db.execute("SELECT cursor FROM notify_cursors WHERE game = ?", (game_id,)).fetchone()
            if (row[0] if row else None) != old:
                return False
            self.db.execute("INSERT OR REPLACE INTO notify_cursors VALUES (?, ?)", (game_id, new))
            now = _now_us()
            if ttl:  # finished: no write is left to derive
                self.db.execute("DELETE FROM notify_open WHERE game = ?", (game_id,))
            else:
                self.db.execute("INSERT OR REPLACE INTO notify_open VALUES (?, ?)", (game_id, now))
            for target, lane, raw in deliveries:
                self.db.execute("INSERT INTO notify_items (target, lane, raw) VALUES (?, ?, ?)", (target, lane, raw))
                self.db.execute("INSERT OR IGNORE INTO notify_due (target, lane, due) VALUES (?, ?, ?)",
                                (target, lane, now))
            return True

        return await self._run(tx)

    async def take_open(self, older_than: float, limit: int) -> list[tuple[str, str | None]]:
        def tx() -> list[tuple[str, str | None]]:
            now = _now_us()
            rows = self.db.execute("SELECT o.game, c.cursor FROM notify_open o LEFT JOIN notify_cursors c "
                                   "ON c.game = o.game WHERE o.checked <= ? ORDER BY o.checked LIMIT ?",
                                   (now - int(older_than * 1e6), limit)).fetchall()
            self.db.executemany("UPDATE notify_open SET checked = ? WHERE game = ?", [(now, r[0]) for r in rows])
            return [(r[0], r[1]) for r in rows]

        return await self._run(tx)

    async def expect_open(self, game_id: str) -> None:
        await self._run(lambda: self.db.execute("INSERT OR IGNORE INTO notify_open VALUES (?, ?)",
                                                (game_id, _now_us())))

    async def forget_open(self, game_id: str) -> None:
        await self._run(lambda: self.db.execute("DELETE FROM notify_open WHERE game = ?", (game_id,)))

    def _head(self, target: str, lane: str) -> tuple[int, str] | None:
        return self.db.execute("SELECT id, raw FROM notify_items WHERE target = ? AND lane = ? ORDER BY id LIMIT 1",
                               (target, lane)).fetchone()

    async def claim(self, target: str, limit: int, lease: float) -> list[tuple[str, str, str, str]]:
        def tx() -> list[tuple[str, str, str, str]]:
            now = _now_us()
            out = []
            rows = self.db.execute("SELECT lane, att FROM notify_due WHERE target = ? AND due <= ? ORDER BY due "
                                   "LIMIT ?", (target, now, limit)).fetchall()
            for i, (lane, att) in enumerate(rows, 1):
                head = self._head(target, lane)
                if head is None:
                    self.db.execute("DELETE FROM notify_due WHERE target = ? AND lane = ?", (target, lane))
                    continue
                token = now + int(lease * 1_000_000) + i
                self.db.execute("UPDATE notify_due SET due = ? WHERE target = ? AND lane = ?", (token, target, lane))
                out.append((lane, str(token), head[1], att))
            return out

        return await self._run(tx)

    async def settle(self, target: str, lane: str, token: str, action: str, due_us: int, extra: str = "") -> bool:
        def tx() -> bool:
            row = self.db.execute("SELECT due FROM notify_due WHERE target = ? AND lane = ?", (target, lane)).fetchone()
            if row is None or row[0] != int(token):
                return False
            if action == "retry":
                self.db.execute("UPDATE notify_due SET due = ?, att = ? WHERE target = ? AND lane = ?",
                                (due_us, extra, target, lane))
                return True
            head = self._head(target, lane)
            if head is not None:
                self.db.execute("DELETE FROM notify_items WHERE id = ?", (head[0],))
            if action == "dead":
                self.db.execute("INSERT INTO notify_dead (raw) VALUES (?)", (extra,))
            if self._head(target, lane) is None:
                self.db.execute("DELETE FROM notify_due WHERE target = ? AND lane = ?", (target, lane))
            else:
                self.db.execute("UPDATE notify_due SET due = ?, att = '' WHERE target = ? AND lane = ?",
                                (due_us, target, lane))
            return True

        return await self._run(tx)

    async def dead_letters(self) -> list[dict[str, Any]]:
        return [json.loads(r[0]) for r in await self._read("SELECT raw FROM notify_dead ORDER BY id")]

    async def replay(self, event_id: str = "*") -> int:
        def tx() -> int:
            n = 0
            for rid, raw in self.db.execute("SELECT id, raw FROM notify_dead ORDER BY id").fetchall():
                rec = json.loads(raw)
                if event_id != "*" and rec["item"]["event"]["id"] != event_id:
                    continue
                self.db.execute("INSERT INTO notify_items (target, lane, raw) VALUES (?, ?, ?)",
                                (rec["target"], rec["lane"], rec["raw"]))
                self.db.execute("INSERT OR IGNORE INTO notify_due (target, lane, due) VALUES (?, ?, ?)",
                                (rec["target"], rec["lane"], _now_us()))
                self.db.execute("DELETE FROM notify_dead WHERE id = ?", (rid,))
                n += 1
            return n

        return await self._run(tx)

    async def queued_targets(self) -> list[str]:
        """Every target with deliveries queued (whether or not this process's settings name it)."""
        return [r[0] for r in await self._read("SELECT DISTINCT target FROM notify_items ORDER BY target")]

    async def drop(self, target: str) -> int:
        def tx() -> int:
            self.db.execute("DELETE FROM notify_due WHERE target = ?", (target,))
            return self.db.execute("DELETE FROM notify_items WHERE target = ?", (target,)).rowcount

        return await self._run(tx)

    async def stats(self, targets: list[str]) -> dict[str, tuple[int, float]]:
        out = {}
        now = time.time()
        for t in targets:
            depth = (await self._read("SELECT COUNT(*) FROM notify_items WHERE target = ?", (t,)))[0][0]
            head = await self._read("SELECT raw FROM notify_items WHERE target = ? ORDER BY id LIMIT 1", (t,))
            age = max(0.0, now - json.loads(head[0][0]).get("queued", now)) if head else 0.0
            out[t] = (depth, age)
        return out

    async def kv_get(self, ns: str, key: str) -> str | None:
        rows = await self._read("SELECT value FROM notify_kv WHERE ns = ? AND key = ?", (ns, key))
        return rows[0][0] if rows else None

    async def kv_set(self, ns: str, key: str, value: str) -> None:
        await self._run(lambda: self.db.execute("INSERT OR REPLACE INTO notify_kv VALUES (?, ?, ?)", (ns, key, value)))

    async def kv_del(self, ns: str, key: str) -> None:
        await self._run(lambda: self.db.execute("DELETE FROM notify_kv WHERE ns = ? AND key = ?", (ns, key)))

    async def kv_all(self, ns: str) -> dict[str, str]:
        return dict(await self._read("SELECT key, value FROM notify_kv WHERE ns = ?", (ns,)))

    async def close(self) -> None:
        self.db.close()
