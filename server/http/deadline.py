"""The unary calls' deadline (TABLERO_REQUEST_DEADLINE), on every transport: a call not answered
within it is answered UNAVAILABLE, reason SERVER_DEADLINE (REST: 503; Connect: `unavailable`,
503, the reason in a google.rpc.ErrorInfo detail; gRPC: UNAVAILABLE with the ErrorInfo in
`grpc-status-details-bin`), instead of waiting out its store calls' own timeouts one after the
other (a frozen Redis: 10 s each, 20 s for a GetGame, more for a move). A client's shorter
deadline still ends the call first, as that client's (Connect's `Connect-Timeout-Ms`, gRPC's
deadline: DEADLINE_EXCEEDED); streams (the watches) are not bounded.

It ends the call as a Connect call's `Connect-Timeout-Ms` ends it (`connectrpc`: an
`asyncio.timeout` around the handler) and as the shutdown grace does: the request's task is
cancelled, and `server.http.app.answer_unary`, which already turns a cancelled call into an
answer, answers this one. Whether a write the call was making reached the store is then
unknown, as for any UNAVAILABLE: a retry with the same requestId is applied at most once (a
move, a create and a join all take one) and gets the first attempt's answer.

No task or timer per request (the request path is measured in microseconds: docs/design.md):
the calls in flight are kept in arrival order with their due times, and one watchdog timer —
armed when the first call arrives, then re-armed for the oldest call in flight, as the lean
Redis client's reply watchdog (`server/store/lean.py`) — cancels those past due. A call costs a
dict insert and a delete.
"""

from __future__ import annotations

import asyncio
import time

from tablero.server.errors import Unavailable

# The message of the task's cancellation: ours, not the shutdown's or a client's.
CANCEL_MESSAGE = "tablero: the request's deadline passed"


def passed(seconds: float) -> Unavailable:
    """The refusal of a call this deadline ended, the same on every transport."""
    return Unavailable(f"the server did not finish this call within its deadline ({seconds:g} s, "
                       "TABLERO_REQUEST_DEADLINE): a store behind it is slow or unreachable. Retry; whether a write "
                       "was made is unknown, and one retried with the same requestId is applied at most once",
                       "SERVER_DEADLINE")


class RequestDeadlines:
    """The unary calls in flight on one port of one server (one event loop: the HTTP port's
    REST and Connect calls, or the gRPC port's) and their deadline."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._due: dict[asyncio.Task, float] = {}  # in arrival order: the oldest first
        self._expired: set[asyncio.Task] = set()
        self._watchdog: asyncio.TimerHandle | None = None

    def enter(self, task: asyncio.Task) -> None:
        """`task` answers a call from now on; it is cancelled if still in flight `seconds` later."""
        self._due[task] = time.monotonic() + self.seconds
        if self._watchdog is None:
            self._watchdog = task.get_loop().call_later(self.seconds, self._check)

    def leave(self, task: asyncio.Task) -> None:
        self._due.pop(task, None)
        if self._expired:
            self._expired.discard(task)

    def expired(self, task: asyncio.Task) -> bool:
        """Whether this deadline cancelled `task` (not the shutdown, nor anything else)."""
        return task in self._expired

    def _check(self) -> None:
        self._watchdog = None
        now = time.monotonic()
        due = self._due
        while due:
            task = next(iter(due))
            left = due[task] - now
            if left > 0:
                self._watchdog = task.get_loop().call_later(left, self._check)
                return
            del due[task]
            if not task.done():
                self._expired.add(task)
                task.cancel(CANCEL_MESSAGE)

    def refusal(self, task: asyncio.Task | None) -> Unavailable | None:
        """After a CancelledError in `task`: when this deadline cancelled it, the cancellation is
        withdrawn and the refusal to answer returned (`passed`); else None (a client's deadline,
        a client that left, the shutdown: the cancellation goes on)."""
        if task is None or task not in self._expired:
            return None
        task.uncancel()
        return passed(self.seconds)
