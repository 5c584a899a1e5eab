"""The one table from error codes to HTTP and gRPC statuses (used by both transports)."""

from __future__ import annotations

import math
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from tablero.server.errors import AppError

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


# The ErrorInfo domain of every reason (google.rpc.ErrorInfo.domain).
DOMAIN = "tablero.v1"

# A code's reason when nothing more precise is known (Starlette's own 404/405, a fault).
DEFAULT_REASON = {"NOT_FOUND": "ROUTE_NOT_FOUND", "UNAUTHENTICATED": "TOKEN_INVALID",
                  "PERMISSION_DENIED": "WRONG_GAME", "FAILED_PRECONDITION": "ILLEGAL_ACTION",
                  "ABORTED": "CONFLICT", "RESOURCE_EXHAUSTED": "BODY_TOO_LARGE",
                  "DEADLINE_EXCEEDED": "REQUEST_TIMEOUT"}


def error_body(code: str, message: str, reason: str | None = None,
               metadata: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """The JSON body of every REST error (and the data of an SSE `tablero-error` message):
    the code, the message for people, and the reason for programs (server.errors.REASONS)."""
    body: dict[str, Any] = {"code": code, "message": message, "reason": reason or DEFAULT_REASON.get(code, code)}
    if metadata:
        body["metadata"] = metadata
    return {"error": body}


def app_error_body(e: AppError) -> dict[str, dict[str, Any]]:
    return error_body(e.code, e.message, e.reason, e.metadata)


def grpc_details(status: grpc.StatusCode, message: str, reason: str,
                 metadata: dict[str, str] | None = None) -> bytes:
    """`grpc-status-details-bin`: a google.rpc.Status holding one google.rpc.ErrorInfo (what
    grpcio-status's `rpc_status.from_call` and every gRPC client's rich-error support read)."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=metadata or {})
    detail = any_pb2.Any()
    detail.Pack(info)
    return status_pb2.Status(code=status.value[0], message=message, details=[detail]).SerializeToString()
