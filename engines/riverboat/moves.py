"""Riverboat's moves, by the phase of the rulebook that allows them (the `MOVES` table).

Each move: `check` (legality, raising the reason a player reads), `resolve` (its events),
`options` (its legal instances) and its rulebook reference, declared once in `MOVES`."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

from tablero.engines.core import IllegalAction, Move, array, boolean, integer, string

from . import board, scoring
from .data import (
    BOAT_CLAIMS_PER_ROUND,
    BOAT_TYPES,
    BOATS,
    CARD_SPACE_BONUSES,
    COIN_PILE_SIZES,
    CROPS,
    HARBOR_LAST_SPACE,
    HARVEST_BONUS_AT,
    OPPORTUNITY,
    PHASES,
    SURVEYORS_PER_ROUND,
    TILE_KINDS,
    TILE_VP,
    WILD,
)
from .state import Action, Event, Pending, Player, State

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
    # Legal: an empty field the card allows, or (coin: the card is ignored) any empty field
    # (seed-R: "colocar un Trabajador en un Campo vacío de tu elección").
    if board.is_empty_field(p, c) and (a["coin"] or _card_allows(s, p, c)):
        return
    card = s["card"]
    if p["worker"][c]:
        raise IllegalAction(f"Cultivation: a worker already stands on cell {c}")
    if p["crop"][c] is not None or p["feature"][c] is not None:
        raise IllegalAction(f"Cultivation: cell {c} is not an empty field (it holds a crop tile or a barn)")
    colour = board.COLOUR[p["mat"]][c]
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
    # the revealed card (a wild one too) and places on any empty field of your choice.
    out = [{"type": "place_worker", "cell": c, "coin": False} for c in empty if _card_allows(s, p, c)]
    if p["coins"] > 0:
        out += [{"type": "place_worker", "cell": c, "coin": True} for c in empty]
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
    ways: dict[str, list[list[int]]] = {}  # the same kind often lies on several spaces
    for size in ("1", "2", "3"):
        for slot, kind in enumerate(s["slots"][size]):
            if kind is None:
                continue
            if kind not in ways:
                ways[kind] = board.placements(free, TILE_KINDS[kind]["crops"])
            for cells in ways[kind]:
                yield {"type": "plant", "size": int(size), "slot": slot, "cells": list(cells)}


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
    free, crops = board.uncovered_workers(p), TILE_KINDS[kind]["crops"]
    if not board.is_placement(free, cells, crops):
        # A tile whose hexes repeat a crop lies the same way whichever of those hexes is named
        # first: that placement is listed (and taken) once, in one order; say which.
        same = next((list(c) for c in itertools.permutations(cells) if list(c) != list(cells)
                     and sorted(zip(c, crops, strict=True)) == sorted(zip(cells, crops, strict=True))
                     and board.is_placement(free, list(c), crops)), None)
        if same is not None:
            raise IllegalAction(f"Planting: that placement is the one written as cells {same} (the tile shows "
                                "the same crop on those hexes, so each placement is listed once)")
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
    return [size for size in COIN_PILE_SIZES if s["piles"][size] and board.fits(free, _PROBE[size])]


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
        if not board.fits(board.uncovered_workers(s["players"][seat]), _PROBE[size]):
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
    for w, crop in zip(p["worker"], p["crop"], strict=True):
        if w and crop is not None:
            counts[crop] += 1
    return counts


def _claims(s: State, seat: int) -> list[Action]:
    """seed-R phase 3: fill a riverboat with exactly its capacity of workers standing on one
    crop; the board's boat for free, or (coin) one from the pile of its type ("de tu elección de
    la pila de robo respectiva", whether or not the board's boat of that type is still there)."""
    p = s["players"][seat]
    counts = _workers_per_crop(p)
    out = []
    for b in BOATS:
        ways = []
        if s["boat_board"][b["id"]]:
            ways.append(False)
        if s["boat_piles"][b["id"]] > 0 and p["coins"] > 0:
            ways.append(True)
        for crop in CROPS:
            if counts[crop] >= b["capacity"]:
                out += [{"type": "claim_boat", "boat": b["id"], "crop": crop, "coin": coin} for coin in ways]
    return out


def _check_claim_boat(s: State, seat: int, a: Action) -> None:
    if a["coin"]:
        _need_coin(s, seat)
    boat = BOAT_TYPES[a["boat"]]
    on_board = s["boat_board"][boat["id"]]
    if s["claims"][seat] >= _claim_limit(s):
        raise IllegalAction("Harvest & Shipping: you have claimed all your riverboats this round")
    if not on_board and s["boat_piles"][boat["id"]] <= 0:
        raise IllegalAction(f"Harvest & Shipping: no riverboat {boat['id']} is left")
    if a["coin"] and s["boat_piles"][boat["id"]] <= 0:
        raise IllegalAction(f"Harvest & Shipping: the draw pile of riverboat {boat['id']} is empty "
                            "(take the board's one without a coin)")
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
