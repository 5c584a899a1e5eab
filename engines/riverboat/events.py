"""Riverboat's events: what each does to the state (the `on` table of the engine).

The only code that changes a state; every outcome a handler needs is in its event (no
randomness, no rule decisions here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablero.engines.core import clone

from . import board
from .data import (
    BOATS,
    CROPS,
    CULTIVATION_CARDS_PER_ROUND,
    HARBOR_START,
    PHASES,
    ROUND_TRACK_WORKERS,
    START_COINS,
    START_SURVEYORS,
    START_WORKERS,
    SUPPLY,
    TILE_KINDS,
)
from .state import Event, State


def _next(s: State, seat: int) -> int:
    return (seat + 1) % s["n"]


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
