"""Recruit (seed-FoG pp. 11-12) and Trade: import, access, import-and-access (p. 12)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tablero.engines.core import IllegalAction

from . import data as D
from .board import EMPTY, adjacent_to_own, board_of, free, section_has
from .common import (
    KIND_TILES,
    Action,
    Event,
    State,
    Tile,
    _category_ok,
    _discount,
    _has_resource,
    _p,
    _red_or_white,
    _role,
    _tile_colour_extra,
    _version,
)
from .delivery import _bonus_events, _with_deliveries


# ============================================================================================
# Recruit (seed-FoG pp. 11-12)
# ============================================================================================
def _recruit_cost(state: State, slot: int) -> int:
    disc, _ = _discount(state) if _role(state) == "lead" else (0, {})
    return max(0, D.OFFER_COSTS[slot] - disc)


def _check_recruit(state: State, seat: int, a: Action) -> Any:
    _category_ok(state, "recruit")
    slot = a["slot"]
    adv = state["offer"][slot]
    if adv is None:
        raise IllegalAction(f"offer slot {slot} is empty")
    res = D.ADVISERS[adv]["resource"]
    if not _has_resource(state, seat, res):
        raise IllegalAction(f"recruiting {adv} needs {res}: own or have access to a {res} tile")
    cost = _recruit_cost(state, slot)
    if _p(state, seat)["money"] < cost:
        raise IllegalAction(f"recruiting from slot {slot} costs ${cost}")
    return cost


def _recruit(state: State, seat: int, a: Action, cost: Any, rng: random.Random):
    adv = state["offer"][a["slot"]]
    lead = _role(state) == "lead"
    value = D.ADVISERS[adv]["value"]
    ev = {"type": "adviser_recruited", "seat": seat, "slot": a["slot"], "adviser": adv, "cost": cost,
          "fleeting": 1 if lead else 0, "lasting": 1 if value else 0, "points": value}
    return [ev, *_bonus_events(state, seat)]


def _recruit_options(state: State, seat: int) -> Iterator[Action]:
    for slot in range(len(state["offer"])):
        a = {"type": "recruit", "slot": slot}
        try:
            _check_recruit(state, seat, a)
        except IllegalAction:
            continue
        yield a


# ============================================================================================
# Trade (seed-FoG p. 12)
# ============================================================================================
def _controlled(state: State, seat: int) -> list[str]:
    return _p(state, seat)["resources"]


def _import_cost(state: State, cell: int, neutral: bool) -> int:
    if neutral:
        return D.NEUTRAL_TRADE_COST
    return 1 + D.COLOUR_EXTRA[board_of(state).colour[cell]]


def _lead_disc(state: State) -> int:
    return _discount(state)[0] if _role(state) == "lead" else 0


def _check_import(state: State, seat: int, a: Action) -> Any:
    _category_ok(state, "trade")
    res = a["resource"]
    if res not in _controlled(state, seat):
        raise IllegalAction(f"you do not import {res}; your resources: {', '.join(_controlled(state, seat))}")
    if "cell" not in a:  # the first of two steps: the square follows with place_stall
        if next(_import_cells(state, seat, res), None) is None:
            raise IllegalAction(f"there is no square where you could import {res}")
        return None
    return _check_stall_cell(state, seat, res, a["cell"], owner=seat, neutral=False)


def _check_stall_cell(state: State, seat: int, res: str, cell: int, owner: int | None, neutral: bool) -> Any:
    b = board_of(state)
    if cell >= b.size or not free(state, [cell]):
        raise IllegalAction(f"square {cell} is not free land")
    if _role(state) == "follow" and b.colour[cell] not in ("red", "white"):
        raise IllegalAction("the Trade follow action imports only on red or white spaces")
    if state["supply"][res] <= 0:
        raise IllegalAction(f"no {res} tile is left in the supply")
    if section_has(state, b.section[cell], res):
        raise IllegalAction(f"this city section already has a {res} tile")
    if owner is not None and adjacent_to_own(state, owner, [cell]):
        raise IllegalAction("a player's buildings may not be adjacent (bridges/gates excepted)")
    cost = max(0, _import_cost(state, cell, neutral) - _lead_disc(state))
    if _p(state, seat)["money"] < cost:
        raise IllegalAction(f"importing there costs ${cost}")
    return cost


def _import(state: State, seat: int, a: Action, cost: Any, rng: random.Random):
    if "cell" not in a:
        return [{"type": "stall_site", "seat": seat, "resource": a["resource"], "access": False}]
    ev = {"type": "stall_imported", "seat": seat, "resource": a["resource"], "cell": a["cell"], "cost": cost,
          "owner": seat, "claim": False, "tile": len(state["tiles"])}
    return _with_deliveries(state, [ev], *_bonus_events(state, seat))


def _import_cells(state: State, seat: int, res: str):
    """The squares where `seat` may import `res` now."""
    b = board_of(state)
    money = _p(state, seat)["money"]
    follow = _role(state) == "follow"
    disc = _lead_disc(state)
    occ = state["occ"]
    if state["supply"][res] <= 0:
        return
    blocked = {t["section"] for t in state["tiles"] if t["res"] == res and t["kind"] in KIND_TILES}
    for cell in range(b.size):
        if not b.land[cell] or occ[cell] != EMPTY or b.section[cell] in blocked:
            continue
        col = b.colour[cell]
        if follow and col not in ("red", "white"):
            continue
        if money < max(0, 1 + D.COLOUR_EXTRA[col] - disc) or adjacent_to_own(state, seat, [cell]):
            continue
        yield cell


def _import_options(state: State, seat: int) -> Iterator[Action]:
    """Trade import as two steps: the resource here, the square with `place_stall` (a choice
    of up to 8 resources x 200 squares would otherwise be listed at once)."""
    if state["cur"] and state["cur"].get("category") not in ("trade", "any"):
        return
    for res in _controlled(state, seat):
        if next(_import_cells(state, seat, res), None) is not None:
            yield {"type": "import", "resource": res}


def _import_access_targets(state: State, seat: int) -> dict[str, int | None]:
    """resource -> the owner of the tile to place (None: neutral)."""
    out: dict[str, int | None] = {r: None for r in state["neutral"]}
    if state["completions"] >= 2:  # after the second completion token (seed-FoG p. 12)
        for s in range(state["n"]):
            if s != seat:
                for r in _controlled(state, s):
                    out[r] = s
    return out


def _check_import_access(state: State, seat: int, a: Action) -> Any:
    _category_ok(state, "trade")
    if _role(state) != "lead":
        raise IllegalAction("import-and-access cannot be done as a follow action")
    targets = _import_access_targets(state, seat)
    res = a["resource"]
    if res not in targets:
        raise IllegalAction(f"{res} is neither a neutral resource nor (after the 2nd completion) another player's")
    owner = targets[res]
    if "cell" not in a:
        if next(_import_access_cells(state, seat, res, owner), None) is None:
            raise IllegalAction(f"there is no square where {res} could be imported")
        return owner, None
    cost = _check_stall_cell(state, seat, res, a["cell"], owner=owner, neutral=True)
    return owner, cost


def _import_access(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    owner, cost = ctx
    if "cell" not in a:
        return [{"type": "stall_site", "seat": seat, "resource": a["resource"], "access": True}]
    ev = {"type": "stall_imported", "seat": seat, "resource": a["resource"], "cell": a["cell"], "cost": cost,
          "owner": owner, "claim": True, "tile": len(state["tiles"])}
    return _with_deliveries(state, [ev], *_bonus_events(state, seat))


def _import_access_cells(state: State, seat: int, res: str, owner: int | None):
    b = board_of(state)
    if state["supply"][res] <= 0 or _p(state, seat)["money"] < max(0, D.NEUTRAL_TRADE_COST - _lead_disc(state)):
        return
    occ = state["occ"]
    blocked = {t["section"] for t in state["tiles"] if t["res"] == res and t["kind"] in KIND_TILES}
    for cell in range(b.size):
        if not b.land[cell] or occ[cell] != EMPTY or b.section[cell] in blocked:
            continue
        if owner is not None and adjacent_to_own(state, owner, [cell]):
            continue
        yield cell


def _import_access_options(state: State, seat: int) -> Iterator[Action]:
    if _role(state) != "lead" or state["cur"].get("category") != "trade":
        return
    for res, owner in _import_access_targets(state, seat).items():
        if next(_import_access_cells(state, seat, res, owner), None) is not None:
            yield {"type": "import_access", "resource": res}


def _site_action(state: State, a: Action):
    st = state["cur"]["stall"]
    return {"type": "import_access" if st["access"] else "import", "resource": st["resource"], "cell": a["cell"]}


def _check_site(state: State, seat: int, a: Action) -> Any:
    full = _site_action(state, a)
    return (_check_import_access if full["type"] == "import_access" else _check_import)(state, seat, full)


def _site(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    full = _site_action(state, a)
    return (_import_access if full["type"] == "import_access" else _import)(state, seat, full, ctx, rng)


def _site_options(state: State, seat: int):
    st = state["cur"]["stall"]
    if st["access"]:
        cells = _import_access_cells(state, seat, st["resource"], _import_access_targets(state, seat)[st["resource"]])
    else:
        cells = _import_cells(state, seat, st["resource"])
    return ({"type": "place_stall", "cell": c} for c in cells)


def _access_cost(state: State, tile: Tile) -> int:
    if tile["owner"] is None:
        return D.NEUTRAL_TRADE_COST
    return 2 + _tile_colour_extra(state, tile)  # the cheapest colour under the tile (p. 12)


def _check_access(state: State, seat: int, a: Action) -> Any:
    _category_ok(state, "trade")
    t = a["tile"]
    if t >= len(state["tiles"]) or state["tiles"][t]["kind"] not in KIND_TILES:
        raise IllegalAction(f"tile {t} is not a resource building")
    tile = state["tiles"][t]
    if tile["owner"] == seat:
        raise IllegalAction("you own that tile")
    if seat in tile["claims"]:
        raise IllegalAction("you already have access to that tile")
    if _role(state) == "follow" and not _red_or_white(state, tile["cells"]):
        raise IllegalAction("the Trade follow action buys access only on red or white spaces")
    cost = max(0, _access_cost(state, tile) - _lead_disc(state))
    if _p(state, seat)["money"] < cost:
        raise IllegalAction(f"access to that tile costs ${cost}")
    return cost


def _access(state: State, seat: int, a: Action, cost: Any, rng: random.Random):
    tile = state["tiles"][a["tile"]]
    ev = {"type": "access_bought", "seat": seat, "tile": a["tile"], "cost": cost, "to": tile["owner"]}
    if _version(state) >= 9:
        # v9: the access holder delivers through its own network (v3), so a delivery it makes
        # possible happens at once (facts B.8: "the moment a required resource becomes connected")
        return _with_deliveries(state, [ev], *_bonus_events(state, seat))
    return [ev, *_bonus_events(state, seat)]


def _access_options(state: State, seat: int) -> Iterator[Action]:
    if state["cur"] and state["cur"].get("category") not in ("trade", "any"):
        return
    for i, t in enumerate(state["tiles"]):
        if t["kind"] in KIND_TILES and t["owner"] != seat and seat not in t["claims"]:
            a = {"type": "access", "tile": i}
            try:
                _check_access(state, seat, a)
            except IllegalAction:
                continue
            yield a
