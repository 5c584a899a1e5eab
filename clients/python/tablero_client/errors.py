"""Exceptions that mirror the API's error codes (the gRPC status names) and reasons.

Every error the server answers is raised as the subclass of `TableroError` named after its
code; transport failures (connection refused, reset, server shutting down) are `Unavailable`.
`.reason` is the server's stable reason (docs/api.md, "Error reasons"): `NOT_YOUR_TURN`,
`STALE_VERSION`, ... (REST `error.reason`, gRPC `google.rpc.ErrorInfo`); the commonest have
their own classes, subclasses of their code's (`NotYourTurn` is a `FailedPrecondition`).
"""

from __future__ import annotations

import struct


class TableroError(Exception):
    """An error answered by the API (or a transport failure, as UNAVAILABLE)."""

    code: str = "UNKNOWN"

    def __init__(self, message: str, *, http_status: int | None = None, reason: str | None = None,
                 metadata: dict[str, str] | None = None) -> None:
        super().__init__(f"{self.code}: {message}")
        self.message = message
        self.http_status = http_status
        # None when the server said no reason (a transport failure, an older server).
        self.reason = reason
        self.metadata = metadata or {}


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


class NotYourTurn(FailedPrecondition):
    """The seat may not act now (reason NOT_YOUR_TURN)."""


class IllegalAction(FailedPrecondition):
    """A well-formed action against the rules (reason ILLEGAL_ACTION)."""


class GameOver(FailedPrecondition):
    """The game has ended (reason GAME_OVER)."""


class SeatTaken(FailedPrecondition):
    """No open seat left to join (reason SEAT_TAKEN)."""


class StaleVersion(Aborted):
    """expected_version is not the game's (reason STALE_VERSION; metadata["version"]: the game's)."""


class RateLimited(ResourceExhausted):
    """Over a rate limit (reason RATE_LIMITED; metadata["retryAfter"]: seconds)."""


class OpenGamesCap(ResourceExhausted):
    """The portal user holds the most running games allowed (reason OPEN_GAMES_CAP)."""


class TicketsCap(ResourceExhausted):
    """The portal user holds the most waiting match tickets allowed (reason TICKETS_CAP)."""


class MalformedAction(InvalidArgument, ValueError):
    """The action does not fit the engine's action schema, or is no JSON object with a "type"
    the SDK can send (reason MALFORMED_ACTION; also a ValueError, as the SDK's own refusal of
    an action without a "type" was before it said so)."""


class TokenExpired(Unauthenticated):
    """The portal JWT has expired: get a fresh one (reason TOKEN_EXPIRED)."""


BY_REASON: dict[str, type[TableroError]] = {
    "NOT_YOUR_TURN": NotYourTurn, "ILLEGAL_ACTION": IllegalAction, "GAME_OVER": GameOver,
    "SEAT_TAKEN": SeatTaken, "STALE_VERSION": StaleVersion, "RATE_LIMITED": RateLimited,
    "OPEN_GAMES_CAP": OpenGamesCap, "TICKETS_CAP": TicketsCap, "TOKEN_EXPIRED": TokenExpired,
    "MALFORMED_ACTION": MalformedAction,
}

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


def error_for(code: str, message: str, http_status: int | None = None, reason: str | None = None,
              metadata: dict[str, str] | None = None) -> TableroError:
    """The exception for an API error code and reason (UNKNOWN for codes this SDK does not
    know; the code's class for reasons it has no class of)."""
    cls = BY_CODE.get(code, Unknown)
    special = BY_REASON.get(reason or "")
    if special is not None and special.code == code:
        cls = special
    err = cls(message, http_status=http_status, reason=reason, metadata=metadata)
    if cls is Unknown and code != "UNKNOWN":
        err.code = code
    return err


def _fields(data: bytes):
    """(field number, wire type, value) of a protobuf message: varints and length-delimited
    fields (all google.rpc.Status and ErrorInfo hold), without their generated classes."""
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, i = _varint(data, i)
        elif kind == 2:
            size, i = _varint(data, i)
            value, i = data[i:i + size], i + size
        elif kind in (1, 5):
            width = 8 if kind == 1 else 4
            value, i = struct.unpack_from("<Q" if kind == 1 else "<I", data, i)[0], i + width
        else:
            raise ValueError(f"wire type {kind}")
        yield number, kind, value


def _varint(data: bytes, i: int) -> tuple[int, int]:
    out = shift = 0
    while True:
        b = data[i]
        i += 1
        out |= (b & 0x7F) << shift
        if not b & 0x80:
            return out, i
        shift += 7


ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


def error_info(status_details: bytes) -> tuple[str | None, dict[str, str]]:
    """(reason, metadata) of the google.rpc.ErrorInfo in a `grpc-status-details-bin` trailer
    (a google.rpc.Status); (None, {}) when there is none."""
    try:
        for number, kind, detail in _fields(status_details):
            if number != 3 or kind != 2:  # Status.details: repeated Any
                continue
            any_fields = {n: v for n, _, v in _fields(detail)}
            if bytes(any_fields.get(1, b"")).decode() != ERROR_INFO:
                continue
            reason, metadata = None, {}
            for n, k, v in _fields(any_fields.get(2, b"")):
                if n == 1 and k == 2:
                    reason = bytes(v).decode()
                elif n == 3 and k == 2:  # map entry: key 1, value 2
                    entry = {en: bytes(ev).decode() for en, ek, ev in _fields(v) if ek == 2}
                    metadata[entry.get(1, "")] = entry.get(2, "")
            return reason, metadata
    except (ValueError, IndexError, UnicodeDecodeError, struct.error):
        pass
    return None, {}


__all__ = ["BY_CODE", "BY_REASON", "TableroError", "error_for", "error_info",
           *(c.__name__ for c in BY_CODE.values()), *(c.__name__ for c in BY_REASON.values())]
