"""The solo player (seed-FoG pp. 17-18; test kit, bots, bench; not rules): the choices of the
random player in a solo game (`weighted_choice`, which falls back on the general weighting of
`play.py`). The hard bot's cycle planner (`planner.py`) chooses among its play-outs.
"""

from __future__ import annotations

from .board import EMPTY, Net, adjacent_to_own, board_of
from .common import _card_category
from .data import ADVANCED, ADVISERS, COLOUR_EXTRA, TIER, UPGRADE_COST, edition
from .phases import _claims_cost
from .play import (
    _BIG,
    _TILES,
    STANDARD,
    _best_road,
    _building_cells,
    _cost_from,
    _deliverable,
    _distance_from,
    _house_or_good_bridge,
    _needs,
    _pick_cells,
    _place_spot,
    _wanted,
)
from .play import weighted_choice as _general_choice
from .trade import _lead_disc
from .upgrade import _upgrade_sites
from .vote import _solo_cost

# --- solo (seed-FoG pp. 17-18): one road network ("spine") that every tile and building touches -----
# In solo the player owns every tile, and its own tiles may not touch (p. 13), so tiles meet
# only through roads. The bot builds one road network, imports onto its edge, upgrades beside
# it and places each new building against it: whatever touches the network reaches every
# building that touches it. Not rules: a planning habit a careful solo player has.

def _solo_spine(s) -> tuple[set[int], set[int]]:
    """(road squares of the network touching the most prestige buildings, or the longest;
    the squares connected to it)."""
    net = Net(s, 0)
    comp = net.comp
    b = board_of(s)
    roads = [c for c in range(b.size) if comp[c] >= 0]
    if not roads:
        return set(), set()
    sizes: dict[int, int] = {}
    for c in roads:
        sizes[comp[c]] = sizes.get(comp[c], 0) + 1
    tiles = s["tiles"]
    hits: dict[int, int] = {}
    for pb in s["prestige"]:
        for k in net.comps_of_cells(tiles[pb["tile"]]["cells"]):
            hits[k] = hits.get(k, 0) + (0 if pb["complete"] else 10)
    best = max(sizes, key=lambda k: (hits.get(k, 0) + sizes[k], -k))
    return {c for c in roads if comp[c] == best}, set(net.fringe[best])


def _solo_open_touch(s, claimed: bool  =  False) -> dict[int, set[str]]:
    """Square -> the needed resources a tile there would deliver at once (it touches an
    incomplete building needing them, directly or through the network); `claimed`: only the
    buildings holding a neutral claim token."""
    net = Net(s, 0)
    tiles = s["tiles"]
    out: dict[int, set[str]] = {}
    spec = edition(s).PRESTIGE
    for pb in s["prestige"]:
        if pb["complete"] or (claimed and not pb["claim"]):
            continue
        missing = {r for r, d in zip(spec[pb["card"]]["requires"], pb["delivered"], strict=True) if d is None}
        for c in net.touch(tiles[pb["tile"]]["cells"]):
            out.setdefault(c, set()).update(missing)
    return out


def _import_now(s, res, touch) -> bool:
    """Could `res` be imported now on a square where it is delivered at once? (The squares of
    `touch` only, checked as `engine._import_cells` checks a square.)"""
    cells = [c for c, rs in touch.items() if res in rs]
    if not cells or s["supply"][res] <= 0:
        return False
    b = board_of(s)
    occ, money, disc = s["occ"], s["players"][0]["money"], _lead_disc(s)
    blocked = {t["section"] for t in s["tiles"] if t["res"] == res and t["kind"] in _TILES}
    return any(b.land[c] and occ[c] == EMPTY and b.section[c] not in blocked
               and money >= max(0, 1 + COLOUR_EXTRA[b.colour[c]] - disc) and not adjacent_to_own(s, 0, [c])
               for c in cells)


def _solo_cell(s, res, actions, key, rng):
    """A tile of `res`: delivering at once if possible, else on the spine, else nearest."""
    touch = _solo_open_touch(s)
    now = [a for a in actions if any(res in touch.get(c, ()) for c in key(a))]
    _, edge = _solo_spine(s)
    on = [a for a in actions if edge.intersection(key(a))]
    b = board_of(s)
    occ = s["occ"]

    def room(a):  # free land around the tile: the less, the more room it leaves for upgrade sites
        cells = set(key(a))
        return sum(1 for c in cells for n in b.adj[c] if n not in cells and b.land[n] and occ[n] == EMPTY)
    for group in ([a for a in now if a in on], now, on):
        if group:
            low = min(room(a) for a in group)
            return rng.choice([a for a in group if room(a) == low])
    return _pick_cells(s, res, actions, key, rng) or rng.choice(actions)


def _site_road(s, roads):
    """When an advanced resource is needed, its prerequisites exist and no upgrade site is open:
    the road that brings the prerequisites' networks closest to the free footprint needing the
    fewest roads (a site: free, touching no own tile, in a section without that resource)."""
    hand = s["players"][0]["hand"]
    if "upgrade" not in hand and not any(ADVISERS.get(c, {}).get("category") == "upgrade" for c in hand):
        return None  # no upgrade left this cycle: the road goes to the spine
    needs = _solo_needs(s)
    adv = [r for r in _wanted(needs) if r in ADVANCED and s["supply"][r] > 0]
    if not adv:
        return None
    sites = _upgrade_sites(s, 0)
    if any(sites.get(r) for r in adv):
        return None
    b = board_of(s)
    occ, tiles = s["occ"], s["tiles"]
    mine = [False] * b.size
    for t in tiles:
        if t["owner"] == 0 and t["kind"] != "bridge" and t["kind"] != "prestige":
            for c in t["cells"]:
                mine[c] = True
    best = None
    for res in sorted(adv, key=lambda r: (r not in needs, r)):
        spec = ADVANCED[res]
        prereq_cells = {}
        for p in spec["prereqs"]:
            cells = [c for t in tiles if t["res"] == p and t["kind"] in _TILES for c in t["cells"]]
            if not cells:
                break
            prereq_cells[p] = cells
        else:
            taken = {t["section"] for t in tiles if t["res"] == res and t["kind"] in _TILES}
            dists = [_cost_from(s, 0, cells) for cells in prereq_cells.values()]
            rings = b.footprint_rings[spec["shape"]]
            for i, fp in enumerate(b.footprints[spec["shape"]]):
                if b.section[fp[0]] in taken or any(occ[c] != EMPTY for c in fp):
                    continue
                ring = rings[i]
                if any(mine[n] for n in ring):
                    continue
                gaps = [min(map(d.__getitem__, ring)) for d in dists]
                total = sum(gaps)
                if total < _BIG and (best is None or total < best[0]):
                    best = (total, ring, [d for d, g in zip(dists, gaps, strict=True) if g > 0])
            if best is not None:
                break
    if best is None or not best[2]:
        return None
    _, ring, open_dists = best
    to_site = _cost_from(s, 0, sorted(ring))
    scored = [(open_dists[0][a["cell"]] + to_site[a["cell"]], a) for a in roads
              if open_dists[0][a["cell"]] <= 1 and to_site[a["cell"]] < _BIG]
    if not scored:
        return None
    low = min(x for x, _ in scored)
    return next(a for x, a in scored if x == low)


def _solo_road(s, roads, rng):
    """A road that brings a needed tile to its building, else one that opens an upgrade site,
    else one that grows the spine toward the incomplete buildings (or through open land)."""
    pick = _best_road(s, 0, roads, rng, scarce=True)
    if pick is not None:
        return pick
    pick = _site_road(s, roads)
    if pick is not None:
        return pick
    b = board_of(s)
    occ = s["occ"]
    spine, _ = _solo_spine(s)
    open_ = [b.land[c] and occ[c] == EMPTY for c in range(b.size)]
    targets = _building_cells(s, [i for i, pb in enumerate(s["prestige"]) if not pb["complete"]])
    dist = _distance_from(s, targets) if targets else None

    def score(a):
        c = a["cell"]
        joins = any(n in spine for n in b.adj[c]) or not spine
        room = sum(1 for n in b.adj[c] if open_[n])
        return (joins, -(dist[c] if dist else 0), room)
    best = max(score(a) for a in roads)
    return rng.choice([a for a in roads if score(a) == best])


def _solo_choice(engine, s, actions, rng):
    """The solo player's choices (None: the general weighting decides)."""
    types = {a["type"] for a in actions}
    if "play_card" in types:
        return _solo_card(s, actions, rng)
    recruits = [a for a in actions if a["type"] == "recruit"]
    if recruits:  # Trade and Upgrade advisers first (one more import or upgrade), then lasting influence
        def rank(a):
            adv = ADVISERS[s["offer"][a["slot"]]]
            return ({"trade": 0, "upgrade": 1}.get(adv["category"], 2), -adv["value"], a["slot"])
        return min(recruits, key=rank)
    if "choose_proposal" in types:
        return _solo_proposal(s, actions, rng)
    if "build" in types:
        houses = [a for a in actions if a["type"] == "build" and a["kind"] == "house"]
        if houses:
            return rng.choice(houses)
    if "place_stall" in types:
        return _solo_cell(s, s["cur"]["stall"]["resource"], actions, lambda a: [a["cell"]], rng)
    if "place_prestige" in types:  # most delivered at once, then against the spine
        touches, (_, edge) = _deliverable(s, s["vote"]["card"]), _solo_spine(s)
        keys = [(sum(1 for t in touches if not t.isdisjoint(a["cells"])), not edge.isdisjoint(a["cells"]))
                for a in actions]
        best = max(keys)
        return _place_spot(s, [a for a, k in zip(actions, keys, strict=True) if k == best], rng)
    found = _solo_upgrade_or_import(s, actions, rng)
    if found is not None:
        return found
    return _solo_basic(s, actions, types, rng)


def _solo_card(s, actions, rng):
    """Which card the solo player plays."""
    # the standard Upgrade and Trade cards face up; Recruit face up (an adviser kept in hand
    # is one more card, so one more basic action, every cycle); a house when money allows;
    # an adviser face up only for an upgrade (face up it leaves the game, p. 18); else a
    # basic action (roads for the spine, influence for the claims)
    up = [a for a in actions if a.get("face_up")]
    std = [a for a in up if a["card"] in STANDARD]
    money = s["players"][0]["money"]
    for cat in ("upgrade", "trade"):
        pick = [a for a in std if a["card"] == cat]
        if pick:
            return pick[0]
    if money >= 2 and any(a["card"] == "recruit" for a in std):
        return {"type": "play_card", "card": "recruit", "face_up": True}
    if money >= 5 and any(a["card"] == "build" for a in std) and _house_or_good_bridge(s, 0, rng):
        return {"type": "play_card", "card": "build", "face_up": True}
    needs = _solo_needs(s)
    adv = [a for a in up if a["card"] not in STANDARD and _card_category(a["card"]) == "upgrade"]
    if adv and any(r in ADVANCED for r in needs):
        return rng.choice(adv)
    adv = [a for a in up if a["card"] not in STANDARD and _card_category(a["card"]) == "trade"]
    have = {t["res"] for t in s["tiles"] if t["kind"] in _TILES}
    if adv and any(r not in ADVANCED and (r in needs or r not in have) for r in _wanted(needs)):
        return rng.choice(adv)
    down = [a for a in actions if a["type"] == "play_card" and not a["face_up"]]
    # the Upgrade card last: the roads before it may open a site
    later = [a for a in down if a["card"] != "upgrade"]
    return rng.choice(later or down or actions)


def _requirement_work(s, slot) -> int:
    """The work a proposal slot's requirements ask: advanced resources above all."""
    have = {t["res"] for t in s["tiles"] if t["kind"] in _TILES}
    w = 0
    for r in edition(s).PRESTIGE[s["proposals"][slot]]["requires"]:
        if r in ADVANCED:
            w += (3 if r in have else 4) if TIER[r] == 2 else (6 if r in have else 10)
        else:
            w += 0 if r in have else 1
    return w


def _proposal_work(s, slot) -> int:
    """The work a proposal slot asks (`_solo_proposal`): its requirements and the lasting
    influence the slot takes."""
    lasting = max(0, _solo_cost(s, slot) - s["players"][0]["fleeting"] + 1) // 2
    return _requirement_work(s, slot) + 2 * lasting


def _solo_proposal(s, actions, rng):
    """Which proposal the solo player chooses."""
    # the building needing the least work (advanced resources above all); fleeting influence
    # left after the claims is lost at the vote anyway, so a paid slot costs only the
    # lasting influence it takes
    works = [_proposal_work(s, a["proposal"]) for a in actions]
    best = min(works)
    return rng.choice([a for a, w in zip(actions, works, strict=True) if w == best])


def _solo_needs(s) -> dict[str, list[int]]:
    """`_needs`; while no building on the board needs anything (the first cycle above all), the
    requirements of the proposal the next vote will likely place (the least work among the
    slots the influence held now pays; no building index): the cycle's Trade and Upgrade then
    make what that building asks, instead of any resource (bench/bots_results.md, twelfth pass)."""
    needs = _needs(s)
    if needs or not s["proposals"]:
        return needs
    pl = s["players"][0]
    slots = [i for i in range(len(s["proposals"])) if _solo_cost(s, i) <= pl["fleeting"] + 2 * pl["lasting"]]
    slot = min(slots, key=lambda i: (_proposal_work(s, i), i))
    for r in edition(s).PRESTIGE[s["proposals"][slot]]["requires"]:
        needs.setdefault(r, [])
    return needs


def _solo_upgrade_or_import(s, actions, rng):
    """An upgrade or an import the solo player needs (None: none of them)."""
    ups = [a for a in actions if a["type"] == "upgrade"]
    if ups:
        needs = _solo_needs(s)
        for group in ([a for a in ups if a["resource"] in needs], [a for a in ups if a["resource"] in _wanted(needs)]):
            if group:
                res = rng.choice(sorted({a["resource"] for a in group}))
                return _solo_cell(s, res, [a for a in group if a["resource"] == res], lambda a: a["cells"], rng)
    imports = [a for a in actions if a["type"] == "import"]
    if imports:
        needs = _solo_needs(s)
        wanted = _wanted(needs)
        have = {t["res"] for t in s["tiles"] if t["kind"] in _TILES}
        touch = _solo_open_touch(s)
        now = [a for a in imports if a["resource"] in needs and _import_now(s, a["resource"], touch)]
        claimed = _solo_open_touch(s, claimed=True)
        # a delivery that takes a claim token off first, then a missing prerequisite of a needed
        # advanced resource (without it that building waits for good), then any delivery
        now_claim = [a for a in now if _import_now(s, a["resource"], claimed)]
        prereq = [a for a in imports if a["resource"] in wanted and a["resource"] not in needs
                  and a["resource"] not in have]
        for group in (now_claim, prereq, now, [a for a in imports if a["resource"] in needs and a["resource"] not in have],
                      [a for a in imports if a["resource"] in needs],
                      [a for a in imports if a["resource"] in wanted and a["resource"] not in have],
                      [a for a in imports if a["resource"] in wanted]):
            if group:
                return rng.choice(group)
    return None


def _upgrade_short(s) -> bool:
    """Is an upgrade still to be played this cycle (the Upgrade card or an Upgrade adviser in
    hand) for a needed advanced resource that has a site now, but too little money for it?"""
    hand = s["players"][0]["hand"]
    if "upgrade" not in hand and not any(ADVISERS.get(c, {}).get("category") == "upgrade" for c in hand):
        return False
    money = s["players"][0]["money"]
    sites = _upgrade_sites(s, 0)
    return any(sites.get(r) and s["supply"][r] > 0 and money < UPGRADE_COST[TIER[r]]
               for r in _wanted(_solo_needs(s)) if r in ADVANCED)


PROPOSAL_GAP = 6  # work (`_requirement_work`) a better proposal must save to be worth influence


def _proposal_short(s, short, left) -> bool:
    """Would the influence the cycle's basic actions can still take (this one too) let the next
    vote choose a proposal needing far less work than the ones the influence held pays for?
    (`short`: the claims' cost less the influence the vote will find.)"""
    if not s["proposals"]:
        return False
    spare = -short  # influence left for the proposal once the claims are paid
    if spare < 0:
        return False
    works = [_requirement_work(s, i) for i in range(len(s["proposals"]))]
    now = min(w for i, w in enumerate(works) if _solo_cost(s, i) <= spare)
    reach = min(w for i, w in enumerate(works) if _solo_cost(s, i) <= spare + left + 1)
    return reach <= now - PROPOSAL_GAP


def _solo_basic(s, actions, types, rng):
    """Influence, roads, money: what is left (None: the general weighting decides)."""
    pl = s["players"][0]
    if "take_influence" in types:
        # the plain influence action only when the cycle's basic actions can still cover the
        # next vote's claim tokens (its income counts: 1 fleeting a house); a shortfall beyond
        # that is lost influence, while a road may bring the delivery that takes a token off
        claims = sum(1 for pb in s["prestige"] if pb["claim"])  # the tokens the next vote asks for
        short = _claims_cost(s, claims) - (pl["fleeting"] + pl["houses"] + 2 * pl["lasting"])
        left = sum(1 for c in pl["hand"] if c != "vote")  # basic actions at most, after this one
        if 0 < short <= left + 1:
            return {"type": "take_influence"}
        if _proposal_short(s, short, left):
            return {"type": "take_influence"}
    if "take_money" in types and _upgrade_short(s):
        return {"type": "take_money"}
    roads = [a for a in actions if a["type"] == "road"]
    if roads and s["roads_left"] > 0:
        return _solo_road(s, roads, rng)
    if "skip_roads" in types:
        return {"type": "skip_roads"}
    if "take_money" in types and pl["money"] < 6:
        return {"type": "take_money"}
    return None


def weighted_choice(engine, s, seat, actions, rng):
    """The random player's choice: the solo player's in a solo game (v5 on), else (or when it
    leaves the choice open) the general weighting."""
    if s["solo"] and edition(s).version >= 5:
        pick = _solo_choice(engine, s, actions, rng)
        if pick is not None:
            return pick
    return _general_choice(engine, s, seat, actions, rng)
