"""The one table from error codes to HTTP and gRPC statuses (used by both transports)."""

from __future__ import annotations

import math

import grpc

from server.errors import AppError

# code -> (HTTP status, gRPC status). METHOD_NOT_ALLOWED is HTTP-only (a known path, another verb).
STATUS: dict[str, tuple[int, grpc.StatusCode]] = {
    "INVALID_ARGUMENT": (400, grpc.StatusCode.INVALID_ARGUMENT),
    "UNAUTHENTICATED": (401, grpc.StatusCode.UNAUTHENTICATED),
    "PERMISSION_DENIED": (403, grpc.StatusCode.PERMISSION_DENIED),
    "NOT_FOUND": (404, grpc.StatusCode.NOT_FOUND),
    "METHOD_NOT_ALLOWED": (405, grpc.StatusCode.UNIMPLEMENTED),
    "DEADLINE_EXCEEDED": (408, grpc.StatusCode.DEADLINE_EXCEEDED),  # REST: a request body too slow
    "FAILED_PRECONDITION": (409, grpc.StatusCode.FAILED_PRECONDITION),
    "ABORTED": (409, grpc.StatusCode.ABORTED),
    "RESOURCE_EXHAUSTED": (413, grpc.StatusCode.RESOURCE_EXHAUSTED),
    "INTERNAL": (500, grpc.StatusCode.INTERNAL),
    "UNAVAILABLE": (503, grpc.StatusCode.UNAVAILABLE),
}

# Statuses Starlette raises itself (unknown route, wrong verb, ...), back to a code.
CODE_OF_HTTP = {http: code for code, (http, _) in reversed(STATUS.items())} | {415: "INVALID_ARGUMENT"}


def http_status(error: AppError) -> int:
    """The code's status; an error may name its own (rate limits: 429, not 413)."""
    return getattr(error, "http", None) or STATUS.get(error.code, (500, None))[0]


def retry_after(error: AppError) -> str | None:
    """Whole seconds to wait (Retry-After), for a rate-limited call."""
    wait = getattr(error, "retry_after", None)
    return None if wait is None else str(max(1, math.ceil(wait)))


def grpc_status(error: AppError) -> grpc.StatusCode:
    return STATUS.get(error.code, (0, grpc.StatusCode.UNKNOWN))[1]


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    """The JSON body of every REST error (and the data of an SSE `error` message)."""
    return {"error": {"code": code, "message": message}}
