"""tablero-client: the Python SDK of the Tablero game service (gRPC or REST)."""

from . import errors
from .client import AsyncClient, AsyncCreatedGame, AsyncSeat, Client, CreatedGame, Seat
from .errors import (
    Aborted,
    FailedPrecondition,
    GameOver,
    IllegalAction,
    InvalidArgument,
    MalformedAction,
    NotFound,
    NotYourTurn,
    OpenGamesCap,
    PermissionDenied,
    RateLimited,
    ResourceExhausted,
    SeatTaken,
    StaleVersion,
    TableroError,
    TicketsCap,
    TokenExpired,
    Unauthenticated,
    Unavailable,
)
from .models import (
    BOT,
    FINISHED,
    HUMAN,
    OPEN,
    RUNNING,
    Created,
    Engine,
    Event,
    Game,
    GamePage,
    GameSummary,
    Joined,
    LegalActionGroup,
    LegalActions,
    SeatInfo,
)
from .portal_models import (
    CANCELLED,
    EXPIRED,
    MATCHED,
    WAITING,
    EngineRating,
    Leaderboard,
    LeaderboardEntry,
    MatchTicket,
    Notification,
    NotificationPage,
    Player,
    PushLive,
    PushRegistration,
    RecentGame,
)

__version__ = "0.1.0"

__all__ = [
    "BOT", "FINISHED", "HUMAN", "OPEN", "RUNNING",
    "Aborted", "AsyncClient", "AsyncCreatedGame", "AsyncSeat", "Client", "Created", "CreatedGame", "Engine",
    "Event", "FailedPrecondition", "Game", "GamePage", "GameSummary", "InvalidArgument", "Joined", "LegalActionGroup", "LegalActions", "NotFound",
    "PermissionDenied", "ResourceExhausted", "Seat", "SeatInfo", "TableroError", "Unauthenticated",
    "Unavailable", "errors", "GameOver", "IllegalAction", "NotYourTurn", "OpenGamesCap", "RateLimited", "SeatTaken",
    "StaleVersion", "TicketsCap", "TokenExpired", "MalformedAction",
    # a portal's calls (client.notifications, client.players, client.matchmaking)
    "CANCELLED", "EXPIRED", "MATCHED", "WAITING", "EngineRating", "Leaderboard", "LeaderboardEntry", "MatchTicket",
    "Notification", "NotificationPage", "Player", "PushLive", "PushRegistration", "RecentGame",
]
