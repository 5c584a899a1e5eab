"""The typed shape of Riverboat's state. Plain JSON at run time (TypedDicts are dicts): the
definitions document every key and let a type checker follow the rules code.

A player's mat is four parallel lists indexed by cell (`row * MAT_COLS + col`, see board.py).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from tablero.engines.core.engine import clone, fork_by_table

PhaseName = Literal["draft", "cultivation", "planting", "harvest", "opportunity", "scoring", "over"]
# Decisions one seat owes before the phase goes on (each is a step of the phase table).
PendingKind = Literal["bonus_worker", "scoring_bonus", "feature", "choose_from_pile", "choose_from_deck",
                      "place_drawn_tile", "agents"]


class OpportunityHeld(TypedDict):
    id: str
    scored: bool  # a surveyor stands on it


class Player(TypedDict):
    mat: str  # "A".."D" (data.MATS)
    worker: list[bool]
    crop: list[str | None]
    feature: list[str | None]  # None, "barn" or "well"
    scored: list[bool]  # a surveyor stands on that cell's feature
    workers: int  # in the personal supply
    coins: int
    surveyors: int  # in the personal supply
    active_surveyors: int  # placed this game (1 VP each per round scoring)
    vp: int
    vp_by: dict[str, int]  # VP by source
    vp_at: int  # arrival order on the score track (the 3-player tie rule)
    harbor: int  # harbor master's space
    harbor_start: int
    boats: list[str]  # riverboat ids, in mat-slot order
    harvested: dict[str, int]  # crops harvested over the game, per crop
    harvest_bonus: list[str]  # crops whose harvest bonus was given
    agents: int  # workers in New Orleans
    opps: list[OpportunityHeld]


class Pending(TypedDict):
    seat: int
    kind: PendingKind
    # feature: the features offered, why, and whether the taker may decline / substitute.
    options: NotRequired[list[str]]
    reason: NotRequired[str]
    optional: NotRequired[bool]
    substitute: NotRequired[bool]
    # choose_from_pile: the pile searched ("1" or "2"); agents: the most that may be sent.
    size: NotRequired[str]
    max: NotRequired[int]


class HeldTile(TypedDict):
    seat: int
    kind: str  # a tile drawn blind, seen by its drawer only


class RiverboatState(TypedDict):
    n: int
    version: NotRequired[int]  # rules version; absent in games started before v2 (= 1)
    round: int
    phase: PhaseName
    first_player: int
    turn: int  # where the clockwise scan for the seat on turn starts
    phase_tiles: list[int | None]  # holder of each phase tile (data.PHASES order)
    round_track: int
    crop_deck: list[str]
    card: str | None  # the revealed crop card during Cultivation
    cards_left: int
    waiting: list[int]  # Cultivation: seats that must place for the revealed card
    piles: dict[str, list[str]]  # face-down crop-tile piles by size ("1", "2", "3")
    slots: dict[str, list[str | None]]  # face-up crop supply by size
    boat_piles: dict[str, int]
    boat_board: dict[str, bool]
    opp_deck: list[str]
    opp_known_bottom: int  # cards at the deck's bottom whose order is public
    opp_spaces: list[str | None]
    supply: dict[str, int]  # coins, barns, wells, surveyors
    players: list[Player]
    claims: list[int]  # boats claimed this phase, per seat
    done: list[bool]  # passed (Harvest, Scoring) / took a card (Opportunity)
    surveyed: list[int]  # surveyors placed this phase, per seat
    pending: list[Pending]
    vp_seq: int
    result: dict | None
    held: HeldTile | None
    blind: bool  # create option coin_draws == "blind"


State = RiverboatState
Event = dict[str, Any]
Action = dict[str, Any]


# --- the look-ahead copy ---------------------------------------------------------------------
def _copy_flat(d: dict) -> dict:
    """A dict whose values are scalars or lists of scalars (anything deeper is cloned)."""
    out = {}
    for k, v in d.items():
        t = type(v)
        if t is list:
            out[k] = list(v) if all(type(x) not in (dict, list) for x in v) else clone(v)
        elif t is dict:
            out[k] = clone(v)
        else:
            out[k] = v
    return out


def _copy_player(p: dict) -> dict:
    return {**p, "worker": list(p["worker"]), "crop": list(p["crop"]), "feature": list(p["feature"]),
            "scored": list(p["scored"]), "vp_by": dict(p["vp_by"]), "boats": list(p["boats"]),
            "harvested": dict(p["harvested"]), "harvest_bonus": list(p["harvest_bonus"]),
            "opps": [dict(o) for o in p["opps"]]}


# How each key's value is copied: by its known shape (a deep copy written out, several times
# faster than `clone` of the whole state); a key not named here is `clone`d.
_COPY: dict[str, Any] = {
    "phase_tiles": list,
    "crop_deck": list,
    "waiting": list,
    "piles": lambda v: {k: list(x) for k, x in v.items()},
    "slots": lambda v: {k: list(x) for k, x in v.items()},
    "boat_piles": dict,
    "boat_board": dict,
    "opp_deck": list,
    "opp_spaces": list,
    "supply": dict,
    "players": lambda v: [_copy_player(p) for p in v],
    "claims": list,
    "done": list,
    "surveyed": list,
    "pending": lambda v: [_copy_flat(p) for p in v],
    "held": lambda v: None if v is None else dict(v),
}
# Keys known to hold a plain value (shared by the copy: immutable).
_SCALARS = frozenset(("n", "version", "round", "phase", "first_player", "turn", "round_track", "card", "cards_left",
                      "opp_known_bottom", "vp_seq", "blind"))
_NAMED = _SCALARS | frozenset(_COPY)


def fork(state: State) -> State:
    """A deep copy of a Riverboat state that shares no dict or list with it (the look-ahead
    copy of the decide loop; `testkit.check_deep_fork` proves it in the tests)."""
    return fork_by_table(state, _COPY, _NAMED)  # type: ignore[return-value]
