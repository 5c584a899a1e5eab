"""Upgrade (seed-FoG pp. 12-13): advanced resources, their sites, and the leader's road before
the tile (v4)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from operator import itemgetter
from typing import Any

from tablero.engines.core import IllegalAction

from . import data as D
from .board import EMPTY, ROAD, Net, adjacent_to_own, board_of, free, section_has
from .build import _check_road, _road_cells
from .common import KIND_TILES, Action, Event, State, _category_ok, _own_adjacent, _p, _role, _version
from .delivery import _bonus_events, _fork, _with_deliveries
from .trade import _lead_disc


# ============================================================================================
# Upgrade (seed-FoG pp. 12-13)
# ============================================================================================
def _upgrade_cost(state: State, res: str) -> int:
    return max(0, D.UPGRADE_COST[D.TIER[res]] - _lead_disc(state))


def _prereq_touch(state: State, seat: int, res: str, net: Net) -> dict[str, list[tuple[int, set[int]]]] | None:
    """For each prerequisite: the usable tiles (owned or accessed) and their touch squares."""
    out = {}
    for p in D.ADVANCED[res]["prereqs"]:
        usable = [(i, net.tile_touch(i)) for i, t in enumerate(state["tiles"])
                  if t["res"] == p and t["kind"] in KIND_TILES and (t["owner"] == seat or seat in t["claims"])]
        if not usable:
            return None
        out[p] = usable
    return out


def _choose_prereqs(state: State, seat: int, res: str, cells, touch) -> list[list] | None:
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


def _check_upgrade(state: State, seat: int, a: Action) -> Any:
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


def _upgrade(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    cost, chosen = ctx
    tile = len(state["tiles"])
    ev = {"type": "building_upgraded", "seat": seat, "resource": a["resource"], "cells": sorted(a["cells"]),
          "cost": cost, "tile": tile, "prereqs": chosen}
    # the leader's single connected road: after the tile, unless it was built before (p. 12)
    roads = [tile] if _role(state) == "lead" and _first_road(state) is None else []
    return _with_deliveries(state, [ev], *_bonus_events(state, seat, anchored=roads))


# (map, occupancy, tiles' resources/owners/claims, seat) -> {resource: footprints where the seat
# could place it, money and supply aside}. A pure function of its key (safe across games and
# states), bounded; it spares the play phase's "can Upgrade resolve?" probe and the lead's list
# the same map search.
_SITES: dict[tuple, dict[str, list[tuple[int, ...]]]] = {}
_SITES_SIZE = 128


_RES_OWNER = itemgetter("res", "owner")
_CLAIMS = itemgetter("claims")


def _resource_tiles(tiles: list[dict[str, Any]], seat: int) -> tuple[dict[str, list[int]], dict[str, set]]:
    """(resource -> the tiles of it `seat` may use: its own or claimed, resource -> the sections
    holding a tile of it: one tile of a resource per section)."""
    usable: dict[str, list[int]] = {}
    sections: dict[str, set] = {}
    for i, t in enumerate(tiles):
        if t["kind"] in KIND_TILES:
            sections.setdefault(t["res"], set()).add(t["section"])
            if t["owner"] == seat or seat in t["claims"]:
                usable.setdefault(t["res"], []).append(i)
    return usable, sections


def _upgrade_sites(state: State, seat: int) -> dict[str, list[tuple[int, ...]]]:
    tiles = state["tiles"]
    owned_only = _version(state) >= 9  # v9: the tile must also touch what the seat owns (p. 13, p. 20)
    key = (board_of(state).name, seat, tuple(state["occ"]), tuple(map(_RES_OWNER, tiles)),
           tuple(i for i, c in enumerate(map(_CLAIMS, tiles)) if seat in c), owned_only)
    got = _SITES.get(key)
    if got is not None:
        return got
    b = board_of(state)
    occ = state["occ"]
    usable, sections = _resource_tiles(tiles, seat)
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


def _upgrade_options(state: State, seat: int) -> Iterator[Action]:
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
def _first_road(state: State) -> int | None:
    """The square of the road the Upgrade leader built before the tile, if any."""
    fr = (state["cur"] or {}).get("first_road")
    return fr if type(fr) is int else None


def _check_road_first(state: State, seat: int, a: Action) -> Any:
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
    if _version(state) >= 10 and _road_first_resolves(state, seat):
        return None  # v10: or when only a road built first makes a site (see _road_first_resolves)
    raise IllegalAction("no road could be built before the tile and stay connected to it")


def _road_first_resolves(state: State, seat: int) -> bool:
    """v10 (seed-FoG p. 12, L39: "ya sea antes o después de colocar la loseta, el jugador también
    puede construir una única carretera conectada a la loseta"; p. 11, L7: a card played face up
    must be able to resolve its main action): could the Upgrade leader place a tile once a road
    is built first, on some square where a road may go? (`state["cur"]` is the leader's.) v4-v9
    judged the card without the road first, so an Upgrade only a road first could resolve was
    not playable face up."""
    if state["roads_left"] <= 0 or not _affordable(state, seat):
        return False
    tiles = state["tiles"]
    key = (board_of(state).name, seat, tuple(state["occ"]), tuple(map(_RES_OWNER, tiles)),
           tuple(i for i, c in enumerate(map(_CLAIMS, tiles)) if seat in c), state["roads_left"],
           _p(state, seat)["money"], tuple(sorted(state["supply"].items())), _lead_disc(state), _version(state))
    got = _ROAD_FIRST.get(key)
    if got is None:
        near = _next_to_sites(state, seat)
        got = any(_first_road_works(state, seat, c, near) for c in _road_first_candidates(state, seat))
        if len(_ROAD_FIRST) >= _ROAD_FIRST_SIZE:
            del _ROAD_FIRST[next(iter(_ROAD_FIRST))]
        _ROAD_FIRST[key] = got
    return got


# (map, occupancy, tiles, seat, roads left, money, supply, discount, version) -> can a road first resolve the
# Upgrade? A pure function of its key, bounded (the play phase asks it on every card list).
_ROAD_FIRST: dict[tuple, bool] = {}
_ROAD_FIRST_SIZE = 256


def _road_first_candidates(state: State, seat: int) -> Iterator[int]:
    """The squares where a road may go after which, by the tests of `_upgrade_sites` on the map
    with that road, a tile could be placed connected to the road (`_first_road_works` then checks
    each exactly). Reckoned on the present network rather than by a map search per square: a road
    on c merges the components next to c, and a tile touching c or one of them gains their fringe;
    footprints are handled as sets of their numbers (`Board.footprint_ids_at`)."""
    b = board_of(state)
    occ, tiles, adj = state["occ"], state["tiles"], b.adj
    money = _p(state, seat)["money"]
    usable, blocked = _resource_tiles(tiles, seat)
    wanted = [r for r, spec in D.ADVANCED.items() if state["supply"][r] > 0 and money >= _upgrade_cost(state, r)
              and all(p in usable for p in spec["prereqs"])]
    if not wanted:
        return
    net = Net(state, seat)
    good = {c for c in b.land_cells if occ[c] == EMPTY} - _own_adjacent(state, seat)

    def ids(shape: str, cells) -> set[int]:  # footprints of `shape` covering a square of `cells`
        at = b.footprint_ids_at[shape]
        return set().union(*(at[x] for x in cells))

    def parts(cells) -> tuple[set[int], set[int]]:  # squares next to the cells, components touching them
        return {n for c in cells for n in adj[c]}, net.comps_of_cells(cells)

    # per prerequisite (and what the seat owns, v9): its present touch and what a road would merge into it
    needs: dict[str, tuple[set[int], set[int], set[int]]] = {}
    for r in wanted:
        for p in D.ADVANCED[r]["prereqs"]:
            if p not in needs:
                near, comps = set(), set()
                touch: set[int] = set()
                for i in usable[p]:
                    touch |= net.tile_touch(i)
                    n_, k_ = parts(tiles[i]["cells"])
                    near |= n_
                    comps |= k_
                needs[p] = (touch, near, comps)
    owned_cells = [c for t in tiles if t["owner"] == seat and t["kind"] != "prestige" for c in t["cells"]]
    owned = (net.touch(owned_cells), *parts(owned_cells)) if _version(state) >= 9 else None
    bad = [c for c in b.land_cells if c not in good]
    valid: dict[str, set[int]] = {}  # resource -> footprints on good squares of an open section
    free_ids: dict[str, set[int]] = {}  # shape -> footprints on good squares
    touching: dict[tuple[str, str], set[int]] = {}  # (shape, prerequisite or "owned") -> footprints touching it
    for r in wanted:
        shape = D.ADVANCED[r]["shape"]
        if shape not in free_ids:
            free_ids[shape] = set(range(len(b.footprints[shape]))) - ids(shape, bad)
        by_section = _section_ids(b, shape)
        valid[r] = free_ids[shape].difference(*(by_section[k] for k in blocked.get(r, ()) if k in by_section))
    comp_ids: dict[tuple[str, int], set[int]] = {}  # (shape, component) -> footprints touching its fringe
    wanted = [r for r in wanted if valid[r]]
    merged: dict[tuple[str, frozenset[int]], set[int]] = {}  # (resource, components) -> valid ones touching them
    for c in _road_cells(state, seat):
        ks = frozenset(net.comp[n] for n in adj[c] if net.comp[n] >= 0)
        for r in wanted:
            shape = D.ADVANCED[r]["shape"]
            base = merged.get((r, ks))
            if base is None:  # valid footprints connected to a component the road joins
                for k in ks:
                    if (shape, k) not in comp_ids:
                        comp_ids[(shape, k)] = ids(shape, net.fringe[k])
                base = merged[(r, ks)] = valid[r] & set().union(*(comp_ids[(shape, k)] for k in ks))
            # footprints connected to the road (next to its square or to a component it joins), not on it
            ok = (base | (valid[r] & _next_ids(b, shape)[c])) - b.footprint_ids_at[shape][c]
            for p, part in [*((p, needs[p]) for p in D.ADVANCED[r]["prereqs"]), ("owned", owned)]:
                if part is None or not ok:
                    continue
                if not (c in part[1] or part[2] & ks):  # not reached by the road: its touch as it is
                    if (shape, p) not in touching:
                        touching[(shape, p)] = ids(shape, part[0])
                    ok &= touching[(shape, p)]
            if ok:
                yield c
                break


_SECTION_IDS: dict[tuple[str, str], dict[int, frozenset[int]]] = {}
_NEXT_IDS: dict[tuple[str, str], list[frozenset[int]]] = {}


def _next_ids(b, shape: str) -> list[frozenset[int]]:
    """Square -> the numbers of the footprints of `shape` covering a square next to it. Per map,
    computed once."""
    key = (b.name, shape)
    got = _NEXT_IDS.get(key)
    if got is None:
        at = b.footprint_ids_at[shape]
        got = _NEXT_IDS[key] = [frozenset().union(*(at[n] for n in b.adj[c])) for c in range(b.size)]
    return got


def _section_ids(b, shape: str) -> dict[int, frozenset[int]]:
    """Section -> the numbers of the footprints of `shape` in it (a footprint lies in one section:
    river and wall squares are not land). Per map, computed once."""
    key = (b.name, shape)
    got = _SECTION_IDS.get(key)
    if got is None:
        out: dict[int, set[int]] = {}
        for i, fp in enumerate(b.footprints[shape]):
            out.setdefault(b.section[fp[0]], set()).add(i)
        got = _SECTION_IDS[key] = {k: frozenset(v) for k, v in out.items()}
    return got


def _affordable(state: State, seat: int) -> bool:
    """Is some advanced resource in the supply, affordable, with a usable tile of every
    prerequisite? (A cheap test before any map search.)"""
    money = _p(state, seat)["money"]
    usable = _resource_tiles(state["tiles"], seat)[0]
    return any(state["supply"][r] > 0 and money >= _upgrade_cost(state, r) and all(p in usable for p in spec["prereqs"])
               for r, spec in D.ADVANCED.items())


def _road_first(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "first_road_due", "seat": seat}]


def _road_first_options(state: State, seat: int) -> Iterator[Action]:
    try:
        _check_road_first(state, seat, {})
    except IllegalAction:
        return
    yield {"type": "road_first"}


def _next_to_sites(state: State, seat: int) -> dict[int, set]:
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


def _first_road_works(state: State, seat: int, cell: int, near=None) -> bool:
    """After a road on `cell`, could the leader place a tile connected to it? At once when a tile
    could already go next to it (a road only adds connections); else by a look-ahead."""
    near = _next_to_sites(state, seat) if near is None else near
    if any(cell not in fp for fp in near.get(cell, ())):
        return True
    s = _fork(state)
    s["occ"][cell] = ROAD
    s["cur"]["first_road"] = cell
    return next(_upgrade_options(s, seat), None) is not None


def _check_first_road(state: State, seat: int, a: Action) -> None:
    cell = a["cell"]
    _check_road(state, seat, {"cell": cell})
    if not _first_road_works(state, seat, cell):
        raise IllegalAction("no tile could then be placed connected to that road")


def _first_road_built(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return _with_deliveries(state, [{"type": "first_road_built", "seat": seat, "cell": a["cell"]}])


def _first_road_options(state: State, seat: int) -> Iterator[Action]:
    if _version(state) >= 10:
        # v10: the same squares as the look-ahead below finds, found on the present network (a test
        # compares them square by square; `_check_first_road` still checks the one chosen exactly)
        for c in _road_first_candidates(state, seat):
            yield {"type": "first_road", "cell": c}
        return
    near = _next_to_sites(state, seat)
    for c in _road_cells(state, seat):
        if _first_road_works(state, seat, c, near):
            yield {"type": "first_road", "cell": c}
