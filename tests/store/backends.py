"""The store backends the store tests run on, and how to open several instances on one."""

from __future__ import annotations

from server.store import EventStore, SQLiteStore


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
            from server.store.redis import RedisStore

            store: EventStore = RedisStore(self.target, block_ms=1000)
        else:
            store = SQLiteStore(self.target, poll_interval=0.05)
        self.stores.append(store)
        return store

    def open_store_args(self) -> tuple[str | None, str | None]:
        return (self.target, None) if self.kind.startswith("redis") else (None, self.target)

    async def watchers_left(self, store: EventStore) -> int:
        """How many watch() iterations still hold resources in `store` (or on the server)."""
        if self.kind == "redis":
            info = await store._client.info("clients")  # type: ignore[attr-defined]
            return int(info["blocked_clients"]) + len(store._feeds)  # type: ignore[attr-defined]
        if self.kind == "redis-cluster":
            from redis.asyncio.cluster import RedisCluster

            nodes = await store._client.info("clients", target_nodes=RedisCluster.ALL_NODES)  # type: ignore[attr-defined]
            return sum(int(info["blocked_clients"]) for info in nodes.values()) + len(store._feeds)  # type: ignore[attr-defined]
        return sum(len(w) for w in store._waiters.values())  # type: ignore[attr-defined]

    async def close(self) -> None:
        for store in self.stores:
            await store.close()
