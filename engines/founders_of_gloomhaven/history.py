"""Shaping history (seed-FoG p. 19): v8 names the winner's race event card; v1-v7 kept the
winner's record in the game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tablero.engines.core import IllegalAction, InvalidAction

from . import data as D
from .board import board_of
from .common import Action, Event, State, _p, _version

# ============================================================================================
# Shaping history (p. 19)
# ============================================================================================
# v8: the game ends with the event (`event_card_given`) naming the winner's race event card and
# what its three blanks need; the blanks are filled in on the printed card, outside the game (the
# governing body's name is free text: no legal action can enumerate it). See RULES.md.
HISTORY_BLANKS = ("building", "section", "governing_body")


def _event_card_events(state: State, winners: list[int]) -> list[dict]:
    if _version(state) < 8 or not state["variants"]["shaping_history"] or not winners:
        return []
    seat = winners[0]
    race = _p(state, seat)["race"]
    spec = D.edition(state).PRESTIGE
    b = board_of(state)
    placed = []
    for pb in state["prestige"]:
        sec = state["tiles"][pb["tile"]]["section"]
        placed.append({"card": pb["card"], "name": spec[pb["card"]]["name"],
                       "section": b.section_names[b.sections[sec]] if sec is not None else None,
                       "deliveries": sum(1 for o in pb["delivered"] if o == seat), "complete": pb["complete"]})
    # the favourite "contributed to the victory": the buildings carrying the winner's delivery
    # tokens, most first; with none, any building of the city (the text does not say)
    mine = sorted((x for x in placed if x["deliveries"]), key=lambda x: -x["deliveries"])
    return [{"type": "event_card_given", "seat": seat, "race": race, "card": D.EVENT_CARDS[race],
             "buildings": mine or placed, "delivered_to": bool(mine), "blanks": list(HISTORY_BLANKS)}]


# The section names the engine writes into `event_card_given` and the result (and v1-7's recorded
# history) are the English names of the map (edition.json); `section_id` beside each (`left`,
# `middle`, `right`, the map's own ids) lets a client word it from its catalog (label.section).
# Added where they are read (event_view of `event_card_given`, the view, the outcome), not to the
# state or the log, so logged games get it too and replays are unchanged.
SECTION_IDS: dict[str, str] = {name: sid for b in D.BOARDS.values() for sid, name in b.section_names.items()}


def with_section_ids(obj: Any) -> Any:
    """A result, an `event_card_given` event or a recorded history, with a
    `section_id` beside every section name it carries (a copy when it changes)."""
    if not isinstance(obj, dict):
        return obj
    out = obj
    if isinstance(obj.get("section"), str) and obj["section"] in SECTION_IDS and "section_id" not in obj:
        out = {**obj, "section_id": SECTION_IDS[obj["section"]]}
    if isinstance(obj.get("buildings"), list):
        out = {**out, "buildings": [with_section_ids(x) for x in obj["buildings"]]}
    for key in ("shaping_history", "history"):
        if isinstance(obj.get(key), dict):
            out = {**out, key: with_section_ids(obj[key])}
    return out


def _history_due(state: State) -> bool:
    """v1-v7 only: the winner recorded the history in the game (`record_history`)."""
    return (state["over"] is not None and state["variants"]["shaping_history"] and state["history"] is None
            and bool(state["over"]["winners"]) and bool(state["prestige"]) and _version(state) < 8)


def _check_history(state: State, seat: int, a: Action) -> None:
    if a["building"] not in [pb["card"] for pb in state["prestige"]]:
        raise IllegalAction("name a prestige building on the board")
    if not a["governing_body"].strip():  # malformed, as an empty name is (400), not a move out of place
        raise InvalidAction("name the new governing body (not only spaces)")


def _history(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    pb = next(pb for pb in state["prestige"] if pb["card"] == a["building"])
    b = board_of(state)
    section = b.sections[state["tiles"][pb["tile"]]["section"]]
    return [{"type": "history_recorded", "seat": seat, "building": a["building"],
             "section": b.section_names[section], "governing_body": a["governing_body"].strip()}]


def _history_options(state: State, seat: int) -> Iterator[Action]:
    for pb in state["prestige"]:
        yield {"type": "record_history", "building": pb["card"], "governing_body": f"Council of the {pb['card']}"}
