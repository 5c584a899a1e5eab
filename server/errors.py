"""Application errors, each with a stable machine code (a gRPC status name) and a stable
reason (what happened, for a program to act on: `NOT_YOUR_TURN`, `RATE_LIMITED`, ...).

A leaf module: it imports nothing from the project, so any layer may raise these.
The transports map the codes to HTTP and gRPC statuses in one table
(`server.api.status`) and send the reason beside it (REST `error.reason`, gRPC
`google.rpc.ErrorInfo`); the application layer knows nothing of either. `REASONS` is the
documented list (docs/api.md, the OpenAPI document's `Error.reason` enum).
"""

from __future__ import annotations

import logging
import time

# reason -> (code, when). Stable: a reason is never renamed or given another meaning.
REASONS: dict[str, tuple[str, str]] = {
    "INVALID_ARGUMENT": ("INVALID_ARGUMENT", "a malformed request: a wrong type, a missing field, a value out of range"),
    "MALFORMED_ACTION": ("INVALID_ARGUMENT", "the action does not fit the engine's action schema"),
    "UNKNOWN_ENGINE": ("INVALID_ARGUMENT", "CreateGame or CreateMatchTicket names no engine this server runs (a "
                                           "field of the request; an engine named by the path is ENGINE_NOT_FOUND)"),
    "REQUEST_ID_REUSED": ("INVALID_ARGUMENT", "a requestId already used for another request: a CreateGame of the same "
                                              "caller with other choices, a SubmitAction of the same seat with another "
                                              "action, a CreateMatchTicket of the same user with other choices (a new "
                                              "request needs a new requestId)"),
    "PAGE_TOKEN_INVALID": ("INVALID_ARGUMENT", "a pageToken this call did not hand out, or one for an older version"),
    "TOKEN_IN_URL": ("INVALID_ARGUMENT", "access_token in the URL of a call other than the watch"),
    "HEADERS_TOO_LARGE": ("INVALID_ARGUMENT", "REST only: request headers over 64 KiB or 256 fields (HTTP 431)"),
    "URI_TOO_LONG": ("INVALID_ARGUMENT", "REST only: a request target over 16 KiB (HTTP 414)"),
    "TOKEN_MISSING": ("UNAUTHENTICATED", "the call needs a seat token or a portal JWT and got none"),
    "TOKEN_INVALID": ("UNAUTHENTICATED", "a seat token or portal JWT that is malformed, not signed by a known key "
                                         "or otherwise refused (a seat token where only a portal JWT will do)"),
    "TOKEN_EXPIRED": ("UNAUTHENTICATED", "a portal JWT past its exp"),
    "CLAIM_LOST": ("UNAUTHENTICATED", "a joined seat's token whose claim the store no longer holds (it lost the join, "
                                      "and the seat is open or another player's); join again"),
    "WRONG_GAME": ("PERMISSION_DENIED", "a seat token of another game"),
    "NOT_SEATED": ("PERMISSION_DENIED", "the portal user holds no seat in this game"),
    "NOT_TICKET_OWNER": ("PERMISSION_DENIED", "a match ticket of another portal user"),
    "GAME_NOT_FOUND": ("NOT_FOUND", "no game with this id"),
    "ENGINE_NOT_FOUND": ("NOT_FOUND", "GetEngine, GetEngineMessages, GetLeaderboard: no engine with this name"),
    "TICKET_NOT_FOUND": ("NOT_FOUND", "no match ticket with this id"),
    "PLAYER_NOT_FOUND": ("NOT_FOUND", "GetPlayer: the user has played no rated game; GetLeaderboard aroundUserId: the "
                                      "user has no rating in this engine"),
    "ROUTE_NOT_FOUND": ("NOT_FOUND", "REST only: no route at this path"),
    "UNKNOWN_METHOD": ("UNIMPLEMENTED", "Connect only: no RPC at this path (HTTP 404; gRPC and gRPC-Web answer "
                                        "UNIMPLEMENTED without details)"),
    "METHOD_NOT_ALLOWED": ("METHOD_NOT_ALLOWED", "REST and Connect: a known path asked with another method (HTTP 405)"),
    "REQUEST_TIMEOUT": ("DEADLINE_EXCEEDED", "REST only: the request's headers or body arrived too slowly (HTTP 408)"),
    "NOT_YOUR_TURN": ("FAILED_PRECONDITION", "the caller's seat may not act now"),
    "ILLEGAL_ACTION": ("FAILED_PRECONDITION", "a well-formed action against the rules now"),
    "GAME_OVER": ("FAILED_PRECONDITION", "the game has ended: nobody acts or joins any more"),
    "SEAT_TAKEN": ("FAILED_PRECONDITION", "JoinGame: every open seat is taken (or the game has none)"),
    "SEAT_LEFT": ("FAILED_PRECONDITION", "the caller's seat has resigned or forfeited"),
    "TICKET_MATCHED": ("FAILED_PRECONDITION", "CancelMatchTicket: the ticket is matched already (play the game, or "
                                              "resign it)"),
    "NOTIFICATIONS_OFF": ("FAILED_PRECONDITION", "the notification calls on a server without notifications (or the "
                                                 "Web Push calls without Web Push)"),
    "HISTORY_TRIMMED": ("FAILED_PRECONDITION", "events before a snapshot are no longer kept; the message names "
                                               "where to start"),
    "STALE_VERSION": ("ABORTED", "expectedVersion is not the game's version (metadata `version`: the game's)"),
    "CONFLICT": ("ABORTED", "other writers kept moving the game on; retry with the same requestId"),
    "HISTORY_REWRITTEN": ("ABORTED", "gRPC and Connect WatchGame: the log no longer holds afterHash's history; resume from "
                                     "metadata `version`"),
    "BODY_TOO_LARGE": ("RESOURCE_EXHAUSTED", "the request is over TABLERO_MAX_BODY bytes (HTTP 413)"),
    "RATE_LIMITED": ("RESOURCE_EXHAUSTED", "over a rate limit: retry after metadata `retryAfter` seconds (HTTP 429)"),
    "OPEN_GAMES_CAP": ("RESOURCE_EXHAUSTED", "the portal user already holds the most running games allowed (HTTP 429;"
                                             " waiting does not help, finishing a game does; a game of bots only the user started counts until it ends)"),
    "TICKETS_CAP": ("RESOURCE_EXHAUSTED", "the portal user already holds the most waiting match tickets allowed (HTTP "
                                          "429; cancel one, or wait for one to match or expire)"),
    "UNAVAILABLE": ("UNAVAILABLE", "a store behind the server is unreachable for a moment; retry"),
    "SHUTTING_DOWN": ("UNAVAILABLE", "the server is stopping; retry (another replica answers)"),
    "SERVER_DEADLINE": ("UNAVAILABLE", "the server did not finish a unary call within TABLERO_REQUEST_DEADLINE "
                                       "(a store behind it slow or unreachable); whether a write was made is unknown: "
                                       "retry with the same requestId (applied at most once)"),
    "STORE_FULL": ("UNAVAILABLE", "the event store refuses writes because it is full (Redis at maxmemory with "
                                  "noeviction, or the SQLite file's disk): reads go on, writes wait for an operator; "
                                  "retry after metadata `retryAfter` seconds (HTTP 503 with Retry-After)"),
    "ENGINE_UNAVAILABLE": ("UNAVAILABLE", "this server does not run the game's engine (version)"),
    "BUSY": ("UNAVAILABLE", "another join or creation of this user is under way; retry"),
    "NOT_REPLICATED": ("UNAVAILABLE", "the write (a move, a join, a new game) was made but TABLERO_REDIS_MIN_REPLICAS_ACK replicas did not "
                                      "confirm it in time; retry with the same requestId (applied exactly once)"),
    "DNS_UNAVAILABLE": ("UNAVAILABLE", "RegisterPushSubscription: the endpoint's host could not be resolved for a "
                                       "moment (a temporary DNS failure, EAI_AGAIN); retry after metadata "
                                       "`retryAfter` seconds (HTTP 503 with Retry-After). A name that does not "
                                       "exist is INVALID_ARGUMENT"),
    "INTERNAL": ("INTERNAL", "a fault of the server (logged)"),
    # A code's own name: the reason of a refusal that has none of its own yet (none a client
    # can get today: docs/api.md; a new refusal should get its own reason, listed here).
    "UNAUTHENTICATED": ("UNAUTHENTICATED", "another case of this code (the message says which)"),
    "PERMISSION_DENIED": ("PERMISSION_DENIED", "another case of this code (the message says which)"),
    "NOT_FOUND": ("NOT_FOUND", "another case of this code (the message says which)"),
    "FAILED_PRECONDITION": ("FAILED_PRECONDITION", "another case of this code (the message says which)"),
    "ABORTED": ("ABORTED", "another case of this code (the message says which)"),
    "RESOURCE_EXHAUSTED": ("RESOURCE_EXHAUSTED", "another case of this code (the message says which)"),
}


class AppError(Exception):
    code = "INTERNAL"
    reason = "INTERNAL"

    def __init__(self, message: str, reason: str | None = None, metadata: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason
        # ErrorInfo.metadata (REST: error.metadata): strings only, e.g. {"version": "7"}.
        self.metadata = metadata or {}


class InvalidArgument(AppError):
    """Malformed: a wrong type, a missing field, a value out of range."""

    code = "INVALID_ARGUMENT"
    reason = "INVALID_ARGUMENT"


class Unauthenticated(AppError):
    """No seat token where one is needed, or one that is malformed or not ours."""

    code = "UNAUTHENTICATED"
    reason = "UNAUTHENTICATED"


class PermissionDenied(AppError):
    """A valid token that opens a seat of another game."""

    code = "PERMISSION_DENIED"
    reason = "PERMISSION_DENIED"


class NotFound(AppError):
    code = "NOT_FOUND"
    reason = "NOT_FOUND"


class FailedPrecondition(AppError):
    """Against the rules of the game (or no open seat left)."""

    code = "FAILED_PRECONDITION"
    reason = "FAILED_PRECONDITION"


class Aborted(AppError):
    """Stale expected_version, or too many concurrent writers."""

    code = "ABORTED"
    reason = "ABORTED"


class ResourceExhausted(AppError):
    """A request over the size limit."""

    code = "RESOURCE_EXHAUSTED"
    reason = "RESOURCE_EXHAUSTED"


class RateLimited(ResourceExhausted):
    """Over a rate limit (HTTP 429 with Retry-After; gRPC retry-after metadata)."""

    http = 429
    reason = "RATE_LIMITED"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message, metadata={"retryAfter": f"{retry_after:.3f}"})
        self.retry_after = retry_after


class OverQuota(ResourceExhausted):
    """Over a cap, e.g. the open games per user (HTTP 429, no Retry-After: waiting won't help)."""

    http = 429
    reason = "OPEN_GAMES_CAP"


class Unavailable(AppError):
    """The event store is unreachable, or the server is shutting down."""

    code = "UNAVAILABLE"
    reason = "UNAVAILABLE"


class ResolverUnavailable(Unavailable):
    """A name could not be resolved for a moment (EAI_AGAIN, a resolver that timed out): HTTP 503
    with Retry-After (gRPC: retry-after metadata), as a rate limit tells its wait."""

    reason = "DNS_UNAVAILABLE"

    def __init__(self, message: str, retry_after: float = 5.0) -> None:
        super().__init__(message, metadata={"retryAfter": f"{retry_after:.3f}"})
        self.retry_after = retry_after


class StoreFull(Unavailable):
    """The store refuses writes because it is full: not a moment's outage (HTTP 503 with a long
    Retry-After, so that clients do not hammer a store only an operator can free)."""

    reason = "STORE_FULL"

    def __init__(self, message: str, retry_after: float = 30.0) -> None:
        super().__init__(message, metadata={"retryAfter": f"{retry_after:.3f}"})
        self.retry_after = retry_after


# What a full store says: Redis at maxmemory with the noeviction policy; SQLite's SQLITE_FULL.
_FULL = ("OOM command not allowed", "database or disk is full")

_outage_logged: dict[str, float] = {}


def _full(cause: BaseException) -> bool:
    seen: set[int] = set()
    e: BaseException | None = cause
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if any(text in str(e) for text in _FULL):
            return True
        e = e.__cause__ or e.__context__
    return False


def outage(what: str, cause: BaseException) -> Unavailable:
    """UNAVAILABLE for an outage of `what` ("event store", "rate limiter"): the answer says
    what is down, not where (no internal address or class); the cause is logged, at most
    once every 10 s for each `what`."""
    now = time.monotonic()
    full = _full(cause)
    if now - _outage_logged.get(what, -1e9) >= 10:
        _outage_logged[what] = now
        logger = logging.getLogger("tablero.outage")
        if full:  # no moment's outage: it lasts until an operator acts, and is logged as an error
            logger.error("%s is full and refuses writes: %s: %s", what, type(cause).__name__, cause)
        else:
            logger.warning("%s unavailable: %s: %s", what, type(cause).__name__, cause)
    if full:
        return StoreFull(f"{what} is full and refuses writes until an operator frees it; retry later (an action "
                         "retried with the same requestId is applied at most once)")
    return Unavailable(f"{what} is unavailable for a moment; retry (an action retried with the same "
                       "requestId is applied at most once)")


class StaleVersion(Aborted):
    """The action's expected_version is not the game's version."""

    reason = "STALE_VERSION"


class TooManyConflicts(Aborted):
    """Other writers kept moving the game on while this action was being applied."""

    reason = "CONFLICT"
