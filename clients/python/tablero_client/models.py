"""Typed results of the API, built from its JSON (lowerCamelCase) or protobuf answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RUNNING = "GAME_STATUS_RUNNING"
FINISHED = "GAME_STATUS_FINISHED"
HUMAN, OPEN, BOT = "SEAT_KIND_HUMAN", "SEAT_KIND_OPEN", "SEAT_KIND_BOT"

JSON = dict[str, Any]


def status_name(s: str | None) -> str:
    """"FINISHED" or "GAME_STATUS_FINISHED" -> "GAME_STATUS_FINISHED" (servers before the enum send the short one)."""
    s = (s or "").upper()
    if not s:
        return "GAME_STATUS_UNSPECIFIED"
    return s if s.startswith("GAME_STATUS_") else "GAME_STATUS_" + s


def seat_kind_name(s: str | None) -> str:
    s = (s or "").upper()
    if not s:
        return "SEAT_KIND_UNSPECIFIED"
    return s if s.startswith("SEAT_KIND_") else "SEAT_KIND_" + s


@dataclass(frozen=True, slots=True)
class Engine:
    name: str
    title: str
    min_seats: int
    max_seats: int
    version: int
    options_schema: JSON = field(default_factory=dict)
    action_schema: JSON | None = None
    view_schema: JSON | None = None
    event_schema: JSON | None = None
    outcome_schema: JSON | None = None

    @classmethod
    def from_json(cls, d: JSON) -> Engine:
        return cls(name=d["name"], title=str(d.get("title") or d["name"]), min_seats=int(d.get("minSeats", 0)),
                   max_seats=int(d.get("maxSeats", 0)), version=int(d.get("version", 0)),
                   options_schema=d.get("optionsSchema") or {}, action_schema=d.get("actionSchema"),
                   view_schema=d.get("viewSchema"), event_schema=d.get("eventSchema"),
                   outcome_schema=d.get("outcomeSchema"))


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    kind: str  # SEAT_KIND_HUMAN | SEAT_KIND_OPEN | SEAT_KIND_BOT
    claimed: bool = False
    bot_level: str | None = None  # "easy", "medium" or "hard" for a bot seat created with a level
    user_id: str | None = None  # the portal user holding (or invited to) the seat
    user_name: str | None = None

    @classmethod
    def from_json(cls, d: JSON) -> SeatInfo:
        return cls(seat=int(d.get("seat", 0)), kind=seat_kind_name(d.get("kind")), claimed=bool(d.get("claimed")),
                   bot_level=d.get("botLevel") or None, user_id=d.get("userId") or None,
                   user_name=d.get("userName") or None)


@dataclass(frozen=True, slots=True)
class Game:
    """A game as one caller sees it: `view` is redacted for `your_seat` (None: a spectator)."""

    id: str
    engine: str
    version: int
    players: int
    status: str  # GAME_STATUS_RUNNING | GAME_STATUS_FINISHED
    to_act: list[int]
    view: JSON
    seats: list[SeatInfo]
    outcome: JSON | None = None
    your_seat: int | None = None
    name: str = ""
    engine_version: int = 0

    @property
    def finished(self) -> bool:
        return self.status == FINISHED or self.outcome is not None

    @classmethod
    def from_json(cls, d: JSON) -> Game:
        if "id" not in d and isinstance(d.get("game"), dict):  # GetGame/SubmitAction answer {"game": Game}
            d = d["game"]
        ys = d.get("yourSeat")
        return cls(id=d["id"], name=d.get("name", ""), engine=d.get("engine", ""),
                   engine_version=int(d.get("engineVersion", 0)), version=int(d.get("version", 0)),
                   players=int(d.get("players", 0)), status=status_name(d.get("status")),
                   to_act=[int(s) for s in d.get("toAct") or []], view=d.get("view") or {},
                   seats=[SeatInfo.from_json(s) for s in d.get("seats") or []],
                   outcome=d.get("outcome") or None, your_seat=None if ys is None else int(ys))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game as the lobby (ListGames) lists it: no view, no outcome."""

    id: str
    engine: str
    players: int
    seats: list[SeatInfo]
    status: str  # GAME_STATUS_RUNNING | GAME_STATUS_FINISHED
    version: int  # events in the log now
    create_time: float = 0.0  # seconds since the epoch

    @property
    def open_seats(self) -> list[int]:
        """The seats still open to join."""
        return [s.seat for s in self.seats if s.kind == OPEN and not s.claimed]

    @classmethod
    def from_json(cls, d: JSON) -> GameSummary:
        return cls(id=d["id"], engine=d.get("engine", ""), players=int(d.get("players", 0)),
                   seats=[SeatInfo.from_json(s) for s in d.get("seats") or []], status=status_name(d.get("status")),
                   version=int(d.get("version", 0)), create_time=float(d.get("createTime", 0)))


@dataclass(frozen=True, slots=True)
class GamePage:
    """One page of the lobby, newest first."""

    games: list[GameSummary]
    next_page_token: str = ""  # empty on the last page

    @classmethod
    def from_json(cls, d: JSON) -> GamePage:
        return cls(games=[GameSummary.from_json(g) for g in d.get("games") or []],
                   next_page_token=str(d.get("nextPageToken", "")))


@dataclass(frozen=True, slots=True)
class SeatToken:
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Created:
    """CreateGame's answer: the game and a token for every human seat."""

    game: Game
    seats: list[SeatToken]

    def token(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat:
                return s.token
        raise KeyError(f"no token for seat {seat} (bot or open seat?)")

    @classmethod
    def from_json(cls, d: JSON) -> Created:
        return cls(game=Game.from_json(d["game"]),
                   seats=[SeatToken(int(s.get("seat", 0)), s["token"]) for s in d.get("seats") or []])


@dataclass(frozen=True, slots=True)
class Joined:
    game_id: str
    seat: int
    token: str

    @classmethod
    def from_json(cls, d: JSON) -> Joined:
        return cls(game_id=d["gameId"], seat=int(d.get("seat", 0)), token=d["token"])


@dataclass(frozen=True, slots=True)
class LegalActionGroup:
    """The legal actions of one type (legal_actions(group="type")): how many, and the first page."""

    type: str
    count: int
    actions: list[JSON]
    next_page_token: str = ""  # continue with legal_actions(type=self.type, page_token=...)

    @classmethod
    def from_json(cls, d: JSON) -> LegalActionGroup:
        return cls(type=str(d.get("type", "")), count=int(d.get("count", 0)), actions=list(d.get("actions") or []),
                   next_page_token=str(d.get("nextPageToken", "")))


@dataclass(frozen=True, slots=True)
class LegalActions:
    actions: list[JSON]
    version: int
    seat: int
    next_page_token: str = ""  # set when a page was asked for and more follow
    groups: list[LegalActionGroup] = field(default_factory=list)  # with group="type"

    @classmethod
    def from_json(cls, d: JSON) -> LegalActions:
        return cls(actions=list(d.get("actions") or []), version=int(d.get("version", 0)), seat=int(d.get("seat", 0)),
                   next_page_token=str(d.get("nextPageToken", "")),
                   groups=[LegalActionGroup.from_json(g) for g in d.get("groups") or []])


@dataclass(frozen=True, slots=True)
class Event:
    """One event of a game's log, as the caller may see it."""

    game_id: str
    version: int
    event: JSON
    hash: str = ""  # the log's chain hash at this event (watched events carry it)

    @property
    def type(self) -> str:
        return str(self.event.get("type", ""))

    @classmethod
    def from_json(cls, d: JSON) -> Event:
        return cls(game_id=d.get("gameId", ""), version=int(d.get("version", 0)), event=d.get("event") or {},
                   hash=str(d.get("hash", "")))
