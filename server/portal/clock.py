"""Turn clocks: every seat that must act has a deadline; when it passes, a timeout is
applied once, by whichever replica gets there first.

A clock is set at creation: `"clock": {"moveSeconds": N, "onTimeout": "bot" | "forfeit"}`.
A seat's deadline is the time it started waiting plus `moveSeconds`. What the store
keeps per clocked game is a `ClockRecord`: the version it describes and, for each
seat in `to_act` at that version, when it started waiting. The request path updates
it after each accepted action; a replica that finds the record behind the game's
version (its writer died between the append and the update) starts the newly waiting
seats' clocks at that moment — they get a little longer, never less.

The timeout itself goes through the ordinary write path as the waiting seat's
action (a bot's random legal move, or a `tablero.seat_left` forfeit) appended with
the version the deadline was read at, so a concurrent move or another replica's
timeout makes it a no-op (compare-and-set), and its request id
`timeout:<version>:<seat>` makes a retry return the first answer.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

MIN_MOVE_SECONDS = 1
MAX_MOVE_SECONDS = 7 * 24 * 3600
ON_TIMEOUT = ("bot", "forfeit")


def parse_clock(value: Any) -> dict[str, Any] | None:
    """The create body's `clock`, checked; ValueError says what is wrong."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError('"clock" must be an object: {"moveSeconds": N, "onTimeout": "bot" | "forfeit"}')
    extra = set(value) - {"moveSeconds", "onTimeout"}
    if extra:
        raise ValueError(f'"clock" has unknown field(s) {", ".join(sorted(extra))}')
    secs = value.get("moveSeconds")
    if not isinstance(secs, int) or isinstance(secs, bool) or not MIN_MOVE_SECONDS <= secs <= MAX_MOVE_SECONDS:
        raise ValueError(f'"clock.moveSeconds" must be an integer from {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS}')
    on = value.get("onTimeout", "bot")
    if on not in ON_TIMEOUT:
        raise ValueError('"clock.onTimeout" must be "bot" or "forfeit"')
    return {"moveSeconds": secs, "onTimeout": on}


@dataclass
class ClockRecord:
    version: int
    since: dict[int, float] = field(default_factory=dict)
    # Whether the game's turn clocks started: its last open seat was taken (or it had none). A
    # join retried after that (its first answer lost) restarts nobody's clock.
    full: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "since": {str(s): t for s, t in self.since.items()}}
        if self.full:
            out["full"] = True
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> ClockRecord | None:
        if not d:
            return None
        return cls(int(d["version"]), {int(s): float(t) for s, t in d.get("since", {}).items()},
                   bool(d.get("full", False)))

    def advance(self, version: int, waiting: set[int], now: float, acted: Collection[int] = ()) -> ClockRecord:
        """The record after the game reached `version` with `waiting` seats to act: seats
        that were already waiting keep their start (simultaneous moves: each late seat
        keeps its own clock), newly waiting seats start now, and so do the seats that acted
        in between (`acted`: a person's move that bots answered at once leaves that seat
        waiting again, on a new turn)."""
        keep = ({s: t for s, t in self.since.items() if s in waiting and s not in acted}
                if version != self.version else dict(self.since))
        return ClockRecord(version, {s: keep.get(s, now) for s in sorted(waiting)}, self.full)

    def deadlines(self, move_seconds: int, skip: Collection[int] = ()) -> dict[int, float]:
        """Each waiting seat's deadline (`skip`: seats whose clock does not run, open seats
        nobody has taken)."""
        return {s: t + move_seconds for s, t in self.since.items() if s not in skip}

    def due(self, move_seconds: int, now: float, skip: Collection[int] = ()) -> list[int]:
        return sorted(s for s, d in self.deadlines(move_seconds, skip).items() if d <= now)

    def next_due(self, move_seconds: int, skip: Collection[int] = ()) -> float | None:
        d = self.deadlines(move_seconds, skip)
        return min(d.values()) if d else None


# --- where the records live -------------------------------------------------------------------
class MemoryClocks:
    """Clock records and the schedule of when each clocked game may next be due."""

    def __init__(self) -> None:
        self._records: dict[str, dict[str, Any]] = {}
        self._due: dict[str, float] = {}

    async def get(self, game_id: str) -> ClockRecord | None:
        return ClockRecord.from_json(self._records.get(game_id))

    async def put(self, game_id: str, record: ClockRecord, next_due: float | None) -> None:
        self._records[game_id] = record.to_json()
        if next_due is None:
            self._due.pop(game_id, None)
        else:
            self._due[game_id] = next_due

    async def due(self, now: float, limit: int = 100) -> list[str]:
        return [g for g, t in sorted(self._due.items(), key=lambda kv: kv[1]) if t <= now][:limit]

    async def remove(self, game_id: str) -> None:
        self._records.pop(game_id, None)
        self._due.pop(game_id, None)


class RedisClocks:
    """`tablero:clocks` (sorted set: game id by when it may next be due) and
    `tablero:{<game>}:clock` (the record, JSON). A schedule that is early is harmless
    (the sweeper finds nothing due and reschedules); it is never late, because a
    move only ever moves deadlines later."""

    _SCHEDULE = "tablero:clocks"

    def __init__(self, client) -> None:
        self._r = client

    @staticmethod
    def _key(game_id: str) -> str:
        return f"tablero:{{{game_id}}}:clock"

    async def get(self, game_id: str) -> ClockRecord | None:
        import json

        raw = await self._r.get(self._key(game_id))
        return None if raw is None else ClockRecord.from_json(json.loads(raw))

    async def put(self, game_id: str, record: ClockRecord, next_due: float | None) -> None:
        import json

        await self._r.set(self._key(game_id), json.dumps(record.to_json()))
        if next_due is None:
            await self._r.zrem(self._SCHEDULE, game_id)
        else:
            await self._r.zadd(self._SCHEDULE, {game_id: next_due})

    async def due(self, now: float, limit: int = 100) -> list[str]:
        ids = await self._r.zrangebyscore(self._SCHEDULE, "-inf", now, start=0, num=limit)
        return [g.decode() if isinstance(g, bytes) else g for g in ids]

    async def remove(self, game_id: str) -> None:
        await self._r.delete(self._key(game_id))
        await self._r.zrem(self._SCHEDULE, game_id)


class SQLiteClocks(MemoryClocks):
    """Beside the embedded store's file, so every process on the file shares the schedule."""

    def __init__(self, path: str) -> None:
        import sqlite3
        import threading

        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # as the store and the lobby: no fsync per commit
        self._db.execute("CREATE TABLE IF NOT EXISTS clocks (game_id TEXT PRIMARY KEY, record TEXT NOT NULL, due REAL)")

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    async def get(self, game_id: str) -> ClockRecord | None:
        import asyncio
        import json

        rows = await asyncio.to_thread(self._run, "SELECT record FROM clocks WHERE game_id = ?", (game_id,))
        return ClockRecord.from_json(json.loads(rows[0][0])) if rows else None

    async def put(self, game_id: str, record: ClockRecord, next_due: float | None) -> None:
        import asyncio
        import json

        await asyncio.to_thread(self._run, "INSERT OR REPLACE INTO clocks VALUES (?, ?, ?)",
                                (game_id, json.dumps(record.to_json()), next_due))

    async def due(self, now: float, limit: int = 100) -> list[str]:
        import asyncio

        rows = await asyncio.to_thread(
            self._run, "SELECT game_id FROM clocks WHERE due IS NOT NULL AND due <= ? ORDER BY due LIMIT ?", (now, limit)
        )
        return [r[0] for r in rows]

    async def remove(self, game_id: str) -> None:
        import asyncio

        await asyncio.to_thread(self._run, "DELETE FROM clocks WHERE game_id = ?", (game_id,))
