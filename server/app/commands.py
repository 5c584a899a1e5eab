"""Typed commands: what each use case is asked, built by the transports at their edge
(from a REST request or a gRPC message) after the caller's seat is known."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from tablero.server.portal.identity import User

# The encoders of the fingerprints, made once (json.dumps with options makes one per call):
# the same text as json.dumps with these options, so recorded fingerprints still match.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str).encode
_SORTED = json.JSONEncoder(sort_keys=True, default=str).encode


@dataclass(frozen=True)
class GetEngine:
    name: str


@dataclass(frozen=True)
class GetEngineMessages:
    name: str
    lang: str = ""


@dataclass(frozen=True)
class CreateGame:
    engine: str
    players: int | None = None  # None: len(seats), else the engine's minimum
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = ()  # "human", "open", "bot" or "me" per seat; () = all human
    seat_specs: tuple[dict[str, Any], ...] = ()  # {"kind", "userId", "userName"} per seat
    user: User | None = None  # the caller's portal user
    on_leave: str = ""  # "forfeit" (default) or "bot"
    clock: dict[str, Any] | None = None  # {"moveSeconds", "onTimeout"}
    rated: bool | None = None  # None: rated when every seat is a portal user (server/ratings)
    game_id: str | None = None  # matchmaking picks the id (an idempotent create); None: a new one
    matched: bool = False  # matchmaking seats the named users themselves (no invitations)
    request_id: str | None = None  # a retry with the same id (and caller) gets the same game

    def fingerprint(self, specs: list[Any], levels: Any, clock: Any, defaults: dict[str, Any], ratable: bool) -> str:
        """What a retry of this create must repeat, hashed: everything the caller chose, as the
        service resolved it (seat kinds and users, bot levels with plain "bot" as "easy", the
        checked clock, the options with the engine's defaults, "rated" only where the game can
        be rated), so each transport's way of leaving a field out, or of spelling a default,
        counts as the same choice."""
        # A bot seat's level, "easy" when none is named (plain "bot"); None for other seats.
        bots = [((levels[i] if levels else None) or "easy") if k == "bot" else None for i, (k, _) in enumerate(specs)]
        chosen = [self.engine, specs, bots, {**defaults, **(self.options or {})}, self.on_leave or "forfeit", clock,
                  self.rated if ratable else None]
        return hashlib.sha256(_SORTED(chosen).encode()).hexdigest()[:24]


@dataclass(frozen=True)
class JoinGame:
    game_id: str
    user: User | None = None
    request_id: str | None = None  # an anonymous join's id: its retries get the same seat


@dataclass(frozen=True)
class ListGames:
    engine: str = ""
    status: str = ""
    open_seats: bool | None = None
    mine: bool = False
    page_size: int | None = None
    page_token: str = ""
    user: User | None = None


@dataclass(frozen=True)
class GetGame:
    game_id: str
    seat: int | None
    version: int | None = None  # None: now


@dataclass(frozen=True)
class ListLegalActions:
    game_id: str
    seat: int
    page_size: int | None = None  # None or 0: every action in one answer
    page_token: str = ""
    type: str = ""  # only actions of this type; "" = all
    group: str = ""  # "type": one group per action type (count + first page); "" = no grouping


@dataclass(frozen=True)
class SubmitAction:
    game_id: str
    seat: int
    action: Any
    request_id: str | None = None
    expected_version: int | None = None

    @property
    def idempotency_key(self) -> str | None:
        # Request ids are the client's, per seat: two seats may use the same id.
        return None if self.request_id is None else f"seat{self.seat}:{self.request_id}"

    def fingerprint(self) -> str:
        """The action, hashed: recorded with the request id, so that the id reused for another
        action is refused instead of answered with the first one's result. (Each transport hands
        the action over as the same JSON value: whole numbers as integers.)"""
        text = _CANONICAL(self.action)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class ListEvents:
    game_id: str
    seat: int | None
    page_size: int | None = None  # None or 0: the default
    page_token: str = ""
    after_version: int = 0  # list the events after it (a page_token, when given, says where instead)


@dataclass(frozen=True)
class WatchGame:
    game_id: str
    seat: int | None
    after_version: int = 0
    after_hash: str = ""  # the client's hash of the event at after_version ("": trusted)


@dataclass(frozen=True)
class Resign:
    game_id: str
    seat: int
