"""The embedded event store: SQLite, in a file or in memory (the default store).

    store = SQLiteStore("tablero.db")          # or SQLiteStore() for memory
    await store.create("g1", {"engine": "goofspiel"}, [start_event])
    await store.append("g1", 1, [event], request_id="r1")   # -> 2

All SQLite work runs on one dedicated worker thread that owns the connection,
so the event loop never blocks on disk and the connection is never shared
between threads. `create`/`append`/`claim_seat` are single `BEGIN IMMEDIATE`
transactions: the version and request-id checks happen inside the write lock,
so several stores (threads, processes, replicas on one host) may share a file. Their
writers take turns by an flock on "<file>-writer.lock" first (see _write).

`watch` is woken at once by appends made through this store; appends made
through another connection (another process, or another `SQLiteStore` on the
same file) are noticed by one poller per store that reads
`PRAGMA data_version` every `poll_interval` seconds, however many watchers
there are.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import fcntl
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from tablero.server import gil
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
    StoreError,
    Trimmed,
    chain,
    compact_json,
    thinned,
)
from tablero.server.store.ids import check_game_id

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
CREATE TABLE IF NOT EXISTS snapshot_history (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    platform TEXT,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
"""


# Columns added after the first release; opened files are upgraded in place (old rows: hash "").
_UPGRADES = (
    ("events", "hash", "ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''"),
    ("games", "expires_at", "ALTER TABLE games ADD COLUMN expires_at REAL"),
    ("games", "first_kept", "ALTER TABLE games ADD COLUMN first_kept INTEGER NOT NULL DEFAULT 1"),
    ("requests", "fingerprint", "ALTER TABLE requests ADD COLUMN fingerprint TEXT NOT NULL DEFAULT ''"),
)


_dumps = compact_json  # (store/base.py)


class SQLiteStore(EventStore):
    """EventStore on SQLite. `path=":memory:"` keeps everything in this process."""

    def __init__(
        self,
        path: str = ":memory:",
        *,
        poll_interval: float = 0.05,
        finished_ttl: float | None = None,
        abandoned_ttl: float | None = None,
        trim_on_snapshot: bool = False,
        snapshot_history: int = SNAPSHOT_HISTORY,
    ) -> None:
        self.path = path
        self.snapshot_history = snapshot_history
        self.poll_interval = poll_interval
        self.finished_ttl, self.abandoned_ttl = finished_ttl, abandoned_ttl
        self.trim_on_snapshot = trim_on_snapshot
        self._memory = path == ":memory:" or path.startswith("file::memory:")
        # A file's calls run on a worker thread: they may wait for another process's lock or
        # for the disk. An in-memory database's calls take microseconds and wait for nothing:
        # they run on the event loop itself. (On the thread, each of a write's statements
        # had to win the GIL back from a busy loop, up to 5 ms each: 40 ms per move under load.)
        self._inline = self._memory
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="tablero-sqlite")
        self._conn: sqlite3.Connection | None = None  # created and used on the worker thread only (or inline)
        # A file's writers (this store's thread and other processes': `--workers N`) take turns
        # by an flock on "<file>-writer.lock" before BEGIN IMMEDIATE: a waiter is woken the
        # moment the lock is let go, where SQLite's own busy handler sleeps 1, 2, 5 ... 100 ms
        # between tries (a 100 ms tail with two workers). The busy timeout stays for writers
        # that do not take it (other tools). Not for a "file:" URI (no plain path to lock beside).
        self._lock_path = None if self._memory or path.startswith("file:") else path + "-writer.lock"
        self._lock_fd: int | None = None
        self._closed = False
        # game_id -> the asyncio.Events of the watchers of that game in this store
        self._feeds: dict[str, push.Feed] = {}  # game_id -> the watchers of that game in this store
        self._tasks: set[asyncio.Task[None]] = set()
        self._poller: asyncio.Task[None] | None = None
        self.poll_rounds = 0  # rounds of the poller so far (its first one wakes every watched game)

    # -- the worker thread ---------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves.
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=not self._inline, uri=self.path.startswith("file:")
            )
            conn.execute("PRAGMA busy_timeout = 5000")
            if self._lock_path is not None and self._lock_fd is None:
                self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            if not self._memory:
                conn.execute("PRAGMA journal_mode = WAL")
                # WAL + NORMAL: a commit survives a crash of the process; only a power loss
                # may lose the last transactions (the usual choice for WAL databases).
                conn.execute("PRAGMA synchronous = NORMAL")
            conn.executescript(_SCHEMA)
            for table, column, ddl in _UPGRADES:
                columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                if column not in columns:
                    try:
                        conn.execute(ddl)
                    except sqlite3.OperationalError:  # another process upgraded it just now
                        pass
            self._conn = conn
        return self._conn

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the worker thread; sqlite errors become StoreError."""
        if self._closed:
            raise StoreError("the SQLite store is closed")

        def call() -> T:
            return fn(self._connect())

        try:
            if self._inline:  # whole transactions: nothing inside fn awaits, so none interleave
                return call()
            # While a call is on the thread, the loop hands the GIL over sooner: each statement
            # of the call must win it back to go on (server/gil.py).
            with gil.handing_over():
                return await asyncio.get_running_loop().run_in_executor(self._executor, call)
        except sqlite3.Error as e:
            raise StoreError(f"sqlite: {e}") from e
        except RuntimeError as e:  # executor shut down by a concurrent close()
            if self._closed:
                raise StoreError("the SQLite store is closed") from e
            raise

    def _write(self, conn: sqlite3.Connection, body: Callable[[], T]) -> T:
        """Run `body` in one BEGIN IMMEDIATE transaction (takes the write lock first: for a
        file, the writers' flock, then SQLite's own)."""
        fd = self._lock_fd
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = body()
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)

    @staticmethod
    def _game_row(conn: sqlite3.Connection, game_id: str) -> tuple[int, int]:
        """(version, first kept version) of a live game; GameNotFound for an unknown or expired one."""
        row = conn.execute(
            "SELECT version, first_kept, expires_at FROM games WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is None or (row[2] is not None and row[2] <= time.time()):
            raise GameNotFound(game_id)
        return row[0], row[1]

    @classmethod
    def _game_version(cls, conn: sqlite3.Connection, game_id: str) -> int:
        return cls._game_row(conn, game_id)[0]

    @staticmethod
    def _hash_at(conn: sqlite3.Connection, game_id: str, version: int) -> str | None:
        if version <= 0:
            return ""
        row = conn.execute("SELECT hash FROM events WHERE game_id = ? AND version = ?", (game_id, version)).fetchone()
        return None if row is None else row[0]

    @staticmethod
    def _delete(conn: sqlite3.Connection, game_id: str) -> None:
        for table in ("games", "events", "requests", "snapshots", "snapshot_history"):
            conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))

    def _touch(self, conn: sqlite3.Connection, game_id: str) -> None:
        """Abandoned-game TTL: every write pushes the expiry out again."""
        if self.abandoned_ttl:
            conn.execute(
                "UPDATE games SET expires_at = ? WHERE game_id = ?", (time.time() + self.abandoned_ttl, game_id)
            )

    # -- writes ----------------------------------------------------------------------

    async def create(self, game_id: str, meta: dict[str, Any], events: list[Event]) -> int:
        check_game_id(game_id)
        meta_json = _dumps(meta)
        rows, h = [], ""
        for n, e in enumerate(events, start=1):
            text = _dumps(e)
            h = chain(h, text)
            rows.append((game_id, n, text, h))

        def body(conn: sqlite3.Connection) -> int:
            def tx() -> int:
                row = conn.execute("SELECT expires_at FROM games WHERE game_id = ?", (game_id,)).fetchone()
                if row is not None:
                    if row[0] is None or row[0] > time.time():
                        raise GameExists(game_id)
                    self._delete(conn, game_id)  # an expired game's id may be used again
                conn.execute(
                    "INSERT INTO games (game_id, version, meta) VALUES (?, ?, ?)", (game_id, len(rows), meta_json)
                )
                conn.executemany("INSERT INTO events (game_id, version, event, hash) VALUES (?, ?, ?, ?)", rows)
                self._touch(conn, game_id)
                return len(rows)

            return self._write(conn, tx)

        version = await self._run(body)
        self._notify(game_id)
        return version

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
        texts = [_dumps(e) for e in events]

        def body(conn: sqlite3.Connection) -> AppendResult:
            def tx() -> AppendResult:
                current = self._game_version(conn, game_id)
                # The request id is checked before the version: a retried request whose
                # first attempt succeeded must learn that, not get a Conflict.
                if request_id is not None:
                    row = conn.execute(
                        "SELECT version, fingerprint FROM requests WHERE game_id = ? AND request_id = ?",
                        (game_id, request_id),
                    ).fetchone()
                    if row is not None:
                        raise DuplicateRequest(game_id, request_id, row[0], row[1])
                head_hash = self._hash_at(conn, game_id, current) or ""
                if expected_hash is not None:
                    at = self._hash_at(conn, game_id, expected_version) if expected_version <= current else None
                    if expected_version > current or (at and at != expected_hash):
                        raise HistoryRewritten(game_id, expected_version, current, head_hash)
                if current != expected_version:
                    conflict = Conflict(game_id, expected_version, current)
                    conflict.head_hash = head_hash
                    if expected_version < current <= expected_version + tail_limit:
                        rows = conn.execute(
                            "SELECT version, hash, event FROM events WHERE game_id = ? AND version > ? "
                            "ORDER BY version",
                            (game_id, expected_version),
                        ).fetchall()
                        if len(rows) == current - expected_version:
                            conflict.tail = [Entry(v, h, json.loads(e)) for v, h, e in rows]
                    raise conflict
                h, rows = head_hash, []
                for i, text in enumerate(texts, start=1):
                    h = chain(h, text)
                    rows.append((game_id, current + i, text, h))
                new_version = current + len(texts)
                conn.executemany("INSERT INTO events (game_id, version, event, hash) VALUES (?, ?, ?, ?)", rows)
                conn.execute("UPDATE games SET version = ? WHERE game_id = ?", (new_version, game_id))
                if request_id is not None:
                    conn.execute(
                        "INSERT INTO requests (game_id, request_id, version, fingerprint) VALUES (?, ?, ?, ?)",
                        (game_id, request_id, new_version, fingerprint),
                    )
                self._touch(conn, game_id)
                return AppendResult(new_version, h)

            return self._write(conn, tx)

        result = await self._run(body)
        if texts:
            # This process's watchers get the entries as written (no read), in the loop turn
            # after the writer's; a feed they do not follow reads them instead.
            if not push.hand_over(self._feeds.get(game_id), result.version, result.hash, texts):
                self._notify(game_id)
        return result

    async def claim_seat(self, game_id: str, seats: list[int], claim: str | None = None) -> int | None:
        def body(conn: sqlite3.Connection) -> int | None:
            def tx() -> int | None:
                self._game_version(conn, game_id)
                row = conn.execute("SELECT meta FROM games WHERE game_id = ?", (game_id,)).fetchone()
                meta = json.loads(row[0])
                claimed = meta.setdefault("claimed", [])
                for held, held_by in (meta.get("claims") or {}).items():
                    if claim and held_by == claim:  # a retried join (its claim id comes from its requestId)
                        return int(held)
                for seat in seats:
                    if seat not in claimed:
                        claimed.append(seat)
                        if claim:
                            meta.setdefault("claims", {})[str(seat)] = claim
                        conn.execute("UPDATE games SET meta = ? WHERE game_id = ?", (_dumps(meta), game_id))
                        self._touch(conn, game_id)
                        return seat
                return None

            return self._write(conn, tx)

        return await self._run(body)

    async def put_snapshot(self, game_id: str, version: int, state: Any,
                           platform: list[Event] | None = None) -> None:
        state_json = _dumps(state)
        platform_json = None if platform is None else _dumps(platform)

        def body(conn: sqlite3.Connection) -> None:
            def tx() -> None:
                self._game_version(conn, game_id)
                newer = conn.execute(
                    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state "
                    "WHERE excluded.version > snapshots.version",
                    (game_id, version, state_json),
                ).rowcount > 0
                if newer:
                    conn.execute("INSERT OR REPLACE INTO snapshot_history (game_id, version, state, platform) "
                                 "VALUES (?, ?, ?, ?)", (game_id, version, state_json, platform_json))
                    kept = [v for (v,) in conn.execute(
                        "SELECT version FROM snapshot_history WHERE game_id = ?", (game_id,))]
                    for v in thinned(kept, self.snapshot_history):
                        conn.execute("DELETE FROM snapshot_history WHERE game_id = ? AND version = ?", (game_id, v))
                if self.trim_on_snapshot:
                    self._trim(conn, game_id)

            self._write(conn, tx)

        await self._run(body)

    # -- reads -----------------------------------------------------------------------

    async def read(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Event]:
        return [json.loads(t) for _, _, t in await self._rows(game_id, after_version, limit)]

    async def read_entries(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Entry]:
        return [Entry(v, h, json.loads(t)) for v, h, t in await self._rows(game_id, after_version, limit)]

    async def _rows(self, game_id: str, after_version: int, limit: int | None) -> list[tuple[int, str, str]]:
        """(version, hash, event JSON) after `after_version`; Trimmed when they are not all kept."""

        def body(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
            # One read transaction, so the existence check and the rows agree.
            conn.execute("BEGIN")
            try:
                current, first_kept = self._game_row(conn, game_id)
                if limit is not None and limit <= 0:
                    return []
                if after_version + 1 < first_kept and after_version < current:
                    raise Trimmed(game_id, first_kept)
                return conn.execute(
                    "SELECT version, hash, event FROM events WHERE game_id = ? AND version > ? "
                    "ORDER BY version LIMIT ?",
                    (game_id, after_version, -1 if limit is None else limit),
                ).fetchall()
            finally:
                conn.execute("COMMIT")

        return await self._run(body)

    async def head(self, game_id: str) -> AppendResult:
        def body(conn: sqlite3.Connection) -> AppendResult:
            version = self._game_version(conn, game_id)
            return AppendResult(version, self._hash_at(conn, game_id, version) or "")

        return await self._run(body)

    # -- retention -------------------------------------------------------------------

    def _trim(self, conn: sqlite3.Connection, game_id: str) -> int:
        current, first_kept = self._game_row(conn, game_id)
        row = conn.execute("SELECT version FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
        upto = min(row[0], current) if row else 0
        if upto > first_kept:
            conn.execute("DELETE FROM events WHERE game_id = ? AND version < ?", (game_id, upto))
            conn.execute("UPDATE games SET first_kept = ? WHERE game_id = ?", (upto, game_id))
            return upto
        return first_kept

    async def trim(self, game_id: str) -> int:
        return await self._run(lambda conn: self._write(conn, lambda: self._trim(conn, game_id)))

    async def finish(self, game_id: str, ttl: float | None = None) -> bool:
        ttl = self.finished_ttl if ttl is None else ttl

        def body(conn: sqlite3.Connection) -> bool:
            def tx() -> bool:
                self._game_version(conn, game_id)
                if not ttl:
                    return False
                conn.execute("UPDATE games SET expires_at = ? WHERE game_id = ?", (time.time() + ttl, game_id))
                return True

            return self._write(conn, tx)

        return await self._run(body)

    async def delete_game(self, game_id: str, if_version: int | None = None) -> bool:
        def body(conn: sqlite3.Connection) -> bool:
            def tx() -> bool:
                row = conn.execute("SELECT version FROM games WHERE game_id = ?", (game_id,)).fetchone()
                if row is None:
                    return False
                if if_version is not None and row[0] != if_version:
                    raise Conflict(game_id, if_version, row[0])
                self._delete(conn, game_id)
                return True

            return self._write(conn, tx)

        return await self._run(body)

    async def purge_expired(self, limit: int = 1000) -> int:
        """Delete up to `limit` games whose TTL has passed (they already read as unknown);
        returns how many. Call it now and then (the app's housekeeping, or an operator)."""

        def body(conn: sqlite3.Connection) -> int:
            def tx() -> int:
                ids = [
                    r[0]
                    for r in conn.execute(
                        "SELECT game_id FROM games WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?",
                        (time.time(), limit),
                    )
                ]
                for game_id in ids:
                    self._delete(conn, game_id)
                return len(ids)

            return self._write(conn, tx)

        return await self._run(body)

    async def export_game(self, game_id: str) -> dict[str, Any]:
        def body(conn: sqlite3.Connection) -> dict[str, Any]:
            conn.execute("BEGIN")
            try:
                current, first_kept = self._game_row(conn, game_id)
                meta = json.loads(conn.execute("SELECT meta FROM games WHERE game_id = ?", (game_id,)).fetchone()[0])
                rows = conn.execute(
                    "SELECT version, hash, event FROM events WHERE game_id = ? ORDER BY version", (game_id,)
                ).fetchall()
                requests = dict(
                    conn.execute("SELECT request_id, version FROM requests WHERE game_id = ?", (game_id,)).fetchall()
                )
                snap = conn.execute("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
            finally:
                conn.execute("COMMIT")
            return {
                "game_id": game_id,
                "meta": meta,
                "version": current,
                "first_kept": first_kept,
                "events": [json.loads(e) for _, _, e in rows],
                "hashes": [h for _, h, _ in rows],
                "requests": requests,
                "snapshot": None if snap is None else {"version": snap[0], "state": json.loads(snap[1])},
            }

        return await self._run(body)

    async def version(self, game_id: str) -> int:
        return await self._run(lambda conn: self._game_version(conn, game_id))

    async def get_meta(self, game_id: str, *, cached: bool = False) -> dict[str, Any]:
        # `cached` is accepted for the contract; a local SQLite read is already cheap.
        def body(conn: sqlite3.Connection) -> str:
            self._game_version(conn, game_id)
            return conn.execute("SELECT meta FROM games WHERE game_id = ?", (game_id,)).fetchone()[0]

        return json.loads(await self._run(body))

    async def request_version(self, game_id: str, request_id: str) -> int | None:
        def body(conn: sqlite3.Connection) -> int | None:
            try:
                self._game_version(conn, game_id)
            except GameNotFound:
                return None
            row = conn.execute(
                "SELECT version FROM requests WHERE game_id = ? AND request_id = ?", (game_id, request_id)
            ).fetchone()
            return None if row is None else row[0]

        return await self._run(body)

    async def request_fingerprint(self, game_id: str, request_id: str) -> str:
        def body(conn: sqlite3.Connection) -> str:
            row = conn.execute(
                "SELECT fingerprint FROM requests WHERE game_id = ? AND request_id = ?", (game_id, request_id)
            ).fetchone()
            return "" if row is None else row[0]

        return await self._run(body)

    async def get_snapshot(self, game_id: str) -> tuple[int, Any] | None:
        def body(conn: sqlite3.Connection) -> tuple[int, str] | None:
            try:
                self._game_version(conn, game_id)
            except GameNotFound:
                return None
            return conn.execute("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()

        row = await self._run(body)
        return None if row is None else (row[0], json.loads(row[1]))

    async def snapshot_at(self, game_id: str, at_most: int) -> Snapshot | None:
        def body(conn: sqlite3.Connection) -> tuple[int, str, str | None] | None:
            try:
                self._game_version(conn, game_id)
            except GameNotFound:
                return None
            row = conn.execute("SELECT version, state, platform FROM snapshot_history WHERE game_id = ? "
                               "AND version <= ? ORDER BY version DESC LIMIT 1", (game_id, at_most)).fetchone()
            if row is None:  # written before the history was kept
                row = conn.execute("SELECT version, state, NULL FROM snapshots WHERE game_id = ? AND version <= ?",
                                   (game_id, at_most)).fetchone()
            return row

        row = await self._run(body)
        if row is None:
            return None
        return Snapshot(row[0], json.loads(row[1]), None if row[2] is None else json.loads(row[2]))

    # -- watch -----------------------------------------------------------------------

    async def watch(
        self, game_id: str, after_version: int, *, after_hash: str | None = None, resets: bool = False
    ) -> AsyncIterator[Any]:
        start = await self.head(game_id)  # GameNotFound for an unknown game, before any waiting
        watcher = push.Watcher()
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = push.Feed(game_id, start.version, start.hash)
        elif start.version > feed.last:
            self._fetch(feed)
        feed.watchers.add(watcher)
        try:
            self._ensure_poller()
            async for item in push.watch_loop(
                game_id, after_version, after_hash, resets, feed, watcher,
                lambda first, limit: self._rows(game_id, max(first - 1, 0), limit),
            ):
                if self._closed:
                    raise StoreError("the SQLite store is closed")
                yield item
        finally:
            feed.watchers.discard(watcher)
            if not feed.watchers and self._feeds.get(game_id) is feed:
                del self._feeds[game_id]

    def _notify(self, game_id: str) -> None:
        feed = self._feeds.get(game_id)
        if feed is not None:
            self._fetch(feed)

    def _fetch(self, feed: push.Feed) -> None:
        """One read per change of a watched game, whatever the number of its watchers."""
        if feed.fetching:
            feed.again = True
            return
        feed.fetching = True
        task = asyncio.get_running_loop().create_task(self._run_fetch(feed))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_fetch(self, feed: push.Feed) -> None:
        try:
            while feed.watchers and self._feeds.get(feed.game_id) is feed:
                feed.again = False
                try:
                    page = await self._rows(feed.game_id, max(feed.last - 1, 0), push.PAGE + 1)
                except StoreError as e:
                    for watcher in list(feed.watchers):
                        watcher.fail(e)
                    return
                if feed.rewritten_at(page):
                    valid = await push.divergence(
                        feed.ring, feed.last, lambda first, limit: self._rows(feed.game_id, max(first - 1, 0), limit)
                    )
                    head = await self.head(feed.game_id)
                    feed.restart(valid, head.version, head.hash)
                    continue
                if feed.last > 0:
                    page = page[1:]
                feed.deliver(page)
                if not feed.again and len(page) < push.PAGE:
                    return
        except StoreError:
            return
        finally:
            feed.fetching = False

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
        while self._feeds and not self._closed:
            try:
                current = await self._run(lambda conn: conn.execute("PRAGMA data_version").fetchone()[0])
            except StoreError:
                current = None  # wake the watchers: their own read reports the error
            # The first value is a baseline taken after the watchers' first read, so a
            # commit in between would be missed: wake them once for it too.
            if current is None or current != seen:
                for feed in list(self._feeds.values()):
                    self._fetch(feed)
            seen = current
            self.poll_rounds += 1
            await asyncio.sleep(self.poll_interval)

    # -- lifecycle -----------------------------------------------------------------------

    async def ping(self) -> None:
        await self._run(lambda conn: conn.execute("SELECT 1").fetchone())

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for feed in list(self._feeds.values()):
            for watcher in list(feed.watchers):
                watcher.fail(StoreError("the SQLite store is closed"))
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
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None

        if self._inline:
            shut()
        else:
            await asyncio.get_running_loop().run_in_executor(self._executor, shut)
        self._executor.shutdown(wait=True)
