"""Effects, deliveries and completions (seed-FoG pp. 11, 16; facts B.8), and the look-ahead copy
(`_fork`, `_apply`) the moves use to see what their events make possible."""

from __future__ import annotations

from collections.abc import Sequence

from tablero.engines.core import clone

from . import data as D
from .board import Net
from .common import KIND_TILES, Event, State, Tile, _discount, _role, _version
from .events import ON


# ============================================================================================
# effects, deliveries, completion
# ============================================================================================
def _effect_events(state: State, seat: int, eff, source: str, anchored: Sequence[int] = ()) -> list[Event]:
    out = []
    gain = {k: eff.get(k, 0) for k in ("money", "fleeting", "lasting", "points")}
    if any(gain.values()):
        out.append({"type": "gained", "seat": seat, **gain, "source": source})
    queue = list(anchored) + [None] * eff.get("roads", 0)
    if queue:
        out.append({"type": "roads_due", "seat": seat, "queue": queue})
    return out


def _bonus_events(state: State, seat: int, anchored: Sequence[int] = ()) -> list[Event]:
    bonus = _discount(state)[1] if _role(state) == "lead" else {}
    return _effect_events(state, seat, bonus, "advisers", anchored)


def _fork(state: State):
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


def _apply(engine_state: State, events: list[Event]):
    """`events` applied to a look-ahead copy of the state (what `RulesEngine.evolve` does with `ON`)."""
    s = _fork(engine_state)
    for e in events:
        new = ON[e["type"]](s, e)
        s = s if new is None else new
    return s


def _delivery_points(state: State, tile: Tile) -> list[list]:
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


def _find_deliveries(state: State) -> list[dict]:
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


def _completion_events(state: State) -> list[dict]:
    out = []
    prestige = D.edition(state).PRESTIGE
    for bi, pb in enumerate(state["prestige"]):
        if not pb["complete"] and all(d is not None for d in pb["delivered"]):
            seats = sorted({d for d in pb["delivered"] if d is not None and d >= 0})
            out.append({"type": "completed", "building": bi, "card": pb["card"],
                        "points": [[s, prestige[pb["card"]]["points"]] for s in seats]})
    return out


def _with_deliveries(state: State, primary: list[Event], *rest):
    """`primary` events, then the deliveries and completions they make possible, then `rest`."""
    if all(pb["complete"] for pb in state["prestige"]):
        return [*primary, *rest]
    s = _apply(state, primary)
    dl = _find_deliveries(s)
    if not dl:
        return [*primary, *rest]
    s = _apply(s, dl)
    return [*primary, *dl, *_completion_events(s), *rest]
