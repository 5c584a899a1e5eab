"""Typed definitions of New Bedford's state (plain JSON: TypedDicts only document it).

`events._on_game_started` builds a `State`; the handlers in `events.ON` change it; the
view's JSON Schema (schemas.VIEW_SCHEMA) is the checked description of the same fields.
Keys marked NotRequired appear only in some games (Captains) or moments (a composed sale).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from tablero.engines.core.engine import clone, fork_by_table


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
    version: NotRequired[int]  # the engine version a game started with, from v3 on (v1-2 states have none)


# --- the look-ahead copy ---------------------------------------------------------------------
def _copy_ship(s: dict) -> dict:
    return {**s, "hold": dict(s["hold"])}


def _copy_player(p: dict) -> dict:
    c = p["captain"]
    return {**p, "returned": dict(p["returned"]), "ships": [_copy_ship(s) for s in p["ships"]],
            "workers": list(p["workers"]), "captain": None if c is None else dict(c)}


def _copy_captain_game(cg: dict) -> dict:
    choice = cg["choice"]
    return {**cg, "captains": list(cg["captains"]), "order": list(cg["order"]),
            "building_order": list(cg["building_order"]), "choice": None if choice is None else clone(choice)}


# How each key's value is copied: by its known shape (a deep copy written out, several
# times faster than `clone` of the whole state); a key not named here is `clone`d.
_COPY: dict[str, Any] = {
    "players": lambda v: [_copy_player(p) for p in v],
    "buildings": lambda v: {k: dict(t) for k, t in v.items()},
    "track": lambda v: [[list(x) for x in row] for row in v],
    "bag": dict,
    "sea_tokens": dict,
    "out_of_game": dict,
    "occupancy": lambda v: {k: list(x) for k, x in v.items()},
    "inn": lambda v: None if v is None else dict(v),
    "sale": lambda v: None if v is None else {**v, "whales": dict(v["whales"]), "queue": list(v["queue"])},
    "picks": lambda v: [list(x) for x in v],
    "captain_game": _copy_captain_game,
    "selling": lambda v: {**v, "kinds": list(v["kinds"]), "sold": dict(v["sold"])},
}
# Keys known to hold a plain value (shared by the copy: immutable).
_SCALARS = frozenset(("seats", "round", "first_player", "phase", "setup_done", "placed", "bought", "final",
                      "version"))
_NAMED = _SCALARS | frozenset(_COPY)


def fork(state: dict) -> dict:
    """A deep copy of a New Bedford state that shares no dict or list with it (the look-ahead
    copy of the decide loop; `testkit.check_deep_fork` proves it in the tests)."""
    return fork_by_table(state, _COPY, _NAMED)
