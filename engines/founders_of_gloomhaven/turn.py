"""The turn (seed-FoG p. 11, p. 14): play a card, the main action it must be able to resolve, Call
to Vote and its reset; income (p. 15); achievements (p. 19)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tablero.engines.core import IllegalAction

from . import data as D
from .build import _build_options, _check_road, _road_cells
from .common import Action, Event, State, _card_category, _owned_types, _p, _version
from .delivery import _with_deliveries
from .trade import _access_options, _import_access_options, _import_options, _recruit_options
from .upgrade import _road_first_resolves, _upgrade_options


# ============================================================================================
# the turn: play a card, follow, call a vote
# ============================================================================================
def _main_options(state: State, seat: int, category: str, card: str):
    """Can `card` (face up) resolve its main action now? (seed-FoG p. 11)"""
    adv = D.ADVISERS.get(card, {})
    probe = dict(state)  # generators only read: a shallow copy with another `cur`
    probe["cur"] = {"seat": seat, "role": "lead", "category": category, "card": card,
                    "discount": adv.get("discount", 0), "bonus": adv.get("bonus", {})}
    for gen in _MAIN_GENERATORS[category]:
        for _ in gen(probe, seat):
            return True
    # v10: the Upgrade leader may build its road before the tile (p. 12), so a card only a road
    # first can resolve is playable face up (v4-v9 judged it without that road)
    return category == "upgrade" and _version(state) >= 10 and _road_first_resolves(probe, seat)


def _check_play(state: State, seat: int, a: Action) -> None:
    card, up = a["card"], a["face_up"]
    pl = _p(state, seat)
    if card not in pl["hand"]:
        raise IllegalAction(f"{card} is not in your hand")
    if card == "vote":
        raise IllegalAction("the Call to Vote card is played with call_vote, never face down")
    if up and card != "income" and not _main_options(state, seat, _card_category(card), card):
        raise IllegalAction(f"the main action of {card} cannot be resolved now")


def _play(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    card, up = a["card"], a["face_up"]
    if not up:
        return [{"type": "card_played", "seat": seat, "face_up": False, "private": {str(seat): {"card": card}}}]
    evs = [{"type": "card_played", "seat": seat, "face_up": True, "card": card}]
    if card == "income":
        evs.append(_income_event(state, seat))
    return evs


def _play_options(state: State, seat: int) -> Iterator[Action]:
    pl = _p(state, seat)
    known: dict[tuple[str, int], bool] = {}  # the main action's feasibility by (category, discount)
    for card in dict.fromkeys(pl["hand"]):
        if card == "vote":
            continue
        yield {"type": "play_card", "card": card, "face_up": False}
        if card == "income":
            yield {"type": "play_card", "card": card, "face_up": True}
            continue
        key = (_card_category(card), D.ADVISERS.get(card, {}).get("discount", 0))
        if key not in known:
            known[key] = _main_options(state, seat, key[0], card)
        if known[key]:
            yield {"type": "play_card", "card": card, "face_up": True}


def _income_event(state: State, seat: int):
    pl = _p(state, seat)
    houses = pl["houses"]
    return {"type": "income_collected", "seat": seat, "money": len(_owned_types(state, seat)), "fleeting": houses}


def _vote_min(state: State) -> int:
    return 3 if state["n"] == 2 else 2


def _check_call_vote(state: State, seat: int, a: Action) -> None:
    pl = _p(state, seat)
    if state["solo"]:
        raise IllegalAction("in the solo game the vote is called when the rest of the hand is played")
    if "vote" not in pl["hand"]:
        raise IllegalAction("your Call to Vote card is not in your hand")
    if len(pl["played"]) < _vote_min(state):
        raise IllegalAction(f"a vote needs at least {_vote_min(state)} cards played since your last vote")


def _call_vote(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "vote_called", "seat": seat, "benefits": len(_p(state, seat)["hand"]) - 1}]


def _call_vote_options(state: State, seat: int) -> Iterator[Action]:
    try:
        _check_call_vote(state, seat, {})
    except IllegalAction:
        return
    yield {"type": "call_vote"}


def _check_reset(state: State, seat: int, a: Action) -> None:
    if a["kind"] == "road":
        if "cell" not in a:
            raise IllegalAction("a road benefit names its cell")
        _check_road(state, seat, a)
    elif "cell" in a:
        raise IllegalAction("only the road benefit names a cell")


def _reset(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    ev = {"type": "reset_benefit", "seat": seat, "kind": a["kind"]}
    if a["kind"] == "road":
        ev["cell"] = a["cell"]
        return _with_deliveries(state, [ev])
    return [ev]


def _reset_options(state: State, seat: int) -> Iterator[Action]:
    yield {"type": "reset_benefit", "kind": "money"}
    yield {"type": "reset_benefit", "kind": "influence"}
    for c in _road_cells(state, seat):
        yield {"type": "reset_benefit", "kind": "road", "cell": c}


# ============================================================================================
# achievements (seed-FoG p. 19)
# ============================================================================================
def _metric(state: State, seat: int, metric: str) -> int:
    pl = _p(state, seat)
    if metric == "distinct_owned":
        return len(_owned_types(state, seat))
    if metric == "advanced_tiles":
        return sum(1 for t in state["tiles"] if t["owner"] == seat and t["kind"] in ("t2", "t3"))
    if metric == "deliveries":
        return sum(1 for pb in state["prestige"] if seat in pb["delivered"])
    if metric == "roads_built":
        return pl["roads"]
    return pl[metric]


def _achievement_events(state: State, deck: str) -> list[dict]:
    ach = state["achievements"]
    if not ach:
        return []
    aid = ach[deck]
    spec = D.ACHIEVEMENTS[aid]
    if deck == "immediate" and aid in state["ach_scored"] and _version(state) >= 7:
        # v7: each card is scored "en un momento concreto" (p. 19): the immediate one at the end
        # of the turn in which any player first meets it, by every player meeting it then; a
        # player meeting it later scores nothing. v1-v6 scored it again for each later player.
        return []
    done = state["ach_scored"].get(aid, [])
    seats = [s for s in range(state["n"]) if s not in done and _metric(state, s, spec["metric"]) >= spec["at_least"]]
    if not seats:
        return []
    return [{"type": "achievement_scored", "achievement": aid, "scorers": seats, "value": spec["value"]}]


# ============================================================================================
# the tables
# ============================================================================================
_MAIN_GENERATORS = {
    "recruit": (_recruit_options,),
    "trade": (_import_options, _access_options, _import_access_options),
    "upgrade": (_upgrade_options,),
    "build": (_build_options,),
}
