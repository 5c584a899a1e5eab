"""Auth and observation, once for both transports: who calls (the seat a bearer token
opens) and what happened (one log line and the RPC metrics per call).

A Starlette middleware (server.http.app) and a grpc.aio interceptor
(server.grpc.service) open a `Call` around each request; the shared dispatch
(server.api.edge) fills in the RPC, game, seat and request id.
"""

from __future__ import annotations

import contextvars
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from tablero.server import logs, metrics
from tablero.server.auth import TokenSigner, bearer
from tablero.server.errors import Unauthenticated

log = logging.getLogger("tablero.api")


@dataclass
class Call:
    transport: str  # "http" or "grpc"
    authorization: str | None = None  # the Authorization header / metadata, as sent
    token: str | None = None  # a token given otherwise (REST query access_token, for EventSource)
    rpc: str | None = None
    peer: str | None = None  # the client's address (rate limits for anonymous callers)
    user: Any = None  # the portal user (server.portal.User) a JWT named, once verified
    code: str = "OK"
    failed: str | None = None  # the code of the error a stream ended with after its 200 (SSE)
    fields: dict[str, Any] = field(default_factory=dict)  # game_id, seat, request_id, ...
    claim: str | None = None  # the claim id a joined seat's token names (checked by the edge)
    started: float = field(default_factory=time.perf_counter)
    finished: bool = False  # recorded (finish() records a call once)

    def seat(self, signer: TokenSigner, game_id: str, *, required: bool) -> int | None:
        """The seat the caller's token opens in `game_id` (None: a spectator)."""
        self.fields["game_id"] = game_id
        token = bearer(self.authorization) or self.token or None
        seat = None
        if token is not None:
            seat, self.claim = signer.verify_claim(token, game_id)
        if seat is None and required:
            where = "metadata authorization" if self.transport == "grpc" else "Authorization"
            raise Unauthenticated(f"this call needs a seat token: {where}: Bearer <token>", "TOKEN_MISSING")
        self.fields["seat"] = seat
        return seat

    def finish(self, **extra: Any) -> None:
        """Record the call: the RPC counters and latency, and one structured log line (once)."""
        if self.finished:
            return
        self.finished = True
        dt = time.perf_counter() - self.started
        if self.rpc:
            metrics.child(metrics.RPC_REQUESTS, self.transport, self.rpc, self.code).inc()
            metrics.child(metrics.RPC_LATENCY, self.transport, self.rpc).observe(dt)
        # A failure of the server's (5xx) at warning: `--log-level warning` keeps it (server.logs).
        level = logs.request_level(self.code, extra.get("status"))
        if log.isEnabledFor(level):
            # The record made and handed to the handlers directly: Logger.info would first walk
            # the stack for the caller's file and line, which no line shows (a few µs a call).
            log.handle(log.makeRecord(log.name, level, __file__, 0, "request", (), None, extra={
                "batched": True,
                "fields": {"transport": self.transport, **extra, "rpc": self.rpc, "code": self.code, **self.fields,
                           "duration_ms": round(dt * 1000, 2)}}))


def traced(value: str | None) -> dict[str, Any]:
    """The log fields of a client's X-Request-Id header (gRPC metadata `x-request-id`): logged as
    `x_request_id`, at most 128 characters, control characters dropped, so an operator can find a
    client's call by the id it sent."""
    if not value:
        return {}
    clean = "".join(ch for ch in value[:128] if ch.isprintable())
    return {"x_request_id": clean} if clean else {}


_current: contextvars.ContextVar[Call | None] = contextvars.ContextVar("tablero_call", default=None)


def begin(call: Call) -> contextvars.Token:
    return _current.set(call)


def end(token: contextvars.Token) -> None:
    _current.reset(token)


def current() -> Call:
    call = _current.get()
    if call is None:  # called outside a transport (tests, tools): observe nothing
        call = Call("internal")
        _current.set(call)
    return call
