"""Build (houses and bridges/gates, seed-FoG p. 13; no-workers variant p. 19), roads, basic
actions and workers (p. 14)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tablero.engines.core import IllegalAction

from . import data as D
from .board import EMPTY, Net, adjacent_to_own, board_of
from .common import Action, Event, State, _category_ok, _discount, _own_adjacent, _p, _role, _workers_free
from .delivery import _bonus_events, _effect_events, _with_deliveries


# ============================================================================================
# Build: houses and bridges/gates (seed-FoG p. 13; no-workers variant p. 19)
# ============================================================================================
def _build_cost(state: State, kind: str) -> int:
    # No workers: a house's price is $2 instead of $4 (p. 19, "las casas sólo cuesta #2"); the
    # leader's $1 off and an adviser's discount still apply to it, as to any build (p. 13).
    house = D.NO_WORKERS_HOUSE_COST if state["variants"]["no_workers"] else D.HOUSE_COST
    base = house if kind == "house" else D.BRIDGE_COST
    disc = D.LEAD_DISCOUNT + _discount(state)[0] if _role(state) == "lead" else 0
    return max(0, base - disc)


def _check_build(state: State, seat: int, a: Action, touch=None) -> Any:
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


def _build(state: State, seat: int, a: Action, cost: Any, rng: random.Random):
    ev = {"type": f"{a['kind']}_built", "seat": seat, "cell": a["cell"], "cost": cost, "tile": len(state["tiles"])}
    evs = [ev, *_bonus_events(state, seat)]
    return _with_deliveries(state, evs[:1], *evs[1:]) if a["kind"] == "bridge" else evs


def _build_options(state: State, seat: int) -> Iterator[Action]:
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
def _road_touch(state: State, seat: int):
    r = state["roads"]
    if r is not None and r["queue"] and r["queue"][0] is not None:
        return Net(state, seat).touch(state["tiles"][r["queue"][0]]["cells"])
    return Net(state, seat).owned_touch()


def _road_cells(state: State, seat: int):
    if state["roads_left"] <= 0:
        return []
    b = board_of(state)
    occ = state["occ"]
    return sorted(c for c in _road_touch(state, seat) if b.land[c] and occ[c] == EMPTY)


def _check_road(state: State, seat: int, a: Action) -> None:
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


def _road(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return _with_deliveries(state, [{"type": "road_built", "seat": seat, "cell": a["cell"]}])


def _road_options(state: State, seat: int):
    return ({"type": "road", "cell": c} for c in _road_cells(state, seat))


def _skip_roads(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "roads_skipped", "seat": seat}]


def _basic_gain(kind: str):
    def resolve(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
        return [{"type": "basic_taken", "seat": seat, "kind": kind}]
    return resolve


def _worker_targets(state: State, seat: int) -> list[str]:
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


def _check_worker(state: State, seat: int, a: Action) -> None:
    if a["target"] not in _worker_targets(state, seat):
        if state["variants"]["no_workers"]:
            raise IllegalAction("no workers are used in this game (no-workers variant)")
        if _workers_free(state, seat) <= 0:
            raise IllegalAction("you have no worker available (each house unlocks one)")
        raise IllegalAction("that worker space is taken, or you have not delivered to that prestige building")


def _worker(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    t = a["target"]
    eff = D.RACES[_p(state, seat)["race"]]["action"] if t == "race" else D.edition(state).PRESTIGE[t]["action"]
    return [{"type": "worker_placed", "seat": seat, "target": t}, *_effect_events(state, seat, eff, "actions")]


def _worker_options(state: State, seat: int):
    return ({"type": "place_worker", "target": t} for t in _worker_targets(state, seat))
