"""One lifecycle for the process: readiness (the store answers) and shutdown, shared by
/readyz, the gRPC health service, and every open watch stream of either transport."""

from __future__ import annotations

import asyncio

from tablero.server.store.base import EventStore

READINESS_TIMEOUT = 2.0


class Lifecycle:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.shutting_down = asyncio.Event()

    async def not_ready(self) -> str | None:
        """Why the server should get no traffic now, or None when it is ready."""
        if self.shutting_down.is_set():
            return "shutting down"
        try:
            await asyncio.wait_for(self.store.ping(), READINESS_TIMEOUT)
        except Exception as e:  # any failure means not ready
            return f"store unreachable: {e}"
        return None

    def shut_down(self) -> None:
        """Readiness fails from now on, and open watches get their `shutdown` message."""
        self.shutting_down.set()
