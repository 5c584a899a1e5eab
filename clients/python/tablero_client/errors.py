"""Exceptions that mirror the API's error codes (the gRPC status names).

Every error the server answers is raised as the subclass of `TableroError` named after its
code; transport failures (connection refused, reset, server shutting down) are `Unavailable`.
"""

from __future__ import annotations


class TableroError(Exception):
    """An error answered by the API (or a transport failure, as UNAVAILABLE)."""

    code: str = "UNKNOWN"

    def __init__(self, message: str, *, http_status: int | None = None) -> None:
        super().__init__(f"{self.code}: {message}")
        self.message = message
        self.http_status = http_status


class InvalidArgument(TableroError):
    code = "INVALID_ARGUMENT"


class Unauthenticated(TableroError):
    code = "UNAUTHENTICATED"


class PermissionDenied(TableroError):
    code = "PERMISSION_DENIED"


class NotFound(TableroError):
    code = "NOT_FOUND"


class AlreadyExists(TableroError):
    code = "ALREADY_EXISTS"


class FailedPrecondition(TableroError):
    """Against the rules: not your turn, an illegal action, no open seat left."""

    code = "FAILED_PRECONDITION"


class Aborted(TableroError):
    """A stale `expected_version`, or too many concurrent writers (then a retry may pass)."""

    code = "ABORTED"


class ResourceExhausted(TableroError):
    code = "RESOURCE_EXHAUSTED"


class Unavailable(TableroError):
    code = "UNAVAILABLE"


class DeadlineExceeded(TableroError):
    code = "DEADLINE_EXCEEDED"


class Cancelled(TableroError):
    code = "CANCELLED"


class Unimplemented(TableroError):
    code = "UNIMPLEMENTED"


class Internal(TableroError):
    code = "INTERNAL"


class Unknown(TableroError):
    code = "UNKNOWN"


BY_CODE: dict[str, type[TableroError]] = {
    c.code: c
    for c in (InvalidArgument, Unauthenticated, PermissionDenied, NotFound, AlreadyExists, FailedPrecondition,
              Aborted, ResourceExhausted, Unavailable, DeadlineExceeded, Cancelled, Unimplemented, Internal, Unknown)
}

# When a REST answer carries no readable error body.
BY_HTTP_STATUS: dict[int, str] = {
    400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    409: "FAILED_PRECONDITION", 413: "RESOURCE_EXHAUSTED", 429: "RESOURCE_EXHAUSTED", 499: "CANCELLED",
    501: "UNIMPLEMENTED", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
}


def error_for(code: str, message: str, http_status: int | None = None) -> TableroError:
    """The exception for an API error code (UNKNOWN for codes this SDK does not know)."""
    cls = BY_CODE.get(code, Unknown)
    err = cls(message, http_status=http_status)
    if cls is Unknown and code != "UNKNOWN":
        err.code = code
    return err


__all__ = ["BY_CODE", "TableroError", "error_for", *(c.__name__ for c in BY_CODE.values())]
