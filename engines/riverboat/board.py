"""The player mat: hex geometry, fields, crop areas and the estate-feature scores.

A player's mat is kept in the state as parallel lists indexed by cell (row * MAT_COLS + col):
`worker` (bool), `crop` (crop name or None), `feature` (None, "barn" or "well") and
`scored` (a surveyor stands with that feature).
"""

from __future__ import annotations

import itertools

from .data import BARN_VP_PER_HEX, FIELD_COLOURS, MAT_COLS, MAT_ROWS, MATS, WELL_VP_PER_HEX

CELLS = MAT_ROWS * MAT_COLS


def _neighbours(cell: int) -> list[int]:
    # "odd-r" offset hex grid: odd rows are shifted half a hex to the right.
    r, c = divmod(cell, MAT_COLS)
    if r % 2 == 0:
        deltas = [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)]
    else:
        deltas = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)]
    out = []
    for dr, dc in deltas:
        rr, cc = r + dr, c + dc
        if 0 <= rr < MAT_ROWS and 0 <= cc < MAT_COLS:
            out.append(rr * MAT_COLS + cc)
    return sorted(out)


NEIGHBOURS = [_neighbours(c) for c in range(CELLS)]
ADJACENT = [set(n) for n in NEIGHBOURS]
# The field colour of every cell of every mat.
COLOUR = {name: [FIELD_COLOURS[ch] for row in rows for ch in row] for name, rows in MATS.items()}


def new_mat() -> dict:
    return {"worker": [False] * CELLS, "crop": [None] * CELLS, "feature": [None] * CELLS, "scored": [False] * CELLS}


def is_empty_field(p: dict, cell: int) -> bool:
    """An empty field: no worker, no crop tile and no barn on it."""
    return not p["worker"][cell] and p["crop"][cell] is None and p["feature"][cell] is None


def empty_fields(p: dict, colour: str | None = None) -> list[int]:
    """The empty fields (`is_empty_field`), of one colour if given."""
    worker, crop, feature = p["worker"], p["crop"], p["feature"]
    cells = range(CELLS) if colour is None else _cells_of(p["mat"], colour)
    return [c for c in cells if not worker[c] and crop[c] is None and feature[c] is None]


_CELLS_OF: dict[tuple[str, str], tuple[int, ...]] = {}


def _cells_of(mat: str, colour: str) -> tuple[int, ...]:
    """The cells of a mat whose field has `colour` (a table, filled as asked)."""
    got = _CELLS_OF.get((mat, colour))
    if got is None:
        got = _CELLS_OF[(mat, colour)] = tuple(c for c, col in enumerate(COLOUR[mat]) if col == colour)
    return got


def uncovered_workers(p: dict) -> list[int]:
    """Workers standing on fields that have no crop tile under them yet."""
    crop = p["crop"]
    return [c for c, w in enumerate(p["worker"]) if w and crop[c] is None]


def workers_on_crop(p: dict, crop: str) -> list[int]:
    return [c for c in range(CELLS) if p["worker"][c] and p["crop"][c] == crop]


_PLACEMENTS: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}


def placements(free: list[int], crops: list[str]) -> list[list[int]]:
    """`_placements`, remembered per (free cells, which hexes repeat a crop): a pure function of its arguments that
    the legal-action lists and the Planting phase's turn test ask again and again."""
    # The result depends on the crops only through which hexes show the same crop.
    pattern = tuple(crops.index(c) for c in crops)
    key = (tuple(free), pattern)
    got = _PLACEMENTS.get(key)
    if got is None:
        if len(_PLACEMENTS) > 50_000:
            _PLACEMENTS.clear()
        got = _PLACEMENTS[key] = tuple(tuple(p) for p in _placements(free, crops))
    return [list(p) for p in got]


def _placements(free: list[int], crops: list[str]) -> list[list[int]]:
    """Every distinct way to lay a tile showing `crops` (hex i shows crops[i]) wholly under the
    cells `free`; each result lists the cell under hex i. 2-hex tiles cover two adjacent cells;
    3-hex tiles (our edition: triangles) three mutually adjacent cells. A tile can be turned, so
    every assignment of its crops to the covered cells is reachable (it shows at most two crops)."""
    free_set = set(free)
    size = len(crops)
    groups: list[tuple[int, ...]] = []
    if size == 1:
        groups = [(c,) for c in free]
    elif size == 2:
        groups = [(a, b) for a in free for b in NEIGHBOURS[a] if b > a and b in free_set]
    elif size == 3:
        for a in free:
            for b in NEIGHBOURS[a]:
                if b <= a or b not in free_set:
                    continue
                for c in NEIGHBOURS[b]:
                    if c > b and c in free_set and c in ADJACENT[a]:
                        groups.append((a, b, c))
    out: list[list[int]] = []
    for g in groups:
        seen = set()
        for perm in itertools.permutations(g):
            key = tuple(sorted(zip(perm, crops, strict=True)))
            if key in seen:
                continue
            seen.add(key)
            out.append(list(perm))
    return out


def is_placement(free: list[int], cells: list[int], crops: list[str]) -> bool:
    """Is `cells` one of `placements(free, crops)`? Checked directly, without listing them: the
    cells are free, distinct, a tile's shape (adjacent / a triangle), and written the way
    `placements` writes that placement (the first turn of the tile giving the same crops on the
    same cells, in `itertools.permutations` order of the sorted cells)."""
    size = len(crops)
    if len(cells) != size or len(set(cells)) != size:
        return False
    free_set = set(free)
    if not all(c in free_set for c in cells):
        return False
    if size == 2 and cells[1] not in ADJACENT[cells[0]]:
        return False
    if size == 3 and not (cells[1] in ADJACENT[cells[0]] and cells[2] in ADJACENT[cells[0]]
                          and cells[2] in ADJACENT[cells[1]]):
        return False
    key = sorted(zip(cells, crops, strict=True))
    for perm in itertools.permutations(sorted(cells)):
        if sorted(zip(perm, crops, strict=True)) == key:
            return list(perm) == list(cells)
    return False  # pragma: no cover - the identity turn always matches


def fits(free: list[int], crops: list[str]) -> bool:
    """Does a tile showing `crops` fit under `free` (is `placements` non-empty)? Only the shape
    matters (a tile turns): one free cell, two adjacent ones, or a triangle."""
    size = len(crops)
    if size == 1:
        return bool(free)
    free_set = set(free)
    for a in free:
        for b in NEIGHBOURS[a]:
            if b <= a or b not in free_set:
                continue
            if size == 2:
                return True
            if any(c > b and c in free_set and c in ADJACENT[a] for c in NEIGHBOURS[b]):
                return True
    return False


def barn_score(p: dict, cell: int) -> int:
    """seed-R phase 5: 2 VP per adjacent hex of the most common single crop around the barn."""
    counts: dict[str, int] = {}
    for n in NEIGHBOURS[cell]:
        crop = p["crop"][n]
        if crop is not None:
            counts[crop] = counts.get(crop, 0) + 1
    return BARN_VP_PER_HEX * max(counts.values(), default=0)


def crop_area(p: dict, cell: int) -> int:
    """Size of the connected group of hexes showing the same crop as `cell`."""
    crop = p["crop"][cell]
    if crop is None:
        return 0
    seen = {cell}
    stack = [cell]
    while stack:
        c = stack.pop()
        for n in NEIGHBOURS[c]:
            if n not in seen and p["crop"][n] == crop:
                seen.add(n)
                stack.append(n)
    return len(seen)


def well_score(p: dict, cell: int) -> int:
    """seed-R phase 5: 1 VP per hex of the contiguous group of the well's crop, well hex included."""
    return WELL_VP_PER_HEX * crop_area(p, cell)


def largest_area(p: dict) -> int:
    return max((crop_area(p, c) for c in range(CELLS) if p["crop"][c] is not None), default=0)


def complete_fields(p: dict) -> list[str]:
    """Field colours whose every hex is covered by crop hexes and/or barns (seed-R final scoring)."""
    cols = COLOUR[p["mat"]]
    done = []
    for colour in FIELD_COLOURS.values():
        cells = [c for c in range(CELLS) if cols[c] == colour]
        if all(p["crop"][c] is not None or p["feature"][c] == "barn" for c in cells):
            done.append(colour)
    return done


def barn_cells(p: dict) -> list[int]:
    """Where a barn may go: an empty field space (seed-R, estate features)."""
    return empty_fields(p)


def well_cells(p: dict) -> list[int]:
    """Where a well may go: a crop hex (worker or not) of a crop that has no well yet, and not
    already holding a well (seed-R: at most one well per crop)."""
    with_well = {p["crop"][c] for c in range(CELLS) if p["feature"][c] == "well"}
    return [c for c in range(CELLS) if p["crop"][c] is not None and p["feature"][c] is None
            and p["crop"][c] not in with_well]
