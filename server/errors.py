"""Application errors, each with a stable machine code (a gRPC status name).

A leaf module: it imports nothing from the project, so any layer may raise these.
The transports map the codes to HTTP and gRPC statuses in one table
(`server.api.status`); the application layer knows nothing of either.
"""

from __future__ import annotations

import logging
import time


class AppError(Exception):
    code = "INTERNAL"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgument(AppError):
    """Malformed: a wrong type, a missing field, a value out of range."""

    code = "INVALID_ARGUMENT"


class Unauthenticated(AppError):
    """No seat token where one is needed, or one that is malformed or not ours."""

    code = "UNAUTHENTICATED"


class PermissionDenied(AppError):
    """A valid token that opens a seat of another game."""

    code = "PERMISSION_DENIED"


class NotFound(AppError):
    code = "NOT_FOUND"


class FailedPrecondition(AppError):
    """Against the rules of the game (or no open seat left)."""

    code = "FAILED_PRECONDITION"


class Aborted(AppError):
    """Stale expected_version, or too many concurrent writers."""

    code = "ABORTED"


class ResourceExhausted(AppError):
    """A request over the size limit."""

    code = "RESOURCE_EXHAUSTED"


class RateLimited(ResourceExhausted):
    """Over a rate limit (HTTP 429 with Retry-After; gRPC retry-after metadata)."""

    http = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class OverQuota(ResourceExhausted):
    """Over a cap, e.g. the open games per user (HTTP 429, no Retry-After: waiting won't help)."""

    http = 429


class Unavailable(AppError):
    """The event store is unreachable, or the server is shutting down."""

    code = "UNAVAILABLE"


_outage_logged: dict[str, float] = {}


def outage(what: str, cause: BaseException) -> Unavailable:
    """UNAVAILABLE for an outage of `what` ("event store", "rate limiter"): the answer says
    what is down, not where (no internal address or class); the cause is logged, at most
    once every 10 s for each `what`."""
    now = time.monotonic()
    if now - _outage_logged.get(what, -1e9) >= 10:
        _outage_logged[what] = now
        logging.getLogger("tablero.outage").warning("%s unavailable: %s: %s", what, type(cause).__name__, cause)
    return Unavailable(f"{what} is unavailable for a moment; retry (an action retried with the same "
                       "requestId is applied at most once)")


class StaleVersion(Aborted):
    """The action's expected_version is not the game's version."""


class TooManyConflicts(Aborted):
    """Other writers kept moving the game on while this action was being applied."""
