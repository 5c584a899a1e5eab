"""The application layer: use cases (service) over collaborators with one job each (seats,
lobby, clocks, bookkeeping, watching), the game repository (unit of work), typed commands
and replies. The transports call it; it knows nothing of them."""

from tablero.server.errors import (
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

from . import commands
from .service import GameService

__all__ = [
    "Aborted", "AppError", "FailedPrecondition", "GameService", "InvalidArgument", "NotFound",
    "PermissionDenied", "ResourceExhausted", "Unauthenticated", "Unavailable", "commands",
]
