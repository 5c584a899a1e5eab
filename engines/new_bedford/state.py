"""Typed definitions of New Bedford's state (plain JSON: TypedDicts only document it).

`events._on_game_started` builds a `State`; the handlers in `events.ON` change it; the
view's JSON Schema (schemas.VIEW_SCHEMA) is the checked description of the same fields.
Keys marked NotRequired appear only in some games (Captains) or moments (a composed sale).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class Ship(TypedDict):
    at: str  # "home" | "dock" | "sea" | "returning"
    row: int | None  # whaling track row while at sea or returning (0 = Return)
    hold: dict[str, int]  # whale kind -> count


class CaptainState(TypedDict):
    name: str  # a board in captain_boards/
    helm: int  # the token's Helm space
    heading: str  # the last heading shown
    turn_heading: str | None  # the heading of the worker turn under way
    idle: bool  # Ahab after a token he could not keep: no more action this round


class Player(TypedDict):
    money: int
    lumber: int
    food: int
    brick: int
    returned: dict[str, int]  # whales kept (scored)
    ships: list[Ship]
    workers: list[str]  # spaces of this round's placed workers
    captain: CaptainState | None  # None for a human seat


class Tile(TypedDict):
    owner: int | None  # a player index
    used: bool  # a building action is used once per round


class Sale(TypedDict):
    seller: int
    ship: int
    whales: dict[str, int]  # still for sale
    queue: list[int]  # buyers still in, in turn order
    turn: int  # index into queue


class Selling(TypedDict):
    seat: int
    space: str
    kinds: list[str]  # the goods to say a count for, in price order
    sold: dict[str, int]  # counts said so far


class CaptainChoice(TypedDict):
    chooser: int
    player: int
    captain: str
    heading: str
    entry: str
    choices: list[dict]  # {"choice", "text", "event"}


class CaptainGame(TypedDict):
    humans: int
    captains: list[int]  # player indexes of the Captains
    human_start: int
    order: list[int]  # this round's turn order (player indexes)
    building_order: list[str]  # the shuffled tiles: the order Captains look for buildings
    expert: bool
    turners_mill: bool
    choice: CaptainChoice | None
    last_captain_space: str | None


class Result(TypedDict):
    scores: list[int]
    winners: list[int]
    details: list[dict]
    captains: NotRequired[list[dict]]
    captain_winners: NotRequired[list[str]]


class State(TypedDict):
    seats: int  # human seats
    round: int
    first_player: int
    phase: str  # "setup" | "actions" | "inn" | "movement" | "whaling" | "over"
    setup_done: int
    players: list[Player]  # the seats, then the Captains
    buildings: dict[str, Tile]
    track: list[list[list[int]]]  # rows 0 (Return) .. 6, each [[player, ship], ...] in rank order
    bag: dict[str, int]
    sea_tokens: dict[str, int]
    out_of_game: dict[str, int]
    occupancy: dict[str, list[int]]
    placed: int
    bought: bool
    inn: dict | None  # {"seat", "left"}
    sale: Sale | None
    picks: list[list[int]]
    final: bool
    result: Result | None
    captain_game: NotRequired[CaptainGame]
    selling: NotRequired[Selling]
