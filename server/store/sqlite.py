"""The embedded event store: SQLite, in a file or in memory (the default store).

    store = SQLiteStore("tablero.db")          # or SQLiteStore() for memory
    await store.create("g1", {"engine": "goofspiel"}, [start_event])
    await store.append("g1", 1, [event], request_id="r1")   # -> 2

All SQLite work runs on one dedicated worker thread that owns the connection,
so the event loop never blocks on disk and the connection is never shared
between threads. `create`/`append`/`claim_seat` are single `BEGIN IMMEDIATE`
transactions: the version and request-id checks happen inside the write lock,
so several stores (threads, processes, replicas on one host) may share a file.

`watch` is woken at once by appends made through this store; appends made
through another connection (another process, or another `SQLiteStore` on the
same file) are noticed by one poller per store that reads
`PRAGMA data_version` every `poll_interval` seconds, however many watchers
there are.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from server.store.base import Conflict, DuplicateRequest, Event, EventStore, GameExists, GameNotFound, StoreError
from server.store.ids import check_game_id

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    meta TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    game_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (game_id, request_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
) WITHOUT ROWID;
"""

# Events are read in pages of this size while catching up in watch().
_WATCH_PAGE = 500


def _dumps(value: Any) -> str:
    # Strict JSON (no NaN/Infinity), compact: the same text the Redis store keeps.
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


class SQLiteStore(EventStore):
    """EventStore on SQLite. `path=":memory:"` keeps everything in this process."""

    def __init__(self, path: str = ":memory:", *, poll_interval: float = 0.25) -> None:
        self.path = path
        self.poll_interval = poll_interval
        self._memory = path == ":memory:" or path.startswith("file::memory:")
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="tablero-sqlite")
        self._conn: sqlite3.Connection | None = None  # created and used on the worker thread only
        self._closed = False
        # game_id -> the asyncio.Events of the watchers of that game in this store
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._poller: asyncio.Task[None] | None = None

    # -- the worker thread ---------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves.
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=True, uri=self.path.startswith("file:")
            )
            conn.execute("PRAGMA busy_timeout = 5000")
            if not self._memory:
                conn.execute("PRAGMA journal_mode = WAL")
                # WAL + NORMAL: a commit survives a crash of the process; only a power loss
                # may lose the last transactions (the usual choice for WAL databases).
                conn.execute("PRAGMA synchronous = NORMAL")
            conn.executescript(_SCHEMA)
            self._conn = conn
        return self._conn

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the worker thread; sqlite errors become StoreError."""
        if self._closed:
            raise StoreError("the SQLite store is closed")

        def call() -> T:
            return fn(self._connect())

        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, call)
        except sqlite3.Error as e:
            raise StoreError(f"sqlite: {e}") from e
        except RuntimeError as e:  # executor shut down by a concurrent close()
            if self._closed:
                raise StoreError("the SQLite store is closed") from e
            raise

    @staticmethod
    def _write(conn: sqlite3.Connection, body: Callable[[], T]) -> T:
        """Run `body` in one BEGIN IMMEDIATE transaction (takes the write lock first)."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = body()
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return result

    @staticmethod
    def _game_version(conn: sqlite3.Connection, game_id: str) -> int:
        row = conn.execute("SELECT version FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return row[0]

    # -- writes ----------------------------------------------------------------------

    async def create(self, game_id: str, meta: dict[str, Any], events: list[Event]) -> int:
        check_game_id(game_id)
        meta_json = _dumps(meta)
        rows = [(game_id, n, _dumps(e)) for n, e in enumerate(events, start=1)]

        def body(conn: sqlite3.Connection) -> int:
            def tx() -> int:
                if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone():
                    raise GameExists(game_id)
                conn.execute(
                    "INSERT INTO games (game_id, version, meta) VALUES (?, ?, ?)", (game_id, len(rows), meta_json)
                )
                conn.executemany("INSERT INTO events (game_id, version, event) VALUES (?, ?, ?)", rows)
                return len(rows)

            return self._write(conn, tx)

        version = await self._run(body)
        self._notify(game_id)
        return version

    async def append(
        self, game_id: str, expected_version: int, events: list[Event], request_id: str | None = None
    ) -> int:
        texts = [_dumps(e) for e in events]

        def body(conn: sqlite3.Connection) -> int:
            def tx() -> int:
                current = self._game_version(conn, game_id)
                # The request id is checked before the version: a retried request whose
                # first attempt succeeded must learn that, not get a Conflict.
                if request_id is not None:
                    row = conn.execute(
                        "SELECT version FROM requests WHERE game_id = ? AND request_id = ?", (game_id, request_id)
                    ).fetchone()
                    if row is not None:
                        raise DuplicateRequest(game_id, request_id, row[0])
                if current != expected_version:
                    raise Conflict(game_id, expected_version, current)
                new_version = current + len(texts)
                conn.executemany(
                    "INSERT INTO events (game_id, version, event) VALUES (?, ?, ?)",
                    [(game_id, current + i, t) for i, t in enumerate(texts, start=1)],
                )
                conn.execute("UPDATE games SET version = ? WHERE game_id = ?", (new_version, game_id))
                if request_id is not None:
                    conn.execute(
                        "INSERT INTO requests (game_id, request_id, version) VALUES (?, ?, ?)",
                        (game_id, request_id, new_version),
                    )
                return new_version

            return self._write(conn, tx)

        version = await self._run(body)
        if texts:
            self._notify(game_id)
        return version

    async def claim_seat(self, game_id: str, seats: list[int]) -> int | None:
        def body(conn: sqlite3.Connection) -> int | None:
            def tx() -> int | None:
                row = conn.execute("SELECT meta FROM games WHERE game_id = ?", (game_id,)).fetchone()
                if row is None:
                    raise GameNotFound(game_id)
                meta = json.loads(row[0])
                claimed = meta.setdefault("claimed", [])
                for seat in seats:
                    if seat not in claimed:
                        claimed.append(seat)
                        conn.execute("UPDATE games SET meta = ? WHERE game_id = ?", (_dumps(meta), game_id))
                        return seat
                return None

            return self._write(conn, tx)

        return await self._run(body)

    async def put_snapshot(self, game_id: str, version: int, state: Any) -> None:
        state_json = _dumps(state)

        def body(conn: sqlite3.Connection) -> None:
            def tx() -> None:
                self._game_version(conn, game_id)
                conn.execute(
                    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state "
                    "WHERE excluded.version > snapshots.version",
                    (game_id, version, state_json),
                )

            self._write(conn, tx)

        await self._run(body)

    # -- reads -----------------------------------------------------------------------

    async def read(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Event]:
        return [e for _, e in await self._read_numbered(game_id, after_version, limit)]

    async def _read_numbered(self, game_id: str, after_version: int, limit: int | None) -> list[tuple[int, Event]]:
        def body(conn: sqlite3.Connection) -> list[tuple[int, str]]:
            # One read transaction, so the existence check and the rows agree.
            conn.execute("BEGIN")
            try:
                self._game_version(conn, game_id)
                return conn.execute(
                    "SELECT version, event FROM events WHERE game_id = ? AND version > ? ORDER BY version LIMIT ?",
                    (game_id, after_version, -1 if limit is None else max(limit, 0)),
                ).fetchall()
            finally:
                conn.execute("COMMIT")

        rows = await self._run(body)
        return [(v, json.loads(t)) for v, t in rows]

    async def version(self, game_id: str) -> int:
        return await self._run(lambda conn: self._game_version(conn, game_id))

    async def get_meta(self, game_id: str) -> dict[str, Any]:
        def body(conn: sqlite3.Connection) -> str:
            row = conn.execute("SELECT meta FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            return row[0]

        return json.loads(await self._run(body))

    async def request_version(self, game_id: str, request_id: str) -> int | None:
        def body(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                "SELECT version FROM requests WHERE game_id = ? AND request_id = ?", (game_id, request_id)
            ).fetchone()
            return None if row is None else row[0]

        return await self._run(body)

    async def get_snapshot(self, game_id: str) -> tuple[int, Any] | None:
        def body(conn: sqlite3.Connection) -> tuple[int, str] | None:
            return conn.execute("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()

        row = await self._run(body)
        return None if row is None else (row[0], json.loads(row[1]))

    # -- watch -----------------------------------------------------------------------

    async def watch(self, game_id: str, after_version: int) -> AsyncIterator[tuple[int, Event]]:
        waiter = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(waiter)
        try:
            self._ensure_poller()
            last = after_version
            while True:
                # Cleared before reading: an append that lands after this read sets it again,
                # so no wake-up is lost between the read and the wait.
                waiter.clear()
                batch = await self._read_numbered(game_id, last, _WATCH_PAGE)
                for version, event in batch:
                    last = version
                    yield version, event
                if len(batch) == _WATCH_PAGE:
                    continue
                await waiter.wait()
                if self._closed:
                    raise StoreError("the SQLite store is closed")
        finally:
            waiters = self._waiters.get(game_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[game_id]

    def _notify(self, game_id: str) -> None:
        for waiter in self._waiters.get(game_id, ()):
            waiter.set()

    def _ensure_poller(self) -> None:
        # A memory database has no other connection that could write to it.
        if self._memory or (self._poller is not None and not self._poller.done()):
            return
        self._poller = asyncio.get_running_loop().create_task(self._poll(), name="tablero-sqlite-poller")

    async def _poll(self) -> None:
        """While anyone watches: wake every watcher when another connection committed.

        `PRAGMA data_version` changes exactly when another connection committed to the
        database file, so one cheap query per interval covers every watched game."""
        seen: int | None = None
        while self._waiters and not self._closed:
            try:
                current = await self._run(lambda conn: conn.execute("PRAGMA data_version").fetchone()[0])
            except StoreError:
                current = None  # wake the watchers: their own read reports the error
            # The first value is a baseline taken after the watchers' first read, so a
            # commit in between would be missed: wake them once for it too.
            if current is None or current != seen:
                for waiters in list(self._waiters.values()):
                    for waiter in waiters:
                        waiter.set()
            seen = current
            await asyncio.sleep(self.poll_interval)

    # -- lifecycle -----------------------------------------------------------------------

    async def ping(self) -> None:
        await self._run(lambda conn: conn.execute("SELECT 1").fetchone())

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for waiters in list(self._waiters.values()):
            for waiter in waiters:
                waiter.set()
        if self._poller is not None:
            self._poller.cancel()
            try:
                await self._poller
            except (asyncio.CancelledError, StoreError):
                pass

        def shut() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await asyncio.get_running_loop().run_in_executor(self._executor, shut)
        self._executor.shutdown(wait=True)
