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
        except TimeoutError:  # (its text is empty)
            return f"store unreachable: no answer within {READINESS_TIMEOUT:g} s"
        except Exception as e:  # any failure means not ready
            return f"store unreachable: {_describe(e)}"
        return None

    def shut_down(self) -> None:
        """Readiness fails from now on, and open watches get their `shutdown` message."""
        self.shutting_down.set()


def _describe(e: BaseException) -> str:
    """An error in words for an operator: its text, else the first text of its causes, else
    its class (a connection reset or a timeout often has no text at all)."""
    cause: BaseException | None = e
    seen: set[int] = set()
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if str(cause).strip():
            return str(cause) if cause is e else f"{type(e).__name__} ({cause})"
        cause = cause.__cause__ or cause.__context__
    return type(e).__name__
