"""Application errors: each carries a stable code that transports map to a status."""

from __future__ import annotations


class AppError(Exception):
    code = "INTERNAL"
    http_status = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgument(AppError):
    code, http_status = "INVALID_ARGUMENT", 400


class Unauthenticated(AppError):
    code, http_status = "UNAUTHENTICATED", 401


class PermissionDenied(AppError):
    code, http_status = "PERMISSION_DENIED", 403


class NotFound(AppError):
    code, http_status = "NOT_FOUND", 404


class FailedPrecondition(AppError):
    """Against the rules of the game (or no open seat left)."""

    code, http_status = "FAILED_PRECONDITION", 409


class Aborted(AppError):
    """Stale expected_version, or too many concurrent writers."""

    code, http_status = "ABORTED", 409


class ResourceExhausted(AppError):
    code, http_status = "RESOURCE_EXHAUSTED", 413


class Unavailable(AppError):
    code, http_status = "UNAVAILABLE", 503
