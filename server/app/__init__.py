"""The application layer (use cases) shared by the gRPC and HTTP transports."""

from .errors import (
    Aborted,
    AppError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unauthenticated,
    Unavailable,
)
from .service import GameService

__all__ = [
    "Aborted", "AppError", "FailedPrecondition", "GameService", "InvalidArgument", "NotFound",
    "PermissionDenied", "ResourceExhausted", "Unauthenticated", "Unavailable",
]
