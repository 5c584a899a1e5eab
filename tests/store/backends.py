"""The store backends the store tests run on, and how to open several instances on one."""

from __future__ import annotations

from tablero.server.store import EventStore, SQLiteStore


class Backend:
    """Opens store instances that share one backend (one SQLite file, one Redis DB)."""

    def __init__(self, kind: str, target: str) -> None:
        self.kind, self.target = kind, target
        self.stores: list[EventStore] = []

    @property
    def shared(self) -> bool:
        return self.kind != "sqlite-memory"

    def open(self) -> EventStore:
        if self.kind.startswith("redis"):
            from tablero.server.store.redis import RedisStore

            store: EventStore = RedisStore(self.target, block_ms=1000)
        else:
            store = SQLiteStore(self.target, poll_interval=0.05)
        self.stores.append(store)
        return store

    def open_store_args(self) -> tuple[str | None, str | None]:
        return (self.target, None) if self.kind.startswith("redis") else (None, self.target)

    async def watchers_left(self, store: EventStore) -> int:
        """How many watch() iterations still hold resources in `store` (or on the server)."""
        if self.kind.startswith("redis"):
            # Feeds of this store, and channels its notification subscribers still follow (on
            # the server: a plain server is asked; cluster nodes answer through the store's view).
            hub = store._hub  # type: ignore[attr-defined]
            left = len(hub.feeds) + sum(len(s.channels) + len(s.pending) for s in hub.subscribers.values())
            if self.kind == "redis":
                channels = await store._client.execute_command("PUBSUB", "SHARDCHANNELS")  # type: ignore[attr-defined]
                left += len(channels)
            return left
        return sum(len(f.watchers) for f in store._feeds.values())  # type: ignore[attr-defined]

    async def close(self) -> None:
        for store in self.stores:
            await store.close()
