"""Event stores: one EventStore contract, a Redis Streams adapter and an embedded SQLite one.

Example::

    from tablero.server.store import open_store

    store = open_store(redis_url=None, sqlite_path=None)  # SQLite in memory
    await store.create("g1", {"engine": "goofspiel"}, [start_event])
"""

from __future__ import annotations

from typing import Any

from tablero.server.store.base import (
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
    Reset,
    StoreError,
    Trimmed,
)
from tablero.server.store.sqlite import SQLiteStore

__all__ = [
    "AppendResult",
    "Conflict",
    "DuplicateRequest",
    "Entry",
    "Event",
    "EventStore",
    "GameExists",
    "GameNotFound",
    "HistoryRewritten",
    "NotReplicated",
    "RedisStore",
    "Reset",
    "SQLiteStore",
    "StoreError",
    "Trimmed",
    "open_store",
]


_SQLITE_OPTIONS = {"poll_interval", "finished_ttl", "abandoned_ttl", "trim_on_snapshot"}


def open_store(redis_url: str | None, sqlite_path: str | None, **options: Any) -> EventStore:
    """Redis when a URL is given (`redis://`, `rediss://`, `unix://`, `redis+cluster://`
    for Redis Cluster, or `redis+sentinel://` for a Sentinel-managed master), else SQLite in the file `sqlite_path`, else SQLite in memory.

    `options` are the adapter's settings (see RedisStore / SQLiteStore); a None value means
    "the default". Settings only the other adapter knows are ignored, so one configuration
    serves both (e.g. `write_pool_size` on SQLite)."""
    given = {k: v for k, v in options.items() if v is not None}
    if redis_url:
        from tablero.server.store.redis import RedisStore  # imported here: SQLite-only setups never load redis

        return RedisStore(redis_url, **{k: v for k, v in given.items() if k != "poll_interval"})
    sqlite_options = {k: v for k, v in given.items() if k in _SQLITE_OPTIONS}
    if sqlite_path:
        return SQLiteStore(sqlite_path, **sqlite_options)
    return SQLiteStore(**sqlite_options)


def __getattr__(name: str) -> object:
    # RedisStore is loaded on first use, so importing server.store does not import redis.
    if name == "RedisStore":
        from tablero.server.store.redis import RedisStore

        return RedisStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
