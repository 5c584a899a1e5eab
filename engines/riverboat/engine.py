"""Riverboat (Michael Kiesling, Lookout 2017) as a pure event-sourced engine.

Four rounds; each round the five phase tiles are drafted, then the phases run in order:
Cultivation, Planting, Harvest & Shipping, Opportunity, Scoring. Then the final scoring.
Rule sources are cited as seed-R (the rulebook text), facts (shared/rules/riverboat.md) or
"our edition" (see RULES.md and data.py).

Turn structure. Sequential phases keep a pointer `turn`; the seat to act is the first
*eligible* seat scanning clockwise from it (players with nothing left to do are skipped, as
the rulebook skips them). Cultivation is simultaneous: every seat that must place a worker
for the revealed card is in `waiting`. Decisions a single seat owes right now (place the
round-track worker, choose the scoring bonus, place an estate feature, send agents) queue in
`pending` and come first.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from engines.core import (
    Engine,
    IllegalAction,
    InvalidAction,
    reject_unknown_fields,
    require_action_type,
    require_int,
    require_str,
)

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

FEATURES = ("barn", "well", "surveyor")
# Every action type and exactly the fields it has (besides "type"), as `legal_actions` lists them.
# An action with a field missing, mistyped or not in this list is malformed (InvalidAction).
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "choose_phase": ("phase",),
    "place_worker": ("cell", "coin"),
    "skip": (),
    "plant": ("size", "slot", "cells"),
    "search_pile": ("size",),
    "plant_from_pile": ("kind", "cells"),
    "draw_tile": ("size",),
    "plant_drawn": ("cells",),
    "return_workers": (),
    "claim_boat": ("boat", "crop", "coin"),
    "pass": (),
    "take_opportunity": ("space",),
    "search_opportunity_deck": (),
    "take_opportunity_from_deck": ("card",),
    "draw_opportunity": (),
    "survey": ("feature", "cell"),
    "survey_card": ("card",),
    "choose_bonus": ("bonus",),
    "place_barn": ("cell",),
    "place_well": ("cell",),
    "take_surveyor": (),
    "decline": (),
    "send_agents": ("count",),
}
ACTION_TYPES = set(ACTION_FIELDS)
# Actions that spend a coin (seed-R coin abilities of Planting and Opportunity).
COIN_TYPES = ("search_pile", "search_opportunity_deck", "draw_tile", "draw_opportunity")
SCORING_BONUSES = ("coin", "harbor", "agent")
PHASE_TITLE = {"draft": "Phase draft", "cultivation": "Cultivation", "planting": "Planting",
               "harvest": "Harvest & Shipping", "opportunity": "Opportunity", "scoring": "Scoring"}


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _next(state: dict, seat: int) -> int:
    return (seat + 1) % state["n"]


class Riverboat(Engine):
    name = "riverboat"
    title = "Riverboat"
    min_seats = 2
    max_seats = 4
    version = 1
    # coin_draws: "choose" (seed-R: the coin lets you choose from the pile / deck) or "blind"
    # (the reading of issue 4: the coin draws the top tile or card unseen). See RULES.md.
    options_schema = {
        "type": "object",
        "properties": {"coin_draws": {"enum": ["choose", "blind"], "default": "choose"}},
        "additionalProperties": False,
    }
    max_random_steps = 3000

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

    def _initial_state(self, event: dict) -> dict:
        n = event["seats"]
        start = HARBOR_START[str(n)]
        players = []
        for mat in event["mats"]:
            p = {"mat": mat, **board.new_mat()}
            p.update(workers=START_WORKERS, coins=START_COINS, surveyors=START_SURVEYORS, active_surveyors=0,
                     vp=0, vp_by={}, vp_at=0, harbor=start, harbor_start=start, boats=[],
                     harvested={c: 0 for c in CROPS}, harvest_bonus=[], agents=0, opps=[])
            players.append(p)
        supply = dict(SUPPLY)
        supply["coins"] -= START_COINS * n
        supply["surveyors"] -= START_SURVEYORS * n
        secret = event["secret"]
        fp = event["first_player"]
        return {
            "n": n, "round": 1, "phase": "draft", "first_player": fp, "turn": fp,
            "phase_tiles": [None] * len(PHASES), "round_track": ROUND_TRACK_WORKERS,
            "crop_deck": list(secret["crop_deck"]), "card": None, "cards_left": 0, "waiting": [],
            "piles": {k: list(v) for k, v in secret["piles"].items()},
            "slots": {k: list(v) for k, v in event["crop_supply"].items()},
            "boat_piles": {b["id"]: b["count"] - 1 for b in BOATS},
            "boat_board": {b["id"]: True for b in BOATS},
            "opp_deck": list(secret["opportunity_deck"]), "opp_known_bottom": 0,
            "opp_spaces": list(event["opportunity_spaces"]),
            "supply": supply, "players": players,
            "claims": [0] * n, "done": [False] * n, "surveyed": [0] * n,
            "pending": [], "vp_seq": 0, "result": None, "held": None,
            "blind": (event.get("options") or {}).get("coin_draws") == "blind",
        }

    # ------------------------------------------------------------------ evolve
    def evolve(self, state, event):
        t = event["type"]
        if t == "game_started":
            return self._initial_state(event)
        s = state
        fn = getattr(self, "_on_" + t)
        fn(s, event)
        return s

    def _add_vp(self, s: dict, seat: int, vp: int, reason: str) -> None:
        if vp <= 0:
            return
        p = s["players"][seat]
        p["vp"] += vp
        p["vp_by"][reason] = p["vp_by"].get(reason, 0) + vp
        # Score track: an arriving marker goes on top of the markers already there (3p rule).
        s["vp_seq"] += 1
        p["vp_at"] = s["vp_seq"]

    def _apply_gains(self, s: dict, seat: int, gains: dict, reason: str) -> None:
        p = s["players"][seat]
        c = gains.get("coins", 0)
        p["coins"] += c
        s["supply"]["coins"] -= c
        k = gains.get("surveyors", 0)
        p["surveyors"] += k
        s["supply"]["surveyors"] -= k
        p["harbor"] += gains.get("harbor", 0)
        self._add_vp(s, seat, gains.get("vp", 0), reason)

    def _pay_coin(self, s: dict, seat: int) -> None:
        s["players"][seat]["coins"] -= 1
        s["supply"]["coins"] += 1

    def _on_phase_chosen(self, s, e):
        s["phase_tiles"][PHASES.index(e["phase"])] = e["seat"]
        s["turn"] = _next(s, e["seat"])

    def _on_phase_started(self, s, e):
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

    def _on_gained(self, s, e):
        self._apply_gains(s, e["seat"], e["gains"], e["reason"])

    def _on_round_track_worker_taken(self, s, e):
        s["round_track"] -= 1
        s["players"][e["seat"]]["workers"] += 1
        if e["place"]:
            s["pending"].append({"seat": e["seat"], "kind": "bonus_worker"})

    def _on_worker_placed(self, s, e):
        p = s["players"][e["seat"]]
        p["worker"][e["cell"]] = True
        p["workers"] -= 1
        if e["coin"]:
            self._pay_coin(s, e["seat"])
        if e["bonus"]:
            s["pending"].pop(0)
        else:
            s["waiting"].remove(e["seat"])

    def _on_placement_skipped(self, s, e):
        s["waiting"].remove(e["seat"])

    def _on_crop_card_revealed(self, s, e):
        s["crop_deck"].pop(0)
        s["card"] = e["card"]
        s["cards_left"] -= 1
        s["waiting"] = list(e["must_place"])

    def _on_crop_tiles_refilled(self, s, e):
        for size, fills in e["fills"].items():
            for slot, kind in fills:
                s["slots"][size][slot] = kind
                s["piles"][size].pop(0)

    def _on_tile_planted(self, s, e):
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
        self._add_vp(s, seat, e["vp"], "crop_tiles")
        s["turn"] = _next(s, seat)

    def _on_pile_searched(self, s, e):
        # seed-R phase 2 coin ability: pay a coin, look through the face-down pile (its contents
        # are shown to the searcher only, in the event's "private" part) and choose a tile.
        self._pay_coin(s, e["seat"])
        s["pending"].append({"seat": e["seat"], "kind": "choose_from_pile", "size": str(e["size"])})

    def _on_opportunity_deck_searched(self, s, e):
        # seed-R phase 4 coin ability: pay a coin, look through the deck (seen by the searcher
        # only) and choose a card.
        self._pay_coin(s, e["seat"])
        s["pending"].append({"seat": e["seat"], "kind": "choose_from_deck"})

    def _on_tile_drawn(self, s, e):
        # Blind coin draw: the top tile of the pile, seen only by its drawer until placed.
        seat = e["seat"]
        self._pay_coin(s, seat)
        kind = s["piles"][str(e["size"])].pop(0)
        s["held"] = {"seat": seat, "kind": kind}
        s["pending"].append({"seat": seat, "kind": "place_drawn_tile"})

    def _on_workers_returned(self, s, e):
        p = s["players"][e["seat"]]
        for c in e["cells"]:
            p["worker"][c] = False
        p["workers"] += len(e["cells"])
        s["turn"] = _next(s, e["seat"])

    def _on_boat_claimed(self, s, e):
        seat = e["seat"]
        p = s["players"][seat]
        for c in e["cells"]:
            p["worker"][c] = False
        p["workers"] += len(e["cells"])
        p["harvested"][e["crop"]] += len(e["cells"])
        p["boats"].append(e["boat"])
        if e["coin"]:
            self._pay_coin(s, seat)
            s["boat_piles"][e["boat"]] -= 1
        else:
            s["boat_board"][e["boat"]] = False
        if e["harvest_bonus"]:
            p["harvest_bonus"].append(e["crop"])
        self._apply_gains(s, seat, e["gains"], "riverboats")
        s["pending"].extend(dict(x) for x in e["pending"])
        s["claims"][seat] += 1
        s["turn"] = _next(s, seat)

    def _on_passed(self, s, e):
        s["done"][e["seat"]] = True
        s["turn"] = _next(s, e["seat"])

    def _on_barn_placed(self, s, e):
        s["players"][e["seat"]]["feature"][e["cell"]] = "barn"
        s["supply"]["barns"] -= 1
        s["pending"].pop(0)

    def _on_well_placed(self, s, e):
        s["players"][e["seat"]]["feature"][e["cell"]] = "well"
        s["supply"]["wells"] -= 1
        s["pending"].pop(0)

    def _on_surveyor_taken(self, s, e):
        s["players"][e["seat"]]["surveyors"] += 1
        s["supply"]["surveyors"] -= 1
        s["pending"].pop(0)

    def _on_pending_dropped(self, s, e):
        s["pending"].pop(0)

    def _on_agents_sent(self, s, e):
        p = s["players"][e["seat"]]
        p["workers"] -= e["count"]
        p["agents"] += e["count"]
        s["pending"].pop(0)

    def _on_bonus_chosen(self, s, e):
        seat = e["seat"]
        if e["bonus"] == "agent":
            p = s["players"][seat]
            p["workers"] -= 1
            p["agents"] += 1
        else:
            self._apply_gains(s, seat, e["gains"], "phase_bonus")
        s["pending"].pop(0)

    def _on_opportunity_taken(self, s, e):
        seat = e["seat"]
        s["players"][seat]["opps"].append({"id": e["card"], "scored": False})
        if e["space"] is None:
            if e.get("drawn"):
                self._pay_coin(s, seat)
                s["opp_deck"].pop(0)
                s["opp_known_bottom"] = min(s["opp_known_bottom"], len(s["opp_deck"]))
            else:
                # Chosen from the searched deck (coin paid when searching); then shuffled.
                s["opp_deck"] = list(e["secret"]["deck"])
                s["opp_known_bottom"] = 0
                s["pending"].pop(0)
        else:
            s["opp_spaces"][e["space"]] = None
            self._apply_gains(s, seat, e["gains"], "card_space_bonus")
            s["pending"].extend(dict(x) for x in e.get("pending", []))
        s["done"][seat] = True
        s["turn"] = _next(s, seat)

    def _on_opportunities_returned(self, s, e):
        # seed-R: leftovers go face down to the bottom of the draw pile; that order is public.
        s["opp_deck"].extend(e["cards"])
        s["opp_known_bottom"] += len(e["cards"])
        s["opp_spaces"] = [None] * len(s["opp_spaces"])

    def _on_surveyed(self, s, e):
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
        self._add_vp(s, seat, e["vp"], "surveyors_placed")
        s["surveyed"][seat] += 1

    def _on_round_scored(self, s, e):
        # The markers move in the phase's order of play (clockwise from the Scoring tile holder),
        # which decides whose marker ends on top of a shared space (the 3-player rule).
        for seat in e["order"]:
            self._add_vp(s, seat, e["vp"][seat], "round_scoring")
        s["card"] = None

    def _on_round_ended(self, s, e):
        s["round"] = e["round"] + 1
        s["first_player"] = e["first_player"]
        s["turn"] = e["first_player"]
        s["phase"] = "draft"
        s["phase_tiles"] = [None] * len(PHASES)

    def _on_round_started(self, s, e):
        self._on_crop_tiles_refilled(s, e)
        for b in e["boats"]:
            s["boat_board"][b] = True
            s["boat_piles"][b] -= 1
        for i, card in enumerate(e["opportunity_spaces"]):
            if card is not None:
                s["opp_spaces"][i] = s["opp_deck"].pop(0)
        s["opp_known_bottom"] = min(s["opp_known_bottom"], len(s["opp_deck"]))

    def _on_game_ended(self, s, e):
        for row in e["details"]:
            p = s["players"][row["seat"]]
            p["vp"] += row["final_vp"]
        s["phase"] = "over"
        s["pending"] = []
        s["waiting"] = []
        s["result"] = copy.deepcopy({"scores": e["scores"], "winners": e["winners"], "details": e["details"]})

    def simulate(self, state, events):
        # The state is plain JSON data: a pickle round trip copies it several times faster
        # than copy.deepcopy (decide() looks ahead on a copy after every action).
        s = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        for e in events:
            s = self.evolve(s, e)
        return s

    # ------------------------------------------------------------------ who acts
    def _claim_limit(self, s: dict) -> int:
        return BOAT_CLAIMS_PER_ROUND[s["round"] - 1]

    def _survey_limit(self, s: dict) -> int:
        return SURVEYORS_PER_ROUND[s["round"] - 1]

    def _eligible(self, s: dict, seat: int) -> bool:
        """Does `seat` still have a turn to take in the current sequential phase?"""
        ph = s["phase"]
        p = s["players"][seat]
        if ph == "planting":
            return bool(board.uncovered_workers(p))
        if ph == "harvest":
            return not s["done"][seat] and s["claims"][seat] < self._claim_limit(s) and bool(self._claims(s, seat))
        if ph == "opportunity":
            return not s["done"][seat] and (any(c is not None for c in s["opp_spaces"])
                                            or (p["coins"] > 0 and bool(s["opp_deck"])))
        if ph == "scoring":
            return (not s["done"][seat] and s["surveyed"][seat] < self._survey_limit(s) and p["surveyors"] > 0
                    and bool(self._survey_targets(p)))
        return False

    def _current(self, s: dict) -> int | None:
        """The seat whose turn it is in a sequential phase (None: the phase is over)."""
        seat = s["turn"]
        for _ in range(s["n"]):
            if self._eligible(s, seat):
                return seat
            seat = _next(s, seat)
        return None

    def to_act(self, state):
        s = state
        if s["phase"] == "over":
            return set()
        if s["pending"]:
            return {s["pending"][0]["seat"]}
        if s["phase"] == "draft":
            return {s["turn"]}
        if s["phase"] == "cultivation":
            return set(s["waiting"])
        cur = self._current(s)
        return set() if cur is None else {cur}

    # ------------------------------------------------------------------ legal actions
    def _claims(self, s: dict, seat: int) -> list[dict]:
        """seed-R phase 3: fill a riverboat with exactly its capacity of workers standing on one
        crop; the board's boat for free, or (coin) one from the pile of a type already taken."""
        p = s["players"][seat]
        counts = {c: 0 for c in CROPS}
        for c in range(board.CELLS):
            if p["worker"][c] and p["crop"][c] is not None:
                counts[p["crop"][c]] += 1
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

    def _survey_targets(self, p: dict) -> list[dict]:
        out = []
        for c in range(board.CELLS):
            f = p["feature"][c]
            if f is not None and not p["scored"][c]:
                out.append({"type": "survey", "feature": f, "cell": c})
        seen = set()
        for o in p["opps"]:
            if not o["scored"] and o["id"] not in seen:
                seen.add(o["id"])
                out.append({"type": "survey_card", "card": o["id"]})
        return out

    def _feature_options(self, s: dict, item: dict) -> list[dict]:
        """Actions that resolve an estate-feature item; seed-R: when the named feature is
        exhausted (or, our decision, cannot be placed) any other remaining feature may be taken."""
        p = s["players"][item["seat"]]

        def actions(kind: str) -> list[dict]:
            if kind == "barn" and s["supply"]["barns"] > 0:
                return [{"type": "place_barn", "cell": c} for c in board.barn_cells(p)]
            if kind == "well" and s["supply"]["wells"] > 0:
                return [{"type": "place_well", "cell": c} for c in board.well_cells(p)]
            if kind == "surveyor" and s["supply"]["surveyors"] > 0:
                return [{"type": "take_surveyor"}]
            return []

        out = [a for k in item["options"] for a in actions(k)]
        if not out and item.get("substitute", True):
            out = [a for k in FEATURES if k not in item["options"] for a in actions(k)]
        if out and item.get("optional"):
            out.append({"type": "decline"})
        return out

    def _pending_actions(self, s: dict, item: dict) -> list[dict]:
        p = s["players"][item["seat"]]
        kind = item["kind"]
        if kind == "bonus_worker":
            return [{"type": "place_worker", "cell": c, "coin": False} for c in board.empty_fields(p)]
        if kind == "scoring_bonus":
            out = []
            if s["supply"]["coins"] > 0:
                out.append({"type": "choose_bonus", "bonus": "coin"})
            if p["harbor"] < HARBOR_LAST_SPACE:
                out.append({"type": "choose_bonus", "bonus": "harbor"})
            if p["workers"] > 0:
                out.append({"type": "choose_bonus", "bonus": "agent"})
            return out
        if kind == "feature":
            return self._feature_options(s, item)
        if kind == "choose_from_pile":
            free = board.uncovered_workers(p)
            return [{"type": "plant_from_pile", "kind": k, "cells": cells}
                    for k in sorted(set(s["piles"][item["size"]]))
                    for cells in board.placements(free, TILE_KINDS[k]["crops"])]
        if kind == "choose_from_deck":
            return [{"type": "take_opportunity_from_deck", "card": c} for c in sorted(set(s["opp_deck"]))]
        if kind == "place_drawn_tile":
            crops = TILE_KINDS[s["held"]["kind"]]["crops"]
            return [{"type": "plant_drawn", "cells": cells}
                    for cells in board.placements(board.uncovered_workers(p), crops)]
        if kind == "agents":
            top = min(item["max"], p["workers"])
            return [{"type": "send_agents", "count": k} for k in range(top + 1)] if top > 0 else []
        raise ValueError(kind)

    def _cultivation_actions(self, s: dict, seat: int) -> list[dict]:
        """seed-R phase 1: place a worker on an empty field of the card's colour (any colour on a
        wild); a coin ignores the card. Our decision: with no empty field of that colour the
        player may skip (or pay the coin)."""
        p = s["players"][seat]
        card = s["card"]
        empty = board.empty_fields(p)
        cols = board.COLOUR[p["mat"]]
        match = [c for c in empty if card == WILD or cols[c] == card]
        out = [{"type": "place_worker", "cell": c, "coin": False} for c in match]
        if card != WILD and p["coins"] > 0:
            out += [{"type": "place_worker", "cell": c, "coin": True} for c in empty if cols[c] != card]
        if not match:
            out.append({"type": "skip"})
        return out

    def _board_plants(self, s: dict, p: dict) -> list[dict]:
        free = board.uncovered_workers(p)
        out = []
        for size in ("1", "2", "3"):
            for slot, kind in enumerate(s["slots"][size]):
                if kind is None:
                    continue
                for cells in board.placements(free, TILE_KINDS[kind]["crops"]):
                    out.append({"type": "plant", "size": int(size), "slot": slot, "cells": cells})
        return out

    def _pile_plants(self, s: dict, p: dict) -> list[dict]:
        """seed-R phase 2 coin ability: pay a coin, search the 1- or 2-hex draw pile and choose a
        tile from it (option "blind": draw the top tile unseen). Offered only when a tile of that
        size fits: tiles turn, so every tile of one size fits the same cells, and the offer tells
        nothing about the pile's contents; whatever the pile holds, one of its tiles can be placed
        (seed-R: once the coin is paid you must take a tile from the pile)."""
        if p["coins"] <= 0:
            return []
        free = board.uncovered_workers(p)
        probe = {"1": ["beet"], "2": ["beet", "wheat"]}
        kind = "draw_tile" if s["blind"] else "search_pile"
        return [{"type": kind, "size": int(size)} for size in COIN_PILE_SIZES
                if s["piles"][size] and board.placements(free, probe[size])]

    def _planting_actions(self, s: dict, seat: int) -> list[dict]:
        p = s["players"][seat]
        out = self._board_plants(s, p)
        if not out:
            # Our decision: when no face-up tile fits even after the refill, the player may give
            # up planting and take the uncovered workers back (or use a coin on the piles).
            out.append({"type": "return_workers"})
        return out + self._pile_plants(s, p)

    def _opportunity_actions(self, s: dict, seat: int) -> list[dict]:
        p = s["players"][seat]
        out = [{"type": "take_opportunity", "space": i} for i, c in enumerate(s["opp_spaces"]) if c is not None]
        if p["coins"] > 0 and s["opp_deck"]:
            out.append({"type": "draw_opportunity" if s["blind"] else "search_opportunity_deck"})
        return out

    def legal_actions(self, state, seat):
        s = state
        if seat not in self.to_act(s):
            return []
        if s["pending"]:
            return self._pending_actions(s, s["pending"][0])
        ph = s["phase"]
        if ph == "draft":
            return [{"type": "choose_phase", "phase": PHASES[i]}
                    for i, owner in enumerate(s["phase_tiles"]) if owner is None]
        if ph == "cultivation":
            return self._cultivation_actions(s, seat)
        if ph == "planting":
            return self._planting_actions(s, seat)
        if ph == "harvest":
            return self._claims(s, seat) + [{"type": "pass"}]
        if ph == "opportunity":
            return self._opportunity_actions(s, seat)
        if ph == "scoring":
            return self._survey_targets(s["players"][seat]) + [{"type": "pass"}]
        return []

    # ------------------------------------------------------------------ decide
    def _check_shape(self, action: Any) -> str:
        t = require_action_type(action, ACTION_TYPES)
        reject_unknown_fields(action, ACTION_FIELDS[t])
        if t == "choose_phase":
            require_str(action, "phase", PHASES)
        elif t == "place_worker":
            require_int(action, "cell", 0, board.CELLS - 1)
            if not isinstance(action.get("coin"), bool):
                raise InvalidAction("place_worker: field 'coin' must be true or false")
        elif t == "plant":
            require_int(action, "size", 1, 3)
            require_int(action, "slot", 0, 20)
            self._check_cells(action)
        elif t == "plant_from_pile":
            require_str(action, "kind", TILE_KINDS)
            self._check_cells(action)
        elif t == "claim_boat":
            require_str(action, "boat", BOAT_TYPES)
            require_str(action, "crop", CROPS)
            if not isinstance(action.get("coin"), bool):
                raise InvalidAction("claim_boat: field 'coin' must be true or false")
        elif t == "take_opportunity":
            require_int(action, "space", 0, len(CARD_SPACE_BONUSES) - 1)
        elif t in ("take_opportunity_from_deck", "survey_card"):
            require_str(action, "card", OPPORTUNITY)
        elif t == "survey":
            require_str(action, "feature", ("barn", "well"))
            require_int(action, "cell", 0, board.CELLS - 1)
        elif t == "choose_bonus":
            require_str(action, "bonus", SCORING_BONUSES)
        elif t in ("place_barn", "place_well"):
            require_int(action, "cell", 0, board.CELLS - 1)
        elif t == "send_agents":
            require_int(action, "count", 0, 3)
        elif t in ("draw_tile", "search_pile"):
            require_int(action, "size", 1, 2)
        elif t == "plant_drawn":
            self._check_cells(action)
        return t

    def _check_cells(self, action: dict) -> None:
        cells = action.get("cells")
        if not isinstance(cells, list) or not 1 <= len(cells) <= 3 or not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c < board.CELLS for c in cells):
            raise InvalidAction(f"{action['type']}: field 'cells' must list 1 to 3 cell numbers (0 to {board.CELLS - 1})")

    def _why_illegal(self, s: dict, seat: int, action: dict) -> str:
        """A reason a player can read for a well-formed action that is not among the legal ones.
        Only called once the action's shape is checked (exactly its fields, each well typed)."""
        t = action["type"]
        ph = s["phase"]
        where = PHASE_TITLE.get(ph, ph)
        p = s["players"][seat]
        if s["pending"]:
            return self._why_pending_refuses(s, s["pending"][0], action)
        expected = {"choose_phase": "draft", "place_worker": "cultivation", "skip": "cultivation",
                    "plant": "planting", "plant_from_pile": "planting", "draw_tile": "planting",
                    "plant_drawn": "planting", "search_pile": "planting", "return_workers": "planting",
                    "claim_boat": "harvest", "take_opportunity": "opportunity",
                    "search_opportunity_deck": "opportunity", "take_opportunity_from_deck": "opportunity",
                    "draw_opportunity": "opportunity", "survey": "scoring", "survey_card": "scoring"}.get(t)
        if expected and expected != ph:
            return f"{where}: {t.replace('_', ' ')} belongs to the {PHASE_TITLE[expected]} phase"
        if t in ("choose_bonus", "place_barn", "place_well", "take_surveyor", "decline", "send_agents"):
            return f"{where}: {t.replace('_', ' ')} answers a bonus or benefit, and none is waiting for you"
        if (action.get("coin") is True or t in COIN_TYPES) and p["coins"] <= 0:
            return f"{where}: you have no coin to spend"
        if t == "choose_phase":
            return f"Phase draft: the {action['phase']} tile is already taken"
        if t == "place_worker":
            return self._why_cell_refused(s, p, action)
        if t == "skip":
            if s["card"] == WILD:
                return "Cultivation: you must place a worker, the wild card allows any of your empty fields"
            return f"Cultivation: you must place a worker, you have an empty {s['card']} field"
        if t == "pass":
            return f"{where}: passing is for the Harvest & Shipping and Scoring phases"
        if t == "plant":
            slots = s["slots"][str(action["size"])]
            if action["slot"] >= len(slots) or slots[action["slot"]] is None:
                return f"Planting: there is no {action['size']}-hex tile on space {action['slot']}"
            if len(action["cells"]) != action["size"]:
                return f"Planting: a {action['size']}-hex tile covers {action['size']} cells, not {len(action['cells'])}"
            return "Planting: that tile does not fit on those cells wholly under your workers on empty fields"
        if t in ("plant_from_pile", "plant_drawn"):
            first = "draw_tile" if s["blind"] else "search_pile"
            return f"Planting: first pay a coin for a tile from a pile ({first}), then place it"
        if t == "take_opportunity_from_deck":
            if s["blind"]:
                return "Opportunity: in this game the coin draws the top card blind (draw_opportunity)"
            return "Opportunity: first pay a coin to search the deck (search_opportunity_deck), then choose a card"
        if t in ("search_pile", "draw_tile"):
            if s["blind"] != (t == "draw_tile"):
                other = "draw_tile" if s["blind"] else "search_pile"
                return f"Planting: in this game the coin for a pile tile is {other}"
            if not s["piles"][str(action["size"])]:
                return f"Planting: the {action['size']}-hex pile is empty"
            return f"Planting: no {action['size']}-hex tile fits under your uncovered workers"
        if t in ("search_opportunity_deck", "draw_opportunity"):
            if s["blind"] != (t == "draw_opportunity"):
                other = "draw_opportunity" if s["blind"] else "search_opportunity_deck"
                return f"Opportunity: in this game the coin for a deck card is {other}"
            return "Opportunity: the opportunity deck is empty"
        if t == "return_workers":
            return "Planting: a face-up tile still fits your workers, take one"
        if t == "claim_boat":
            return self._why_boat_refused(s, seat, action)
        if t == "take_opportunity":
            return f"Opportunity: card space {action['space'] + 1} is empty"
        if t == "survey":
            c = action["cell"]
            if p["feature"][c] != action["feature"]:
                return f"Scoring: you have no {action['feature']} on cell {c}"
            return f"Scoring: your {action['feature']} on cell {c} is already scored"
        if t == "survey_card":
            if not any(o["id"] == action["card"] for o in p["opps"]):
                return f"Scoring: you do not hold opportunity card {action['card']}"
            return f"Scoring: your opportunity card {action['card']} is already scored"
        return f"{where}: {t.replace('_', ' ')} is not allowed now"

    def _why_cell_refused(self, s: dict, p: dict, action: dict) -> str:
        c, card = action["cell"], s["card"]
        if p["worker"][c]:
            return f"Cultivation: a worker already stands on cell {c}"
        if p["crop"][c] is not None or p["feature"][c] is not None:
            return f"Cultivation: cell {c} is not an empty field (it holds a crop tile or a barn)"
        colour = board.COLOUR[p["mat"]][c]
        if action["coin"]:
            if card == WILD:
                return "Cultivation: the wild card already lets you use any field; no coin is needed"
            return f"Cultivation: cell {c} is {_a(colour)} field, which the {card} card already allows; no coin is needed"
        return f"Cultivation: cell {c} is {_a(colour)} field, not {card} (a coin lets you ignore the card)"

    def _why_boat_refused(self, s: dict, seat: int, action: dict) -> str:
        boat = BOAT_TYPES[action["boat"]]
        on_board = s["boat_board"][boat["id"]]
        if s["claims"][seat] >= self._claim_limit(s):
            return "Harvest & Shipping: you have claimed all your riverboats this round"
        if action["coin"] and on_board:
            return f"Harvest & Shipping: riverboat {boat['id']} is on the board, take it without a coin"
        if not on_board and s["boat_piles"][boat["id"]] <= 0:
            return f"Harvest & Shipping: no riverboat {boat['id']} is left"
        if not action["coin"] and not on_board:
            return f"Harvest & Shipping: riverboat {boat['id']} has been taken this round (a coin takes one from its pile)"
        return (f"Harvest & Shipping: riverboat {boat['id']} needs exactly {boat['capacity']} workers "
                f"standing on {action['crop']}")

    def _why_pending_refuses(self, s: dict, item: dict, action: dict) -> str:
        """The reason an action does not resolve the decision `item` its seat owes first."""
        t, kind = action["type"], item["kind"]
        p = s["players"][item["seat"]]
        answers = {"bonus_worker": ("place_worker",), "scoring_bonus": ("choose_bonus",),
                   "feature": ("place_barn", "place_well", "take_surveyor", "decline"),
                   "choose_from_pile": ("plant_from_pile",), "choose_from_deck": ("take_opportunity_from_deck",),
                   "place_drawn_tile": ("plant_drawn",), "agents": ("send_agents",)}[kind]
        if t not in answers:
            return (f"{PHASE_TITLE.get(s['phase'], s['phase'])}: first resolve your pending decision "
                    f"({kind.replace('_', ' ')}: {' / '.join(answers)})")
        if kind == "bonus_worker":
            if action["coin"]:
                return "Cultivation: the round-track worker is placed without a coin"
            return f"Cultivation: cell {action['cell']} is not an empty field for the round-track worker"
        if kind == "scoring_bonus":
            return {"coin": "Scoring bonus: no coin is left in the supply",
                    "harbor": "Scoring bonus: your harbor master is on the last space",
                    "agent": "Scoring bonus: you have no worker in your supply to send as an agent"}[action["bonus"]]
        if kind == "feature":
            if t == "decline":
                return "Estate feature: this benefit is not optional, choose one of the offered features"
            feat = {"place_barn": "barn", "place_well": "well", "take_surveyor": "surveyor"}[t]
            supply = {"barn": "barns", "well": "wells", "surveyor": "surveyors"}[feat]
            if s["supply"][supply] <= 0:
                return f"Estate feature: no {feat} is left in the supply"
            offered = {a["type"] for a in self._feature_options(s, item)}
            if t not in offered:
                return f"Estate feature: this benefit gives a {' or '.join(item['options'])}, not a {feat}"
            if feat == "barn":
                return f"Estate feature: cell {action['cell']} is not an empty field for a barn"
            return f"Estate feature: cell {action['cell']} is not a crop hex of a crop without a well"
        if kind == "choose_from_pile":
            if action["kind"] not in s["piles"][item["size"]]:
                return f"Planting: no {action['kind']} tile is in the {item['size']}-hex pile you searched"
            return "Planting: that tile does not fit on those cells wholly under your uncovered workers"
        if kind == "choose_from_deck":
            return f"Opportunity: card {action['card']} is not in the deck"
        if kind == "place_drawn_tile":
            return "Planting: the drawn tile does not fit on those cells wholly under your uncovered workers"
        top = min(item["max"], p["workers"])
        return f"Agents: you may send 0 to {top} workers to New Orleans now"

    def decide(self, state, seat, action, rng):
        t = self._check_shape(action)
        s = state
        if s["phase"] == "over":
            raise IllegalAction("the game is over")
        if seat not in self.to_act(s):
            raise IllegalAction(f"seat {seat} may not act now; waiting for {sorted(self.to_act(s))}")
        if action not in self.legal_actions(s, seat):
            raise IllegalAction(self._why_illegal(s, seat, action))
        events = self._events_for(s, seat, t, action, rng)
        work = self.simulate(s, events)
        self._advance(work, events, rng)
        return events

    def _gains(self, s: dict, seat: int, benefit: dict) -> dict:
        """Concrete gains, limited by the general supply (seed-R: limited) and the track's end."""
        p = s["players"][seat]
        out = {}
        if benefit.get("coins"):
            out["coins"] = min(benefit["coins"], s["supply"]["coins"])
        if benefit.get("surveyors"):
            out["surveyors"] = min(benefit["surveyors"], s["supply"]["surveyors"])
        if benefit.get("harbor"):
            out["harbor"] = min(benefit["harbor"], HARBOR_LAST_SPACE - p["harbor"])
        if benefit.get("vp"):
            out["vp"] = benefit["vp"]
        return {k: v for k, v in out.items() if v}

    def _events_for(self, s: dict, seat: int, t: str, a: dict, rng: random.Random) -> list[dict]:
        p = s["players"][seat]
        if t == "choose_phase":
            return [{"type": "phase_chosen", "seat": seat, "phase": a["phase"]}]
        if t == "place_worker":
            bonus = bool(s["pending"])
            return [{"type": "worker_placed", "seat": seat, "cell": a["cell"], "coin": a["coin"], "bonus": bonus}]
        if t == "skip":
            return [{"type": "placement_skipped", "seat": seat}]
        if t == "plant":
            size = str(a["size"])
            kind = s["slots"][size][a["slot"]]
            return [{"type": "tile_planted", "seat": seat, "kind": kind, "slot": a["slot"], "cells": a["cells"],
                     "crops": TILE_KINDS[kind]["crops"], "vp": TILE_VP[a["size"]], "coin": False}]
        if t == "plant_from_pile":
            kind = a["kind"]
            size = str(TILE_KINDS[kind]["size"])
            # seed-R: after choosing from the pile, the remaining tiles are shuffled.
            pile = list(s["piles"][size])
            pile.remove(kind)
            rng.shuffle(pile)
            return [{"type": "tile_planted", "seat": seat, "kind": kind, "slot": None, "cells": a["cells"],
                     "crops": TILE_KINDS[kind]["crops"], "vp": TILE_VP[int(size)], "coin": True,
                     "secret": {"pile": pile}}]
        if t == "search_pile":
            # The searcher, and nobody else, sees what the pile holds (not its order: it is
            # shuffled after the choice anyway).
            tiles = sorted(s["piles"][str(a["size"])])
            return [{"type": "pile_searched", "seat": seat, "size": a["size"],
                     "private": {str(seat): {"tiles": tiles}}}]
        if t == "search_opportunity_deck":
            return [{"type": "opportunity_deck_searched", "seat": seat,
                     "private": {str(seat): {"cards": sorted(s["opp_deck"])}}}]
        if t == "draw_tile":
            kind = s["piles"][str(a["size"])][0]
            return [{"type": "tile_drawn", "seat": seat, "size": a["size"], "private": {str(seat): {"kind": kind}}}]
        if t == "plant_drawn":
            kind = s["held"]["kind"]
            return [{"type": "tile_planted", "seat": seat, "kind": kind, "slot": None, "cells": a["cells"],
                     "crops": TILE_KINDS[kind]["crops"], "vp": TILE_VP[len(a["cells"])], "coin": True,
                     "drawn": True}]
        if t == "draw_opportunity":
            return [{"type": "opportunity_taken", "seat": seat, "card": s["opp_deck"][0], "space": None,
                     "gains": {}, "drawn": True}]
        if t == "return_workers":
            return [{"type": "workers_returned", "seat": seat, "cells": board.uncovered_workers(p)}]
        if t == "claim_boat":
            return [self._boat_event(s, seat, a)]
        if t == "pass":
            return [{"type": "passed", "seat": seat, "phase": s["phase"]}]
        if t == "take_opportunity":
            i = a["space"]
            gains, pending = self._benefit(s, seat, CARD_SPACE_BONUSES[i], f"card space {i + 1}")
            return [{"type": "opportunity_taken", "seat": seat, "card": s["opp_spaces"][i], "space": i,
                     "gains": gains, "pending": pending}]
        if t == "take_opportunity_from_deck":
            # seed-R: choose a card from the draw pile, no bonus. Our decision: the pile is then
            # shuffled (as the crop-tile piles are), so nobody knows its order.
            deck = list(s["opp_deck"])
            deck.remove(a["card"])
            rng.shuffle(deck)
            return [{"type": "opportunity_taken", "seat": seat, "card": a["card"], "space": None,
                     "gains": {}, "secret": {"deck": deck}}]
        if t == "survey":
            cell = a["cell"]
            vp = board.barn_score(p, cell) if a["feature"] == "barn" else board.well_score(p, cell)
            return [{"type": "surveyed", "seat": seat, "feature": a["feature"], "cell": cell, "card": None, "vp": vp}]
        if t == "survey_card":
            return [{"type": "surveyed", "seat": seat, "feature": "opportunity", "cell": None, "card": a["card"],
                     "vp": scoring.opportunity_score(p, a["card"])}]
        if t == "choose_bonus":
            b = a["bonus"]
            gains = {} if b == "agent" else self._gains(s, seat, {"coins": 1} if b == "coin" else {"harbor": 1})
            return [{"type": "bonus_chosen", "seat": seat, "bonus": b, "gains": gains}]
        if t == "place_barn":
            return [{"type": "barn_placed", "seat": seat, "cell": a["cell"]}]
        if t == "place_well":
            return [{"type": "well_placed", "seat": seat, "cell": a["cell"]}]
        if t == "take_surveyor":
            return [{"type": "surveyor_taken", "seat": seat}]
        if t == "decline":
            return [{"type": "pending_dropped", "seat": seat, "reason": "declined"}]
        if t == "send_agents":
            return [{"type": "agents_sent", "seat": seat, "count": a["count"]}]
        raise InvalidAction(f"unknown action type {t!r}")

    def _benefit(self, s: dict, seat: int, benefit: dict, reason: str) -> tuple[dict, list[dict]]:
        """A benefit as printed (boat tiles, card spaces): immediate gains, plus the decisions it
        leaves to its taker (an estate feature to place, workers to send to New Orleans)."""
        gains = self._gains(s, seat, benefit)
        pending: list[dict] = []
        if benefit.get("feature"):
            options = list(FEATURES) if benefit["feature"] == "any" else [benefit["feature"]]
            pending.append({"seat": seat, "kind": "feature", "options": options, "reason": reason})
        if benefit.get("agents"):
            pending.append({"seat": seat, "kind": "agents", "max": benefit["agents"]})
        return gains, pending

    def _boat_event(self, s: dict, seat: int, a: dict) -> dict:
        p = s["players"][seat]
        boat = BOAT_TYPES[a["boat"]]
        # Which workers leave does not matter to any rule (only the count per crop does), so
        # the engine takes them in cell order.
        cells = board.workers_on_crop(p, a["crop"])[: boat["capacity"]]
        gains, pending = self._benefit(s, seat, boat["benefit"], f"riverboat {boat['id']}")
        before = p["harvested"][a["crop"]]
        bonus = (before < HARVEST_BONUS_AT <= before + boat["capacity"] and a["crop"] not in p["harvest_bonus"])
        if bonus:
            # seed-R "Bono de cosecha": at 9 harvested of one crop you may choose an estate feature
            # of your choice ("una característica de propiedad de tu elección"; estate features are
            # barns, wells and surveyors), a barn or a well being placed at once.
            pending.append({"seat": seat, "kind": "feature", "options": list(FEATURES), "optional": True,
                            "reason": f"harvest bonus ({a['crop']})"})
        return {"type": "boat_claimed", "seat": seat, "boat": a["boat"], "crop": a["crop"], "cells": cells,
                "coin": a["coin"], "gains": gains, "pending": pending, "harvest_bonus": bonus}

    # ------------------------------------------------------------------ automatic steps
    def _emit(self, s: dict, events: list[dict], event: dict) -> None:
        events.append(event)
        self.evolve(s, event)

    def _advance(self, s: dict, events: list[dict], rng: random.Random) -> None:
        """Play every automatic step until a real decision is due (or the game is over)."""
        while s["phase"] != "over":
            if s["pending"]:
                item = s["pending"][0]
                acts = self._pending_actions(s, item)
                if item["kind"] == "feature" and acts == [{"type": "take_surveyor"}]:
                    self._emit(s, events, {"type": "surveyor_taken", "seat": item["seat"]})
                    continue
                if not acts:
                    self._emit(s, events, {"type": "pending_dropped", "seat": item["seat"], "reason": "unavailable"})
                    continue
                return
            ph = s["phase"]
            if ph == "draft":
                if None in s["phase_tiles"]:
                    return
                self._start_phase(s, events, "cultivation")
            elif ph == "cultivation":
                if s["waiting"]:
                    return
                if s["cards_left"] > 0 and s["crop_deck"]:
                    card = s["crop_deck"][0]
                    must = [seat for seat in range(s["n"]) if self._must_place(s, seat, card)]
                    self._emit(s, events, {"type": "crop_card_revealed", "card": card, "must_place": must})
                    continue
                self._start_phase(s, events, "planting")
            elif ph == "planting":
                cur = self._current(s)
                if cur is None:
                    self._start_phase(s, events, "harvest")
                    continue
                p = s["players"][cur]
                if not self._board_plants(s, p):
                    # seed-R phase 2: at the start of your turn, if the face-up tiles cannot fill
                    # your uncovered workers, refill the whole board, then take a tile.
                    fills = self._refill_fills(s)
                    if fills:
                        self._emit(s, events, {"type": "crop_tiles_refilled", "seat": cur, "fills": fills})
                        if self._board_plants(s, p):
                            return
                    if not self._pile_plants(s, p):
                        self._emit(s, events, {"type": "workers_returned", "seat": cur,
                                               "cells": board.uncovered_workers(p)})
                        continue
                return
            elif ph == "harvest":
                if self._current(s) is None:
                    self._start_phase(s, events, "opportunity")
                    continue
                return
            elif ph == "opportunity":
                if self._current(s) is None:
                    left = [c for c in s["opp_spaces"] if c is not None]
                    if left:
                        self._emit(s, events, {"type": "opportunities_returned", "cards": left})
                    self._start_phase(s, events, "scoring")
                    continue
                return
            elif ph == "scoring":
                if self._current(s) is None:
                    self._end_round(s, events)
                    continue
                return

    def _must_place(self, s: dict, seat: int, card: str) -> bool:
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

    def _refill_fills(self, s: dict) -> dict:
        fills = {}
        for size in ("1", "2", "3"):
            pile = s["piles"][size]
            empty = [i for i, k in enumerate(s["slots"][size]) if k is None]
            row = [[slot, kind] for slot, kind in zip(empty, pile, strict=False)]
            if row:
                fills[size] = row
        return fills

    def _start_phase(self, s: dict, events: list[dict], phase: str) -> None:
        holder = s["phase_tiles"][PHASES.index(phase)]
        p = s["players"][holder]
        pending = []
        if phase == "scoring":
            pending.append({"seat": holder, "kind": "scoring_bonus"})
        self._emit(s, events, {"type": "phase_started", "phase": phase, "holder": holder, "pending": pending})
        # The phase-tile bonus at the start of the phase (seed-R, each phase's heading).
        if phase == "cultivation" and s["round_track"] > 0:
            self._emit(s, events, {"type": "round_track_worker_taken", "seat": holder,
                                   "place": bool(board.empty_fields(p))})
        elif phase == "planting":
            gains = self._gains(s, holder, {"coins": 1})
            if gains:
                self._emit(s, events, {"type": "gained", "seat": holder, "gains": gains, "reason": "phase_bonus"})
        elif phase == "harvest":
            gains = self._gains(s, holder, {"harbor": 1})
            if gains:
                self._emit(s, events, {"type": "gained", "seat": holder, "gains": gains, "reason": "phase_bonus"})
        elif phase == "opportunity":
            self._emit(s, events, {"type": "gained", "seat": holder, "gains": {"vp": 1}, "reason": "phase_bonus"})

    def _end_round(self, s: dict, events: list[dict]) -> None:
        # seed-R phase 5: 1 VP per active surveyor and per agent.
        vp = [p["active_surveyors"] + p["agents"] for p in s["players"]]
        holder = s["phase_tiles"][PHASES.index("scoring")]
        order = [(holder + i) % s["n"] for i in range(s["n"])]
        self._emit(s, events, {"type": "round_scored", "round": s["round"], "vp": vp, "order": order})
        if s["round"] < ROUNDS:
            if s["n"] == 3 and s["round"] == 3:
                # seed-R: in a 3-player game, after round 3 the marker goes to the player furthest
                # behind on the score track; on a tie, to the marker on top of the stack.
                fp = min(range(3), key=lambda i: (s["players"][i]["vp"], -s["players"][i]["vp_at"]))
            else:
                fp = _next(s, s["first_player"])
            self._emit(s, events, {"type": "round_ended", "round": s["round"], "first_player": fp})
            # seed-R "Inicio de una ronda": refill crop tiles, one boat of each type, four cards.
            boats = [b["id"] for b in BOATS if not s["boat_board"][b["id"]] and s["boat_piles"][b["id"]] > 0]
            deck = list(s["opp_deck"])
            spaces = [deck.pop(0) if (c is None and deck) else None for c in s["opp_spaces"]]
            self._emit(s, events, {"type": "round_started", "round": s["round"], "fills": self._refill_fills(s),
                                   "boats": boats, "opportunity_spaces": spaces})
            return
        details = scoring.final_scoring(s)
        scores = [row["total"] for row in details]
        best = max(scores)
        self._emit(s, events, {"type": "game_ended", "scores": scores,
                               "winners": [i for i, v in enumerate(scores) if v == best], "details": details})

    # ------------------------------------------------------------------ views
    def view(self, state, seat):
        s = state
        players = []
        for p in s["players"]:
            q = {k: copy.deepcopy(v) for k, v in p.items()}
            q["field_colours"] = board.COLOUR[p["mat"]]
            q["boats_reached"] = len(scoring.reached_boats(p))
            q["fields_covered"] = board.complete_fields(p)
            i = len(players)
            q["boats_claimed_this_round"] = s["claims"][i] if s["phase"] == "harvest" else 0
            q["surveyors_placed_this_round"] = s["surveyed"][i] if s["phase"] == "scoring" else 0
            q["passed"] = bool(s["done"][i]) if s["phase"] in ("harvest", "scoring") else False
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
            "pending": copy.deepcopy(pending),
            "crop_card": s["card"],
            "cards_left_this_round": s["cards_left"],
            "waiting": list(s["waiting"]),
            "crop_deck_size": len(s["crop_deck"]),
            "round_track": s["round_track"],
            "crop_supply": copy.deepcopy(s["slots"]),
            "pile_sizes": {k: len(v) for k, v in s["piles"].items()},
            "riverboats": {b["id"]: {"capacity": b["capacity"], "benefit": dict(b["benefit"]),
                                     "on_board": s["boat_board"][b["id"]], "pile": s["boat_piles"][b["id"]]}
                           for b in BOATS},
            "boat_claims_this_round": self._claim_limit(s),
            "surveyors_this_round": self._survey_limit(s),
            "opportunity_spaces": [{"card": c, "text": OPPORTUNITY[c]["text"] if c else None,
                                    "bonus": CARD_SPACE_BONUSES[i]} for i, c in enumerate(s["opp_spaces"])],
            "opportunity_card_texts": {c["id"]: c["text"] for c in OPPORTUNITY_CARDS},
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
            "result": copy.deepcopy(s["result"]),
        }

    def _search_view(self, s: dict, seat: int | None) -> dict | None:
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

    def _held_view(self, s: dict, seat: int | None) -> dict | None:
        held = s["held"]
        if held is None:
            return None
        size = TILE_KINDS[held["kind"]]["size"]
        return {"seat": held["seat"], "size": size, "kind": held["kind"] if seat == held["seat"] else None}

    def outcome(self, state):
        return copy.deepcopy(state["result"]) if state["phase"] == "over" else None

    def resample_hidden(self, state, viewer, rng):
        # Hidden from everyone: the crop-card deck order, the three tile piles' order and the
        # order of the unseen part of the opportunity deck (the leftovers put under it are public).
        s = copy.deepcopy(state)
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
