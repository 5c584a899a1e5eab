"""Riverboat's phases (the `PHASES_TABLE`): who acts, what happens without a decision, when
each phase ends and what follows.

The draft and the five phases of a round, each with its `to_act`, its automatic steps (crop
cards, the planting refill), its end (`ends`), what the end does (`on_end`: the cards left
go back, the round's scoring) and the phase that follows (`then`, entered by
`enter_phase`: the phase tile's bonus, the next round, the game's end); and the decisions a
single seat owes inside a phase (`step`: the first item of `state.pending`).

    draft → cultivation → planting → harvest → opportunity → scoring → draft (round 4: over)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

from tablero.engines.core import Phase, branch

from . import board, scoring
from .data import (
    BOATS,
    PHASES,
    ROUNDS,
    TILE_KINDS,
    WILD,
)
from .events import _next
from .moves import (
    _agents_max,
    _any_board_plant,
    _claim_limit,
    _gains,
    _offered_features,
    _pile_sizes,
    _scoring_bonuses,
    _survey_limit,
    _workers_per_crop,
)
from .state import Event, Pending, State


def _current(s: State, eligible: Callable[[State, int], bool]) -> int | None:
    """The seat on turn in a sequential phase: the first eligible seat clockwise from `turn`
    (None: nobody has anything left to do, the phase is over)."""
    seat = s["turn"]
    for _ in range(s["n"]):
        if eligible(s, seat):
            return seat
        seat = _next(s, seat)
    return None


def _on_turn(eligible: Callable[[State, int], bool]) -> Callable[[State], tuple[int, ...]]:
    def to_act(s: State) -> tuple[int, ...]:
        cur = _current(s, eligible)
        return () if cur is None else (cur,)
    return to_act


def _can_plant(s: State, seat: int) -> bool:
    # seed-R phase 2: the phase runs until no worker stands on an empty field.
    return bool(board.uncovered_workers(s["players"][seat]))


def _can_claim(s: State, seat: int) -> bool:
    """A boat this seat can fill: one on the board, or (with a coin) one left in its pile, whose
    capacity its workers on one crop reach (`_claims` lists them)."""
    if s["done"][seat] or s["claims"][seat] >= _claim_limit(s):
        return False
    p = s["players"][seat]
    most = max(_workers_per_crop(p).values())
    coin = p["coins"] > 0
    return any(b["capacity"] <= most and (s["boat_board"][b["id"]] or (coin and s["boat_piles"][b["id"]] > 0))
               for b in BOATS)


def _can_take_card(s: State, seat: int) -> bool:
    p = s["players"][seat]
    return not s["done"][seat] and (any(c is not None for c in s["opp_spaces"]) or (p["coins"] > 0 and bool(s["opp_deck"])))


def _can_survey(s: State, seat: int) -> bool:
    p = s["players"][seat]
    return (not s["done"][seat] and s["surveyed"][seat] < _survey_limit(s) and p["surveyors"] > 0
            and (any(f is not None and not done for f, done in zip(p["feature"], p["scored"], strict=True))
                 or any(not o["scored"] for o in p["opps"])))


def _refill_fills(s: State) -> dict:
    fills = {}
    for size in ("1", "2", "3"):
        pile = s["piles"][size]
        empty = [i for i, k in enumerate(s["slots"][size]) if k is None]
        row = [[slot, kind] for slot, kind in zip(empty, pile, strict=False)]
        if row:
            fills[size] = row
    return fills


def _round_track_worker(s: State, holder: int) -> list[Event]:
    """Cultivation tile (seed-R phase 1): take the leftmost round-track worker and place it at
    once (our decision: with no empty field it goes to the personal supply)."""
    if s["round_track"] <= 0:
        return []
    return [{"type": "round_track_worker_taken", "seat": holder,
             "place": bool(board.empty_fields(s["players"][holder]))}]


def _gain(benefit: dict) -> Callable[[State, int], list[Event]]:
    """A phase tile's bonus taken from the general supply (if any is left)."""
    def bonus(s: State, holder: int) -> list[Event]:
        gains = _gains(s, holder, benefit)
        return [{"type": "gained", "seat": holder, "gains": gains, "reason": "phase_bonus"}] if gains else []
    return bonus


def _no_gain(s: State, holder: int) -> list[Event]:
    return []


# Each phase tile's bonus at the start of its phase (seed-R, each phase's heading), and the
# decision its holder then owes first (the Scoring tile: choose coin, harbor or agent).
PHASE_TILE_BONUS: dict[str, tuple[Callable[[State, int], list[Event]], str | None]] = {
    "cultivation": (_round_track_worker, None),
    "planting": (_gain({"coins": 1}), None),
    "harvest": (_gain({"harbor": 1}), None),
    "opportunity": (_gain({"vp": 1}), None),
    "scoring": (_no_gain, "scoring_bonus"),
}


def _start_phase(s: State, phase: str) -> list[Event]:
    """The phase starts, its tile holder first taking the tile's bonus; play then runs
    clockwise from the holder (seed-R "Cinco fases")."""
    holder = s["phase_tiles"][PHASES.index(phase)]
    bonus, owed = PHASE_TILE_BONUS[phase]
    pending = [{"seat": holder, "kind": owed}] if owed else []
    return [{"type": "phase_started", "phase": phase, "holder": holder, "pending": pending}, *bonus(s, holder)]


def _tiles_drafted(s: State) -> bool:
    """every phase tile has been chosen"""
    return None not in s["phase_tiles"]


def _card_due(s: State) -> bool:
    return s["cards_left"] > 0 and bool(s["crop_deck"])


def _must_place(s: State, seat: int, card: str) -> bool:
    """seed-R phase 1: every player with a worker in supply places one for the card (with a coin
    any empty field will do); a player with no empty field at all is not asked."""
    p = s["players"][seat]
    if p["workers"] <= 0:
        return False
    empty = board.empty_fields(p)
    if not empty:
        return False
    if card == WILD or p["coins"] > 0:
        return True
    cols = board.COLOUR[p["mat"]]
    return any(cols[c] == card for c in empty)


def _cultivation_auto(s: State, rng: random.Random) -> list[Event] | None:
    if s["waiting"] or not _card_due(s):
        return None
    card = s["crop_deck"][0]
    must = [seat for seat in range(s["n"]) if _must_place(s, seat, card)]
    return [{"type": "crop_card_revealed", "card": card, "must_place": must}]


def _cultivated(s: State) -> bool:
    """every crop card of the round has been placed for"""
    return not s["waiting"] and not _card_due(s)


def _planting_auto(s: State, rng: random.Random) -> list[Event] | None:
    cur = _current(s, _can_plant)
    if cur is None:
        return None
    p = s["players"][cur]
    if _any_board_plant(s, p):
        return None
    # seed-R phase 2: at the start of your turn, if the face-up tiles cannot fill your
    # uncovered workers, refill the whole board, then take a tile.
    fills = _refill_fills(s)
    if fills:
        return [{"type": "crop_tiles_refilled", "seat": cur, "fills": fills}]
    if not _pile_sizes(s, p):
        return [{"type": "workers_returned", "seat": cur, "cells": board.uncovered_workers(p)}]
    return None


def _planted(s: State) -> bool:
    """no worker stands on an empty field"""
    return _current(s, _can_plant) is None


def _harvested(s: State) -> bool:
    """nobody can claim a boat any more (or all passed)"""
    return _current(s, _can_claim) is None


def _opportunities_taken(s: State) -> bool:
    """nobody can take a card any more (or all passed)"""
    return _current(s, _can_take_card) is None


def _return_opportunities(s: State, rng: random.Random) -> list[Event]:
    """the cards left on the opportunity spaces go back (`opportunities_returned`)"""
    left = [c for c in s["opp_spaces"] if c is not None]
    return [{"type": "opportunities_returned", "cards": left}] if left else []


def _surveyed(s: State) -> bool:
    """nobody can place a surveyor any more (or all passed)"""
    return _current(s, _can_survey) is None


def _score_round(s: State, rng: random.Random) -> list[Event]:
    """round scoring: 1 VP per active surveyor and per agent (`round_scored`; seed-R phase 5)"""
    vp = [p["active_surveyors"] + p["agents"] for p in s["players"]]
    holder = s["phase_tiles"][PHASES.index("scoring")]
    order = [(holder + i) % s["n"] for i in range(s["n"])]
    return [{"type": "round_scored", "round": s["round"], "vp": vp, "order": order}]


def _after_scoring(s: State) -> str:
    return "over" if s["round"] >= ROUNDS else "draft"


def _game_end(s: State) -> list[Event]:
    details = scoring.final_scoring(cast(dict, s))
    scores = [row["total"] for row in details]
    best = max(scores)
    return [{"type": "game_ended", "scores": scores,
             "winners": [i for i, v in enumerate(scores) if v == best], "details": details}]


def _next_round(s: State) -> list[Event]:
    """The round's end (read on the score track after the round's scoring) and the next round's
    start: seed-R "Fin de la Ronda" and "Inicio de una ronda"."""
    if s["n"] == 3 and s["round"] == 3:
        # seed-R: in a 3-player game, after round 3 the marker goes to the player furthest
        # behind on the score track; on a tie, to the marker on top of the stack.
        fp = min(range(3), key=lambda i: (s["players"][i]["vp"], -s["players"][i]["vp_at"]))
    else:
        fp = _next(s, s["first_player"])
    # seed-R "Inicio de una ronda": refill crop tiles, one boat of each type, four cards.
    ids = [cast(str, b["id"]) for b in BOATS]
    boats = [b for b in ids if not s["boat_board"][b] and s["boat_piles"][b] > 0]
    deck = list(s["opp_deck"])
    spaces = [deck.pop(0) if (c is None and deck) else None for c in s["opp_spaces"]]
    return [{"type": "round_ended", "round": s["round"], "first_player": fp},
            {"type": "round_started", "round": s["round"] + 1, "fills": _refill_fills(s), "boats": boats,
             "opportunity_spaces": spaces}]


def enter_phase(s: State, name: str) -> list[Event]:
    """The events that start a phase after the one before it ended (`Riverboat.enter_phase`):
    a new round's draft, the game's end, or one of the five phases with its tile's bonus."""
    if name == "draft":
        return _next_round(s)
    if name == "over":
        return _game_end(s)
    return _start_phase(s, name)


def _owner(s: State) -> tuple[int, ...]:
    return (s["pending"][0]["seat"],)


def _unless(has_choice: Callable[[State, Pending], bool]) -> Callable[[State, random.Random], list[Event] | None]:
    """A pending step with nothing to choose from is dropped (seed-R: an exhausted supply gives
    nothing); otherwise its seat decides."""
    def auto(s: State, rng: random.Random) -> list[Event] | None:
        item = s["pending"][0]
        if has_choice(s, item):
            return None
        return [{"type": "pending_dropped", "seat": item["seat"], "reason": "unavailable"}]
    return auto


def _feature_auto(s: State, rng: random.Random) -> list[Event] | None:
    item = s["pending"][0]
    kinds = _offered_features(s, item)
    if not kinds:
        return [{"type": "pending_dropped", "seat": item["seat"], "reason": "unavailable"}]
    if kinds == ["surveyor"] and not item.get("optional"):
        # Our decision: a surveyor benefit with surveyors in the supply leaves nothing to choose.
        return [{"type": "surveyor_taken", "seat": item["seat"]}]
    return None


def _pile_has_fit(s: State, item: Pending) -> bool:
    free = board.uncovered_workers(s["players"][item["seat"]])
    return any(board.fits(free, TILE_KINDS[k]["crops"]) for k in set(s["piles"][item["size"]]))


def _drawn_fits(s: State, item: Pending) -> bool:
    return board.fits(board.uncovered_workers(s["players"][item["seat"]]), TILE_KINDS[s["held"]["kind"]]["crops"])


def _scoring_bonus_open(s: State, item: Pending) -> bool:
    return bool(_scoring_bonuses(s, item["seat"]))


PHASES_TABLE = (
    Phase("draft", to_act=lambda s: (s["turn"],), ends=_tiles_drafted, then="cultivation",
          rule="seed-R Inicio de una ronda", doc="phase-tile draft"),
    Phase("cultivation", to_act=lambda s: s["waiting"], auto=_cultivation_auto, ends=_cultivated, then="planting",
          rule="seed-R phase 1; issue 4 (simultaneous)",
          doc="Cultivation: 8 crop cards, every player places a worker for each, all at once"),
    Phase("planting", to_act=_on_turn(_can_plant), auto=_planting_auto, ends=_planted, then="harvest",
          rule="seed-R phase 2", doc="Planting: in turn, take a crop tile for your uncovered workers"),
    Phase("harvest", to_act=_on_turn(_can_claim), ends=_harvested, then="opportunity", rule="seed-R phase 3",
          doc="Harvest & Shipping: in turn, claim a riverboat or pass"),
    Phase("opportunity", to_act=_on_turn(_can_take_card), ends=_opportunities_taken,
          on_end=_return_opportunities, then="scoring", rule="seed-R phase 4",
          doc="Opportunity: in turn, take one opportunity card; the cards left go back"),
    Phase("scoring", to_act=_on_turn(_can_survey), ends=_surveyed, on_end=_score_round,
          then=branch(_after_scoring, "draft", "over"), rule="seed-R phase 5, Fin de la Ronda",
          doc="Scoring: in turn, place surveyors or pass; then round scoring and the round's end "
              "(after round 4, the game's end)"),
    # Steps a single seat owes before the phase goes on (the first item of `pending`).
    Phase("bonus_worker", to_act=_owner, auto=_unless(lambda s, i: bool(board.empty_fields(s["players"][i["seat"]]))),
          step=True, rule="seed-R phase 1 bonus", doc="place the round-track worker"),
    Phase("scoring_bonus", to_act=_owner, auto=_unless(_scoring_bonus_open), step=True, rule="seed-R phase 5 bonus",
          doc="choose the Scoring tile's bonus"),
    Phase("feature", to_act=_owner, auto=_feature_auto, step=True, rule="seed-R Características inmobiliarias",
          doc="take the estate feature a benefit gives"),
    Phase("choose_from_pile", to_act=_owner, auto=_unless(_pile_has_fit), step=True,
          rule="seed-R phase 2 coin ability", doc="choose a tile from the pile you searched"),
    Phase("choose_from_deck", to_act=_owner, auto=_unless(lambda s, i: bool(s["opp_deck"])), step=True,
          rule="seed-R phase 4 coin ability", doc="choose a card from the deck you searched"),
    Phase("place_drawn_tile", to_act=_owner, auto=_unless(_drawn_fits), step=True, rule="issue 4 (blind coin draws)",
          doc="lay the tile you drew"),
    Phase("agents", to_act=_owner, auto=_unless(lambda s, i: _agents_max(s) > 0), step=True, rule="seed-R Agentes",
          doc="send workers to New Orleans"),
    Phase("over", to_act=lambda s: (), rule="seed-R Fin del juego", doc="the game is over"),
)
