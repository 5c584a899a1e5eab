"""Founders of Gloomhaven: every table the engine reads, loaded from `edition.json`.

The values the rulebook pages 11-20 and the facts file give are used as given; all
others are OUR EDITION (RULES.md), kept in `edition.json` so that the printed values
can replace them without touching code. This module only derives lookup tables
(map geometry, tile footprints) from that file.
"""

from __future__ import annotations

import json
from pathlib import Path

EDITION = json.loads((Path(__file__).with_name("edition.json")).read_text())


def _merged(base: dict, over: dict) -> dict:
    """`base` with `over` laid on top: dictionaries merge key by key, any other value replaces."""
    out = dict(base)
    for k, v in over.items():
        out[k] = _merged(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


# Engine version 5 plays a revised edition: `edition5.json` holds only what changed (RULES.md,
# "Our edition", v5); games started under versions 1-4 keep `edition.json` as it was.
EDITION_V5 = _merged(EDITION, json.loads((Path(__file__).with_name("edition5.json")).read_text()))

BASIC: list[str] = EDITION["basic"]
ADVANCED: dict[str, dict] = EDITION["advanced"]
RESOURCES: list[str] = BASIC + list(ADVANCED)
TIER = {**{r: 1 for r in BASIC}, **{r: a["tier"] for r, a in ADVANCED.items()}}
RACES: dict[str, dict] = EDITION["races"]
ADVISERS: dict[str, dict] = EDITION["advisers"]
PRESTIGE: dict[str, dict] = EDITION["prestige"]
ACHIEVEMENTS: dict[str, dict] = EDITION["achievements"]
# Shaping history (p. 19): the Gloomhaven city event card of each race (names ours)
EVENT_CARDS: dict[str, str] = {r: name for r, name in EDITION["event_cards"].items() if r != "_about"}
OFFER_COSTS: list[int] = EDITION["offer_costs"]
START_MONEY: int = EDITION["start_money"]
UPGRADE_COST = {int(k): v for k, v in EDITION["upgrade_cost"].items()}
SUPPLY = {r: EDITION["tile_supply"]["basic" if TIER[r] == 1 else f"tier{TIER[r]}"] for r in RESOURCES}
MAX_HOUSES: int = EDITION["max_houses"]
MAX_BRIDGES: int = EDITION["max_bridges"]
ROAD_SUPPLY: int = EDITION["road_supply"]
COMPLETIONS_TO_END: int = EDITION["completions_to_end"]

STANDARD_CARDS = ("recruit", "trade", "upgrade", "build")
CATEGORIES = STANDARD_CARDS
CARDS = (*STANDARD_CARDS, "vote", "income", *ADVISERS)
EFFECT_KINDS = ("money", "fleeting", "lasting", "roads", "points")

# Trade costs by terrain colour (seed-FoG p. 12): red 1/2, white +1, grey or green +2; neutral 4.
COLOUR_EXTRA = {"red": 0, "white": 1, "grey": 2, "green": 2}
NEUTRAL_TRADE_COST = 4
HOUSE_COST, BRIDGE_COST, LEAD_DISCOUNT, NO_WORKERS_HOUSE_COST = 4, 4, 1, 2

_COLOURS = {"R": "red", "W": "white", "g": "grey", "G": "green", "~": "river", "#": "wall"}


def _orientations(shape: list[list[int]]) -> list[tuple[tuple[int, int], ...]]:
    out = []
    cells = [tuple(c) for c in shape]
    for _ in range(4):
        mx, my = min(x for x, _ in cells), min(y for _, y in cells)
        norm = tuple(sorted((x - mx, y - my) for x, y in cells))
        if norm not in out:
            out.append(norm)
        cells = [(-y, x) for x, y in cells]  # rotate a quarter turn
    return out


SHAPES = {name: _orientations(s) for name, s in EDITION["shapes"].items()}


def prestige_type(card: str) -> str:
    """Two prestige buildings are of the same type when shape and colour match (seed-FoG p. 16).
    (Shapes and colours are the same in every edition: the start draws proposals with them.)"""
    p = PRESTIGE[card]
    return f"{p['shape']}-{p['colour']}"


class Board:
    """One side of the map: the grid, colours, sections, numbered spaces and reserved spots."""

    def __init__(self, name: str, spec: dict, label: str | None  =  None) -> None:
        rows = spec["rows"]
        self.name = label or name  # unique per distinct map (cache keys); `side` is the option's name
        self.side = name
        self.h, self.w = len(rows), len(rows[0])
        self.size = self.w * self.h
        self.colour: list[str] = []
        self.numbered: dict[int, int] = {}
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                c = y * self.w + x
                if ch.isdigit():
                    self.colour.append("grey")
                    self.numbered[c] = int(ch)
                else:
                    self.colour.append(_COLOURS[ch])
        self._adjacency()
        self._sections(name, spec)
        self._spots(spec)
        self._footprints()
        self._spaces()

    def _adjacency(self) -> None:
        self.adj: list[tuple[int, ...]] = []
        for c in range(self.size):
            x, y = c % self.w, c // self.w
            self.adj.append(tuple(
                (y + dy) * self.w + x + dx
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= x + dx < self.w and 0 <= y + dy < self.h
            ))
        self.crossing = [col in ("river", "wall") for col in self.colour]

    def _sections(self, name: str, spec: dict) -> None:
        # Sections: the land split by the river and the wall, named left to right.
        section: list[int | None] = [None] * self.size
        groups: list[list[int]] = []
        for c in range(self.size):
            if self.crossing[c] or section[c] is not None:
                continue
            stack, members = [c], []
            section[c] = -1
            while stack:
                a = stack.pop()
                members.append(a)
                for b in self.adj[a]:
                    if not self.crossing[b] and section[b] is None:
                        section[b] = -1
                        stack.append(b)
            groups.append(members)
        groups.sort(key=lambda m: min(c % self.w for c in m))
        self.sections: list[str] = spec["sections"]
        self.section_names: dict[str, str] = spec["section_names"]
        assert len(groups) == len(self.sections), f"map {name}: {len(groups)} sections"
        for i, members in enumerate(groups):
            for c in members:
                section[c] = i
        self.section = section

    def _spots(self, spec: dict) -> None:
        self.spots: dict[str, list[tuple[int, ...]]] = {
            k: [tuple(sorted(y * self.w + x for x, y in spot)) for spot in spots] for k, spots in spec["spots"].items()
        }
        self.reserved = [False] * self.size
        for spots in self.spots.values():
            for spot in spots:
                for c in spot:
                    self.reserved[c] = True
        # Land where tiles and roads may go: not river/wall, not a reserved prestige spot.
        self.land = [not self.crossing[c] and not self.reserved[c] for c in range(self.size)]
        self.land_cells = tuple(c for c in range(self.size) if self.land[c])

    def _footprints(self) -> None:
        self.footprints: dict[str, list[tuple[int, ...]]] = {}
        for shape, orients in SHAPES.items():
            fps = []
            for o in orients:
                for y in range(self.h):
                    for x in range(self.w):
                        cells = []
                        for dx, dy in o:
                            if not (0 <= x + dx < self.w and 0 <= y + dy < self.h):
                                break
                            cells.append((y + dy) * self.w + x + dx)
                        else:
                            if all(self.land[c] for c in cells):
                                fps.append(tuple(sorted(cells)))
            self.footprints[shape] = sorted(set(fps))
        self.footprint_set = {s: set(f) for s, f in self.footprints.items()}
        self.footprints_at: dict[str, list[list[tuple[int, ...]]]] = {}
        for shape, fps in self.footprints.items():
            at: list[list[tuple[int, ...]]] = [[] for _ in range(self.size)]
            for fp in fps:
                for c in fp:
                    at[c].append(fp)
            self.footprints_at[shape] = at
        # the same by footprint number (index in self.footprints[shape]), for set algebra
        self.footprint_ids_at: dict[str, list[frozenset[int]]] = {}
        for shape, fps in self.footprints.items():
            ids: list[set[int]] = [set() for _ in range(self.size)]
            for i, fp in enumerate(fps):
                for c in fp:
                    ids[c].add(i)
            self.footprint_ids_at[shape] = [frozenset(x) for x in ids]
        # the squares around each footprint (adjacent to it, not in it), by footprint number
        self.footprint_rings: dict[str, list[tuple[int, ...]]] = {
            shape: [tuple(sorted({n for c in fp for n in self.adj[c]} - set(fp))) for fp in fps]
            for shape, fps in self.footprints.items()}

    def _spaces(self) -> None:
        self.number_cell = {k: c for c, k in self.numbered.items()}  # (numbers unique on the thematic side)
        # each numbered space as (section, number, rank among those of its section and number, by
        # square): how a square of one edition's map names the same space on another's
        self.space_key: dict[int, tuple[int, int, int]] = {}
        for c in sorted(self.numbered, key=lambda c: (self.section[c], self.numbered[c], c)):
            k = (self.section[c], self.numbered[c])
            self.space_key[c] = (*k, sum(1 for x in self.space_key.values() if x[:2] == k))
        self.space_cell = {k: c for c, k in self.space_key.items()}
        self.numbered_by_section: dict[int, list[int]] = {}
        for c in sorted(self.numbered, key=lambda c: (self.numbered[c], c)):
            self.numbered_by_section.setdefault(self.section[c], []).append(c)


BOARDS = {name: Board(name, spec) for name, spec in EDITION["maps"].items()}


class Edition:
    """The tables a game reads that differ between editions (version 5: `edition5.json`)."""

    def __init__(self, version: int, spec: dict) -> None:
        self.version = version
        self.PRESTIGE: dict[str, dict] = spec["prestige"]
        self.BOARDS = {name: BOARDS[name] if m == EDITION["maps"].get(name) else Board(name, m, f"{name}@v{version}")
                       for name, m in spec["maps"].items()}
        for card, p in self.PRESTIGE.items():  # the start draws proposals by type for every version
            assert prestige_type(card) == f"{p['shape']}-{p['colour']}", f"{card}: a prestige type changed"


EDITIONS = {1: Edition(1, EDITION), 5: Edition(5, EDITION_V5)}


def edition_of_version(version: int) -> Edition:
    """Versions 1-4 play `edition.json`; 5 and later `edition5.json` laid over it."""
    return EDITIONS[5] if version >= 5 else EDITIONS[1]


def edition(state) -> Edition:
    return EDITIONS[5] if state.get("version", 1) >= 5 else EDITIONS[1]
