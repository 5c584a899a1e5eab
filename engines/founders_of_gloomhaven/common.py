"""Small helpers shared by the rules modules: the players, turn roles, versions, ownership."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablero.engines.core import IllegalAction, integer

from . import data as D
from .board import board_of

CELL = integer(0, 1023)
SLOT = integer(0, 2)
KIND_TILES = ("stall", "t2", "t3")

# JSON documents: the game state (its keys are set by `events._on_started`; schemas.py publishes the
# view's), an action, an event, a player's record and a tile (`events._add_tile`)
State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Player = dict[str, Any]
Tile = dict[str, Any]


# ============================================================================================
# small helpers
# ============================================================================================
def _p(state: State, seat: int):
    return state["players"][seat]


def _points(state: State, seat: int) -> int:
    return sum(_p(state, seat)["score"].values())


def _order_from(state: State, seat: int) -> list[int]:
    n = state["n"]
    return [(seat + i) % n for i in range(n)]


def _closest(state: State, seats: Iterable[int], ref: int) -> int:
    """The seat among `seats` closest in turn order to `ref` (ref itself first)."""
    n = state["n"]
    return min(seats, key=lambda s: (s - ref) % n)


def _owned_types(state: State, seat: int) -> set[str]:
    return {t["res"] for t in state["tiles"] if t["owner"] == seat and t["kind"] in KIND_TILES}


def _has_resource(state: State, seat: int, res: str) -> bool:
    """Own or have access to a tile of `res` (seed-FoG p. 11: the adviser's prerequisite)."""
    return any(t["res"] == res and (t["owner"] == seat or seat in t["claims"]) and t["kind"] in KIND_TILES
               for t in state["tiles"])


def _tile_colour_extra(state: State, tile: Tile) -> int:
    b = board_of(state)
    return min(D.COLOUR_EXTRA[b.colour[c]] for c in tile["cells"])


def _red_or_white(state: State, cells) -> bool:
    b = board_of(state)
    return any(b.colour[c] in ("red", "white") for c in cells)


def _discount(state: State) -> tuple[int, dict]:
    cur = state["cur"] or {}
    return cur.get("discount", 0), cur.get("bonus", {})


def _role(state: State) -> str:
    return (state["cur"] or {}).get("role", "")


def _category_ok(state: State, category: str) -> None:
    cur = state["cur"]
    if cur is None or cur.get("category") not in (category, "any"):
        want = (cur or {}).get("category")
        raise IllegalAction(f"this is a {want} action, not {category}" if want else "no main action is due now")


def _workers_free(state: State, seat: int) -> int:
    pl = _p(state, seat)
    return pl["workers"] - len(pl["placed"])


def _own_adjacent(state: State, seat: int) -> set[int]:
    """Squares next to a building `seat` owns (bridges/gates and prestige excepted): a new tile
    of the seat may not cover them (seed-FoG pp. 12-13)."""
    adj = board_of(state).adj
    out: set[int] = set()
    for t in state["tiles"]:
        if t["owner"] == seat and t["kind"] != "bridge" and t["kind"] != "prestige":
            for c in t["cells"]:
                out.update(adj[c])
    return out


def _card_category(card: str) -> str:
    if card in D.STANDARD_CARDS:
        return card
    if card == "income":
        return "income"
    return D.ADVISERS[card]["category"]


# v2: a game ends by the safety net after this many skipped votes (no proposal left) per seat
# in a row with no delivery in between (ours, RULES.md)
STALL_VOTES = 3


def _version(state: State) -> int:
    """The engine version the game was started with (v1 states carry no version)."""
    return state.get("version", 1)
R = "seed-FoG"
