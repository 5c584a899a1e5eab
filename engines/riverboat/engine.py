"""Riverboat (Michael Kiesling, Lookout 2017) written as rules: a move table and a phase table.

Four rounds; each round the five phase tiles are drafted, then the phases run in order:
Cultivation, Planting, Harvest & Shipping, Opportunity, Scoring. Then the final scoring.
Rule sources are cited as seed-R (the rulebook text), facts (shared/rules/riverboat.md) or
"our edition" (see RULES.md and data.py).

How the file reads (`engines.core.RulesEngine` interprets the tables):
- the events and what each does to the state (`ON`), the only code that changes a state;
- the moves, grouped by the phase of the rulebook that allows them, each declared once in
  `MOVES`: fields, phases, `check` (legality, raising the reason a player reads), `resolve`
  (the events) and `options` (its legal instances);
- the phases in `PHASES_TABLE`: who acts (`to_act`) and what happens without a decision
  (`auto`: phase-tile bonuses, revealing crop cards, refills, ends of phases and rounds).

Turn structure. Sequential phases keep a pointer `turn`; the seat to act is the first
*eligible* seat scanning clockwise from it (players with nothing left to do are skipped, as
the rulebook skips them). Cultivation is simultaneous: every seat that must place a worker
for the revealed card is in `waiting`. Decisions a single seat owes right now (place the
round-track worker, choose the scoring bonus, place an estate feature, send agents, choose
from a searched pile) queue in `pending`; the first one is the current step of the phase
table, and its seat alone acts.

Versions. v2 fixes the coin paid for a riverboat from its pile: it is back in the general
supply before the boat's benefit is taken (seed-R "Coge 1 moneda del suministro general (si
queda alguna)"). Games started under v1 keep the v1 reading (their state has no "version").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engines.core import IllegalAction, Move, Phase, RulesEngine, array, boolean, clone, integer, string

from . import board, scoring
from .data import (
    BOAT_CLAIMS_PER_ROUND,
    BOAT_TYPES,
    BOATS,
    CARD_SPACE_BONUSES,
    COIN_PILE_SIZES,
    CROP_CARDS,
    CROP_TILES,
    CROPS,
    CULTIVATION_CARDS_PER_ROUND,
    FIELD_COLOURS,
    HARBOR_LAST_SPACE,
    HARBOR_START,
    HARVEST_BONUS_AT,
    MAT_COLS,
    MAT_ROWS,
    MATS,
    OPPORTUNITY,
    OPPORTUNITY_CARDS,
    PHASES,
    ROUND_TRACK_WORKERS,
    ROUNDS,
    START_COINS,
    START_SURVEYORS,
    START_WORKERS,
    SUPPLY,
    SUPPLY_SLOTS,
    SURVEYORS_PER_ROUND,
    TILE_KINDS,
    TILE_VP,
    WILD,
)
from .state import Pending, Player, RiverboatState

State = RiverboatState
Event = dict[str, Any]
Action = dict[str, Any]

FEATURES = ("barn", "well", "surveyor")
# Actions that spend a coin (seed-R coin abilities of Planting and Opportunity).
COIN_TYPES = ("search_pile", "search_opportunity_deck", "draw_tile", "draw_opportunity")
SCORING_BONUSES = ("coin", "harbor", "agent")
PHASE_TITLE = {"draft": "Phase draft", "cultivation": "Cultivation", "planting": "Planting",
               "harvest": "Harvest & Shipping", "opportunity": "Opportunity", "scoring": "Scoring"}
# A pending step belongs to the phase of the rulebook whose coin ability opens it.
STEP_OF = {"choose_from_pile": "planting", "place_drawn_tile": "planting", "choose_from_deck": "opportunity"}
# Probe tiles: every tile of one size fits the same cells (tiles turn), so one probe per size.
_PROBE = {"1": ["beet"], "2": ["beet", "wheat"]}


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _next(s: State, seat: int) -> int:
    return (seat + 1) % s["n"]


def _where(s: State) -> str:
    return PHASE_TITLE.get(s["phase"], s["phase"])


def _claim_limit(s: State) -> int:
    return BOAT_CLAIMS_PER_ROUND[s["round"] - 1]


def _survey_limit(s: State) -> int:
    return SURVEYORS_PER_ROUND[s["round"] - 1]


def _need_coin(s: State, seat: int) -> None:
    if s["players"][seat]["coins"] <= 0:
        raise IllegalAction(f"{_where(s)}: you have no coin to spend")


# =====================================================================================
# Events: what each does to the state (the `on` table). The only code that changes a state.
# =====================================================================================
def _add_vp(s: State, seat: int, vp: int, reason: str) -> None:
    if vp <= 0:
        return
    p = s["players"][seat]
    p["vp"] += vp
    p["vp_by"][reason] = p["vp_by"].get(reason, 0) + vp
    # Score track: an arriving marker goes on top of the markers already there (3p rule).
    s["vp_seq"] += 1
    p["vp_at"] = s["vp_seq"]


def _apply_gains(s: State, seat: int, gains: dict, reason: str) -> None:
    p = s["players"][seat]
    c = gains.get("coins", 0)
    p["coins"] += c
    s["supply"]["coins"] -= c
    k = gains.get("surveyors", 0)
    p["surveyors"] += k
    s["supply"]["surveyors"] -= k
    p["harbor"] += gains.get("harbor", 0)
    _add_vp(s, seat, gains.get("vp", 0), reason)


def _pay_coin(s: State, seat: int) -> None:
    # seed-R "Monedas": a spent coin goes back to the general supply.
    s["players"][seat]["coins"] -= 1
    s["supply"]["coins"] += 1


def _on_game_started(state: None, e: Event) -> State:
    n = e["seats"]
    start = HARBOR_START[str(n)]
    players = []
    for mat in e["mats"]:
        p = {"mat": mat, **board.new_mat()}
        p.update(workers=START_WORKERS, coins=START_COINS, surveyors=START_SURVEYORS, active_surveyors=0,
                 vp=0, vp_by={}, vp_at=0, harbor=start, harbor_start=start, boats=[],
                 harvested={c: 0 for c in CROPS}, harvest_bonus=[], agents=0, opps=[])
        players.append(p)
    supply = dict(SUPPLY)
    supply["coins"] -= START_COINS * n
    supply["surveyors"] -= START_SURVEYORS * n
    secret = e["secret"]
    fp = e["first_player"]
    s = {
        "n": n, "round": 1, "phase": "draft", "first_player": fp, "turn": fp,
        "phase_tiles": [None] * len(PHASES), "round_track": ROUND_TRACK_WORKERS,
        "crop_deck": list(secret["crop_deck"]), "card": None, "cards_left": 0, "waiting": [],
        "piles": {k: list(v) for k, v in secret["piles"].items()},
        "slots": {k: list(v) for k, v in e["crop_supply"].items()},
        "boat_piles": {b["id"]: b["count"] - 1 for b in BOATS},
        "boat_board": {b["id"]: True for b in BOATS},
        "opp_deck": list(secret["opportunity_deck"]), "opp_known_bottom": 0,
        "opp_spaces": list(e["opportunity_spaces"]),
        "supply": supply, "players": players,
        "claims": [0] * n, "done": [False] * n, "surveyed": [0] * n,
        "pending": [], "vp_seq": 0, "result": None, "held": None,
        "blind": (e.get("options") or {}).get("coin_draws") == "blind",
    }
    # v1 states carry no version (their golden logs keep their hashes); v2 on record it.
    if e.get("engine_version", 1) >= 2:
        s["version"] = e["engine_version"]
    return s  # type: ignore[return-value]


def _on_phase_chosen(s: State, e: Event) -> None:
    s["phase_tiles"][PHASES.index(e["phase"])] = e["seat"]
    s["turn"] = _next(s, e["seat"])


def _on_phase_started(s: State, e: Event) -> None:
    s["phase"] = e["phase"]
    s["turn"] = e["holder"]
    n = s["n"]
    s["claims"], s["done"], s["surveyed"] = [0] * n, [False] * n, [0] * n
    if e["phase"] == "cultivation":
        s["cards_left"] = CULTIVATION_CARDS_PER_ROUND
    else:
        s["card"] = None  # the revealed crop cards are put away after Cultivation
    for item in e.get("pending", []):
        s["pending"].append(dict(item))


def _on_gained(s: State, e: Event) -> None:
    _apply_gains(s, e["seat"], e["gains"], e["reason"])


def _on_round_track_worker_taken(s: State, e: Event) -> None:
    s["round_track"] -= 1
    s["players"][e["seat"]]["workers"] += 1
    if e["place"]:
        s["pending"].append({"seat": e["seat"], "kind": "bonus_worker"})


def _on_worker_placed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["worker"][e["cell"]] = True
    p["workers"] -= 1
    if e["coin"]:
        _pay_coin(s, e["seat"])
    if e["bonus"]:
        s["pending"].pop(0)
    else:
        s["waiting"].remove(e["seat"])


def _on_placement_skipped(s: State, e: Event) -> None:
    s["waiting"].remove(e["seat"])


def _on_crop_card_revealed(s: State, e: Event) -> None:
    s["crop_deck"].pop(0)
    s["card"] = e["card"]
    s["cards_left"] -= 1
    s["waiting"] = list(e["must_place"])


def _on_crop_tiles_refilled(s: State, e: Event) -> None:
    for size, fills in e["fills"].items():
        for slot, kind in fills:
            s["slots"][size][slot] = kind
            s["piles"][size].pop(0)


def _on_tile_planted(s: State, e: Event) -> None:
    seat = e["seat"]
    p = s["players"][seat]
    crops = TILE_KINDS[e["kind"]]["crops"]
    for cell, crop in zip(e["cells"], crops, strict=True):
        p["crop"][cell] = crop
    size = str(len(crops))
    if e.get("drawn"):
        s["held"] = None
        s["pending"].pop(0)
    elif e["slot"] is None:
        # Chosen from a searched pile (the coin was paid when searching): the rest of the
        # pile is shuffled (seed-R), its new order is in the event's secret.
        s["piles"][size] = list(e["secret"]["pile"])
        s["pending"].pop(0)
    else:
        s["slots"][size][e["slot"]] = None
    _add_vp(s, seat, e["vp"], "crop_tiles")
    s["turn"] = _next(s, seat)


def _on_pile_searched(s: State, e: Event) -> None:
    # seed-R phase 2 coin ability: pay a coin, look through the face-down pile (its contents
    # are shown to the searcher only, in the event's "private" part) and choose a tile.
    _pay_coin(s, e["seat"])
    s["pending"].append({"seat": e["seat"], "kind": "choose_from_pile", "size": str(e["size"])})


def _on_opportunity_deck_searched(s: State, e: Event) -> None:
    # seed-R phase 4 coin ability: pay a coin, look through the deck (seen by the searcher
    # only) and choose a card.
    _pay_coin(s, e["seat"])
    s["pending"].append({"seat": e["seat"], "kind": "choose_from_deck"})


def _on_tile_drawn(s: State, e: Event) -> None:
    # Blind coin draw: the top tile of the pile, seen only by its drawer until placed.
    seat = e["seat"]
    _pay_coin(s, seat)
    kind = s["piles"][str(e["size"])].pop(0)
    s["held"] = {"seat": seat, "kind": kind}
    s["pending"].append({"seat": seat, "kind": "place_drawn_tile"})


def _on_workers_returned(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    for c in e["cells"]:
        p["worker"][c] = False
    p["workers"] += len(e["cells"])
    s["turn"] = _next(s, e["seat"])


def _on_boat_claimed(s: State, e: Event) -> None:
    seat = e["seat"]
    p = s["players"][seat]
    for c in e["cells"]:
        p["worker"][c] = False
    p["workers"] += len(e["cells"])
    p["harvested"][e["crop"]] += len(e["cells"])
    p["boats"].append(e["boat"])
    if e["coin"]:
        _pay_coin(s, seat)
        s["boat_piles"][e["boat"]] -= 1
    else:
        s["boat_board"][e["boat"]] = False
    if e["harvest_bonus"]:
        p["harvest_bonus"].append(e["crop"])
    _apply_gains(s, seat, e["gains"], "riverboats")
    s["pending"].extend(dict(x) for x in e["pending"])
    s["claims"][seat] += 1
    s["turn"] = _next(s, seat)


def _on_passed(s: State, e: Event) -> None:
    s["done"][e["seat"]] = True
    s["turn"] = _next(s, e["seat"])


def _on_barn_placed(s: State, e: Event) -> None:
    s["players"][e["seat"]]["feature"][e["cell"]] = "barn"
    s["supply"]["barns"] -= 1
    s["pending"].pop(0)


def _on_well_placed(s: State, e: Event) -> None:
    s["players"][e["seat"]]["feature"][e["cell"]] = "well"
    s["supply"]["wells"] -= 1
    s["pending"].pop(0)


def _on_surveyor_taken(s: State, e: Event) -> None:
    s["players"][e["seat"]]["surveyors"] += 1
    s["supply"]["surveyors"] -= 1
    s["pending"].pop(0)


def _on_pending_dropped(s: State, e: Event) -> None:
    s["pending"].pop(0)


def _on_agents_sent(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["workers"] -= e["count"]
    p["agents"] += e["count"]
    s["pending"].pop(0)


def _on_bonus_chosen(s: State, e: Event) -> None:
    seat = e["seat"]
    if e["bonus"] == "agent":
        p = s["players"][seat]
        p["workers"] -= 1
        p["agents"] += 1
    else:
        _apply_gains(s, seat, e["gains"], "phase_bonus")
    s["pending"].pop(0)


def _on_opportunity_taken(s: State, e: Event) -> None:
    seat = e["seat"]
    s["players"][seat]["opps"].append({"id": e["card"], "scored": False})
    if e["space"] is None:
        if e.get("drawn"):
            _pay_coin(s, seat)
            s["opp_deck"].pop(0)
            s["opp_known_bottom"] = min(s["opp_known_bottom"], len(s["opp_deck"]))
        else:
            # Chosen from the searched deck (coin paid when searching); then shuffled.
            s["opp_deck"] = list(e["secret"]["deck"])
            s["opp_known_bottom"] = 0
            s["pending"].pop(0)
    else:
        s["opp_spaces"][e["space"]] = None
        _apply_gains(s, seat, e["gains"], "card_space_bonus")
        s["pending"].extend(dict(x) for x in e.get("pending", []))
    s["done"][seat] = True
    s["turn"] = _next(s, seat)


def _on_opportunities_returned(s: State, e: Event) -> None:
    # seed-R: leftovers go face down to the bottom of the draw pile; that order is public.
    s["opp_deck"].extend(e["cards"])
    s["opp_known_bottom"] += len(e["cards"])
    s["opp_spaces"] = [None] * len(s["opp_spaces"])


def _on_surveyed(s: State, e: Event) -> None:
    seat = e["seat"]
    p = s["players"][seat]
    p["surveyors"] -= 1
    p["active_surveyors"] += 1
    if e["card"] is not None:
        for o in p["opps"]:
            if o["id"] == e["card"]:
                o["scored"] = True
    else:
        p["scored"][e["cell"]] = True
    _add_vp(s, seat, e["vp"], "surveyors_placed")
    s["surveyed"][seat] += 1


def _on_round_scored(s: State, e: Event) -> None:
    # The markers move in the phase's order of play (clockwise from the Scoring tile holder),
    # which decides whose marker ends on top of a shared space (the 3-player rule).
    for seat in e["order"]:
        _add_vp(s, seat, e["vp"][seat], "round_scoring")
    s["card"] = None


def _on_round_ended(s: State, e: Event) -> None:
    s["round"] = e["round"] + 1
    s["first_player"] = e["first_player"]
    s["turn"] = e["first_player"]
    s["phase"] = "draft"
    s["phase_tiles"] = [None] * len(PHASES)


def _on_round_started(s: State, e: Event) -> None:
    _on_crop_tiles_refilled(s, e)
    for b in e["boats"]:
        s["boat_board"][b] = True
        s["boat_piles"][b] -= 1
    for i, card in enumerate(e["opportunity_spaces"]):
        if card is not None:
            s["opp_spaces"][i] = s["opp_deck"].pop(0)
    s["opp_known_bottom"] = min(s["opp_known_bottom"], len(s["opp_deck"]))


def _on_game_ended(s: State, e: Event) -> None:
    for row in e["details"]:
        p = s["players"][row["seat"]]
        p["vp"] += row["final_vp"]
    s["phase"] = "over"
    s["pending"] = []
    s["waiting"] = []
    s["result"] = clone({"scores": e["scores"], "winners": e["winners"], "details": e["details"]})


ON: dict[str, Callable[[Any, Event], Any]] = {
    "game_started": _on_game_started,
    "phase_chosen": _on_phase_chosen,
    "phase_started": _on_phase_started,
    "gained": _on_gained,
    "round_track_worker_taken": _on_round_track_worker_taken,
    "worker_placed": _on_worker_placed,
    "placement_skipped": _on_placement_skipped,
    "crop_card_revealed": _on_crop_card_revealed,
    "crop_tiles_refilled": _on_crop_tiles_refilled,
    "tile_planted": _on_tile_planted,
    "pile_searched": _on_pile_searched,
    "opportunity_deck_searched": _on_opportunity_deck_searched,
    "tile_drawn": _on_tile_drawn,
    "workers_returned": _on_workers_returned,
    "boat_claimed": _on_boat_claimed,
    "passed": _on_passed,
    "barn_placed": _on_barn_placed,
    "well_placed": _on_well_placed,
    "surveyor_taken": _on_surveyor_taken,
    "pending_dropped": _on_pending_dropped,
    "agents_sent": _on_agents_sent,
    "bonus_chosen": _on_bonus_chosen,
    "opportunity_taken": _on_opportunity_taken,
    "opportunities_returned": _on_opportunities_returned,
    "surveyed": _on_surveyed,
    "round_scored": _on_round_scored,
    "round_ended": _on_round_ended,
    "round_started": _on_round_started,
    "game_ended": _on_game_ended,
}


# =====================================================================================
# Benefits: what a printed benefit gives, limited by the supply (shared by several moves)
# =====================================================================================
def _gains(s: State, seat: int, benefit: dict, paid_coins: int = 0) -> dict:
    """Concrete gains, limited by the general supply (seed-R: limited) and the track's end.
    `paid_coins`: coins the same move pays into the supply before the benefit is taken."""
    p = s["players"][seat]
    out = {}
    if benefit.get("coins"):
        out["coins"] = min(benefit["coins"], s["supply"]["coins"] + paid_coins)
    if benefit.get("surveyors"):
        out["surveyors"] = min(benefit["surveyors"], s["supply"]["surveyors"])
    if benefit.get("harbor"):
        out["harbor"] = min(benefit["harbor"], HARBOR_LAST_SPACE - p["harbor"])
    if benefit.get("vp"):
        out["vp"] = benefit["vp"]
    return {k: v for k, v in out.items() if v}


def _benefit(s: State, seat: int, benefit: dict, reason: str, paid_coins: int = 0) -> tuple[dict, list[dict]]:
    """A benefit as printed (boat tiles, card spaces): immediate gains, plus the decisions it
    leaves to its taker (an estate feature to place, workers to send to New Orleans)."""
    gains = _gains(s, seat, benefit, paid_coins)
    pending: list[dict] = []
    if benefit.get("feature"):
        options = list(FEATURES) if benefit["feature"] == "any" else [benefit["feature"]]
        pending.append({"seat": seat, "kind": "feature", "options": options, "reason": reason})
    if benefit.get("agents"):
        pending.append({"seat": seat, "kind": "agents", "max": benefit["agents"]})
    return gains, pending


# =====================================================================================
# Moves, by phase. Each: check (legality with the reason), resolve (events), options.
# =====================================================================================

# --- Draft (seed-R "Inicio de una ronda": pick a phase tile clockwise until all are taken)
def _check_choose_phase(s: State, seat: int, a: Action) -> None:
    if s["phase_tiles"][PHASES.index(a["phase"])] is not None:
        raise IllegalAction(f"Phase draft: the {a['phase']} tile is already taken")


def _choose_phase(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "phase_chosen", "seat": seat, "phase": a["phase"]}]


def _free_phase_tiles(s: State, seat: int) -> Iterator[Action]:
    return ({"type": "choose_phase", "phase": PHASES[i]} for i, owner in enumerate(s["phase_tiles"]) if owner is None)


# --- Cultivation (seed-R phase 1)
def _card_allows(s: State, p: Player, cell: int) -> bool:
    return s["card"] == WILD or board.COLOUR[p["mat"]][cell] == s["card"]


def _check_place_worker(s: State, seat: int, a: Action) -> None:
    p = s["players"][seat]
    c = a["cell"]
    if s["pending"]:  # the round-track worker of the Cultivation tile (phase bonus)
        if a["coin"]:
            raise IllegalAction("Cultivation: the round-track worker is placed without a coin")
        if not board.is_empty_field(p, c):
            raise IllegalAction(f"Cultivation: cell {c} is not an empty field for the round-track worker")
        return
    if a["coin"]:
        _need_coin(s, seat)
    # Legal: an empty field the card allows, or (coin) one it does not allow.
    if board.is_empty_field(p, c) and a["coin"] != _card_allows(s, p, c):
        return
    card = s["card"]
    if p["worker"][c]:
        raise IllegalAction(f"Cultivation: a worker already stands on cell {c}")
    if p["crop"][c] is not None or p["feature"][c] is not None:
        raise IllegalAction(f"Cultivation: cell {c} is not an empty field (it holds a crop tile or a barn)")
    colour = board.COLOUR[p["mat"]][c]
    if a["coin"]:
        if card == WILD:
            raise IllegalAction("Cultivation: the wild card already lets you use any field; no coin is needed")
        raise IllegalAction(f"Cultivation: cell {c} is {_a(colour)} field, which the {card} card already "
                            "allows; no coin is needed")
    raise IllegalAction(f"Cultivation: cell {c} is {_a(colour)} field, not {card} (a coin lets you ignore the card)")


def _place_worker(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "worker_placed", "seat": seat, "cell": a["cell"], "coin": a["coin"],
             "bonus": bool(s["pending"])}]


def _worker_cells(s: State, seat: int) -> list[Action]:
    p = s["players"][seat]
    empty = board.empty_fields(p)
    if s["pending"]:  # the round-track worker: any empty field
        return [{"type": "place_worker", "cell": c, "coin": False} for c in empty]
    # seed-R phase 1: an empty field of the card's colour (any colour on a wild); a coin ignores
    # the card. Our decision: the coin is offered only for fields the card does not allow.
    out = [{"type": "place_worker", "cell": c, "coin": False} for c in empty if _card_allows(s, p, c)]
    if s["card"] != WILD and p["coins"] > 0:
        out += [{"type": "place_worker", "cell": c, "coin": True} for c in empty if not _card_allows(s, p, c)]
    return out


def _has_field_for_card(s: State, p: Player) -> bool:
    return bool(board.empty_fields(p, None if s["card"] == WILD else s["card"]))


def _check_skip(s: State, seat: int, a: Action) -> None:
    if _has_field_for_card(s, s["players"][seat]):
        if s["card"] == WILD:
            raise IllegalAction("Cultivation: you must place a worker, the wild card allows any of your empty fields")
        raise IllegalAction(f"Cultivation: you must place a worker, you have an empty {s['card']} field")


def _skip(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "placement_skipped", "seat": seat}]


def _skip_options(s: State, seat: int) -> list[Action]:
    # Our decision: with no empty field of the card's colour the player may skip.
    return [] if _has_field_for_card(s, s["players"][seat]) else [{"type": "skip"}]


# --- Planting (seed-R phase 2)
def _board_plants(s: State, p: Player) -> Iterator[Action]:
    """Face-up tiles that fit wholly under workers on empty fields, every way they fit."""
    free = board.uncovered_workers(p)
    for size in ("1", "2", "3"):
        for slot, kind in enumerate(s["slots"][size]):
            if kind is None:
                continue
            for cells in board.placements(free, TILE_KINDS[kind]["crops"]):
                yield {"type": "plant", "size": int(size), "slot": slot, "cells": cells}


def _any_board_plant(s: State, p: Player) -> bool:
    free = board.uncovered_workers(p)
    kinds = {k for row in s["slots"].values() for k in row if k is not None}
    return any(board.fits(free, TILE_KINDS[k]["crops"]) for k in kinds)


def _check_plant(s: State, seat: int, a: Action) -> str:
    p = s["players"][seat]
    size, slot, cells = a["size"], a["slot"], a["cells"]
    slots = s["slots"][str(size)]
    if slot >= len(slots) or slots[slot] is None:
        raise IllegalAction(f"Planting: there is no {size}-hex tile on space {slot}")
    if len(cells) != size:
        raise IllegalAction(f"Planting: a {size}-hex tile covers {size} cells, not {len(cells)}")
    kind = slots[slot]
    if not board.is_placement(board.uncovered_workers(p), cells, TILE_KINDS[kind]["crops"]):
        raise IllegalAction("Planting: that tile does not fit on those cells wholly under your workers on empty fields")
    return kind


def _plant(s: State, seat: int, a: Action, kind: str, rng: random.Random) -> list[Event]:
    return [{"type": "tile_planted", "seat": seat, "kind": kind, "slot": a["slot"], "cells": a["cells"],
             "crops": TILE_KINDS[kind]["crops"], "vp": TILE_VP[a["size"]], "coin": False}]


def _plant_options(s: State, seat: int) -> Iterator[Action]:
    return _board_plants(s, s["players"][seat])


def _check_return_workers(s: State, seat: int, a: Action) -> None:
    if _any_board_plant(s, s["players"][seat]):
        raise IllegalAction("Planting: a face-up tile still fits your workers, take one")


def _return_workers(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "workers_returned", "seat": seat, "cells": board.uncovered_workers(s["players"][seat])}]


def _return_workers_options(s: State, seat: int) -> list[Action]:
    # Our decision: when no face-up tile fits even after the refill, the player may give up
    # planting and take the uncovered workers back (or use a coin on the piles).
    return [] if _any_board_plant(s, s["players"][seat]) else [{"type": "return_workers"}]


def _pile_sizes(s: State, p: Player) -> list[str]:
    """seed-R phase 2 coin ability: the 1- or 2-hex pile, offered only when a tile of that size
    fits: tiles turn, so every tile of one size fits the same cells, and the offer tells
    nothing about the pile's contents; whatever the pile holds, one of its tiles can be placed
    (seed-R: once the coin is paid you must take a tile from the pile)."""
    if p["coins"] <= 0:
        return []
    free = board.uncovered_workers(p)
    return [size for size in COIN_PILE_SIZES if s["piles"][size] and board.placements(free, _PROBE[size])]


def _pile_coin(blind: bool) -> tuple[Callable, Callable]:
    """check and options of the planting coin: `search_pile` (choose) or `draw_tile` (blind)."""
    mine, other = ("draw_tile", "search_pile") if blind else ("search_pile", "draw_tile")

    def check(s: State, seat: int, a: Action) -> None:
        _need_coin(s, seat)
        if s["blind"] != blind:
            raise IllegalAction(f"Planting: in this game the coin for a pile tile is {other}")
        size = str(a["size"])
        if not s["piles"][size]:
            raise IllegalAction(f"Planting: the {size}-hex pile is empty")
        if not board.placements(board.uncovered_workers(s["players"][seat]), _PROBE[size]):
            raise IllegalAction(f"Planting: no {size}-hex tile fits under your uncovered workers")

    def options(s: State, seat: int) -> list[Action]:
        if s["blind"] != blind:
            return []
        return [{"type": mine, "size": int(size)} for size in _pile_sizes(s, s["players"][seat])]

    return check, options


_check_search_pile, _search_pile_options = _pile_coin(blind=False)
_check_draw_tile, _draw_tile_options = _pile_coin(blind=True)


def _search_pile(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    # The searcher, and nobody else, sees what the pile holds (not its order: it is shuffled
    # after the choice anyway).
    tiles = sorted(s["piles"][str(a["size"])])
    return [{"type": "pile_searched", "seat": seat, "size": a["size"], "private": {str(seat): {"tiles": tiles}}}]


def _draw_tile(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    kind = s["piles"][str(a["size"])][0]
    return [{"type": "tile_drawn", "seat": seat, "size": a["size"], "private": {str(seat): {"kind": kind}}}]


def _check_plant_from_pile(s: State, seat: int, a: Action) -> None:
    item = s["pending"][0]
    if a["kind"] not in s["piles"][item["size"]]:
        raise IllegalAction(f"Planting: no {a['kind']} tile is in the {item['size']}-hex pile you searched")
    if not board.is_placement(board.uncovered_workers(s["players"][seat]), a["cells"], TILE_KINDS[a["kind"]]["crops"]):
        raise IllegalAction("Planting: that tile does not fit on those cells wholly under your uncovered workers")


def _plant_from_pile(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    kind = a["kind"]
    size = str(TILE_KINDS[kind]["size"])
    # seed-R: after choosing from the pile, the remaining tiles are shuffled.
    pile = list(s["piles"][size])
    pile.remove(kind)
    rng.shuffle(pile)
    return [{"type": "tile_planted", "seat": seat, "kind": kind, "slot": None, "cells": a["cells"],
             "crops": TILE_KINDS[kind]["crops"], "vp": TILE_VP[int(size)], "coin": True, "secret": {"pile": pile}}]


def _pile_tiles(s: State, seat: int) -> Iterator[Action]:
    free = board.uncovered_workers(s["players"][seat])
    for k in sorted(set(s["piles"][s["pending"][0]["size"]])):
        for cells in board.placements(free, TILE_KINDS[k]["crops"]):
            yield {"type": "plant_from_pile", "kind": k, "cells": cells}


def _pay_for_pile_first(s: State, seat: int, a: Action) -> str:
    first = "draw_tile" if s["blind"] else "search_pile"
    return f"Planting: first pay a coin for a tile from a pile ({first}), then place it"


def _check_plant_drawn(s: State, seat: int, a: Action) -> None:
    crops = TILE_KINDS[s["held"]["kind"]]["crops"]
    if not board.is_placement(board.uncovered_workers(s["players"][seat]), a["cells"], crops):
        raise IllegalAction("Planting: the drawn tile does not fit on those cells wholly under your uncovered workers")


def _plant_drawn(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    kind = s["held"]["kind"]
    return [{"type": "tile_planted", "seat": seat, "kind": kind, "slot": None, "cells": a["cells"],
             "crops": TILE_KINDS[kind]["crops"], "vp": TILE_VP[len(a["cells"])], "coin": True, "drawn": True}]


def _drawn_tile_cells(s: State, seat: int) -> Iterator[Action]:
    crops = TILE_KINDS[s["held"]["kind"]]["crops"]
    return ({"type": "plant_drawn", "cells": cells}
            for cells in board.placements(board.uncovered_workers(s["players"][seat]), crops))


# --- Harvest & Shipping (seed-R phase 3)
def _workers_per_crop(p: Player) -> dict[str, int]:
    counts = {c: 0 for c in CROPS}
    for c in range(board.CELLS):
        if p["worker"][c] and p["crop"][c] is not None:
            counts[p["crop"][c]] += 1
    return counts


def _claims(s: State, seat: int) -> list[Action]:
    """seed-R phase 3: fill a riverboat with exactly its capacity of workers standing on one
    crop; the board's boat for free, or (coin) one from the pile of a type already taken."""
    p = s["players"][seat]
    counts = _workers_per_crop(p)
    out = []
    for b in BOATS:
        if s["boat_board"][b["id"]]:
            coin = False
        elif s["boat_piles"][b["id"]] > 0 and p["coins"] > 0:
            coin = True
        else:
            continue
        for crop in CROPS:
            if counts[crop] >= b["capacity"]:
                out.append({"type": "claim_boat", "boat": b["id"], "crop": crop, "coin": coin})
    return out


def _check_claim_boat(s: State, seat: int, a: Action) -> None:
    if a["coin"]:
        _need_coin(s, seat)
    boat = BOAT_TYPES[a["boat"]]
    on_board = s["boat_board"][boat["id"]]
    if s["claims"][seat] >= _claim_limit(s):
        raise IllegalAction("Harvest & Shipping: you have claimed all your riverboats this round")
    if a["coin"] and on_board:
        raise IllegalAction(f"Harvest & Shipping: riverboat {boat['id']} is on the board, take it without a coin")
    if not on_board and s["boat_piles"][boat["id"]] <= 0:
        raise IllegalAction(f"Harvest & Shipping: no riverboat {boat['id']} is left")
    if not a["coin"] and not on_board:
        raise IllegalAction(f"Harvest & Shipping: riverboat {boat['id']} has been taken this round "
                            "(a coin takes one from its pile)")
    if _workers_per_crop(s["players"][seat])[a["crop"]] < boat["capacity"]:
        raise IllegalAction(f"Harvest & Shipping: riverboat {boat['id']} needs exactly {boat['capacity']} workers "
                            f"standing on {a['crop']}")


def _claim_boat(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    p = s["players"][seat]
    boat = BOAT_TYPES[a["boat"]]
    # Which workers leave does not matter to any rule (only the count per crop does), so
    # the engine takes them in cell order.
    cells = board.workers_on_crop(p, a["crop"])[: boat["capacity"]]
    # seed-R: spent coins return to the general supply, and a boat's benefits are claimed once
    # it is placed, so the coin paid for a boat from its pile is there to take ("Coge 1 moneda
    # del suministro general (si queda alguna)"). v1 computed the benefit before the payment.
    paid = 1 if a["coin"] and s.get("version", 1) >= 2 else 0
    gains, pending = _benefit(s, seat, boat["benefit"], f"riverboat {boat['id']}", paid)
    before = p["harvested"][a["crop"]]
    bonus = before < HARVEST_BONUS_AT <= before + boat["capacity"] and a["crop"] not in p["harvest_bonus"]
    if bonus:
        # seed-R "Bono de cosecha": at 9 harvested of one crop you may choose an estate feature
        # of your choice ("una característica de propiedad de tu elección"; estate features are
        # barns, wells and surveyors), a barn or a well being placed at once.
        pending.append({"seat": seat, "kind": "feature", "options": list(FEATURES), "optional": True,
                        "reason": f"harvest bonus ({a['crop']})"})
    return [{"type": "boat_claimed", "seat": seat, "boat": a["boat"], "crop": a["crop"], "cells": cells,
             "coin": a["coin"], "gains": gains, "pending": pending, "harvest_bonus": bonus}]


def _pass(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "passed", "seat": seat, "phase": s["phase"]}]


def _pass_options(s: State, seat: int) -> list[Action]:
    return [{"type": "pass"}]


def _pass_elsewhere(s: State, seat: int, a: Action) -> str:
    return f"{_where(s)}: passing is for the Harvest & Shipping and Scoring phases"


# --- Opportunity (seed-R phase 4)
def _check_take_opportunity(s: State, seat: int, a: Action) -> None:
    if s["opp_spaces"][a["space"]] is None:
        raise IllegalAction(f"Opportunity: card space {a['space'] + 1} is empty")


def _take_opportunity(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    i = a["space"]
    gains, pending = _benefit(s, seat, CARD_SPACE_BONUSES[i], f"card space {i + 1}")
    return [{"type": "opportunity_taken", "seat": seat, "card": s["opp_spaces"][i], "space": i,
             "gains": gains, "pending": pending}]


def _face_up_cards(s: State, seat: int) -> list[Action]:
    return [{"type": "take_opportunity", "space": i} for i, c in enumerate(s["opp_spaces"]) if c is not None]


def _deck_coin(blind: bool) -> tuple[Callable, Callable]:
    """check and options of the opportunity coin: `search_opportunity_deck` (choose) or
    `draw_opportunity` (blind)."""
    mine, other = ("draw_opportunity", "search_opportunity_deck") if blind else (
        "search_opportunity_deck", "draw_opportunity")

    def check(s: State, seat: int, a: Action) -> None:
        _need_coin(s, seat)
        if s["blind"] != blind:
            raise IllegalAction(f"Opportunity: in this game the coin for a deck card is {other}")
        if not s["opp_deck"]:
            raise IllegalAction("Opportunity: the opportunity deck is empty")

    def options(s: State, seat: int) -> list[Action]:
        ok = s["blind"] == blind and s["players"][seat]["coins"] > 0 and s["opp_deck"]
        return [{"type": mine}] if ok else []

    return check, options


_check_search_deck, _search_deck_options = _deck_coin(blind=False)
_check_draw_opportunity, _draw_opportunity_options = _deck_coin(blind=True)


def _search_deck(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "opportunity_deck_searched", "seat": seat,
             "private": {str(seat): {"cards": sorted(s["opp_deck"])}}}]


def _draw_opportunity(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "opportunity_taken", "seat": seat, "card": s["opp_deck"][0], "space": None,
             "gains": {}, "drawn": True}]


def _check_take_from_deck(s: State, seat: int, a: Action) -> None:
    if a["card"] not in s["opp_deck"]:
        raise IllegalAction(f"Opportunity: card {a['card']} is not in the deck")


def _take_from_deck(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    # seed-R: choose a card from the draw pile, no bonus. Our decision: the pile is then
    # shuffled (as the crop-tile piles are), so nobody knows its order.
    deck = list(s["opp_deck"])
    deck.remove(a["card"])
    rng.shuffle(deck)
    return [{"type": "opportunity_taken", "seat": seat, "card": a["card"], "space": None,
             "gains": {}, "secret": {"deck": deck}}]


def _deck_cards(s: State, seat: int) -> list[Action]:
    return [{"type": "take_opportunity_from_deck", "card": c} for c in sorted(set(s["opp_deck"]))]


def _search_deck_first(s: State, seat: int, a: Action) -> str:
    if s["blind"]:
        return "Opportunity: in this game the coin draws the top card blind (draw_opportunity)"
    return "Opportunity: first pay a coin to search the deck (search_opportunity_deck), then choose a card"


# --- Scoring (seed-R phase 5)
def _check_survey(s: State, seat: int, a: Action) -> None:
    p = s["players"][seat]
    c = a["cell"]
    if p["feature"][c] != a["feature"]:
        raise IllegalAction(f"Scoring: you have no {a['feature']} on cell {c}")
    if p["scored"][c]:
        raise IllegalAction(f"Scoring: your {a['feature']} on cell {c} is already scored")


def _survey(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    p = s["players"][seat]
    cell = a["cell"]
    vp = board.barn_score(p, cell) if a["feature"] == "barn" else board.well_score(p, cell)
    return [{"type": "surveyed", "seat": seat, "feature": a["feature"], "cell": cell, "card": None, "vp": vp}]


def _unscored_features(s: State, seat: int) -> list[Action]:
    p = s["players"][seat]
    return [{"type": "survey", "feature": p["feature"][c], "cell": c}
            for c in range(board.CELLS) if p["feature"][c] is not None and not p["scored"][c]]


def _check_survey_card(s: State, seat: int, a: Action) -> None:
    held = [o for o in s["players"][seat]["opps"] if o["id"] == a["card"]]
    if not held:
        raise IllegalAction(f"Scoring: you do not hold opportunity card {a['card']}")
    if all(o["scored"] for o in held):
        raise IllegalAction(f"Scoring: your opportunity card {a['card']} is already scored")


def _survey_card(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "surveyed", "seat": seat, "feature": "opportunity", "cell": None, "card": a["card"],
             "vp": scoring.opportunity_score(s["players"][seat], a["card"])}]


def _unscored_cards(s: State, seat: int) -> list[Action]:
    out, seen = [], set()
    for o in s["players"][seat]["opps"]:
        if not o["scored"] and o["id"] not in seen:
            seen.add(o["id"])
            out.append({"type": "survey_card", "card": o["id"]})
    return out


def _check_choose_bonus(s: State, seat: int, a: Action) -> None:
    p = s["players"][seat]
    b = a["bonus"]
    if b == "coin" and s["supply"]["coins"] <= 0:
        raise IllegalAction("Scoring bonus: no coin is left in the supply")
    if b == "harbor" and p["harbor"] >= HARBOR_LAST_SPACE:
        raise IllegalAction("Scoring bonus: your harbor master is on the last space")
    if b == "agent" and p["workers"] <= 0:
        raise IllegalAction("Scoring bonus: you have no worker in your supply to send as an agent")


def _choose_bonus(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    b = a["bonus"]
    gains = {} if b == "agent" else _gains(s, seat, {"coins": 1} if b == "coin" else {"harbor": 1})
    return [{"type": "bonus_chosen", "seat": seat, "bonus": b, "gains": gains}]


def _scoring_bonuses(s: State, seat: int) -> list[Action]:
    p = s["players"][seat]
    ok = {"coin": s["supply"]["coins"] > 0, "harbor": p["harbor"] < HARBOR_LAST_SPACE, "agent": p["workers"] > 0}
    return [{"type": "choose_bonus", "bonus": b} for b in SCORING_BONUSES if ok[b]]


# --- Estate features and agents, owed after a benefit (seed-R "Características inmobiliarias",
# "Agentes", "Bono de cosecha")
_FEATURE_SUPPLY = {"barn": "barns", "well": "wells", "surveyor": "surveyors"}
_FEATURE_CELLS = {"barn": board.barn_cells, "well": board.well_cells}


def _feature_available(s: State, p: Player, kind: str) -> bool:
    if s["supply"][_FEATURE_SUPPLY[kind]] <= 0:
        return False
    return kind == "surveyor" or bool(_FEATURE_CELLS[kind](p))


def _offered_features(s: State, item: Pending) -> list[str]:
    """The features that resolve an estate-feature item; seed-R: when the named feature is
    exhausted (or, our decision, cannot be placed) any other remaining feature may be taken."""
    p = s["players"][item["seat"]]
    out = [k for k in item["options"] if _feature_available(s, p, k)]
    if not out and item.get("substitute", True):
        out = [k for k in FEATURES if k not in item["options"] and _feature_available(s, p, k)]
    return out


def _feature_move(kind: str) -> tuple[Callable, Callable]:
    """check and options of placing (or taking) the estate feature `kind`."""

    def check(s: State, seat: int, a: Action) -> None:
        item = s["pending"][0]
        if s["supply"][_FEATURE_SUPPLY[kind]] <= 0:
            raise IllegalAction(f"Estate feature: no {kind} is left in the supply")
        if kind not in _offered_features(s, item):
            raise IllegalAction(f"Estate feature: this benefit gives a {' or '.join(item['options'])}, not a {kind}")
        if kind != "surveyor" and a["cell"] not in _FEATURE_CELLS[kind](s["players"][seat]):
            if kind == "barn":
                raise IllegalAction(f"Estate feature: cell {a['cell']} is not an empty field for a barn")
            raise IllegalAction(f"Estate feature: cell {a['cell']} is not a crop hex of a crop without a well")

    def options(s: State, seat: int) -> list[Action]:
        if kind not in _offered_features(s, s["pending"][0]):
            return []
        if kind == "surveyor":
            return [{"type": "take_surveyor"}]
        return [{"type": f"place_{kind}", "cell": c} for c in _FEATURE_CELLS[kind](s["players"][seat])]

    return check, options


_check_place_barn, _barn_cells = _feature_move("barn")
_check_place_well, _well_cells = _feature_move("well")
_check_take_surveyor, _surveyor_option = _feature_move("surveyor")


def _place_barn(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "barn_placed", "seat": seat, "cell": a["cell"]}]


def _place_well(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "well_placed", "seat": seat, "cell": a["cell"]}]


def _take_surveyor(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "surveyor_taken", "seat": seat}]


def _check_decline(s: State, seat: int, a: Action) -> None:
    if not s["pending"][0].get("optional"):
        raise IllegalAction("Estate feature: this benefit is not optional, choose one of the offered features")


def _decline(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "pending_dropped", "seat": seat, "reason": "declined"}]


def _decline_option(s: State, seat: int) -> list[Action]:
    item = s["pending"][0]
    return [{"type": "decline"}] if item.get("optional") and _offered_features(s, item) else []


def _agents_max(s: State) -> int:
    item = s["pending"][0]
    return min(item["max"], s["players"][item["seat"]]["workers"])


def _check_send_agents(s: State, seat: int, a: Action) -> None:
    if a["count"] > _agents_max(s):
        raise IllegalAction(f"Agents: you may send 0 to {_agents_max(s)} workers to New Orleans now")


def _send_agents(s: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "agents_sent", "seat": seat, "count": a["count"]}]


def _agent_counts(s: State, seat: int) -> list[Action]:
    top = _agents_max(s)
    return [{"type": "send_agents", "count": k} for k in range(top + 1)] if top > 0 else []


def _no_benefit_waiting(s: State, seat: int, a: Action) -> str:
    return f"{_where(s)}: {a['type'].replace('_', ' ')} answers a bonus or benefit, and none is waiting for you"


# --- field schemas
_CELL = integer(0, board.CELLS - 1)
_CELLS = array(_CELL, 1, 3, description="the cell under each hex of the tile, in the tile's crop order")
_CARD = string(OPPORTUNITY)
_PENDING_STEPS = frozenset({"bonus_worker", "scoring_bonus", "feature", "choose_from_pile", "choose_from_deck",
                            "place_drawn_tile", "agents"})
_FEATURE_STEP = {"feature"}

MOVES = (
    # Draft
    Move("choose_phase", fields={"phase": string(PHASES)}, phases={"draft"},
         check=_check_choose_phase, resolve=_choose_phase, options=_free_phase_tiles,
         doc="Take a free phase tile.", rule="seed-R Inicio de una ronda: draft clockwise until all 5 are taken"),
    # Cultivation
    Move("place_worker", fields={"cell": _CELL, "coin": boolean()}, phases={"cultivation", "bonus_worker"},
         check=_check_place_worker, resolve=_place_worker, options=_worker_cells,
         doc="Place a worker on an empty field of the revealed card's colour (coin: any empty field); "
             "also the Cultivation tile's round-track worker (coin false).",
         rule="seed-R phase 1 (Cultivo) and its coin ability; phase-tile bonus"),
    Move("skip", phases={"cultivation"}, check=_check_skip, resolve=_skip, options=_skip_options,
         doc="No empty field of the card's colour: place nothing for this card.",
         rule="our decision (seed-R is silent)"),
    # Planting
    Move("plant", fields={"size": integer(1, 3), "slot": integer(0, 20), "cells": _CELLS}, phases={"planting"},
         check=_check_plant, resolve=_plant, options=_plant_options,
         doc="Take a face-up tile and lay it wholly under workers on empty fields.",
         rule="seed-R phase 2 (Plantación)"),
    Move("return_workers", phases={"planting"}, check=_check_return_workers, resolve=_return_workers,
         options=_return_workers_options, doc="No face-up tile fits: take the uncovered workers back.",
         rule="our decision (only when no tile fits after the refill)"),
    Move("search_pile", fields={"size": integer(1, 2)}, phases={"planting"},
         check=_check_search_pile, resolve=_search_pile, options=_search_pile_options,
         doc="Pay a coin to look through the 1- or 2-hex pile (then plant_from_pile).",
         rule="seed-R phase 2 coin ability (choose from the draw pile)"),
    Move("draw_tile", fields={"size": integer(1, 2)}, phases={"planting"},
         check=_check_draw_tile, resolve=_draw_tile, options=_draw_tile_options,
         doc="Option coin_draws=blind: pay a coin to draw the top tile of the 1- or 2-hex pile (then plant_drawn).",
         rule="issue 4 reading of the seed-R phase 2 coin ability"),
    Move("plant_from_pile", fields={"kind": string(TILE_KINDS), "cells": _CELLS}, phases={"choose_from_pile"},
         check=_check_plant_from_pile, resolve=_plant_from_pile, options=_pile_tiles, elsewhere=_pay_for_pile_first,
         doc="Take a tile of the pile you searched and lay it; the rest of the pile is shuffled.",
         rule="seed-R phase 2: Baraja las fichas restantes una vez seleccionadas"),
    Move("plant_drawn", fields={"cells": _CELLS}, phases={"place_drawn_tile"},
         check=_check_plant_drawn, resolve=_plant_drawn, options=_drawn_tile_cells, elsewhere=_pay_for_pile_first,
         doc="Lay the tile you drew blind.", rule="issue 4 reading of the seed-R phase 2 coin ability"),
    # Harvest & Shipping
    Move("claim_boat", fields={"boat": string(BOAT_TYPES), "crop": string(CROPS), "coin": boolean()},
         phases={"harvest"}, check=_check_claim_boat, resolve=_claim_boat, options=_claims,
         doc="Fill a riverboat with exactly its capacity of workers on one crop; coin: from its pile.",
         rule="seed-R phase 3 (Cosecha y envío), Barcos fluviales y beneficios"),
    # Opportunity
    Move("take_opportunity", fields={"space": integer(0, len(CARD_SPACE_BONUSES) - 1)}, phases={"opportunity"},
         check=_check_take_opportunity, resolve=_take_opportunity, options=_face_up_cards,
         doc="Take a face-up opportunity card and the bonus above its space.", rule="seed-R phase 4 (Oportunidad)"),
    Move("search_opportunity_deck", phases={"opportunity"}, check=_check_search_deck, resolve=_search_deck,
         options=_search_deck_options, doc="Pay a coin to look through the deck (then take_opportunity_from_deck).",
         rule="seed-R phase 4 coin ability (choose from the draw pile)"),
    Move("draw_opportunity", phases={"opportunity"}, check=_check_draw_opportunity, resolve=_draw_opportunity,
         options=_draw_opportunity_options, doc="Option coin_draws=blind: pay a coin for the top card of the deck.",
         rule="issue 4 reading of the seed-R phase 4 coin ability"),
    Move("take_opportunity_from_deck", fields={"card": _CARD}, phases={"choose_from_deck"},
         check=_check_take_from_deck, resolve=_take_from_deck, options=_deck_cards, elsewhere=_search_deck_first,
         doc="Take a card from the deck you searched (no bonus); the deck is then shuffled.",
         rule="seed-R phase 4: debes elegir una carta de la pila de robo si gastas una Moneda"),
    # Scoring
    Move("survey", fields={"feature": string(("barn", "well")), "cell": _CELL}, phases={"scoring"},
         check=_check_survey, resolve=_survey, options=_unscored_features,
         doc="Place a surveyor on an unscored barn or well.", rule="seed-R phase 5 (Puntuación)"),
    Move("survey_card", fields={"card": _CARD}, phases={"scoring"}, check=_check_survey_card,
         resolve=_survey_card, options=_unscored_cards,
         doc="Place a surveyor on an unscored opportunity card.", rule="seed-R phase 5 (Puntuación)"),
    Move("pass", phases={"harvest", "scoring"}, resolve=_pass, options=_pass_options, elsewhere=_pass_elsewhere,
         doc="Claim no more riverboats / place no more surveyors this round.",
         rule="seed-R phase 3 (Puede pasar) and phase 5"),
    # Decisions owed after a bonus or benefit
    Move("choose_bonus", fields={"bonus": string(SCORING_BONUSES)}, phases={"scoring_bonus"},
         check=_check_choose_bonus, resolve=_choose_bonus, options=_scoring_bonuses, elsewhere=_no_benefit_waiting,
         doc="The Scoring tile's bonus: +1 coin, harbor +1, or 1 worker to New Orleans.",
         rule="seed-R phase 5 bonus"),
    Move("place_barn", fields={"cell": _CELL}, phases=_FEATURE_STEP, check=_check_place_barn,
         resolve=_place_barn, options=_barn_cells, elsewhere=_no_benefit_waiting,
         doc="Place the barn you gained on an empty field.", rule="seed-R Características inmobiliarias"),
    Move("place_well", fields={"cell": _CELL}, phases=_FEATURE_STEP, check=_check_place_well,
         resolve=_place_well, options=_well_cells, elsewhere=_no_benefit_waiting,
         doc="Place the well you gained on a crop hex of a crop with no well.",
         rule="seed-R Características inmobiliarias"),
    Move("take_surveyor", phases=_FEATURE_STEP, check=_check_take_surveyor, resolve=_take_surveyor,
         options=_surveyor_option, elsewhere=_no_benefit_waiting,
         doc="Take the surveyor you gained into your supply.", rule="seed-R Características inmobiliarias"),
    Move("decline", phases=_FEATURE_STEP, check=_check_decline, resolve=_decline, options=_decline_option,
         elsewhere=_no_benefit_waiting, doc="Decline the optional harvest bonus.",
         rule="seed-R Bono de cosecha (puedes elegir)"),
    Move("send_agents", fields={"count": integer(0, 3)}, phases={"agents"}, check=_check_send_agents,
         resolve=_send_agents, options=_agent_counts, elsewhere=_no_benefit_waiting,
         doc="Send up to the benefit's number of workers from your supply to New Orleans.",
         rule="seed-R Agentes"),
)
# Every action type and exactly the fields it has (besides "type").
ACTION_FIELDS: dict[str, tuple[str, ...]] = {m.type: tuple(m.fields) for m in MOVES}
ACTION_TYPES = set(ACTION_FIELDS)


# =====================================================================================
# Phases: who acts, and what happens without a decision
# =====================================================================================
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
    return not s["done"][seat] and s["claims"][seat] < _claim_limit(s) and bool(_claims(s, seat))


def _can_take_card(s: State, seat: int) -> bool:
    p = s["players"][seat]
    return not s["done"][seat] and (any(c is not None for c in s["opp_spaces"]) or (p["coins"] > 0 and bool(s["opp_deck"])))


def _can_survey(s: State, seat: int) -> bool:
    p = s["players"][seat]
    return (not s["done"][seat] and s["surveyed"][seat] < _survey_limit(s) and p["surveyors"] > 0
            and bool(_unscored_features(s, seat) or _unscored_cards(s, seat)))


def _refill_fills(s: State) -> dict:
    fills = {}
    for size in ("1", "2", "3"):
        pile = s["piles"][size]
        empty = [i for i, k in enumerate(s["slots"][size]) if k is None]
        row = [[slot, kind] for slot, kind in zip(empty, pile, strict=False)]
        if row:
            fills[size] = row
    return fills


def _start_phase(s: State, phase: str) -> list[Event]:
    """The phase starts with its tile holder's bonus (seed-R, each phase's heading)."""
    holder = s["phase_tiles"][PHASES.index(phase)]
    p = s["players"][holder]
    pending = [{"seat": holder, "kind": "scoring_bonus"}] if phase == "scoring" else []
    events: list[Event] = [{"type": "phase_started", "phase": phase, "holder": holder, "pending": pending}]
    if phase == "cultivation":
        # Take the leftmost round-track worker and place it at once (our decision: with no
        # empty field it goes to the personal supply).
        if s["round_track"] > 0:
            events.append({"type": "round_track_worker_taken", "seat": holder, "place": bool(board.empty_fields(p))})
        return events
    bonus = {"planting": {"coins": 1}, "harvest": {"harbor": 1}, "opportunity": {"vp": 1}}.get(phase)
    gains = _gains(s, holder, bonus) if bonus else {}
    if gains:
        events.append({"type": "gained", "seat": holder, "gains": gains, "reason": "phase_bonus"})
    return events


def _draft_auto(s: State, rng: random.Random) -> list[Event] | None:
    return None if None in s["phase_tiles"] else _start_phase(s, "cultivation")


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
    if s["waiting"]:
        return None
    if s["cards_left"] > 0 and s["crop_deck"]:
        card = s["crop_deck"][0]
        must = [seat for seat in range(s["n"]) if _must_place(s, seat, card)]
        return [{"type": "crop_card_revealed", "card": card, "must_place": must}]
    return _start_phase(s, "planting")


def _planting_auto(s: State, rng: random.Random) -> list[Event] | None:
    cur = _current(s, _can_plant)
    if cur is None:
        return _start_phase(s, "harvest")
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


def _harvest_auto(s: State, rng: random.Random) -> list[Event] | None:
    return _start_phase(s, "opportunity") if _current(s, _can_claim) is None else None


def _opportunity_auto(s: State, rng: random.Random) -> list[Event] | None:
    if _current(s, _can_take_card) is not None:
        return None
    left = [c for c in s["opp_spaces"] if c is not None]
    events: list[Event] = [{"type": "opportunities_returned", "cards": left}] if left else []
    return events + _start_phase(s, "scoring")


def _scoring_auto(s: State, rng: random.Random) -> list[Event] | None:
    if _current(s, _can_survey) is not None:
        return None
    # seed-R phase 5: 1 VP per active surveyor and per agent.
    vp = [p["active_surveyors"] + p["agents"] for p in s["players"]]
    holder = s["phase_tiles"][PHASES.index("scoring")]
    order = [(holder + i) % s["n"] for i in range(s["n"])]
    scored = {"type": "round_scored", "round": s["round"], "vp": vp, "order": order}
    after = clone(s)  # the round's end reads the score track after this scoring (once a round)
    _on_round_scored(after, scored)
    if after["round"] >= ROUNDS:
        details = scoring.final_scoring(after)
        scores = [row["total"] for row in details]
        best = max(scores)
        return [scored, {"type": "game_ended", "scores": scores,
                         "winners": [i for i, v in enumerate(scores) if v == best], "details": details}]
    if after["n"] == 3 and after["round"] == 3:
        # seed-R: in a 3-player game, after round 3 the marker goes to the player furthest
        # behind on the score track; on a tie, to the marker on top of the stack.
        fp = min(range(3), key=lambda i: (after["players"][i]["vp"], -after["players"][i]["vp_at"]))
    else:
        fp = _next(after, after["first_player"])
    # seed-R "Inicio de una ronda": refill crop tiles, one boat of each type, four cards.
    boats = [b["id"] for b in BOATS if not after["boat_board"][b["id"]] and after["boat_piles"][b["id"]] > 0]
    deck = list(after["opp_deck"])
    spaces = [deck.pop(0) if (c is None and deck) else None for c in after["opp_spaces"]]
    return [scored, {"type": "round_ended", "round": after["round"], "first_player": fp},
            {"type": "round_started", "round": after["round"] + 1, "fills": _refill_fills(after), "boats": boats,
             "opportunity_spaces": spaces}]


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
    Phase("draft", to_act=lambda s: (s["turn"],), auto=_draft_auto,
          rule="seed-R Inicio de una ronda", doc="phase-tile draft"),
    Phase("cultivation", to_act=lambda s: s["waiting"], auto=_cultivation_auto,
          rule="seed-R phase 1; issue 4 (simultaneous)",
          doc="Cultivation: 8 crop cards, every player places a worker for each, all at once"),
    Phase("planting", to_act=_on_turn(_can_plant), auto=_planting_auto, rule="seed-R phase 2",
          doc="Planting: in turn, take a crop tile for your uncovered workers"),
    Phase("harvest", to_act=_on_turn(_can_claim), auto=_harvest_auto, rule="seed-R phase 3",
          doc="Harvest & Shipping: in turn, claim a riverboat or pass"),
    Phase("opportunity", to_act=_on_turn(_can_take_card), auto=_opportunity_auto, rule="seed-R phase 4",
          doc="Opportunity: in turn, take one opportunity card"),
    Phase("scoring", to_act=_on_turn(_can_survey), auto=_scoring_auto, rule="seed-R phase 5, Fin de la Ronda",
          doc="Scoring: in turn, place surveyors or pass; then round scoring and the round's end"),
    # Steps a single seat owes before the phase goes on (the first item of `pending`).
    Phase("bonus_worker", to_act=_owner, auto=_unless(lambda s, i: bool(board.empty_fields(s["players"][i["seat"]]))),
          rule="seed-R phase 1 bonus", doc="place the round-track worker"),
    Phase("scoring_bonus", to_act=_owner, auto=_unless(_scoring_bonus_open), rule="seed-R phase 5 bonus",
          doc="choose the Scoring tile's bonus"),
    Phase("feature", to_act=_owner, auto=_feature_auto, rule="seed-R Características inmobiliarias",
          doc="take the estate feature a benefit gives"),
    Phase("choose_from_pile", to_act=_owner, auto=_unless(_pile_has_fit), rule="seed-R phase 2 coin ability",
          doc="choose a tile from the pile you searched"),
    Phase("choose_from_deck", to_act=_owner, auto=_unless(lambda s, i: bool(s["opp_deck"])),
          rule="seed-R phase 4 coin ability", doc="choose a card from the deck you searched"),
    Phase("place_drawn_tile", to_act=_owner, auto=_unless(_drawn_fits), rule="issue 4 (blind coin draws)",
          doc="lay the tile you drew"),
    Phase("agents", to_act=_owner, auto=_unless(lambda s, i: _agents_max(s) > 0), rule="seed-R Agentes",
          doc="send workers to New Orleans"),
    Phase("over", to_act=lambda s: (), rule="seed-R Fin del juego", doc="the game is over"),
)


# =====================================================================================
# Schemas of events and views
# =====================================================================================
_SEAT = integer(0, 3)
_GAINS = {"type": "object", "additionalProperties": {"type": "integer"},
          "description": "coins, surveyors, harbor steps and vp actually gained"}
_PENDING = {
    "type": "object",
    "properties": {
        "seat": _SEAT,
        "kind": {"enum": sorted(_PENDING_STEPS)},
        "options": {"type": "array", "items": {"enum": list(FEATURES)}},
        "reason": {"type": "string"},
        "optional": {"type": "boolean"},
        "substitute": {"type": "boolean"},
        "size": {"enum": ["1", "2"]},
        "max": {"type": "integer"},
    },
    "required": ["seat", "kind"],
    "additionalProperties": False,
}
_INTS = {"type": "array", "items": {"type": "integer"}}
_FILLS = {"type": "object", "additionalProperties": {"type": "array", "items": {
    "type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2}},
    "description": "per tile size, [slot, tile kind] laid face up"}
_NULL_STR = {"type": ["string", "null"]}
_NULL_INT = {"type": ["integer", "null"]}

EVENT_FIELDS = {
    "game_started": {"first_player": _SEAT, "mats": {"type": "array", "items": {"enum": sorted(MATS)}},
                     "crop_supply": {"type": "object"}, "opportunity_spaces": {"type": "array"}},
    "phase_chosen": {"seat": _SEAT, "phase": string(PHASES)},
    "phase_started": {"phase": string(PHASES), "holder": _SEAT, "pending": {"type": "array", "items": _PENDING}},
    "gained": {"seat": _SEAT, "gains": _GAINS, "reason": {"type": "string"}},
    "round_track_worker_taken": {"seat": _SEAT, "place": boolean()},
    "worker_placed": {"seat": _SEAT, "cell": _CELL, "coin": boolean(), "bonus": boolean()},
    "placement_skipped": {"seat": _SEAT},
    "crop_card_revealed": {"card": string([*FIELD_COLOURS.values(), WILD]), "must_place": _INTS},
    "crop_tiles_refilled": {"seat": _SEAT, "fills": _FILLS},
    "tile_planted": {"seat": _SEAT, "kind": string(TILE_KINDS), "slot": _NULL_INT, "cells": _INTS,
                     "crops": {"type": "array", "items": string(CROPS)}, "vp": integer(0), "coin": boolean()},
    "pile_searched": {"seat": _SEAT, "size": integer(1, 2)},
    "opportunity_deck_searched": {"seat": _SEAT},
    "tile_drawn": {"seat": _SEAT, "size": integer(1, 2)},
    "workers_returned": {"seat": _SEAT, "cells": _INTS},
    "boat_claimed": {"seat": _SEAT, "boat": string(BOAT_TYPES), "crop": string(CROPS), "cells": _INTS,
                     "coin": boolean(), "gains": _GAINS, "pending": {"type": "array", "items": _PENDING},
                     "harvest_bonus": boolean()},
    "passed": {"seat": _SEAT, "phase": string(PHASES)},
    "barn_placed": {"seat": _SEAT, "cell": _CELL},
    "well_placed": {"seat": _SEAT, "cell": _CELL},
    "surveyor_taken": {"seat": _SEAT},
    "pending_dropped": {"seat": _SEAT, "reason": string(("unavailable", "declined"))},
    "agents_sent": {"seat": _SEAT, "count": integer(0, 3)},
    "bonus_chosen": {"seat": _SEAT, "bonus": string(SCORING_BONUSES), "gains": _GAINS},
    "opportunity_taken": {"seat": _SEAT, "card": _CARD, "space": _NULL_INT, "gains": _GAINS},
    "opportunities_returned": {"cards": {"type": "array", "items": _CARD}},
    "surveyed": {"seat": _SEAT, "feature": string(("barn", "well", "opportunity")), "cell": _NULL_INT,
                 "card": _NULL_STR, "vp": integer(0)},
    "round_scored": {"round": integer(1, ROUNDS), "vp": _INTS, "order": _INTS},
    "round_ended": {"round": integer(1, ROUNDS), "first_player": _SEAT},
    "round_started": {"round": integer(1, ROUNDS), "fills": _FILLS, "boats": {"type": "array", "items": string(BOAT_TYPES)},
                      "opportunity_spaces": {"type": "array", "items": _NULL_STR}},
    "game_ended": {"scores": _INTS, "winners": _INTS, "details": {"type": "array", "items": {"type": "object"}}},
}

_BOOLS = {"type": "array", "items": {"type": "boolean"}}
_PLAYER_VIEW = {
    "type": "object",
    "properties": {
        "mat": {"enum": sorted(MATS)},
        "worker": _BOOLS,
        "crop": {"type": "array", "items": {"enum": [*CROPS, None]}},
        "feature": {"type": "array", "items": {"enum": ["barn", "well", None]}},
        "scored": _BOOLS,
        "workers": {"type": "integer"}, "coins": {"type": "integer"}, "surveyors": {"type": "integer"},
        "active_surveyors": {"type": "integer"}, "vp": {"type": "integer"},
        "vp_by": {"type": "object", "additionalProperties": {"type": "integer"}}, "vp_at": {"type": "integer"},
        "harbor": {"type": "integer"}, "harbor_start": {"type": "integer"},
        "boats": {"type": "array", "items": string(BOAT_TYPES)},
        "harvested": {"type": "object", "additionalProperties": {"type": "integer"}},
        "harvest_bonus": {"type": "array", "items": string(CROPS)},
        "agents": {"type": "integer"},
        "opps": {"type": "array", "items": {"type": "object", "properties": {"id": _CARD, "scored": boolean()},
                                           "required": ["id", "scored"], "additionalProperties": False}},
        "field_colours": {"type": "array", "items": string(FIELD_COLOURS.values())},
        "boats_reached": {"type": "integer"},
        "fields_covered": {"type": "array", "items": string(FIELD_COLOURS.values())},
        "boats_claimed_this_round": {"type": "integer"},
        "surveyors_placed_this_round": {"type": "integer"},
        "passed": {"type": "boolean"},
    },
    "additionalProperties": False,
}
_PLAYER_VIEW["required"] = list(_PLAYER_VIEW["properties"])

VIEW_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "riverboat view",
    "type": "object",
    "properties": {
        "type": {"const": "riverboat"},
        "seat": {"type": ["integer", "null"], "description": "the viewer (null: spectator)"},
        "round": integer(1, ROUNDS),
        "phase": {"enum": ["draft", *PHASES, "over"]},
        "first_player": _SEAT,
        "phase_tiles": {"type": "object", "properties": {p: _NULL_INT for p in PHASES}, "required": list(PHASES),
                        "additionalProperties": False, "description": "holder of each phase tile"},
        "to_act": _INTS,
        "pending": {"anyOf": [{"type": "null"}, _PENDING], "description": "the decision owed first, if any"},
        "crop_card": _NULL_STR,
        "cards_left_this_round": {"type": "integer"},
        "waiting": _INTS,
        "crop_deck_size": {"type": "integer"},
        "round_track": {"type": "integer"},
        "crop_supply": {"type": "object", "additionalProperties": {"type": "array", "items": _NULL_STR},
                        "description": "face-up tiles by size, null for an empty space"},
        "pile_sizes": {"type": "object", "additionalProperties": {"type": "integer"}},
        "riverboats": {"type": "object", "additionalProperties": {
            "type": "object",
            "properties": {"capacity": {"type": "integer"}, "benefit": {"type": "object"},
                           "on_board": {"type": "boolean"}, "pile": {"type": "integer"}},
            "required": ["capacity", "benefit", "on_board", "pile"], "additionalProperties": False}},
        "boat_claims_this_round": {"type": "integer"},
        "surveyors_this_round": {"type": "integer"},
        "opportunity_spaces": {"type": "array", "items": {
            "type": "object", "properties": {"card": _NULL_STR, "text": _NULL_STR, "bonus": {"type": "object"}},
            "required": ["card", "text", "bonus"], "additionalProperties": False}},
        "opportunity_card_texts": {"type": "object", "additionalProperties": {"type": "string"}},
        "opportunity_deck_size": {"type": "integer"},
        "opportunity_deck_bottom": {"type": "array", "items": _CARD,
                                    "description": "the leftovers put under the deck, in their public order"},
        "held_tile": {"anyOf": [{"type": "null"}, {
            "type": "object", "properties": {"seat": _SEAT, "size": integer(1, 2), "kind": _NULL_STR},
            "required": ["seat", "size", "kind"], "additionalProperties": False}],
            "description": "a tile drawn blind; its kind only for its drawer"},
        "search": {"anyOf": [{"type": "null"}, {
            "type": "object",
            "properties": {"seat": _SEAT, "pile": {"type": "string"},
                           "contents": {"type": ["array", "null"], "items": {"type": "string"}}},
            "required": ["seat", "pile", "contents"], "additionalProperties": False}],
            "description": "a pile or deck being searched; its contents only for the searcher"},
        "harbor_track": {"type": "object", "properties": {"last_space": {"type": "integer"}, "slot_spaces": _INTS},
                         "required": ["last_space", "slot_spaces"], "additionalProperties": False},
        "supply": {"type": "object", "properties": {k: {"type": "integer"} for k in SUPPLY},
                   "required": list(SUPPLY), "additionalProperties": False},
        "field_colours": {"type": "array", "items": {"type": "string"}},
        "mat_grid": {"type": "object", "properties": {"rows": {"const": MAT_ROWS}, "cols": {"const": MAT_COLS},
                                                      "odd_rows_shifted_right": {"const": True}},
                     "required": ["rows", "cols", "odd_rows_shifted_right"], "additionalProperties": False},
        "players": {"type": "array", "items": _PLAYER_VIEW},
        "result": {"anyOf": [{"type": "null"}, {
            "type": "object", "properties": {"scores": _INTS, "winners": _INTS, "details": {"type": "array"}},
            "required": ["scores", "winners", "details"], "additionalProperties": False}]},
    },
    "additionalProperties": False,
}
VIEW_SCHEMA["required"] = list(VIEW_SCHEMA["properties"])
_RIVERBOATS_STATIC = {b["id"]: {"capacity": b["capacity"], "benefit": dict(b["benefit"])} for b in BOATS}
_CARD_TEXTS = {c["id"]: c["text"] for c in OPPORTUNITY_CARDS}


class Riverboat(RulesEngine):
    name = "riverboat"
    title = "Riverboat"
    min_seats = 2
    max_seats = 4
    # v2: the coin paid for a riverboat from its pile is in the supply for the boat's benefit.
    version = 2
    supported_versions = (1,)
    # coin_draws: "choose" (seed-R: the coin lets you choose from the pile / deck) or "blind"
    # (the reading of issue 4: the coin draws the top tile or card unseen). See RULES.md.
    options_schema = {
        "type": "object",
        "properties": {"coin_draws": {"enum": ["choose", "blind"], "default": "choose"}},
        "additionalProperties": False,
    }
    max_random_steps = 3000

    moves = MOVES
    phases = PHASES_TABLE
    on = ON
    event_fields = EVENT_FIELDS
    view_schema = VIEW_SCHEMA

    def phase_of(self, state: State) -> str:
        # A decision a seat owes comes first: it is the current step.
        return state["pending"][0]["kind"] if state["pending"] else state["phase"]

    def wrong_phase(self, state: State, seat: int, move: Move, action: Action) -> str:
        s = state
        if s["phase"] == "over":
            return "the game is over"
        if s["pending"]:
            kind = s["pending"][0]["kind"]
            answers = [m.type for m in self.moves if m.phases is not None and kind in m.phases]
            return (f"{_where(s)}: first resolve your pending decision "
                    f"({kind.replace('_', ' ')}: {' / '.join(answers)})")
        homes = {STEP_OF.get(p, p) for p in move.phases or ()} & set(PHASE_TITLE)
        if len(homes) == 1 and s["phase"] not in homes:
            home = next(iter(homes))
            return f"{_where(s)}: {move.type.replace('_', ' ')} belongs to the {PHASE_TITLE[home]} phase"
        return super().wrong_phase(state, seat, move, action)

    # ------------------------------------------------------------------ setup
    def start(self, seats, options, rng):
        # seed-R setup: shuffle the crop cards, the opportunity cards and the three tile piles;
        # fill the crop supply spaces and the four card spaces; one boat of each type on the board;
        # a random mat per player; a random first player.
        mats = sorted(MATS)
        rng.shuffle(mats)
        crop_deck = [colour for colour, k in CROP_CARDS.items() for _ in range(k)]
        rng.shuffle(crop_deck)
        piles: dict[str, list[str]] = {str(size): [] for size in (1, 2, 3)}
        for t in CROP_TILES:
            piles[str(t["size"])].extend([t["kind"]] * t["count"])
        for pile in piles.values():
            rng.shuffle(pile)
        slots = {size: pile[: SUPPLY_SLOTS[size]] for size, pile in piles.items()}
        piles = {size: pile[SUPPLY_SLOTS[size]:] for size, pile in piles.items()}
        opp = [c["id"] for c in OPPORTUNITY_CARDS]
        rng.shuffle(opp)
        return {
            "type": "game_started",
            "first_player": rng.randrange(seats),
            "mats": mats[:seats],
            "crop_supply": slots,
            "opportunity_spaces": opp[: len(CARD_SPACE_BONUSES)],
            "secret": {"crop_deck": crop_deck, "piles": piles, "opportunity_deck": opp[len(CARD_SPACE_BONUSES):]},
        }

    # ------------------------------------------------------------------ views
    def view(self, state, seat):
        s = state
        harvest, scoring_phase = s["phase"] == "harvest", s["phase"] == "scoring"
        players = []
        for i, p in enumerate(s["players"]):
            q = clone(p)
            q["field_colours"] = board.COLOUR[p["mat"]]
            q["boats_reached"] = len(scoring.reached_boats(p))
            q["fields_covered"] = board.complete_fields(p)
            q["boats_claimed_this_round"] = s["claims"][i] if harvest else 0
            q["surveyors_placed_this_round"] = s["surveyed"][i] if scoring_phase else 0
            q["passed"] = bool(s["done"][i]) if harvest or scoring_phase else False
            players.append(q)
        pending = s["pending"][0] if s["pending"] else None
        return {
            "type": "riverboat",
            "seat": seat,
            "round": s["round"],
            "phase": s["phase"],
            "first_player": s["first_player"],
            "phase_tiles": dict(zip(PHASES, s["phase_tiles"], strict=True)),
            "to_act": sorted(self.to_act(s)),
            "pending": clone(pending),
            "crop_card": s["card"],
            "cards_left_this_round": s["cards_left"],
            "waiting": list(s["waiting"]),
            "crop_deck_size": len(s["crop_deck"]),
            "round_track": s["round_track"],
            "crop_supply": clone(s["slots"]),
            "pile_sizes": {k: len(v) for k, v in s["piles"].items()},
            "riverboats": {b: {"capacity": x["capacity"], "benefit": dict(x["benefit"]),
                               "on_board": s["boat_board"][b], "pile": s["boat_piles"][b]}
                           for b, x in _RIVERBOATS_STATIC.items()},
            "boat_claims_this_round": _claim_limit(s),
            "surveyors_this_round": _survey_limit(s),
            "opportunity_spaces": [{"card": c, "text": OPPORTUNITY[c]["text"] if c else None,
                                    "bonus": CARD_SPACE_BONUSES[i]} for i, c in enumerate(s["opp_spaces"])],
            "opportunity_card_texts": dict(_CARD_TEXTS),
            "opportunity_deck_size": len(s["opp_deck"]),
            "opportunity_deck_bottom": s["opp_deck"][len(s["opp_deck"]) - s["opp_known_bottom"]:],
            "held_tile": self._held_view(s, seat),
            "search": self._search_view(s, seat),
            "harbor_track": {"last_space": HARBOR_LAST_SPACE,
                             "slot_spaces": [scoring.slot_space(i) for i in range(len(BOATS))]},
            "supply": dict(s["supply"]),
            "field_colours": list(FIELD_COLOURS.values()),
            # Cells are numbered row * cols + col; odd rows are shifted half a hex to the right.
            "mat_grid": {"rows": MAT_ROWS, "cols": MAT_COLS, "odd_rows_shifted_right": True},
            "players": players,
            "result": clone(s["result"]),
        }

    def _search_view(self, s: State, seat: int | None) -> dict | None:
        """A pile or deck being searched with a coin: everyone sees who searches which pile; only
        the searcher sees its contents (sorted, never its order)."""
        item = s["pending"][0] if s["pending"] else None
        if item is None or item["kind"] not in ("choose_from_pile", "choose_from_deck"):
            return None
        mine = seat == item["seat"]
        if item["kind"] == "choose_from_pile":
            return {"seat": item["seat"], "pile": f"{item['size']}-hex tiles",
                    "contents": sorted(s["piles"][item["size"]]) if mine else None}
        return {"seat": item["seat"], "pile": "opportunity deck", "contents": sorted(s["opp_deck"]) if mine else None}

    def _held_view(self, s: State, seat: int | None) -> dict | None:
        held = s["held"]
        if held is None:
            return None
        size = TILE_KINDS[held["kind"]]["size"]
        return {"seat": held["seat"], "size": size, "kind": held["kind"] if seat == held["seat"] else None}

    def outcome(self, state):
        return clone(state["result"]) if state["phase"] == "over" else None

    def resample_hidden(self, state, viewer, rng):
        # Hidden from everyone: the crop-card deck order, the three tile piles' order and the
        # order of the unseen part of the opportunity deck (the leftovers put under it are public).
        s = clone(state)
        rng.shuffle(s["crop_deck"])
        for pile in s["piles"].values():
            rng.shuffle(pile)
        deck = s["opp_deck"]
        k = len(deck) - s["opp_known_bottom"]
        top = deck[:k]
        rng.shuffle(top)
        s["opp_deck"] = top + deck[k:]
        held = s["held"]
        if held is not None and viewer != held["seat"]:
            # A tile drawn blind is known only to its drawer: anyone else sees one unknown tile
            # of that size, drawn from the same pool as the pile.
            size = str(TILE_KINDS[held["kind"]]["size"])
            pool = [held["kind"], *s["piles"][size]]
            rng.shuffle(pool)
            held["kind"] = pool[0]
            s["piles"][size] = pool[1:]
        return s

    def random_action(self, state, seat, actions, rng):
        # Random play: mostly the plain actions, now and then a coin, a pass or a skip.
        plain = [a for a in actions if not a.get("coin") and a["type"] not in (
            "pass", "skip", "decline", "return_workers", *COIN_TYPES)]
        if plain and rng.random() < 0.85:
            return rng.choice(plain)
        return rng.choice(actions)
