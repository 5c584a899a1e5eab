"""Where a prestige building may stand (seed-FoG p. 16; p. 20): colour, free squares, fixed spots and
the section test."""

from __future__ import annotations

from . import data as D
from .board import EMPTY, board_of
from .common import State, _version

_COLOURED: dict[tuple[str, str, str], list[tuple[int, tuple[int, ...]]]] = {}


def _coloured_footprints(b, shape, colour):
    """(section, footprint) of every `shape` footprint with a square of `colour` (static, cached)."""
    key = (b.name, shape, colour)
    got = _COLOURED.get(key)
    if got is None:
        got = _COLOURED[key] = [(b.section[fp[0]], fp) for fp in b.footprints[shape]
                                if any(b.colour[c] == colour for c in fp)]
    return got


def _prestige_footprints(state: State, card: str, first: bool = False):
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


def _prestige_fits(state: State, card: str, cells) -> bool:
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
