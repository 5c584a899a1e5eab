"""Map queries on a game state: occupancy, connections (roads and the player's own
bridges/gates, never through buildings), adjacency and placement tests.

`state["occ"][cell]`: -1 empty, -2 road, otherwise the index of the tile in `state["tiles"]`.
"""

from __future__ import annotations

from .data import BOARDS, Board

EMPTY, ROAD = -1, -2


def board_of(state) -> Board:
    return BOARDS[state["map"]]


class Net:
    """The connection network of one seat: road squares plus that seat's bridges/gates
    (seed-FoG p. 13: a bridge acts as a road only for the player who built it; p. 20:
    connections count through roads and bridges/gates only, never through buildings)."""

    __slots__ = ("comp", "fringe", "board", "state", "seat")

    def __init__(self, state, seat: int | None) -> None:
        b = board_of(state)
        occ, tiles = state["occ"], state["tiles"]
        self.board, self.state, self.seat = b, state, seat
        comp = [-1] * b.size
        fringe: list[set[int]] = []
        own_bridges = {i for i, t in enumerate(tiles) if t["kind"] == "bridge" and t["owner"] == seat}
        conducting = [c for c, t in enumerate(occ) if t == ROAD or (t >= 0 and t in own_bridges)]
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
            fringe.append(f)
        self.comp, self.fringe = comp, fringe

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
