"""Founders of Gloomhaven (2-4 players and the solo variant) as a RulesEngine.

Sources: seed-FoG = the rulebook pages 11-20 (../shared/rules/002_24ae600459e7675b.txt),
facts = ../shared/rules/founders-of-gloomhaven.md. Card and map values that neither gives
are our edition, kept as data in edition.json (RULES.md lists every rule and its source).

The turn (seed-FoG p. 11): the active player plays one card, face up (Call to Work: the
main action, then every other player in turn order follows or takes a basic action) or
face down (a basic action), or calls a vote (reset, income, secret simultaneous vote,
placement of the winning prestige building). Everything automatic (followers coming up,
refilling the adviser offer, achievements, the end) happens in the phase `advance`.
"""

from __future__ import annotations

from operator import itemgetter

from engines.core import IllegalAction, InvalidAction, InvalidOptions, Move, Phase, RulesEngine, clone, integer, string

from . import data as D
from .board import EMPTY, ROAD, Net, adjacent_to_own, board_of, free, section_has
from .schemas import EVENT_FIELDS, VIEW_SCHEMA

CELL = integer(0, 1023)
SLOT = integer(0, 2)
KIND_TILES = ("stall", "t2", "t3")


# ============================================================================================
# small helpers
# ============================================================================================
def _p(state, seat):
    return state["players"][seat]


def _points(state, seat) -> int:
    return sum(_p(state, seat)["score"].values())


def _order_from(state, seat) -> list[int]:
    n = state["n"]
    return [(seat + i) % n for i in range(n)]


def _closest(state, seats, ref) -> int:
    """The seat among `seats` closest in turn order to `ref` (ref itself first)."""
    n = state["n"]
    return min(seats, key=lambda s: (s - ref) % n)


def _owned_types(state, seat) -> set[str]:
    return {t["res"] for t in state["tiles"] if t["owner"] == seat and t["kind"] in KIND_TILES}


def _has_resource(state, seat, res) -> bool:
    """Own or have access to a tile of `res` (seed-FoG p. 11: the adviser's prerequisite)."""
    return any(t["res"] == res and (t["owner"] == seat or seat in t["claims"]) and t["kind"] in KIND_TILES
               for t in state["tiles"])


def _tile_colour_extra(state, tile) -> int:
    b = board_of(state)
    return min(D.COLOUR_EXTRA[b.colour[c]] for c in tile["cells"])


def _red_or_white(state, cells) -> bool:
    b = board_of(state)
    return any(b.colour[c] in ("red", "white") for c in cells)


def _discount(state) -> tuple[int, dict]:
    cur = state["cur"] or {}
    return cur.get("discount", 0), cur.get("bonus", {})


def _role(state) -> str:
    return (state["cur"] or {}).get("role", "")


def _category_ok(state, category) -> None:
    cur = state["cur"]
    if cur is None or cur.get("category") not in (category, "any"):
        want = (cur or {}).get("category")
        raise IllegalAction(f"this is a {want} action, not {category}" if want else "no main action is due now")


def _workers_free(state, seat) -> int:
    pl = _p(state, seat)
    return pl["workers"] - len(pl["placed"])


# ============================================================================================
# Recruit (seed-FoG pp. 11-12)
# ============================================================================================
def _recruit_cost(state, slot) -> int:
    disc, _ = _discount(state) if _role(state) == "lead" else (0, {})
    return max(0, D.OFFER_COSTS[slot] - disc)


def _check_recruit(state, seat, a):
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


def _recruit(state, seat, a, cost, rng):
    adv = state["offer"][a["slot"]]
    lead = _role(state) == "lead"
    value = D.ADVISERS[adv]["value"]
    ev = {"type": "adviser_recruited", "seat": seat, "slot": a["slot"], "adviser": adv, "cost": cost,
          "fleeting": 1 if lead else 0, "lasting": 1 if value else 0, "points": value}
    return [ev, *_bonus_events(state, seat)]


def _recruit_options(state, seat):
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
def _controlled(state, seat) -> list[str]:
    return _p(state, seat)["resources"]


def _import_cost(state, cell, neutral: bool) -> int:
    if neutral:
        return D.NEUTRAL_TRADE_COST
    return 1 + D.COLOUR_EXTRA[board_of(state).colour[cell]]


def _lead_disc(state) -> int:
    return _discount(state)[0] if _role(state) == "lead" else 0


def _check_import(state, seat, a):
    _category_ok(state, "trade")
    res = a["resource"]
    if res not in _controlled(state, seat):
        raise IllegalAction(f"you do not import {res}; your resources: {', '.join(_controlled(state, seat))}")
    if "cell" not in a:  # the first of two steps: the square follows with place_stall
        if next(_import_cells(state, seat, res), None) is None:
            raise IllegalAction(f"there is no square where you could import {res}")
        return None
    return _check_stall_cell(state, seat, res, a["cell"], owner=seat, neutral=False)


def _check_stall_cell(state, seat, res, cell, owner, neutral):
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


def _import(state, seat, a, cost, rng):
    if "cell" not in a:
        return [{"type": "stall_site", "seat": seat, "resource": a["resource"], "access": False}]
    ev = {"type": "stall_imported", "seat": seat, "resource": a["resource"], "cell": a["cell"], "cost": cost,
          "owner": seat, "claim": False, "tile": len(state["tiles"])}
    return _with_deliveries(state, [ev], *_bonus_events(state, seat))


def _import_cells(state, seat, res):
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


def _import_options(state, seat):
    """Trade import as two steps: the resource here, the square with `place_stall` (a choice
    of up to 8 resources x 200 squares would otherwise be listed at once)."""
    if state["cur"] and state["cur"].get("category") not in ("trade", "any"):
        return
    for res in _controlled(state, seat):
        if next(_import_cells(state, seat, res), None) is not None:
            yield {"type": "import", "resource": res}


def _import_access_targets(state, seat) -> dict[str, int | None]:
    """resource -> the owner of the tile to place (None: neutral)."""
    out: dict[str, int | None] = {r: None for r in state["neutral"]}
    if state["completions"] >= 2:  # after the second completion token (seed-FoG p. 12)
        for s in range(state["n"]):
            if s != seat:
                for r in _controlled(state, s):
                    out[r] = s
    return out


def _check_import_access(state, seat, a):
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


def _import_access(state, seat, a, ctx, rng):
    owner, cost = ctx
    if "cell" not in a:
        return [{"type": "stall_site", "seat": seat, "resource": a["resource"], "access": True}]
    ev = {"type": "stall_imported", "seat": seat, "resource": a["resource"], "cell": a["cell"], "cost": cost,
          "owner": owner, "claim": True, "tile": len(state["tiles"])}
    return _with_deliveries(state, [ev], *_bonus_events(state, seat))


def _import_access_cells(state, seat, res, owner):
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


def _import_access_options(state, seat):
    if _role(state) != "lead" or state["cur"].get("category") != "trade":
        return
    for res, owner in _import_access_targets(state, seat).items():
        if next(_import_access_cells(state, seat, res, owner), None) is not None:
            yield {"type": "import_access", "resource": res}


def _site_action(state, a):
    st = state["cur"]["stall"]
    return {"type": "import_access" if st["access"] else "import", "resource": st["resource"], "cell": a["cell"]}


def _check_site(state, seat, a):
    full = _site_action(state, a)
    return (_check_import_access if full["type"] == "import_access" else _check_import)(state, seat, full)


def _site(state, seat, a, ctx, rng):
    full = _site_action(state, a)
    return (_import_access if full["type"] == "import_access" else _import)(state, seat, full, ctx, rng)


def _site_options(state, seat):
    st = state["cur"]["stall"]
    if st["access"]:
        cells = _import_access_cells(state, seat, st["resource"], _import_access_targets(state, seat)[st["resource"]])
    else:
        cells = _import_cells(state, seat, st["resource"])
    return ({"type": "place_stall", "cell": c} for c in cells)


def _on_stall_site(s, e):
    s["cur"]["stall"] = {"resource": e["resource"], "access": e["access"]}


def _access_cost(state, tile) -> int:
    if tile["owner"] is None:
        return D.NEUTRAL_TRADE_COST
    return 2 + _tile_colour_extra(state, tile)  # the cheapest colour under the tile (p. 12)


def _check_access(state, seat, a):
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


def _access(state, seat, a, cost, rng):
    tile = state["tiles"][a["tile"]]
    ev = {"type": "access_bought", "seat": seat, "tile": a["tile"], "cost": cost, "to": tile["owner"]}
    if _version(state) >= 9:
        # v9: the access holder delivers through its own network (v3), so a delivery it makes
        # possible happens at once (facts B.8: "the moment a required resource becomes connected")
        return _with_deliveries(state, [ev], *_bonus_events(state, seat))
    return [ev, *_bonus_events(state, seat)]


def _access_options(state, seat):
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


# ============================================================================================
# Upgrade (seed-FoG pp. 12-13)
# ============================================================================================
def _upgrade_cost(state, res) -> int:
    return max(0, D.UPGRADE_COST[D.TIER[res]] - _lead_disc(state))


def _prereq_touch(state, seat, res, net: Net) -> dict[str, list[tuple[int, set[int]]]] | None:
    """For each prerequisite: the usable tiles (owned or accessed) and their touch squares."""
    out = {}
    for p in D.ADVANCED[res]["prereqs"]:
        usable = [(i, net.tile_touch(i)) for i, t in enumerate(state["tiles"])
                  if t["res"] == p and t["kind"] in KIND_TILES and (t["owner"] == seat or seat in t["claims"])]
        if not usable:
            return None
        out[p] = usable
    return out


def _choose_prereqs(state, seat, res, cells, touch) -> list[list] | None:
    """The prerequisite tiles the new building uses: for each prerequisite, a connected usable
    tile, preferring the builder's own, then the lowest tile number (ours)."""
    cs = set(cells)
    chosen = []
    for p, pts in D.ADVANCED[res]["prereqs"].items():
        best = None
        for i, tch in touch[p]:
            if tch & cs:
                own = state["tiles"][i]["owner"] == seat
                if best is None or (own and not best[1]):
                    best = (i, own)
        if best is None:
            return None
        t = state["tiles"][best[0]]
        value = pts if D.TIER[p] > 1 else (2 if t["owner"] is None else 1)  # neutral basic counts 2 (p. 11)
        chosen.append([best[0], t["owner"], value])
    return chosen


def _check_upgrade(state, seat, a):
    _category_ok(state, "upgrade")
    res = a["resource"]
    if res not in D.ADVANCED:
        raise IllegalAction(f"{res} is not a tier-2 or tier-3 resource")
    b = board_of(state)
    cells = tuple(sorted(a["cells"]))
    if cells not in b.footprint_set[D.ADVANCED[res]["shape"]]:
        raise IllegalAction(f"those squares are not a {D.ADVANCED[res]['shape']} {res} tile on the map")
    if state["supply"][res] <= 0:
        raise IllegalAction(f"no {res} building is left in the supply")
    cost = _upgrade_cost(state, res)
    if _p(state, seat)["money"] < cost:
        raise IllegalAction(f"a tier-{D.TIER[res]} building costs ${cost}")
    if not free(state, cells):
        raise IllegalAction("the tile must cover free squares")
    if section_has(state, b.section[cells[0]], res):
        raise IllegalAction(f"this city section already has a {res} tile")
    if adjacent_to_own(state, seat, cells):
        raise IllegalAction("a player's buildings may not be adjacent (bridges/gates excepted)")
    touch = _prereq_touch(state, seat, res, Net(state, seat))
    if touch is None:
        raise IllegalAction(f"{res} needs {' and '.join(D.ADVANCED[res]['prereqs'])} owned or accessed")
    chosen = _choose_prereqs(state, seat, res, cells, touch)
    if chosen is None:
        raise IllegalAction(f"the {res} tile must be connected to its prerequisites")
    if _version(state) >= 9 and Net(state, seat).owned_touch().isdisjoint(cells):
        # v9 (p. 13, p. 20): "Los edificios personales, como los recursos avanzados y las carreteras,
        # sólo pueden ponerse en un espacio conectado a algo que el jugador ya posea"
        raise IllegalAction(f"the {res} tile must be connected to something you own (access is not ownership)")
    fr = _first_road(state)
    if fr is not None and Net(state, seat).touch([fr]).isdisjoint(cells):
        raise IllegalAction("the tile must be connected to the road built before it")
    return cost, chosen


def _upgrade(state, seat, a, ctx, rng):
    cost, chosen = ctx
    tile = len(state["tiles"])
    ev = {"type": "building_upgraded", "seat": seat, "resource": a["resource"], "cells": sorted(a["cells"]),
          "cost": cost, "tile": tile, "prereqs": chosen}
    # the leader's single connected road: after the tile, unless it was built before (p. 12)
    roads = [tile] if _role(state) == "lead" and _first_road(state) is None else []
    return _with_deliveries(state, [ev], *_bonus_events(state, seat, anchored=roads))


def _own_adjacent(state, seat) -> set[int]:
    """Squares next to a building `seat` owns (bridges/gates and prestige excepted): a new tile
    of the seat may not cover them (seed-FoG pp. 12-13)."""
    adj = board_of(state).adj
    out: set[int] = set()
    for t in state["tiles"]:
        if t["owner"] == seat and t["kind"] != "bridge" and t["kind"] != "prestige":
            for c in t["cells"]:
                out.update(adj[c])
    return out


# (map, occupancy, tiles' resources/owners/claims, seat) -> {resource: footprints where the seat
# could place it, money and supply aside}. A pure function of its key (safe across games and
# states), bounded; it spares the play phase's "can Upgrade resolve?" probe and the lead's list
# the same map search.
_SITES: dict[tuple, dict[str, list[tuple[int, ...]]]] = {}
_SITES_SIZE = 128


_RES_OWNER = itemgetter("res", "owner")
_CLAIMS = itemgetter("claims")


def _upgrade_sites(state, seat) -> dict[str, list[tuple[int, ...]]]:
    tiles = state["tiles"]
    owned_only = _version(state) >= 9  # v9: the tile must also touch what the seat owns (p. 13, p. 20)
    key = (board_of(state).name, seat, tuple(state["occ"]), tuple(map(_RES_OWNER, tiles)),
           tuple(i for i, c in enumerate(map(_CLAIMS, tiles)) if seat in c), owned_only)
    got = _SITES.get(key)
    if got is not None:
        return got
    b = board_of(state)
    occ = state["occ"]
    usable: dict[str, list[int]] = {}
    sections: dict[str, set] = {}
    for i, t in enumerate(tiles):
        if t["kind"] in KIND_TILES:
            sections.setdefault(t["res"], set()).add(t["section"])
            if t["owner"] == seat or seat in t["claims"]:
                usable.setdefault(t["res"], []).append(i)
    net = None
    good: set[int] = set()  # free land squares not next to the seat's own buildings
    reach: dict[str, set[int]] = {}  # prerequisite -> squares touching a usable tile of it
    owned: set[int] | None = None  # v9: squares connected to something the seat owns
    got = {}
    section = b.section
    for res, spec in D.ADVANCED.items():
        prereqs = spec["prereqs"]
        if not all(p in usable for p in prereqs):
            continue
        if net is None:
            net = Net(state, seat)
            own = _own_adjacent(state, seat)
            good = {c for c in b.land_cells if occ[c] == EMPTY}
            good -= own
            owned = net.owned_touch() if owned_only else None
        for p in prereqs:
            if p not in reach:
                reach[p] = set().union(*(net.tile_touch(i) for i in usable[p]))
        shape = spec["shape"]
        ids_at = b.footprint_ids_at[shape]
        blocked = sections.get(res, ())
        # candidate squares: touching a usable tile of every prerequisite (then a connected
        # usable tile of each exists, so _choose_prereqs finds one)
        sets = sorted((reach[p] for p in prereqs), key=len)
        first = sets[0] & good
        if not first:
            continue
        all_fps = b.footprints[shape]
        rest = sets[1:]
        ok = []
        for i in set().union(*(ids_at[c] for c in first)):
            fp = all_fps[i]
            if section[fp[0]] in blocked or not good.issuperset(fp):
                continue
            if rest and rest[0].isdisjoint(fp):
                continue
            if owned is not None and owned.isdisjoint(fp):
                continue
            ok.append(i)
        if ok:
            # the order of a walk by square (lowest touching square first), then by footprint
            ok.sort(key=lambda i: (min(c for c in all_fps[i] if c in first), i))
            got[res] = [all_fps[i] for i in ok]
    if len(_SITES) >= _SITES_SIZE:
        del _SITES[next(iter(_SITES))]
    _SITES[key] = got
    return got


def _upgrade_options(state, seat):
    if state["cur"] and state["cur"].get("category") not in ("upgrade", "any"):
        return
    money = _p(state, seat)["money"]
    fr = _first_road(state)
    near = Net(state, seat).touch([fr]) if fr is not None else None
    for res, fps in _upgrade_sites(state, seat).items():
        if state["supply"][res] <= 0 or money < _upgrade_cost(state, res):
            continue
        for fp in fps:
            if near is None or not near.isdisjoint(fp):
                yield {"type": "upgrade", "resource": res, "cells": list(fp)}


# --- v4: the Upgrade leader's road before the tile (seed-FoG p. 12: "ya sea antes o después de
# colocar la loseta, el jugador también puede construir una única carretera conectada a la loseta
# de recurso que se está construyendo") — two steps: `road_first`, then `first_road` with the square.
def _first_road(state) -> int | None:
    """The square of the road the Upgrade leader built before the tile, if any."""
    fr = (state["cur"] or {}).get("first_road")
    return fr if type(fr) is int else None


def _check_road_first(state, seat, a):
    _category_ok(state, "upgrade")
    cur = state["cur"]
    if _version(state) < 4:
        raise IllegalAction("this game's rules (v1-v3) build the Upgrade road after the tile only")
    if _role(state) != "lead" or cur.get("category") != "upgrade":
        raise IllegalAction("only the Upgrade leader builds a road before the tile")
    if "first_road" in cur:
        raise IllegalAction("the road before the tile is already chosen")
    if state["roads_left"] <= 0:
        raise IllegalAction("no road tile is left")
    # there is a square for it when a tile can be placed now next to a square where a road may go
    b = board_of(state)
    occ = state["occ"]
    cells = set(_road_cells(state, seat))
    for a_ in _upgrade_options(state, seat):
        fp = a_["cells"]
        if any(n in cells and n not in fp and occ[n] == EMPTY and b.land[n] for c in fp for n in b.adj[c]):
            return None
    raise IllegalAction("no road could be built before the tile and stay connected to it")


def _road_first(state, seat, a, ctx, rng):
    return [{"type": "first_road_due", "seat": seat}]


def _road_first_options(state, seat):
    try:
        _check_road_first(state, seat, {})
    except IllegalAction:
        return
    yield {"type": "road_first"}


def _next_to_sites(state, seat) -> dict[int, set]:
    """Square -> footprints (as sets) of tiles the leader could place now that touch it."""
    adj = board_of(state).adj
    out: dict[int, set] = {}
    for a in _upgrade_options(state, seat):
        fp = frozenset(a["cells"])
        for c in fp:
            for n in adj[c]:
                if n not in fp:
                    out.setdefault(n, set()).add(fp)
    return out


def _first_road_works(state, seat, cell, near=None) -> bool:
    """After a road on `cell`, could the leader place a tile connected to it? At once when a tile
    could already go next to it (a road only adds connections); else by a look-ahead."""
    near = _next_to_sites(state, seat) if near is None else near
    if any(cell not in fp for fp in near.get(cell, ())):
        return True
    s = _fork(state)
    s["occ"][cell] = ROAD
    s["cur"]["first_road"] = cell
    return next(_upgrade_options(s, seat), None) is not None


def _check_first_road(state, seat, a):
    cell = a["cell"]
    _check_road(state, seat, {"cell": cell})
    if not _first_road_works(state, seat, cell):
        raise IllegalAction("no tile could then be placed connected to that road")


def _first_road_built(state, seat, a, ctx, rng):
    return _with_deliveries(state, [{"type": "first_road_built", "seat": seat, "cell": a["cell"]}])


def _first_road_options(state, seat):
    near = _next_to_sites(state, seat)
    for c in _road_cells(state, seat):
        if _first_road_works(state, seat, c, near):
            yield {"type": "first_road", "cell": c}


def _on_first_road_due(s, e):
    s["cur"]["first_road"] = True


def _on_first_road_built(s, e):
    _place_road(s, e["seat"], e["cell"])
    s["cur"]["first_road"] = e["cell"]


# ============================================================================================
# Build: houses and bridges/gates (seed-FoG p. 13; no-workers variant p. 19)
# ============================================================================================
def _build_cost(state, kind) -> int:
    if kind == "house" and state["variants"]["no_workers"]:
        return D.NO_WORKERS_HOUSE_COST
    base = D.HOUSE_COST if kind == "house" else D.BRIDGE_COST
    disc = D.LEAD_DISCOUNT + _discount(state)[0] if _role(state) == "lead" else 0
    return max(0, base - disc)


def _check_build(state, seat, a, touch=None):
    _category_ok(state, "build")
    kind, cell = a["kind"], a["cell"]
    b = board_of(state)
    pl = _p(state, seat)
    if cell >= b.size or state["occ"][cell] != EMPTY:
        raise IllegalAction(f"square {cell} is not free")
    if kind == "house":
        if pl["houses"] >= D.MAX_HOUSES:
            raise IllegalAction(f"you have built all {D.MAX_HOUSES} houses")
        if b.colour[cell] != "green" or not b.land[cell]:
            raise IllegalAction("houses go on green spaces only")
        if any(t["kind"] == "house" and t["owner"] == seat and t["section"] == b.section[cell] for t in state["tiles"]):
            raise IllegalAction("you already have a house in this city section")
        if adjacent_to_own(state, seat, [cell]):
            raise IllegalAction("a player's buildings may not be adjacent (bridges/gates excepted)")
    else:
        if pl["bridges"] >= D.MAX_BRIDGES:
            raise IllegalAction(f"you have built all {D.MAX_BRIDGES} bridges/gates")
        if not b.crossing[cell]:
            raise IllegalAction("bridges/gates go on river or wall spaces only")
    touch = touch if touch is not None else Net(state, seat).owned_touch()
    if cell not in touch:
        raise IllegalAction("personal buildings must be connected to something you own")
    cost = _build_cost(state, kind)
    if pl["money"] < cost:
        raise IllegalAction(f"a {kind} costs ${cost}")
    return cost


def _build(state, seat, a, cost, rng):
    ev = {"type": f"{a['kind']}_built", "seat": seat, "cell": a["cell"], "cost": cost, "tile": len(state["tiles"])}
    evs = [ev, *_bonus_events(state, seat)]
    return _with_deliveries(state, evs[:1], *evs[1:]) if a["kind"] == "bridge" else evs


def _build_options(state, seat):
    """The checks of _check_build, with what they share computed once."""
    if state["cur"] and state["cur"].get("category") not in ("build", "any"):
        return
    b = board_of(state)
    pl = _p(state, seat)
    occ = state["occ"]
    houses = pl["houses"] < D.MAX_HOUSES and pl["money"] >= _build_cost(state, "house")
    bridges = pl["bridges"] < D.MAX_BRIDGES and pl["money"] >= _build_cost(state, "bridge")
    if not houses and not bridges:
        return
    touch = Net(state, seat).owned_touch()
    own = _own_adjacent(state, seat) if houses else set()
    house_sections = {t["section"] for t in state["tiles"] if t["kind"] == "house" and t["owner"] == seat}
    colour, crossing, land, section = b.colour, b.crossing, b.land, b.section
    for cell in sorted(touch):
        if occ[cell] != EMPTY:
            continue
        if crossing[cell]:
            if bridges:
                yield {"type": "build", "kind": "bridge", "cell": cell}
        elif (houses and colour[cell] == "green" and land[cell] and section[cell] not in house_sections
              and cell not in own):
            yield {"type": "build", "kind": "house", "cell": cell}


# ============================================================================================
# Roads, basic actions, workers (seed-FoG p. 14)
# ============================================================================================
def _road_touch(state, seat):
    r = state["roads"]
    if r is not None and r["queue"] and r["queue"][0] is not None:
        return Net(state, seat).touch(state["tiles"][r["queue"][0]]["cells"])
    return Net(state, seat).owned_touch()


def _road_cells(state, seat):
    if state["roads_left"] <= 0:
        return []
    b = board_of(state)
    occ = state["occ"]
    return sorted(c for c in _road_touch(state, seat) if b.land[c] and occ[c] == EMPTY)


def _check_road(state, seat, a):
    if state["roads_left"] <= 0:
        raise IllegalAction("no road tile is left")
    b = board_of(state)
    c = a["cell"]
    if c >= b.size or not b.land[c] or state["occ"][c] != EMPTY:
        raise IllegalAction(f"square {c} is not free land")
    if c not in _road_touch(state, seat):
        r = state["roads"]
        anchored = r is not None and r["queue"] and r["queue"][0] is not None
        raise IllegalAction("the road must be connected to the building just built" if anchored
                            else "a road must be connected to something you own")


def _road(state, seat, a, ctx, rng):
    return _with_deliveries(state, [{"type": "road_built", "seat": seat, "cell": a["cell"]}])


def _road_options(state, seat):
    return ({"type": "road", "cell": c} for c in _road_cells(state, seat))


def _skip_roads(state, seat, a, ctx, rng):
    return [{"type": "roads_skipped", "seat": seat}]


def _basic_gain(kind):
    def resolve(state, seat, a, ctx, rng):
        return [{"type": "basic_taken", "seat": seat, "kind": kind}]
    return resolve


def _worker_targets(state, seat) -> list[str]:
    if state["variants"]["no_workers"] or _workers_free(state, seat) <= 0:
        return []
    out = []
    pl = _p(state, seat)
    if "race" not in pl["placed"]:
        out.append("race")
    for pb in state["prestige"]:
        if pb["worker"] is None and seat in pb["delivered"]:
            out.append(pb["card"])
    return out


def _check_worker(state, seat, a):
    if a["target"] not in _worker_targets(state, seat):
        if state["variants"]["no_workers"]:
            raise IllegalAction("no workers are used in this game (no-workers variant)")
        if _workers_free(state, seat) <= 0:
            raise IllegalAction("you have no worker available (each house unlocks one)")
        raise IllegalAction("that worker space is taken, or you have not delivered to that prestige building")


def _worker(state, seat, a, ctx, rng):
    t = a["target"]
    eff = D.RACES[_p(state, seat)["race"]]["action"] if t == "race" else D.edition(state).PRESTIGE[t]["action"]
    return [{"type": "worker_placed", "seat": seat, "target": t}, *_effect_events(state, seat, eff, "actions")]


def _worker_options(state, seat):
    return ({"type": "place_worker", "target": t} for t in _worker_targets(state, seat))


# ============================================================================================
# effects, deliveries, completion
# ============================================================================================
def _effect_events(state, seat, eff, source, anchored=()):
    out = []
    gain = {k: eff.get(k, 0) for k in ("money", "fleeting", "lasting", "points")}
    if any(gain.values()):
        out.append({"type": "gained", "seat": seat, **gain, "source": source})
    queue = list(anchored) + [None] * eff.get("roads", 0)
    if queue:
        out.append({"type": "roads_due", "seat": seat, "queue": queue})
    return out


def _bonus_events(state, seat, anchored=()):
    bonus = _discount(state)[1] if _role(state) == "lead" else {}
    return _effect_events(state, seat, bonus, "advisers", anchored)


def _fork(state):
    """A copy of `state` deep enough for the event handlers used in look-aheads (they touch the
    map, tiles, players, prestige buildings and the turn records), cheaper than a full clone."""
    s = dict(state)
    s["occ"] = list(state["occ"])
    s["tiles"] = list(state["tiles"])  # tile dicts are replaced, never changed in place (_on_access)
    s["players"] = [dict(p, score=dict(p["score"]), hand=list(p["hand"]), played=list(p["played"]),
                         resources=list(p["resources"]),
                         placed=list(p["placed"])) for p in state["players"]]
    s["prestige"] = [dict(pb, delivered=list(pb["delivered"])) for pb in state["prestige"]]
    s["supply"] = dict(state["supply"])
    s["offer"] = list(state["offer"])
    s["adviser_deck"] = list(state["adviser_deck"])
    s["removed"] = list(state["removed"])
    s["proposals"] = list(state["proposals"])
    s["proposal_discard"] = list(state["proposal_discard"])
    s["ach_scored"] = {k: list(v) for k, v in state["ach_scored"].items()}
    for k in ("turn", "cur", "roads", "reset", "vote", "setup"):
        if s[k] is not None:
            s[k] = clone(s[k])
    return s


def _apply(engine_state, events):
    s = _fork(engine_state)
    for e in events:
        s = ENGINE.evolve(s, e)
    return s


def _delivery_points(state, tile) -> list[list]:
    """Who scores when `tile` is delivered (seed-FoG p. 11): a basic resource 1 to its owner;
    an advanced one pays each direct prerequisite's owner its printed number (a neutral basic
    counts 2, scored by nobody) and its own owner the bracketed value, less 1 per neutral
    direct prerequisite."""
    owner = tile["owner"]
    if tile["kind"] == "stall":
        return [[owner, 1]] if owner is not None else []
    out = [[o, v] for _, o, v in tile["prereq"] if o is not None]
    neutral = sum(1 for _, o, _ in tile["prereq"] if o is None)
    bonus = D.ADVANCED[tile["res"]]["bonus"] - neutral
    if owner is not None and bonus > 0:
        out.append([owner, bonus])
    return out


def _find_deliveries(state) -> list[dict]:
    """Deliveries now possible: a required resource whose tile is connected to the prestige
    building through its owner's network or, from v3, through the network of a player holding
    access to it (a claim token; the owner first, then the claims in the order bought). The
    delivering player's token goes on the building; the points stay with the tile's owner and
    its prerequisites' owners (_delivery_points). A tile is connected to the building exactly
    when it covers a square of the building's `touch` in that network."""
    out = []
    nets: dict[int, Net] = {}
    tiles = state["tiles"]
    by_access = _version(state) >= 3
    by_res: dict[str, list[int]] | None = None
    prestige = D.edition(state).PRESTIGE
    for bi, pb in enumerate(state["prestige"]):
        if pb["complete"]:
            continue
        cells = None
        reach: dict[int, set[int]] = {}
        for ri, res in enumerate(prestige[pb["card"]]["requires"]):
            if pb["delivered"][ri] is not None:
                continue
            if by_res is None:
                by_res = {}
                for ti, t in enumerate(tiles):
                    if t["kind"] in KIND_TILES and (t["owner"] is not None or (by_access and t["claims"])):
                        by_res.setdefault(t["res"], []).append(ti)
            found = None
            for ti in by_res.get(res, ()):
                t = tiles[ti]
                seats = [t["owner"]] if t["owner"] is not None else []
                if by_access:
                    seats += [c for c in t["claims"] if c != t["owner"]]
                for o in seats:
                    r = reach.get(o)
                    if r is None:
                        if cells is None:
                            cells = tiles[pb["tile"]]["cells"]
                        net = nets.get(o) or nets.setdefault(o, Net(state, o))
                        r = reach[o] = net.touch(cells)
                    if not r.isdisjoint(t["cells"]):
                        found = (ti, t, o)
                        break
                if found:
                    break
            if found:
                ti, t, o = found
                # `owner`: the seat whose delivery token goes on the building
                out.append({"type": "delivered", "building": bi, "requirement": ri, "resource": res,
                            "tile": ti, "owner": o, "points": _delivery_points(state, t)})
    return out


def _completion_events(state) -> list[dict]:
    out = []
    prestige = D.edition(state).PRESTIGE
    for bi, pb in enumerate(state["prestige"]):
        if not pb["complete"] and all(d is not None for d in pb["delivered"]):
            seats = sorted({d for d in pb["delivered"] if d is not None and d >= 0})
            out.append({"type": "completed", "building": bi, "card": pb["card"],
                        "points": [[s, prestige[pb["card"]]["points"]] for s in seats]})
    return out


def _with_deliveries(state, primary, *rest):
    """`primary` events, then the deliveries and completions they make possible, then `rest`."""
    if all(pb["complete"] for pb in state["prestige"]):
        return [*primary, *rest]
    s = _apply(state, primary)
    dl = _find_deliveries(s)
    if not dl:
        return [*primary, *rest]
    s = _apply(s, dl)
    return [*primary, *dl, *_completion_events(s), *rest]


# ============================================================================================
# the turn: play a card, follow, call a vote
# ============================================================================================
def _main_options(state, seat, category, card):
    """Can `card` (face up) resolve its main action now? (seed-FoG p. 11)"""
    adv = D.ADVISERS.get(card, {})
    probe = dict(state)  # generators only read: a shallow copy with another `cur`
    probe["cur"] = {"seat": seat, "role": "lead", "category": category, "card": card,
                    "discount": adv.get("discount", 0), "bonus": adv.get("bonus", {})}
    for gen in _MAIN_GENERATORS[category]:
        for _ in gen(probe, seat):
            return True
    return False


def _card_category(card) -> str:
    if card in D.STANDARD_CARDS:
        return card
    if card == "income":
        return "income"
    return D.ADVISERS[card]["category"]


def _check_play(state, seat, a):
    card, up = a["card"], a["face_up"]
    pl = _p(state, seat)
    if card not in pl["hand"]:
        raise IllegalAction(f"{card} is not in your hand")
    if card == "vote":
        raise IllegalAction("the Call to Vote card is played with call_vote, never face down")
    if up and card != "income" and not _main_options(state, seat, _card_category(card), card):
        raise IllegalAction(f"the main action of {card} cannot be resolved now")


def _play(state, seat, a, ctx, rng):
    card, up = a["card"], a["face_up"]
    if not up:
        return [{"type": "card_played", "seat": seat, "face_up": False, "private": {str(seat): {"card": card}}}]
    evs = [{"type": "card_played", "seat": seat, "face_up": True, "card": card}]
    if card == "income":
        evs.append(_income_event(state, seat))
    return evs


def _play_options(state, seat):
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


def _income_event(state, seat):
    pl = _p(state, seat)
    houses = pl["houses"]
    return {"type": "income_collected", "seat": seat, "money": len(_owned_types(state, seat)), "fleeting": houses}


def _vote_min(state) -> int:
    return 3 if state["n"] == 2 else 2


def _check_call_vote(state, seat, a):
    pl = _p(state, seat)
    if state["solo"]:
        raise IllegalAction("in the solo game the vote is called when the rest of the hand is played")
    if "vote" not in pl["hand"]:
        raise IllegalAction("your Call to Vote card is not in your hand")
    if len(pl["played"]) < _vote_min(state):
        raise IllegalAction(f"a vote needs at least {_vote_min(state)} cards played since your last vote")


def _call_vote(state, seat, a, ctx, rng):
    return [{"type": "vote_called", "seat": seat, "benefits": len(_p(state, seat)["hand"]) - 1}]


def _call_vote_options(state, seat):
    try:
        _check_call_vote(state, seat, {})
    except IllegalAction:
        return
    yield {"type": "call_vote"}


def _check_reset(state, seat, a):
    if a["kind"] == "road":
        if "cell" not in a:
            raise IllegalAction("a road benefit names its cell")
        _check_road(state, seat, a)
    elif "cell" in a:
        raise IllegalAction("only the road benefit names a cell")


def _reset(state, seat, a, ctx, rng):
    ev = {"type": "reset_benefit", "seat": seat, "kind": a["kind"]}
    if a["kind"] == "road":
        ev["cell"] = a["cell"]
        return _with_deliveries(state, [ev])
    return [ev]


def _reset_options(state, seat):
    yield {"type": "reset_benefit", "kind": "money"}
    yield {"type": "reset_benefit", "kind": "influence"}
    for c in _road_cells(state, seat):
        yield {"type": "reset_benefit", "kind": "road", "cell": c}


# ============================================================================================
# the vote (seed-FoG p. 15) and placement (p. 16)
# ============================================================================================
def _check_vote(state, seat, a):
    v = state["vote"]
    if v["votes"][seat] is not None:
        raise IllegalAction("you have already voted")
    if a["proposal"] >= len(state["proposals"]):
        raise IllegalAction(f"there are only {len(state['proposals'])} proposals")
    pl = _p(state, seat)
    if a["fleeting"] > pl["fleeting"] or a["lasting"] > pl["lasting"]:
        raise IllegalAction(f"you hold {pl['fleeting']} fleeting and {pl['lasting']} lasting influence")


def _strength(v) -> int:
    return 1 + v["fleeting"] + 2 * v["lasting"]


def _tie_pick(state, seats, caller) -> int:
    """Fewest points, then closest in turn order to the caller (seed-FoG p. 15)."""
    low = min(_points(state, s) for s in seats)
    return _closest(state, [s for s in seats if _points(state, s) == low], caller)


def _placer(state, votes, proposal, caller) -> int:
    given = {s: _strength(v) for s, v in enumerate(votes) if v["proposal"] == proposal}
    top = max(given.values())
    return _tie_pick(state, [s for s, g in given.items() if g == top], caller)


def _vote(state, seat, a, ctx, rng):
    choice = {"proposal": a["proposal"], "fleeting": a["fleeting"], "lasting": a["lasting"]}
    evs = [{"type": "vote_cast", "seat": seat, "private": {str(seat): choice}}]
    votes = list(state["vote"]["votes"])
    votes[seat] = choice
    if all(v is not None for v in votes):
        caller = state["vote"]["caller"]
        totals = [0, 0, 0]
        for v in votes:
            totals[v["proposal"]] += _strength(v)
        top = max(totals)
        tied = [i for i, t in enumerate(totals) if t == top]
        ev = {"type": "votes_revealed", "votes": votes, "totals": totals, "tied": tied,
              "winner": None, "placer": None, "decider": None}
        if len(tied) == 1:
            ev["winner"] = tied[0]
            ev["placer"] = _placer(state, votes, tied[0], caller)
        else:
            implicated = [s for s, v in enumerate(votes) if v["proposal"] in tied]
            ev["decider"] = _tie_pick(state, implicated, caller)
        evs.append(ev)
    return evs


def _vote_options(state, seat):
    if state["vote"]["votes"][seat] is not None:
        return
    pl = _p(state, seat)
    for prop in range(len(state["proposals"])):
        for f in range(pl["fleeting"] + 1):
            for la in range(pl["lasting"] + 1):
                yield {"type": "vote", "proposal": prop, "fleeting": f, "lasting": la}


def _check_choose(state, seat, a):
    v = state["vote"]
    if state["solo"]:
        cost = _solo_cost(state, a["proposal"])
        if a["proposal"] >= len(state["proposals"]):
            raise IllegalAction("no proposal in that slot")
        if not _can_pay(_p(state, seat), cost):
            raise IllegalAction(f"that proposal costs {cost} fleeting influence (2 fleeting = 1 lasting)")
        return cost
    if a["proposal"] not in v["tied"]:
        raise IllegalAction(f"choose one of the tied proposals {v['tied']}")
    return 0


def _choose(state, seat, a, cost, rng):
    if state["solo"]:
        return [{"type": "proposal_chosen", "seat": seat, "proposal": a["proposal"], "placer": seat,
                 "pay": _payment(_p(state, seat), cost)}]
    v = state["vote"]
    placer = _placer(state, v["votes"], a["proposal"], v["caller"])
    return [{"type": "proposal_chosen", "seat": seat, "proposal": a["proposal"], "placer": placer,
             "pay": {"fleeting": 0, "lasting": 0}}]


def _choose_options(state, seat):
    props = range(len(state["proposals"])) if state["solo"] else state["vote"]["tied"]
    for i in props:
        a = {"type": "choose_proposal", "proposal": i}
        try:
            _check_choose(state, seat, a)
        except IllegalAction:
            continue
        yield a


_COLOURED: dict[tuple[str, str, str], list[tuple[int, tuple[int, ...]]]] = {}


def _coloured_footprints(b, shape, colour):
    """(section, footprint) of every `shape` footprint with a square of `colour` (static, cached)."""
    key = (b.name, shape, colour)
    got = _COLOURED.get(key)
    if got is None:
        got = _COLOURED[key] = [(b.section[fp[0]], fp) for fp in b.footprints[shape]
                                if any(b.colour[c] == colour for c in fp)]
    return got


def _prestige_footprints(state, card, first=False):
    """Where `card` may be placed (seed-FoG p. 16); `first`: stop at the first one."""
    spec = D.edition(state).PRESTIGE[card]
    b = board_of(state)
    occ = state["occ"]
    ptype = D.prestige_type(card)
    taken = {state["tiles"][pb["tile"]]["section"] for pb in state["prestige"] if D.prestige_type(pb["card"]) == ptype}
    if "spot" in spec:
        # v9: the section test holds on a fixed spot too (p. 16, condition 3; p. 20)
        same = taken if _version(state) >= 9 else ()
        return [fp for fp in b.spots[spec["spot"]]
                if all(occ[c] == EMPTY for c in fp) and b.section[fp[0]] not in same]
    free = {c for c, v in enumerate(occ) if v == EMPTY}
    out = []
    for sec, fp in _coloured_footprints(b, spec["shape"], spec["colour"]):
        if sec not in taken and free.issuperset(fp):
            out.append(fp)
            if first:
                break
    return out


def _prestige_fits(state, card, cells) -> bool:
    spec = D.edition(state).PRESTIGE[card]
    b = board_of(state)
    occ = state["occ"]
    if any(c >= b.size or occ[c] != EMPTY for c in cells):
        return False
    if "spot" in spec:
        if cells not in b.spots[spec["spot"]]:
            return False
        if _version(state) < 9:  # v1-v8: a fixed spot skipped the section test
            return True
    elif cells not in b.footprint_set[spec["shape"]] or not any(b.colour[c] == spec["colour"] for c in cells):
        return False
    ptype = D.prestige_type(card)
    return not any(state["tiles"][pb["tile"]]["section"] == b.section[cells[0]]
                   for pb in state["prestige"] if D.prestige_type(pb["card"]) == ptype)


def _check_place(state, seat, a):
    card = state["vote"]["card"]
    cells = tuple(sorted(a["cells"]))
    if not _prestige_fits(state, card, cells):
        spec = D.edition(state).PRESTIGE[card]
        if "spot" in spec and (_version(state) < 9 or cells not in board_of(state).spots[spec["spot"]]):
            raise IllegalAction(f"{spec['name']} goes only on its reserved spot")
        if "spot" in spec:
            raise IllegalAction(f"{spec['name']}: a prestige building of its type ({spec['shape']} {spec['colour']}) "
                                "already stands in this section")
        raise IllegalAction(f"{spec['name']} ({spec['shape']}) must cover free squares, at least one {spec['colour']}, "
                            "with no prestige building of its type in the same section")


def _place(state, seat, a, ctx, rng):
    card = state["vote"]["card"]
    tile = len(state["tiles"])
    evs = [{"type": "prestige_placed", "seat": seat, "card": card, "cells": sorted(a["cells"]), "tile": tile}]
    bi = len(state["prestige"])
    for ri, res in enumerate(D.edition(state).PRESTIGE[card]["requires"]):
        if res in state["neutral"]:  # a neutral basic resource is delivered at once (p. 11)
            evs.append({"type": "delivered", "building": bi, "requirement": ri, "resource": res, "tile": None,
                        "owner": -1, "points": []})
    s = _apply(state, evs)
    dl = _find_deliveries(s)
    s = _apply(s, dl)
    return [*evs, *dl, *_completion_events(s)]


def _place_options(state, seat):
    return ({"type": "place_prestige", "cells": list(fp)} for fp in _prestige_footprints(state, state["vote"]["card"]))


# ============================================================================================
# solo (seed-FoG pp. 17-18)
# ============================================================================================
def _solo_cost(state, slot) -> int:
    """Influence cost of a proposal slot, in fleeting influence (2 fleeting = 1 lasting)."""
    c = state["completions"]
    return [0, 2 + c, 2 * (2 + c)][slot]


def _can_pay(pl, cost) -> bool:
    return pl["fleeting"] + 2 * pl["lasting"] >= cost


def _payment(pl, cost) -> dict:
    """Pay with fleeting first, then lasting (ours)."""
    f = min(pl["fleeting"], cost)
    rest = cost - f
    la = (rest + 1) // 2
    return {"fleeting": f, "lasting": la}


# ============================================================================================
# achievements (seed-FoG p. 19)
# ============================================================================================
def _metric(state, seat, metric) -> int:
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


def _achievement_events(state, deck) -> list[dict]:
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
# automatic steps
# ============================================================================================
def _end_events(state, reason) -> list[dict]:
    ach = _achievement_events(state, "end")
    s = _apply(state, ach) if ach else state
    final = _final_event(s, reason)
    return [*ach, final, *_event_card_events(s, final["winners"])]


def _final_event(s, reason) -> dict:
    state = s
    n = state["n"]
    details = []
    scores = []
    for seat in range(n):
        pl = _p(s, seat)
        by = dict(pl["score"])
        by["influence"] = pl["fleeting"] + pl["lasting"]
        by["money"] = pl["money"] // 4
        total = sum(by.values())
        scores.append(total)
        details.append({"seat": seat, "race": pl["race"], "points": total, "by_source": by,
                        "money_left": pl["money"], "turn_distance": (seat - state["active"]) % n})
    if state["solo"]:
        won = reason == "solo_complete"
        winners = [0] if won else []
    else:
        best = max(scores)
        winners = [_closest(state, [i for i in range(n) if scores[i] == best], state["active"])]
    return {"type": "game_ended", "reason": reason, "scores": scores, "winners": winners, "details": details,
            "tie_break": "closest in turn order to the active player"}


def _advance(state, rng):
    evs: list[dict] = []
    turn = state["turn"]
    if turn["queue"]:
        return [{"type": "follower_up", "seat": turn["queue"][0]}]
    if turn["refill"]:
        evs.append({"type": "offer_refilled"})
    s = _apply(state, evs) if evs else state
    if s["achievements"]:
        imm = _achievement_events(s, "immediate")
        if imm:
            evs += imm
            s = _apply(s, imm)
        if turn["completions_before"] < 2 <= s["completions"] and s["achievements"]["mid"] not in s["ach_scored"]:
            evs += _achievement_events(s, "mid") or [{"type": "achievement_scored", "achievement":
                                                      s["achievements"]["mid"], "scorers": [], "value": 0}]
    if not state["solo"] and state["completions"] >= D.COMPLETIONS_TO_END:
        s = _apply(state, evs) if evs else state
        return evs + _end_events(s, "six_completions")
    nxt = state["active"] if state["solo"] else (state["active"] + 1) % state["n"]
    evs.append({"type": "turn_passed", "active": nxt})
    return evs


# v2: a game ends by the safety net after this many skipped votes (no proposal left) per seat
# in a row with no delivery in between (ours, RULES.md)
STALL_VOTES = 3


def _version(state) -> int:
    """The engine version the game was started with (v1 states carry no version)."""
    return state.get("version", 1)


def _reset_end(state, rng):
    v = state["reset"]
    caller = v["seat"]
    evs = [{"type": "cards_returned", "seat": caller}]
    for s in _order_from(state, caller)[1:]:
        evs.append(_income_event(state, s))
    if not state["proposals"]:
        if _version(state) < 2:
            # v1 (kept for its logs): every prestige card is built or out of the game; the game ends
            return [*evs, *_end_events(_apply(state, evs), "no_proposals")]
        # v2: nothing to vote on; the reset and the income stand and play goes on (the rulebook's
        # only end is the sixth completion, p. 16). Last resort so a game can never loop forever:
        # STALL_VOTES x seats skipped votes in a row without a delivery end it (RULES.md).
        evs.append({"type": "vote_skipped", "seat": caller})
        if state["stall_votes"] + 1 >= STALL_VOTES * state["n"]:
            return [*evs, *_end_events(_apply(state, evs), "stalled")]
        return evs
    evs.append({"type": "vote_opened", "caller": caller})
    return evs


def _draw_proposals(state, rng, k, keep):
    """Draw k proposals from the bottom of the deck; a second card of a type already in the
    set goes on top of the deck and is replaced (seed-FoG p. 16). Returns (cards, event)."""
    if _version(state) >= 9:
        return _draw_proposals_v9(state, rng, k, keep)
    deck = list(state["proposal_deck"])
    discard = list(state["proposal_discard"])
    have = list(keep)
    drawn, reshuffled, returned = [], None, []
    tries = 0
    while len(drawn) < k:
        if not deck:
            if not discard:
                break
            deck = discard
            rng.shuffle(deck)
            reshuffled = list(deck)
            discard = []
        card = deck.pop()
        tries += 1
        if tries < 40 and any(D.prestige_type(card) == D.prestige_type(c) for c in have + drawn if c):
            deck.insert(0, card)
            returned.append(card)
            continue
        drawn.append(card)
    # the deck's new order is a hidden fact: it travels in the event's secret part
    return {"type": "proposals_drawn", "cards": drawn, "returned": returned, "reshuffled": reshuffled is not None,
            "secret": {"deck": deck}}


def _draw_proposals_v9(state, rng, k, keep):
    """v9 (seed-FoG p. 16): "Si no hay suficientes cartas en el mazo de robo, barajea los descartes y
    úsalos como nuevo mazo de robo. Si se roban dos cartas del mismo tipo de edificio en el mismo
    conjunto de tres, sustituye la de más a la derecha y ponla encima del mazo de robo."
    Cards come from the bottom (the end of `deck`); a card put back goes on top (index 0), so it
    is not drawn again while cards lie under it. When none does, the discards are shuffled in
    under the cards put back (ours: the text does not say where those go). With no card left to
    draw, the set stays short rather than hold two cards of one type (ours)."""
    deck = list(state["proposal_deck"])
    discard = list(state["proposal_discard"])
    have = [c for c in keep if c]
    drawn, returned = [], []
    reshuffled = False
    fresh = len(deck)  # cards under those put back during this draw
    while len(drawn) < k:
        if not fresh:
            if not discard:
                break
            rng.shuffle(discard)
            deck += discard  # under the cards put back: the next ones drawn
            fresh, discard, reshuffled = len(discard), [], True
        card = deck.pop()
        fresh -= 1
        if any(D.prestige_type(card) == D.prestige_type(c) for c in have + drawn):
            deck.insert(0, card)
            returned.append(card)
            continue
        drawn.append(card)
    return {"type": "proposals_drawn", "cards": drawn, "returned": returned, "reshuffled": reshuffled,
            "secret": {"deck": deck}}


def _vote_auto(state, rng):
    v = state["vote"]
    if v["stage"] == "placing" and v["card"] is not None and v["stuck"]:
        ev = _draw_proposals(state, rng, 1, [])
        return [{"type": "prestige_unplaceable", "card": v["card"]}, ev]
    if v["stage"] == "done":
        if state["solo"]:
            keep = [c for i, c in enumerate(state["proposals"]) if i != v["winner"]]
            return [_draw_proposals(state, rng, 1, keep), {"type": "vote_closed"}]
        return [_draw_proposals(state, rng, 3, []), {"type": "vote_closed"}]
    return None


def _claims_cost(state, claims) -> int:
    """Influence (in fleeting) to remove `claims` neutral claim tokens at a solo vote (p. 18:
    "pagando el coste de influencia bajo la carta correspondiente a cada una en la oferta de
    propuestas"). v3: the tokens take the offer's cards in order — the first the left card's
    (free), the second the middle card's, the third the right card's, any further one the right
    card's too (ours). v1/v2 read every token at the middle card's cost."""
    if _version(state) < 3:
        return claims * _solo_cost(state, 1)
    if _version(state) >= 9:
        # v9: the influence is what lies under a card; none lies under the left card, so the
        # tokens take the middle card, then the right card (and the right card again for more)
        return sum(_solo_cost(state, min(k + 1, 2)) for k in range(claims))
    return sum(_solo_cost(state, min(k, 2)) for k in range(claims))


def _solo_call(state, rng):
    """Solo: once only the Call to Vote card is left, the vote happens (cycles 1-6) or the
    game ends (after the 7th cycle) (seed-FoG p. 18)."""
    seat = 0
    if state["cycle"] >= 7:
        complete = all(pb["complete"] for pb in state["prestige"])
        return _end_events(state, "solo_complete" if complete else "solo_incomplete")
    evs = [{"type": "vote_called", "seat": seat, "benefits": 0}, {"type": "cards_returned", "seat": seat},
           _income_event(state, seat)]
    s = _apply(state, evs)
    claims = sum(1 for pb in s["prestige"] if pb["claim"])
    if claims:
        cost = _claims_cost(s, claims)
        pl = _p(s, seat)
        if not _can_pay(pl, cost):
            return [*evs, *_end_events(s, "solo_claims_unpaid")]
        evs.append({"type": "claims_paid", "seat": seat, "claims": claims, "pay": _payment(pl, cost)})
    if not s["proposals"]:
        return [*evs, {"type": "vote_closed"}]
    evs.append({"type": "vote_opened", "caller": seat})
    return evs


# ============================================================================================
# event handlers
# ============================================================================================
def _player(race, resources, money, hand):
    return {"race": race, "resources": resources, "money": money, "fleeting": 0, "lasting": 0,
            "score": {"prerequisites": 0, "deliveries": 0, "advisers": 0, "completions": 0, "achievements": 0,
                      "actions": 0},
            "hand": hand, "played": [], "workers": 0, "placed": [], "houses": 0, "bridges": 0, "roads": 0,
            "advisers": 0}


def _add_tile(state, kind, res, owner, cells, claims=(), prereq=(), card=None):
    b = board_of(state)
    tid = len(state["tiles"])
    tile = {"kind": kind, "res": res, "owner": owner, "cells": list(cells), "claims": list(claims),
            "section": b.section[cells[0]], "prereq": [list(p) for p in prereq]}
    if card is not None:
        tile["card"] = card
    state["tiles"].append(tile)
    for c in cells:
        state["occ"][c] = tid
    return tid


def _award(state, seat, pts, source):
    if seat is not None and seat >= 0 and pts:
        _p(state, seat)["score"][source] += pts


def _on_started(_, e):
    b = D.edition_of_version(e.get("engine_version", 1)).BOARDS[e["map"]]
    n = e["seats"]
    state = {
        "n": n, "solo": n == 1, "map": e["map"], "variants": dict(e["variants"]),
        "neutral": list(e["neutral"]),
        "players": [_player(r, list(res), D.START_MONEY, list(e["hands"][i]))
                    for i, (r, res) in enumerate(zip(e["races"], e["resources"], strict=True))],
        "occ": [EMPTY] * b.size, "tiles": [], "supply": dict(D.SUPPLY), "roads_left": D.ROAD_SUPPLY,
        "offer": list(e["offer"]), "adviser_deck": list(e["secret"]["adviser_deck"]),
        "proposals": list(e["proposals"]), "proposal_deck": list(e["secret"]["proposal_deck"]),
        "proposal_discard": [], "removed": [],
        "prestige": [], "completions": 0,
        "active": 0, "turn": {"category": None, "queue": [], "refill": False, "completions_before": 0},
        "cur": {"seat": 0, "role": "play"}, "roads": None, "reset": None, "vote": None,
        "achievements": dict(e["achievements"]) if e["achievements"] else None, "ach_scored": {},
        "cycle": 1, "over": None, "history": None, "setup": None,
    }
    if e.get("engine_version", 1) >= 2:  # v1 states stay as they were (their logs keep their hashes)
        state["version"] = e["engine_version"]
        state["stall_votes"] = 0
    if e.get("draft"):
        state["setup"] = {"draft": list(e["draft"]), "pool": [r for r in D.BASIC if r not in
                                                              {x for res in e["resources"] for x in res}],
                          "place": list(range(n)), "placed": [[] for _ in range(n)]}
        state["cur"] = None
    legacy = D.BOARDS[e["map"]]
    for seat, res, cell in e["stalls"]:
        if b is not legacy:
            # the start event names squares of the v1-4 map (start() draws alike for every version,
            # so old logs re-decide); a v5 map puts the stall on the same numbered space (same
            # section and number; the same rank among equal ones, top to bottom)
            cell = b.space_cell[legacy.space_key[cell]]
        _add_tile(state, "stall", res, seat, [cell])
        state["supply"][res] -= 1
    return state


def _on_card_played(s, e):
    seat = e["seat"]
    pl = _p(s, seat)
    card = e.get("card") if e["face_up"] else e["private"][str(seat)]["card"]
    pl["hand"].remove(card)
    if s["solo"] and e["face_up"] and card in D.ADVISERS:
        s["removed"].append(card)  # solo: an adviser played face up leaves the game (p. 18)
    else:
        pl["played"].append({"card": card, "face_up": e["face_up"]})
    s["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": s["completions"]}
    if not e["face_up"]:
        s["cur"] = {"seat": seat, "role": "basic"}
        return
    followers = [] if s["solo"] else _order_from(s, seat)[1:]
    if card == "income":
        s["turn"].update(category="any", queue=followers)
        s["cur"] = None
        return
    cat = _card_category(card)
    adv = D.ADVISERS.get(card, {})
    s["turn"].update(category=cat, queue=followers, refill=cat == "recruit")
    s["cur"] = {"seat": seat, "role": "lead", "category": cat, "card": card,
                "discount": adv.get("discount", 0), "bonus": dict(adv.get("bonus", {}))}


def _on_recruited(s, e):
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    pl["hand"].append(e["adviser"])
    pl["fleeting"] += e["fleeting"]
    pl["lasting"] += e["lasting"]
    pl["advisers"] += 1
    _award(s, e["seat"], e["points"], "advisers")
    s["offer"][e["slot"]] = None
    if _version(s) >= 6:
        # v6: whatever card was followed (the 2-player Income card too: p. 14 "puede llevar a cabo
        # la acción de seguimiento de reclutar"), the offer slides left and refills once the
        # follows are done (p. 12). v1-v5 refilled only after a Recruit card or adviser.
        s["turn"]["refill"] = True
    s["cur"] = None


def _on_imported(s, e):
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    claims = [e["seat"]] if e["claim"] else []
    _add_tile(s, "stall", e["resource"], e["owner"], [e["cell"]], claims)
    s["supply"][e["resource"]] -= 1
    s["cur"] = None


def _on_access(s, e):
    _p(s, e["seat"])["money"] -= e["cost"]
    if e["to"] is not None:
        _p(s, e["to"])["money"] += e["cost"]
    t = s["tiles"][e["tile"]]
    # copy on write: tiles are never changed in place, so a fork may share them (_fork)
    s["tiles"][e["tile"]] = dict(t, claims=[*t["claims"], e["seat"]])
    s["cur"] = None


def _on_upgraded(s, e):
    _p(s, e["seat"])["money"] -= e["cost"]
    kind = "t2" if D.TIER[e["resource"]] == 2 else "t3"
    _add_tile(s, kind, e["resource"], e["seat"], e["cells"], prereq=e["prereqs"])
    s["supply"][e["resource"]] -= 1
    for _, owner, pts in e["prereqs"]:
        _award(s, owner, pts, "prerequisites")
    s["cur"] = None


def _on_house(s, e):
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    pl["houses"] += 1
    if not s["variants"]["no_workers"]:
        pl["workers"] += 1  # each house unlocks a worker (p. 13)
    _add_tile(s, "house", None, e["seat"], [e["cell"]])
    s["cur"] = None


def _on_bridge(s, e):
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    pl["bridges"] += 1
    b = board_of(s)
    tid = len(s["tiles"])
    s["tiles"].append({"kind": "bridge", "res": None, "owner": e["seat"], "cells": [e["cell"]], "claims": [],
                       "section": None, "prereq": []})
    s["occ"][e["cell"]] = tid
    assert b.crossing[e["cell"]]
    s["cur"] = None


def _place_road(s, seat, cell):
    s["occ"][cell] = ROAD
    s["roads_left"] -= 1
    _p(s, seat)["roads"] += 1


def _on_road(s, e):
    _place_road(s, e["seat"], e["cell"])
    r = s["roads"]
    if r is not None and r["seat"] == e["seat"]:
        r["queue"].pop(0)
        if not r["queue"]:
            s["roads"] = None
    else:
        s["cur"] = None


def _on_roads_due(s, e):
    s["roads"] = {"seat": e["seat"], "queue": list(e["queue"])}


def _on_roads_skipped(s, e):
    s["roads"] = None


def _on_basic(s, e):
    pl = _p(s, e["seat"])
    if e["kind"] == "money":
        pl["money"] += 1
    else:
        pl["fleeting"] += 1
    s["cur"] = None


def _on_gained(s, e):
    pl = _p(s, e["seat"])
    pl["money"] += e["money"]
    pl["fleeting"] += e["fleeting"]
    pl["lasting"] += e["lasting"]
    _award(s, e["seat"], e["points"], e["source"])


def _on_worker(s, e):
    pl = _p(s, e["seat"])
    pl["placed"].append(e["target"])
    if e["target"] != "race":
        for pb in s["prestige"]:
            if pb["card"] == e["target"]:
                pb["worker"] = e["seat"]
    s["cur"] = None


def _on_delivered(s, e):
    pb = s["prestige"][e["building"]]
    pb["delivered"][e["requirement"]] = e["owner"]
    pb["claim"] = False  # solo: a delivery removes the neutral claim token (p. 18)
    if "stall_votes" in s:
        s["stall_votes"] = 0
    for seat, pts in e["points"]:
        _award(s, seat, pts, "deliveries")


def _on_completed(s, e):
    s["prestige"][e["building"]]["complete"] = True
    s["completions"] += 1
    for seat, pts in e["points"]:
        _award(s, seat, pts, "completions")


def _on_income(s, e):
    pl = _p(s, e["seat"])
    pl["money"] += e["money"]
    pl["fleeting"] += e["fleeting"]


def _on_follower(s, e):
    s["turn"]["queue"].pop(0)
    s["cur"] = {"seat": e["seat"], "role": "follow", "category": s["turn"]["category"]}


def _on_offer_refilled(s, e):
    rest = [a for a in s["offer"] if a is not None]
    while len(rest) < len(D.OFFER_COSTS) and s["adviser_deck"]:
        rest.append(s["adviser_deck"].pop(0))
    s["offer"] = rest + [None] * (len(D.OFFER_COSTS) - len(rest))
    s["turn"]["refill"] = False


def _on_achievement(s, e):
    s["ach_scored"].setdefault(e["achievement"], [])
    for seat in e["scorers"]:
        s["ach_scored"][e["achievement"]].append(seat)
        _award(s, seat, e["value"], "achievements")


def _on_turn_passed(s, e):
    s["active"] = e["active"]
    s["cur"] = {"seat": e["active"], "role": "play"}
    s["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": s["completions"]}


def _on_vote_called(s, e):
    _p(s, e["seat"])["hand"].remove("vote")
    s["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": s["completions"]}
    s["reset"] = {"seat": e["seat"], "n": e["benefits"]}
    s["cur"] = None


def _on_reset_benefit(s, e):
    pl = _p(s, e["seat"])
    if e["kind"] == "money":
        pl["money"] += 1
    elif e["kind"] == "influence":
        pl["fleeting"] += 1
    else:
        _place_road(s, e["seat"], e["cell"])
    s["reset"]["n"] -= 1


def _on_cards_returned(s, e):
    pl = _p(s, e["seat"])
    pl["hand"] = pl["hand"] + [c["card"] for c in pl["played"]] + ["vote"]
    pl["played"] = []
    for pb in s["prestige"]:
        if pb["worker"] == e["seat"]:
            pb["worker"] = None
    pl["placed"] = []
    s["reset"] = None


def _on_claims_paid(s, e):
    pl = _p(s, e["seat"])
    pl["fleeting"] -= e["pay"]["fleeting"]
    pl["lasting"] -= e["pay"]["lasting"]
    for pb in s["prestige"]:
        pb["claim"] = False


def _on_vote_opened(s, e):
    n = s["n"]
    s["vote"] = {"caller": e["caller"], "votes": [None] * n, "stage": "choose" if s["solo"] else "voting",
                 "tied": [], "decider": None, "winner": None, "placer": None, "card": None, "stuck": False}


def _on_vote_cast(s, e):
    s["vote"]["votes"][e["seat"]] = dict(e["private"][str(e["seat"])])


def _spend_influence(s, votes):
    for seat, v in enumerate(votes):
        pl = _p(s, seat)
        pl["lasting"] -= v["lasting"]
        pl["fleeting"] = 0  # all fleeting influence goes back, spent or not (p. 15)


def _set_winner(s, winner, placer):
    v = s["vote"]
    card = s["proposals"][winner]
    v.update(stage="placing", winner=winner, placer=placer, card=card,
             stuck=not _prestige_footprints(s, card, first=True))


def _on_revealed(s, e):
    v = s["vote"]
    v["votes"] = [dict(x) for x in e["votes"]]
    v["tied"] = list(e["tied"])
    _spend_influence(s, e["votes"])
    if e["winner"] is not None:
        _set_winner(s, e["winner"], e["placer"])
    else:
        v.update(stage="tie", decider=e["decider"])


def _on_chosen(s, e):
    pl = _p(s, e["seat"])
    pl["fleeting"] -= e["pay"]["fleeting"]
    pl["lasting"] -= e["pay"]["lasting"]
    _set_winner(s, e["proposal"], e["placer"])


def _on_unplaceable(s, e):
    v = s["vote"]
    s["removed"].append(e["card"])  # removed from the game and replaced (p. 16)
    v["card"] = None


def _on_proposals_drawn(s, e):
    s["proposal_deck"] = list(e["secret"]["deck"])
    if e["reshuffled"]:
        s["proposal_discard"] = []
    v = s["vote"]
    if v is not None and v["stage"] == "placing":
        v["card"] = e["cards"][0] if e["cards"] else None
        if v["card"] is None:
            v["stage"] = "done"
        else:
            v["stuck"] = not _prestige_footprints(s, v["card"], first=True)
        s["proposals"][v["winner"]] = v["card"] or s["proposals"][v["winner"]]
        return
    if s["solo"]:
        keep = [c for i, c in enumerate(s["proposals"]) if i != v["winner"]]
        s["proposals"] = keep + list(e["cards"])
    else:
        s["proposals"] = list(e["cards"])


def _on_placed(s, e):
    tid = _add_tile(s, "prestige", None, None, e["cells"], card=e["card"])
    n_req = len(D.edition(s).PRESTIGE[e["card"]]["requires"])
    if s["solo"]:  # neutral claim tokens on every building still needing resources (p. 18)
        for pb in s["prestige"]:
            if not pb["complete"]:
                pb["claim"] = True
    s["prestige"].append({"card": e["card"], "tile": tid, "delivered": [None] * n_req, "complete": False,
                          "worker": None, "claim": s["solo"]})
    v = s["vote"]
    if not s["solo"]:
        s["proposal_discard"].extend(c for i, c in enumerate(s["proposals"]) if i != v["winner"])
    v["stage"] = "done"


def _on_vote_closed(s, e):
    s["vote"] = None
    s["cur"] = None
    if s["solo"]:
        _p(s, 0)["fleeting"] = 0  # fleeting influence is lost after each vote (p. 18)
        s["cycle"] += 1


def _on_ended(s, e):
    s["over"] = {k: e[k] for k in ("reason", "scores", "winners", "details", "tie_break")}
    s["cur"] = None
    s["roads"] = None
    s["reset"] = None
    s["vote"] = None


def _on_vote_skipped(s, e):
    s["stall_votes"] += 1


def _on_event_card(s, e):
    s["over"]["shaping_history"] = {k: clone(e[k]) for k in ("seat", "race", "card", "buildings", "delivered_to",
                                                               "blanks")}


def _on_history(s, e):
    s["history"] = {k: e[k] for k in ("seat", "building", "section", "governing_body")}


# ============================================================================================
# Shaping history (p. 19)
# ============================================================================================
# v8: the game ends with the event (`event_card_given`) naming the winner's race event card and
# what its three blanks need; the blanks are filled in on the printed card, outside the game (the
# governing body's name is free text: no legal action can enumerate it). See RULES.md.
HISTORY_BLANKS = ("building", "section", "governing_body")


def _event_card_events(state, winners) -> list[dict]:
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


def _history_due(state) -> bool:
    """v1-v7 only: the winner recorded the history in the game (`record_history`)."""
    return (state["over"] is not None and state["variants"]["shaping_history"] and state["history"] is None
            and bool(state["over"]["winners"]) and bool(state["prestige"]) and _version(state) < 8)


def _check_history(state, seat, a):
    if a["building"] not in [pb["card"] for pb in state["prestige"]]:
        raise IllegalAction("name a prestige building on the board")
    if not a["governing_body"].strip():  # malformed, as an empty name is (400), not a move out of place
        raise InvalidAction("name the new governing body (not only spaces)")


def _history(state, seat, a, ctx, rng):
    pb = next(pb for pb in state["prestige"] if pb["card"] == a["building"])
    b = board_of(state)
    section = b.sections[state["tiles"][pb["tile"]]["section"]]
    return [{"type": "history_recorded", "seat": seat, "building": a["building"],
             "section": b.section_names[section], "governing_body": a["governing_body"].strip()}]


def _history_options(state, seat):
    for pb in state["prestige"]:
        yield {"type": "record_history", "building": pb["card"], "governing_body": f"Council of the {pb['card']}"}


# ============================================================================================
# setup decisions (ours: the rulebook's setup pages are not available; facts B.2)
# ============================================================================================
def _check_draft(state, seat, a):
    if a["resource"] not in state["setup"]["pool"]:
        raise IllegalAction(f"{a['resource']} is not available; left: {', '.join(state['setup']['pool'])}")


def _draft(state, seat, a, ctx, rng):
    return [{"type": "resource_drafted", "seat": seat, "resource": a["resource"]}]


def _draft_options(state, seat):
    return ({"type": "draft_resource", "resource": r} for r in state["setup"]["pool"])


def _check_start(state, seat, a):
    res, cell = a["resource"], a["cell"]
    if res not in _p(state, seat)["resources"] or res in state["setup"]["placed"][seat]:
        raise IllegalAction(f"{res} is not one of your resources still to place")
    b = board_of(state)
    if cell not in b.numbered or state["occ"][cell] != EMPTY:
        raise IllegalAction("starting stalls go on free grey numbered spaces")
    if section_has(state, b.section[cell], res) or adjacent_to_own(state, seat, [cell]):
        raise IllegalAction("one tile of a resource per section, and never next to your own buildings")


def _start_stall(state, seat, a, ctx, rng):
    return [{"type": "start_stall_placed", "seat": seat, "resource": a["resource"], "cell": a["cell"]}]


def _start_options(state, seat):
    b = board_of(state)
    for res in _p(state, seat)["resources"]:
        if res in state["setup"]["placed"][seat]:
            continue
        for cell in sorted(b.numbered):
            a = {"type": "place_start", "resource": res, "cell": cell}
            try:
                _check_start(state, seat, a)
            except IllegalAction:
                continue
            yield a


def _on_drafted(s, e):
    st = s["setup"]
    _p(s, e["seat"])["resources"].append(e["resource"])
    st["pool"].remove(e["resource"])
    st["draft"].pop(0)
    if not st["draft"]:
        s["neutral"] = sorted(st["pool"])


def _on_start_stall(s, e):
    st = s["setup"]
    _add_tile(s, "stall", e["resource"], e["seat"], [e["cell"]])
    s["supply"][e["resource"]] -= 1
    st["placed"][e["seat"]].append(e["resource"])
    if len(st["placed"][e["seat"]]) == len(_p(s, e["seat"])["resources"]):
        st["place"].pop(0)
    if not st["place"]:
        s["setup"] = None
        s["cur"] = {"seat": 0, "role": "play"}


# ============================================================================================
# the tables
# ============================================================================================
_MAIN_GENERATORS = {
    "recruit": (_recruit_options,),
    "trade": (_import_options, _access_options, _import_access_options),
    "upgrade": (_upgrade_options,),
    "build": (_build_options,),
}

_LEAD_FOLLOW = frozenset({"lead", "follow"})
_BASIC = frozenset({"basic", "follow"})
R = "seed-FoG"


MOVES = (
    Move("draft_resource", fields={"resource": string(D.BASIC)}, phases={"draft"}, check=_check_draft,
         resolve=_draft, options=_draft_options,
         rule="facts B.2 (your race's resource is fixed, you draft a second; 3 each with 2 players); order ours"),
    Move("place_start", fields={"resource": string(D.BASIC), "cell": CELL}, phases={"setup_place"},
         check=_check_start, resolve=_start_stall, options=_start_options,
         rule="facts B.2 (each player places its basic trade stalls at setup); grey numbered spaces ours"),
    Move("play_card", fields={"card": string(D.CARDS), "face_up": {"type": "boolean"}}, phases={"play"},
         check=_check_play, resolve=_play, options=_play_options,
         rule=f"{R} p. 11 Call to Work: one card face up (its main action, which must be resolvable) or face down "
              "(a basic action); p. 14 Income (2 players)",
         doc="Play a card from your hand face up or face down."),
    Move("call_vote", phases={"play"}, check=_check_call_vote, resolve=_call_vote, options=_call_vote_options,
         rule=f"{R} p. 14 Call to Vote: at least 2 played cards (3 with 2 players)"),
    Move("recruit", fields={"slot": SLOT}, phases=_LEAD_FOLLOW, check=_check_recruit, resolve=_recruit,
         options=_recruit_options,
         rule=f"{R} pp. 11-12 Recruit: prerequisite resource owned or accessed, cost under the slot, +1 fleeting "
              "influence for the leader, 1 lasting influence + printed points"),
    Move("import", fields={"resource": string(D.BASIC), "cell": CELL}, optional={"cell"}, phases=_LEAD_FOLLOW,
         check=_check_import,
         resolve=_import, options=_import_options,
         rule=f"{R} p. 12 Trade: import your basic resource; costs by terrain colour; follow on red/white only"),
    Move("place_stall", fields={"cell": CELL}, phases={"site"}, check=_check_site, resolve=_site,
         options=_site_options,
         rule=f"{R} p. 12 Trade: the square of the trade stall chosen with import / import_access (second step)"),
    Move("access", fields={"tile": integer(0, 400)}, phases=_LEAD_FOLLOW, check=_check_access, resolve=_access,
         options=_access_options,
         rule=f"{R} p. 12 Trade: buy access to another player's or a neutral tile, paying its owner"),
    Move("import_access", fields={"resource": string(D.BASIC), "cell": CELL}, optional={"cell"}, phases={"lead"},
         check=_check_import_access, resolve=_import_access, options=_import_access_options,
         rule=f"{R} p. 12 Trade: import and access a neutral resource ($4); after the 2nd completion token another "
              "player's ($4); never as a follow"),
    Move("upgrade", fields={"resource": string(D.ADVANCED), "cells": {"type": "array", "items": CELL,
                                                                      "minItems": 1, "maxItems": 5}},
         phases=_LEAD_FOLLOW, check=_check_upgrade, resolve=_upgrade, options=_upgrade_options,
         rule=f"{R} pp. 12-13 Upgrade: tier 2 $4, tier 3 $6, connected to owned or accessed prerequisites, not next "
              "to your own buildings, one per section; points to each prerequisite's owner; leader: a connected road"),
    Move("road_first", phases={"lead"}, check=_check_road_first, resolve=_road_first, options=_road_first_options,
         rule=f"{R} p. 12 Upgrade: the leader's connected road 'ya sea antes o después de colocar la loseta' — "
              "before the tile (then `first_road`); v4"),
    Move("first_road", fields={"cell": CELL}, phases={"lead_road"}, check=_check_first_road,
         resolve=_first_road_built, options=_first_road_options,
         rule=f"{R} p. 12 Upgrade: the road built before the tile; the tile must then be connected to it; v4"),
    Move("build", fields={"kind": string(("house", "bridge")), "cell": CELL}, phases=_LEAD_FOLLOW,
         check=_check_build, resolve=_build, options=_build_options,
         rule=f"{R} p. 13 Build: house on green (one per section) or bridge/gate on river/wall, connected to "
              "something you own, 3 of each; $4, leader $3; p. 19 no workers: houses $2"),
    Move("take_money", phases=_BASIC, resolve=_basic_gain("money"),
         options=lambda s, seat: [{"type": "take_money"}], rule=f"{R} p. 14 basic action: gain $1"),
    Move("take_influence", phases=_BASIC, resolve=_basic_gain("influence"),
         options=lambda s, seat: [{"type": "take_influence"}], rule=f"{R} p. 14 basic action: 1 fleeting influence"),
    Move("road", fields={"cell": CELL}, phases={"basic", "follow", "roads"}, check=_check_road, resolve=_road,
         options=_road_options,
         rule=f"{R} p. 14 basic action: a road connected to something you own; p. 12 the Upgrade leader's road "
              "connected to the new building"),
    Move("skip_roads", phases={"roads"}, resolve=_skip_roads, options=lambda s, seat: [{"type": "skip_roads"}],
         rule=f"{R} p. 12 the road is optional ('may')"),
    Move("place_worker", fields={"target": string(("race", *D.PRESTIGE))}, phases=_BASIC, check=_check_worker,
         resolve=_worker, options=_worker_options,
         rule=f"{R} p. 14 basic action: a worker on your race action or on a prestige card you delivered to"),
    Move("reset_benefit", fields={"kind": string(("money", "influence", "road")), "cell": CELL},
         optional={"cell"}, phases={"reset"}, check=_check_reset, resolve=_reset, options=_reset_options,
         rule=f"{R} p. 14 Reset: per card left in hand $1, 1 fleeting influence or a connected road"),
    Move("vote", fields={"proposal": SLOT, "fleeting": integer(0, 99), "lasting": integer(0, 99)},
         phases={"vote"}, check=_check_vote, resolve=_vote, options=_vote_options,
         rule=f"{R} p. 15 secret simultaneous vote: base 1, +1 per fleeting, +2 per lasting influence"),
    Move("choose_proposal", fields={"proposal": SLOT}, phases={"tie", "solo_choose"}, check=_check_choose,
         resolve=_choose, options=_choose_options,
         rule=f"{R} p. 15 ties: fewest points decides, then closest to the caller; p. 18 solo: the left card free, "
              "the others for the influence under them"),
    Move("place_prestige", fields={"cells": {"type": "array", "items": CELL, "minItems": 1, "maxItems": 5}},
         phases={"place"}, check=_check_place, resolve=_place, options=_place_options,
         rule=f"{R} p. 16 placement: a square on its colour, no overlap, no same type in the section, fixed spots of "
              "the gates and the Ghost Fortress; neutral basic resources delivered at once (p. 11)"),
    Move("record_history", fields={"building": string(D.PRESTIGE), "governing_body": string(minLength=1,
                                                                                             maxLength=80)},
         phases={"history"}, check=_check_history, resolve=_history, options=_history_options,
         rule=f"{R} p. 19 Shaping history, games of versions 1-7 only: the winner records a favourite building, "
              "its section and a governing body"),
)


def _cur_seat(s):
    return {s["cur"]["seat"]} if s["cur"] else set()


PHASES = (
    Phase("draft", to_act=lambda s: {s["setup"]["draft"][0]}, rule="facts B.2",
          doc="setup: players draft their other basic resources (reverse turn order, snake with 2)"),
    Phase("setup_place", to_act=lambda s: {s["setup"]["place"][0]}, rule="facts B.2",
          doc="setup: each player places its starting trade stalls on grey numbered spaces"),
    Phase("play", to_act=_cur_seat, rule=f"{R} p. 11", doc="the active player plays a card or calls a vote"),
    Phase("lead", to_act=_cur_seat, rule=f"{R} p. 11", doc="the active player resolves the main action"),
    Phase("lead_road", to_act=_cur_seat, rule=f"{R} p. 12",
          doc="the Upgrade leader places the road built before the tile"),
    Phase("site", to_act=_cur_seat, rule=f"{R} p. 12", doc="the square of the trade stall being imported"),
    Phase("follow", to_act=_cur_seat, rule=f"{R} p. 11",
          doc="a follower takes the card's follow action or a basic action"),
    Phase("basic", to_act=_cur_seat, rule=f"{R} p. 14", doc="a basic action for a face-down card"),
    Phase("roads", to_act=lambda s: {s["roads"]["seat"]}, rule=f"{R} pp. 12, 14", doc="roads to place"),
    Phase("reset", to_act=lambda s: {s["reset"]["seat"]}, rule=f"{R} p. 14", doc="the vote caller's reset benefits"),
    Phase("reset_end", to_act=lambda s: (), auto=_reset_end, rule=f"{R} pp. 14-15",
          doc="cards and workers back, income for the others, the vote opens"),
    Phase("vote", to_act=lambda s: {i for i, v in enumerate(s["vote"]["votes"]) if v is None}, rule=f"{R} p. 15",
          doc="every player still to vote chooses a proposal and influence in secret"),
    Phase("tie", to_act=lambda s: {s["vote"]["decider"]}, rule=f"{R} p. 15", doc="the tie is decided"),
    Phase("solo_choose", to_act=lambda s: {0}, rule=f"{R} p. 18", doc="the solo player chooses a proposal"),
    Phase("place", to_act=lambda s: {s["vote"]["placer"]}, rule=f"{R} p. 16",
          doc="the player who gave most influence places the building"),
    Phase("vote_end", to_act=lambda s: (), auto=_vote_auto, rule=f"{R} p. 16", doc="new proposals"),
    Phase("solo_call", to_act=lambda s: (), auto=_solo_call, rule=f"{R} p. 18", doc="the solo vote or the end"),
    Phase("advance", to_act=lambda s: (), auto=_advance, rule=f"{R} pp. 11, 16, 19",
          doc="followers, offer refill, achievements, end of turn"),
    Phase("history", to_act=lambda s: set(s["over"]["winners"][:1]), rule=f"{R} p. 19",
          doc="versions 1-7: the winner shapes the history of Gloomhaven"),
    Phase("over", to_act=lambda s: (), doc="the game is over"),
)

ON = {
    "game_started": _on_started, "resource_drafted": _on_drafted, "start_stall_placed": _on_start_stall, "card_played": _on_card_played, "adviser_recruited": _on_recruited,
    "stall_imported": _on_imported, "stall_site": _on_stall_site, "access_bought": _on_access, "building_upgraded": _on_upgraded,
    "house_built": _on_house, "bridge_built": _on_bridge, "road_built": _on_road, "roads_due": _on_roads_due,
    "roads_skipped": _on_roads_skipped, "basic_taken": _on_basic, "gained": _on_gained,
    "worker_placed": _on_worker, "delivered": _on_delivered, "completed": _on_completed,
    "income_collected": _on_income, "follower_up": _on_follower, "offer_refilled": _on_offer_refilled,
    "achievement_scored": _on_achievement, "turn_passed": _on_turn_passed, "vote_called": _on_vote_called,
    "reset_benefit": _on_reset_benefit, "cards_returned": _on_cards_returned, "claims_paid": _on_claims_paid,
    "vote_opened": _on_vote_opened, "vote_cast": _on_vote_cast, "votes_revealed": _on_revealed,
    "proposal_chosen": _on_chosen, "prestige_unplaceable": _on_unplaceable, "proposals_drawn": _on_proposals_drawn,
    "prestige_placed": _on_placed, "vote_closed": _on_vote_closed, "game_ended": _on_ended,
    "history_recorded": _on_history, "event_card_given": _on_event_card, "vote_skipped": _on_vote_skipped,
    "first_road_due": _on_first_road_due, "first_road_built": _on_first_road_built,
}


# ============================================================================================
# the engine
# ============================================================================================
OPTIONS_SCHEMA = {
    "type": "object",
    "properties": {
        "map": {"enum": sorted(D.BOARDS), "default": "thematic", "description": "side of the map board"},
        "achievements": {"type": "boolean", "default": False, "description": "achievements variant (p. 19)"},
        "no_workers": {"type": "boolean", "default": False, "description": "no-workers variant (p. 19)"},
        "shaping_history": {"type": "boolean", "default": False,
                            "description": "'Shaping history' variant (p. 19): at the end the winner gets its race's "
                                           "Gloomhaven event card, named in the outcome with the buildings and "
                                           "sections for its blanks (filled in on the card); thematic side, "
                                           "2-4 players"},
        "races": {"type": "array", "items": {"enum": sorted(D.RACES)}, "uniqueItems": True, "minItems": 1,
                  "maxItems": 4, "description": "races by seat (default: dealt at random)"},
        "setup": {"enum": ["draft", "dealt"], "default": "draft",
                  "description": "draft the extra resources and place the starting stalls (ours), or deal both"},
        "solo_section": {"enum": ["left", "middle", "right"], "default": "left",
                         "description": "solo: the section of the race resource (difficulty, p. 17)"},
    },
    "additionalProperties": False,
}


class FoundersOfGloomhaven(RulesEngine):
    name = "founders-of-gloomhaven"
    title = "Founders of Gloomhaven"
    min_seats = 1
    max_seats = 4
    version = 9
    supported_versions = (1, 2, 3, 4, 5, 6, 7, 8)
    max_random_steps = 20_000
    options_schema = OPTIONS_SCHEMA
    moves = MOVES
    phases = PHASES
    on = ON
    event_fields = EVENT_FIELDS
    view_schema = VIEW_SCHEMA

    def fork(self, state):
        """The look-ahead copy of `settle`: a `_fork` instead of a full clone (the handlers only
        touch what `_fork` copies; decide() still never mutates `state`)."""
        return _fork(state)

    # --- phases derived from the state ----------------------------------------------------
    def phase_of(self, s) -> str:
        if s["over"] is not None:
            return "history" if _history_due(s) else "over"
        if s["setup"]:
            return "draft" if s["setup"]["draft"] else "setup_place"
        if s["roads"]:
            return "roads"
        if s["reset"]:
            return "reset" if s["reset"]["n"] > 0 else "reset_end"
        v = s["vote"]
        if v:
            st = v["stage"]
            if st == "voting":
                return "vote"
            if st == "tie":
                return "tie"
            if st == "choose":
                return "solo_choose"
            if st == "placing" and v["card"] is not None and not v["stuck"]:
                return "place"
            return "vote_end"
        cur = s["cur"]
        if cur is None:
            return "advance"
        if "stall" in cur:
            return "site"
        if cur.get("first_road") is True:
            return "lead_road"
        if cur["role"] == "play":
            if s["solo"] and _p(s, 0)["hand"] == ["vote"]:
                return "solo_call"
            return "play"
        return cur["role"]

    # --- setup ---------------------------------------------------------------------------
    def start(self, seats, options, rng):
        side = options.get("map", "thematic")
        variants = {k: bool(options.get(k, False)) for k in ("achievements", "no_workers", "shaping_history")}
        if variants["shaping_history"] and side != "thematic":
            raise InvalidOptions("'Shaping history' is played on the thematic side of the map")
        if variants["shaping_history"] and seats == 1:
            raise InvalidOptions("'Shaping history' needs a winner among several players")
        if variants["no_workers"] and seats == 1:
            raise InvalidOptions("the no-workers variant cannot be combined with the solo game (p. 19)")
        if "solo_section" in options and seats > 1:
            raise InvalidOptions("solo_section sets the solo game's difficulty: it does not apply with several players")
        if options.get("solo_section", "left") != "left" and side == "symmetric":
            raise InvalidOptions("on the symmetric side the solo game is always of normal difficulty (p. 17): "
                                 "solo_section does not apply")
        # the v1-4 map: the start draws alike for every version (old logs re-decide their setup);
        # a v5 state puts the stalls on the same numbered spaces of its own map (_on_started)
        board = D.BOARDS[side]
        races = list(options.get("races") or [])
        if races and len(races) != seats:
            raise InvalidOptions(f"races: give one race per seat ({seats})")
        if len({D.RACES[r]["resource"] for r in races}) != len(races):
            raise InvalidOptions("races: two races with the same basic resource cannot play together")
        if not races:
            pool = sorted(D.RACES)
            rng.shuffle(pool)
            for r in pool:
                if len(races) < seats and D.RACES[r]["resource"] not in {D.RACES[x]["resource"] for x in races}:
                    races.append(r)
        own = [D.RACES[r]["resource"] for r in races]
        rest = [r for r in D.BASIC if r not in own]
        rng.shuffle(rest)
        if seats == 1:
            resources = [[own[0], *[r for r in D.BASIC if r != own[0]]]]
            neutral = []
        else:
            extra = 2 if seats == 2 else 1  # 2 players control 3 resources each, otherwise 2 (facts B.2)
            resources = [[own[i], *rest[i * extra:(i + 1) * extra]] for i in range(seats)]
            neutral = sorted(rest[seats * extra:])
        stalls = []
        draft = None
        if seats == 1:
            sec = board.sections.index(options.get("solo_section", "left"))
            stalls.append([0, own[0], board.numbered_by_section[sec][0]])
        elif options.get("setup", "draft") == "draft":
            # ours: the second (and third) resource drafted in reverse turn order (snake with 2 players),
            # then each player places its starting stalls on grey numbered spaces, in turn order
            resources = [[r] for r in own]
            neutral = []
            order = list(range(seats - 1, -1, -1))
            draft = order + order[::-1] if seats == 2 else order
        else:
            spaces = sorted(board.numbered)
            rng.shuffle(spaces)
            k = 0
            for i in range(seats):
                for res in resources[i]:
                    stalls.append([i, res, spaces[k]])
                    k += 1
        hand = ["recruit", "trade", "upgrade", "build", "vote"] + (["income"] if seats == 2 else [])
        advisers = sorted(D.ADVISERS)
        rng.shuffle(advisers)
        n_offer = len(D.OFFER_COSTS)
        deck = sorted(D.PRESTIGE)
        rng.shuffle(deck)
        fake = {"proposal_deck": deck, "proposal_discard": []}
        first = _draw_proposals(fake, rng, 3, [])
        deck = first["secret"]["deck"]
        ach = None
        if variants["achievements"]:
            ach = {}
            for deck_name in ("immediate", "mid", "end"):
                cards = sorted(a for a, spec in D.ACHIEVEMENTS.items() if spec["deck"] == deck_name)
                ach[deck_name] = rng.choice(cards)
        return {
            "type": "game_started", "map": side, "variants": variants, "races": races, "resources": resources,
            "neutral": neutral, "stalls": stalls, "draft": draft, "hands": [list(hand) for _ in range(seats)],
            "offer": advisers[:n_offer], "proposals": first["cards"], "achievements": ach,
            "secret": {"adviser_deck": advisers[n_offer:], "proposal_deck": deck},
        }

    # --- views ---------------------------------------------------------------------------
    def view(self, s, seat):
        b = board_of(s)
        phase = self.phase_of(s)
        players = []
        for i, pl in enumerate(s["players"]):
            mine = seat == i
            players.append({
                "seat": i, "race": pl["race"], "race_action": dict(D.RACES[pl["race"]]["action"]),
                "resources": list(pl["resources"]), "money": pl["money"], "fleeting": pl["fleeting"],
                "lasting": pl["lasting"], "points": sum(pl["score"].values()), "score": dict(pl["score"]),
                "hand": list(pl["hand"]) if mine else None, "hand_size": len(pl["hand"]),
                "played": [{"card": c["card"] if (c["face_up"] or mine) else None, "face_up": c["face_up"]}
                           for c in pl["played"]],
                "workers": pl["workers"], "workers_placed": list(pl["placed"]), "houses": pl["houses"],
                "bridges": pl["bridges"], "roads": pl["roads"], "advisers": pl["advisers"],
                "income": len(_owned_types(s, i)),
            })
        tiles = []
        for i, t in enumerate(s["tiles"]):
            vt = {"id": i, "kind": t["kind"], "resource": t["res"], "owner": t["owner"],
                  "neutral": t["owner"] is None and t["kind"] == "stall", "cells": list(t["cells"]),
                  "claims": list(t["claims"]),
                  "section": b.sections[t["section"]] if t["section"] is not None else None}
            if "card" in t:
                vt["card"] = t["card"]
            if t["prereq"]:
                vt["prereqs"] = clone(t["prereq"])
            tiles.append(vt)
        spec = D.edition(s).PRESTIGE
        prestige = [{"card": pb["card"], "name": spec[pb["card"]]["name"], "tile": pb["tile"],
                     "requires": list(spec[pb["card"]]["requires"]), "delivered": list(pb["delivered"]),
                     "complete": pb["complete"], "worker": pb["worker"], "neutral_claim": pb["claim"],
                     "points": spec[pb["card"]]["points"], "action": dict(spec[pb["card"]]["action"])}
                    for pb in s["prestige"]]
        vote = None
        v = s["vote"]
        if v is not None:
            secret = v["stage"] == "voting"
            vote = {"caller": v["caller"], "stage": v["stage"], "voted": [x is not None for x in v["votes"]],
                    "my_vote": (dict(v["votes"][seat]) if seat is not None and v["votes"][seat] else None),
                    "votes": None if secret or s["solo"] else [dict(x) for x in v["votes"]],
                    "tied": list(v["tied"]), "decider": v["decider"], "placer": v["placer"], "card": v["card"]}
        cur = s["cur"]
        # What a player reads on the cards it can see (proposals, the offer, its hand, cards
        # played face up, advisers removed): a person chooses by them. Hidden cards stay out.
        seen = {*s["proposals"], *(c for c in s["offer"] if c), *s["removed"]}
        if v is not None and v["card"]:
            seen.add(v["card"])
        for p in players:
            seen.update(p["hand"] or ())
            seen.update(c["card"] for c in p["played"] if c["card"])
        cards = {}
        for c in sorted(seen):
            if c in spec:
                cards[c] = {"kind": "prestige", **clone(spec[c])}
            elif c in D.ADVISERS:
                cards[c] = {"kind": "adviser", "name": c.replace("_", " ").title(), **clone(D.ADVISERS[c])}
        return {
            "type": "founders-of-gloomhaven", "seat": seat, "phase": phase, "to_act": sorted(self.to_act(s)),
            "cards": cards,
            "map": {"side": s["map"], "width": b.w, "height": b.h, "colours": list(b.colour),
                    "sections": list(b.section), "section_names": [b.section_names[x] for x in b.sections],
                    "numbered": {str(c): k for c, k in b.numbered.items()}},
            "occupancy": list(s["occ"]), "tiles": tiles, "players": players, "neutral": list(s["neutral"]),
            "supply": dict(s["supply"]), "roads_left": s["roads_left"], "offer": list(s["offer"]),
            "offer_costs": list(D.OFFER_COSTS), "adviser_deck_size": len(s["adviser_deck"]),
            "proposals": list(s["proposals"]), "proposal_deck_size": len(s["proposal_deck"]),
            "prestige": prestige, "completions": s["completions"], "active": s["active"],
            "current": ({k: clone(x) for k, x in cur.items() if k != "card" or cur.get("role") == "lead"}
                        if cur else None),
            "roads_due": clone(s["roads"]), "reset": clone(s["reset"]), "vote": vote,
            "achievements": clone(s["achievements"]), "achievements_scored": clone(s["ach_scored"]),
            "solo": ({"cycle": s["cycle"], "costs": [_solo_cost(s, i) for i in range(3)]} if s["solo"] else None),
            "removed": list(s["removed"]), "result": clone(s["over"]), "history": clone(s["history"]),
            "setup": clone(s["setup"]),
        }

    def outcome(self, s):
        if s["over"] is None or _history_due(s):
            return None
        out = clone(s["over"])
        if s["history"]:
            out["history"] = clone(s["history"])
        return out

    def to_act(self, s):
        if s["over"] is not None and not _history_due(s):
            return set()
        return super().to_act(s)

    # --- hidden information --------------------------------------------------------------
    def resample_hidden(self, s, viewer, rng):
        s = clone(s)
        rng.shuffle(s["adviser_deck"])
        rng.shuffle(s["proposal_deck"])
        for i, pl in enumerate(s["players"]):
            if i == viewer:
                continue
            down = [k for k, c in enumerate(pl["played"]) if not c["face_up"]]
            pool = [c for c in pl["hand"] if c != "vote"] + [pl["played"][k]["card"] for k in down]
            rng.shuffle(pool)
            for k in down:
                pl["played"][k]["card"] = pool.pop()
            pl["hand"] = pool + (["vote"] if "vote" in pl["hand"] else [])
        v = s["vote"]
        if v is not None and v["stage"] == "voting":
            for i, x in enumerate(v["votes"]):
                if x is not None and i != viewer:
                    pl = s["players"][i]
                    v["votes"][i] = {"proposal": rng.randrange(len(s["proposals"])), "fleeting": rng.randint(0, pl["fleeting"]),
                                     "lasting": rng.randint(0, pl["lasting"])}
        return s

    # --- the random player ----------------------------------------------------------------
    def random_action(self, s, seat, actions, rng):
        from .play import weighted_choice
        return weighted_choice(self, s, seat, actions, rng)


ENGINE = FoundersOfGloomhaven()
