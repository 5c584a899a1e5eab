"""Map queries on a game state: occupancy, connections (roads and the player's own
bridges/gates, never through buildings), adjacency and placement tests.

`state["occ"][cell]`: -1 empty, -2 road, otherwise the index of the tile in `state["tiles"]`.
"""

from __future__ import annotations

from .data import Board, edition

EMPTY, ROAD = -1, -2


def board_of(state) -> Board:
    """The map of the game's side in the game's edition (version 5 has its own maps)."""
    return edition(state).BOARDS[state["map"]]


# Connection networks by content: (map, road and own-bridge squares) -> (comp, fringe). A pure
# function of its key, so safe across games and states; bounded (oldest dropped first).
_NET_CACHE: dict[tuple, tuple[list[int], list[frozenset[int]]]] = {}
_NET_CACHE_SIZE = 256


def _components(b: Board, conducting: tuple[int, ...]) -> tuple[list[int], list[frozenset[int]]]:
    comp = [-1] * b.size
    fringe: list[frozenset[int]] = []
    inside = set(conducting)
    adj = b.adj
    for start in conducting:
        if comp[start] >= 0:
            continue
        k = len(fringe)
        f: set[int] = set()
        comp[start] = k
        stack = [start]
        while stack:
            a = stack.pop()
            for n in adj[a]:
                f.add(n)
                if comp[n] < 0 and n in inside:
                    comp[n] = k
                    stack.append(n)
        fringe.append(frozenset(f))
    return comp, fringe


class Net:
    """The connection network of one seat: road squares plus that seat's bridges/gates
    (seed-FoG p. 13: a bridge acts as a road only for the player who built it; p. 20:
    connections count through roads and bridges/gates only, never through buildings).
    Built once per distinct set of conducting squares (`_NET_CACHE`)."""

    __slots__ = ("comp", "fringe", "board", "state", "seat", "_tiles")

    def __init__(self, state, seat: int | None) -> None:
        b = board_of(state)
        occ, tiles = state["occ"], state["tiles"]
        self.board, self.state, self.seat = b, state, seat
        bridges = tuple(t["cells"][0] for t in tiles if t["kind"] == "bridge" and t["owner"] == seat)
        key = (b.name, tuple(occ), bridges)
        got = _NET_CACHE.get(key)
        if got is None:
            # the same roads under another placement of tiles: the same network
            roads = tuple(i for i, v in enumerate(occ) if v == ROAD)
            key2 = (b.name, roads, bridges)
            got = _NET_CACHE.get(key2)
            if got is None:
                got = _components(b, tuple(sorted(roads + bridges)) if bridges else roads)
            while len(_NET_CACHE) >= _NET_CACHE_SIZE:
                del _NET_CACHE[next(iter(_NET_CACHE))]
            _NET_CACHE[key] = _NET_CACHE[key2] = got
        self.comp, self.fringe = got
        self._tiles: dict[int, set[int]] = {}

    def tile_touch(self, i: int) -> set[int]:
        """`touch` of tile `i` (memoised for this network; do not mutate the result)."""
        got = self._tiles.get(i)
        if got is None:
            got = self._tiles[i] = self.touch(self.state["tiles"][i]["cells"])
        return got

    def comps_of_cells(self, cells) -> set[int]:
        comp, adj = self.comp, self.board.adj
        out = {comp[c] for c in cells if comp[c] >= 0}
        for c in cells:
            for n in adj[c]:
                if comp[n] >= 0:
                    out.add(comp[n])
        return out

    def touch(self, cells) -> set[int]:
        """Squares from which a new tile or road would be connected to the tile on `cells`:
        those next to it, and those next to a road network (with own bridges) touching it."""
        adj = self.board.adj
        out: set[int] = set()
        for c in cells:
            out.update(adj[c])
        for k in self.comps_of_cells(cells):
            out |= self.fringe[k]
        return out

    def connected(self, cells_a, cells_b) -> bool:
        adj = self.board.adj
        sb = set(cells_b)
        for c in cells_a:
            for n in adj[c]:
                if n in sb:
                    return True
        return bool(self.comps_of_cells(cells_a) & self.comps_of_cells(cells_b))

    def owned_touch(self) -> set[int]:
        """Squares connected to something the seat owns (resource buildings, houses, bridges/gates)."""
        cells = [c for t in self.state["tiles"] if t["owner"] == self.seat and t["kind"] != "prestige"
                 for c in t["cells"]]
        return self.touch(cells)


def adjacent_to_own(state, seat: int, cells) -> bool:
    """Would a tile on `cells` touch another building the seat owns? Bridges/gates excepted (p. 13, p. 20)."""
    b = board_of(state)
    occ, tiles = state["occ"], state["tiles"]
    inside = set(cells)
    for c in cells:
        for n in b.adj[c]:
            if n in inside:
                continue
            t = occ[n]
            if t >= 0:
                tile = tiles[t]
                if tile["owner"] == seat and tile["kind"] != "bridge" and tile["kind"] != "prestige":
                    return True
    return False


def free(state, cells) -> bool:
    b = board_of(state)
    occ = state["occ"]
    return all(b.land[c] and occ[c] == EMPTY for c in cells)


def section_has(state, section: int, resource: str) -> bool:
    """One tile of each resource per city section (seed-FoG pp. 12-13, p. 20)."""
    return any(t["res"] == resource and t["section"] == section and t["kind"] in ("stall", "t2", "t3")
               for t in state["tiles"])
