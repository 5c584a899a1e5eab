"""Typed results of a portal's calls (notifications, Web Push, players, matchmaking), built from
their JSON (lowerCamelCase) answers, REST's or gRPC's alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

WAITING = "MATCH_TICKET_STATUS_WAITING"
MATCHED = "MATCH_TICKET_STATUS_MATCHED"
CANCELLED = "MATCH_TICKET_STATUS_CANCELLED"
EXPIRED = "MATCH_TICKET_STATUS_EXPIRED"
TICKET_ENDED = (MATCHED, CANCELLED, EXPIRED)


def _opt_int(v: Any) -> int | None:
    return None if v is None else int(v)


@dataclass(frozen=True, slots=True)
class Notification:
    """The newest news of one game for the user: kind "turn" (one of their seats must act) or
    "result" (the game is over). `version` is an int here, though the JSON answer carries it as a
    string (an int64: proto3's JSON mapping; docs/api.md "Wire style"); `data` is the event's data
    as webhooks carry it (its `version` a number)."""

    id: str
    kind: str
    type: str
    game_id: str
    seat: int
    version: int
    timestamp: float
    read: bool
    data: JSON = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: JSON) -> Notification:
        return cls(id=str(d.get("id", "")), kind=str(d.get("kind", "")), type=str(d.get("type", "")),
                   game_id=str(d.get("gameId", "")), seat=int(d.get("seat", 0)), version=int(d.get("version", 0)),
                   timestamp=float(d.get("timestamp", 0)), read=bool(d.get("read")), data=d.get("data") or {})


@dataclass(frozen=True, slots=True)
class NotificationPage:
    """One page of the user's list, newest first, with the counts of the whole list."""

    notifications: list[Notification]
    next_page_token: str = ""  # empty on the last page
    unread: int = 0
    pending_turns: int = 0  # items of kind "turn": the games waiting for the user

    @classmethod
    def from_json(cls, d: JSON) -> NotificationPage:
        return cls(notifications=[Notification.from_json(n) for n in d.get("notifications") or []],
                   next_page_token=str(d.get("nextPageToken", "")), unread=int(d.get("unread", 0)),
                   pending_turns=int(d.get("pendingTurns", 0)))


@dataclass(frozen=True, slots=True)
class PushRegistration:
    id: str  # the subscription's id
    owners: int  # seats and users it was registered for by this call

    @classmethod
    def from_json(cls, d: JSON) -> PushRegistration:
        return cls(id=str(d.get("id", "")), owners=int(d.get("owners", 0)))


@dataclass(frozen=True, slots=True)
class PushLive:
    live: bool
    ttl_seconds: float  # how long the mark lasts (0 when not live): call again before it lapses

    @classmethod
    def from_json(cls, d: JSON) -> PushLive:
        return cls(live=bool(d.get("live")), ttl_seconds=float(d.get("ttlSeconds", 0)))


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int  # 1 = best
    user_id: str
    user_name: str
    rating: float  # mu - 3 sigma, which orders the board
    mu: float
    sigma: float
    games_played: int
    wins: int

    @classmethod
    def from_json(cls, d: JSON) -> LeaderboardEntry:
        return cls(rank=int(d.get("rank", 0)), user_id=str(d.get("userId", "")), user_name=str(d.get("userName", "")),
                   rating=float(d.get("rating", 0)), mu=float(d.get("mu", 0)), sigma=float(d.get("sigma", 0)),
                   games_played=int(d.get("gamesPlayed", 0)), wins=int(d.get("wins", 0)))


@dataclass(frozen=True, slots=True)
class Leaderboard:
    engine: str
    entries: list[LeaderboardEntry]
    total_players: int
    next_page_token: str = ""  # empty on the last page
    previous_page_token: str = ""  # empty on the first page

    @classmethod
    def from_json(cls, d: JSON) -> Leaderboard:
        return cls(engine=str(d.get("engine", "")), entries=[LeaderboardEntry.from_json(e) for e in d.get("entries") or []],
                   total_players=int(d.get("totalPlayers", 0)), next_page_token=str(d.get("nextPageToken", "")),
                   previous_page_token=str(d.get("previousPageToken", "")))


@dataclass(frozen=True, slots=True)
class EngineRating:
    engine: str
    rating: float
    mu: float
    sigma: float
    games_played: int
    wins: int
    rank: int  # place on the engine's leaderboard (1 = best)

    @classmethod
    def from_json(cls, d: JSON) -> EngineRating:
        return cls(engine=str(d.get("engine", "")), rating=float(d.get("rating", 0)), mu=float(d.get("mu", 0)),
                   sigma=float(d.get("sigma", 0)), games_played=int(d.get("gamesPlayed", 0)),
                   wins=int(d.get("wins", 0)), rank=int(d.get("rank", 0)))


@dataclass(frozen=True, slots=True)
class RecentGame:
    game_id: str
    engine: str
    place: int  # among the rated players (1 = best; equal places tie)
    won: bool
    players: int
    rating_before: float
    rating_after: float
    create_time: float  # seconds since the epoch

    @classmethod
    def from_json(cls, d: JSON) -> RecentGame:
        return cls(game_id=str(d.get("gameId", "")), engine=str(d.get("engine", "")), place=int(d.get("place", 0)),
                   won=bool(d.get("won")), players=int(d.get("players", 0)),
                   rating_before=float(d.get("ratingBefore", 0)), rating_after=float(d.get("ratingAfter", 0)),
                   create_time=float(d.get("createTime", 0)))


@dataclass(frozen=True, slots=True)
class Player:
    user_id: str
    user_name: str
    ratings: list[EngineRating]
    games_played: int
    wins: int
    recent_games: list[RecentGame]  # the newest first (at most 10)

    @classmethod
    def from_json(cls, d: JSON) -> Player:
        if "userId" not in d and isinstance(d.get("player"), dict):  # GetPlayer's answer {"player": ...}
            d = d["player"]
        return cls(user_id=str(d.get("userId", "")), user_name=str(d.get("userName", "")),
                   ratings=[EngineRating.from_json(r) for r in d.get("ratings") or []],
                   games_played=int(d.get("gamesPlayed", 0)), wins=int(d.get("wins", 0)),
                   recent_games=[RecentGame.from_json(g) for g in d.get("recentGames") or []])


@dataclass(frozen=True, slots=True)
class MatchTicket:
    """A quick-match ticket. Once `matched`: `game_id`, `seat` and `seat_token` (play it with
    `client.seat(ticket.game_id, ticket.seat_token, ticket.seat)`; the portal JWT opens it too)."""

    id: str
    status: str  # MATCH_TICKET_STATUS_WAITING | _MATCHED | _CANCELLED | _EXPIRED
    engine: str
    version: int  # changes each time the ticket does
    players: list[int] = field(default_factory=list)
    options: JSON = field(default_factory=dict)
    rating_window: float = 0.0
    bots_after_seconds: float = 0.0
    create_time: float = 0.0
    expire_time: float = 0.0
    rating: float = 0.0  # the user's rating in the engine when the ticket was made
    game_id: str | None = None
    seat: int | None = None
    seat_token: str | None = None
    match_time: float | None = None

    @property
    def matched(self) -> bool:
        return self.status == MATCHED

    @property
    def done(self) -> bool:
        """Matched, cancelled or expired: it changes no more."""
        return self.status in TICKET_ENDED

    @classmethod
    def from_json(cls, d: JSON) -> MatchTicket:
        if "id" not in d and isinstance(d.get("ticket"), dict):  # {"ticket": ...} answers
            d = d["ticket"]
        mt = d.get("matchTime")
        return cls(id=str(d.get("id", "")), status=str(d.get("status", "")), engine=str(d.get("engine", "")),
                   version=int(d.get("version", 0)), players=[int(p) for p in d.get("players") or []],
                   options=d.get("options") or {}, rating_window=float(d.get("ratingWindow", 0)),
                   bots_after_seconds=float(d.get("botsAfterSeconds", 0)), create_time=float(d.get("createTime", 0)),
                   expire_time=float(d.get("expireTime", 0)), rating=float(d.get("rating", 0)),
                   game_id=d.get("gameId") or None, seat=_opt_int(d.get("seat", 0 if d.get("gameId") else None)),
                   seat_token=d.get("seatToken") or None, match_time=None if mt is None else float(mt))
