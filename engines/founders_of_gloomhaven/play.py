"""The random player's weighting (test kit, bots, bench): uniform play rarely connects
resources to prestige buildings, so choices aim at deliveries. Not part of the rules.

What it aims at (in this order): a resource tile (import or upgrade) placed right next to a
prestige building that still needs it (touching tiles are connected, seed-FoG p. 20, so the
delivery is immediate); otherwise a tile of a needed resource as close as possible to such a
building; the advanced resources needed by placed buildings and their prerequisites; roads
from its own network toward buildings that need what it owns; votes and placements for
buildings whose resources exist. It keeps some randomness so games differ.
"""

from __future__ import annotations

from .board import EMPTY, ROAD, Net, board_of
from .build import _build_options, _road_cells
from .common import _card_category
from .data import ADVANCED, TIER, edition
from .phases import _claims_cost

STANDARD = ("recruit", "trade", "upgrade", "build")
_MAIN = {"recruit", "import", "access", "import_access", "upgrade", "build"}
_TILES = ("stall", "t2", "t3")
_BIG = 10**6


def _needs(s) -> dict[str, list[int]]:
    """resource -> the prestige buildings (indices) still needing it."""
    out: dict[str, list[int]] = {}
    for bi, pb in enumerate(s["prestige"]):
        if pb["complete"]:
            continue
        for ri, res in enumerate(edition(s).PRESTIGE[pb["card"]]["requires"]):
            if pb["delivered"][ri] is None:
                out.setdefault(res, []).append(bi)
    return out


def _wanted(needs) -> set[str]:
    """Needed resources and, recursively, the prerequisites of needed advanced ones."""
    out = set(needs)
    todo = [r for r in needs if r in ADVANCED]
    while todo:
        for p in ADVANCED[todo.pop()]["prereqs"]:
            if p not in out:
                out.add(p)
                if p in ADVANCED:
                    todo.append(p)
    return out


def _building_cells(s, bis) -> list[int]:
    tiles = s["tiles"]
    return [c for bi in bis for c in tiles[s["prestige"][bi]["tile"]]["cells"]]


def _distance_from(s, cells) -> list[int]:
    """Steps from each square to `cells` through free land, roads and river/wall squares."""
    b = board_of(s)
    dist = [_BIG] * b.size
    frontier = list(cells)
    for c in frontier:
        dist[c] = 0
    occ = s["occ"]
    while frontier:
        nxt = []
        for a in frontier:
            for n in b.adj[a]:
                if dist[n] == _BIG and (occ[n] in (EMPTY, -2) or b.crossing[n]):
                    dist[n] = dist[a] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _pick_cells(s, res, options, key, rng):
    """Among actions carrying squares (`key` gives them), the ones nearest to a building needing `res`."""
    needs = _needs(s)
    if res not in needs:
        return None
    dist = _distance_from(s, _building_cells(s, needs[res]))

    def d(a):
        return min(dist[c] for c in key(a))
    best = min(d(a) for a in options)
    if best >= _BIG:
        return None
    return rng.choice([a for a in options if d(a) == best])


# _cost_from by content: (map, squares, the seat's bridges, crossing cost, target squares) -> the
# distances. A pure function of its key, so safe across games and states; bounded (oldest first).
_COST_CACHE: dict[tuple, list[int]] = {}
_COST_CACHE_SIZE = 512


def _cost_from(s, seat, cells) -> list[int]:
    """Roads still needed from each square to `cells` (0-1 search): a road square costs 0 (roads
    are everybody's), a free land square 1, a free river/wall square 2 (a bridge), the seat's own
    bridge 0; other buildings block. Memoised by content (`_COST_CACHE`): do not mutate the result."""
    occ, tiles = s["occ"], s["tiles"]
    cross = 2 if seat < 0 or s["players"][seat]["bridges"] < 3 else _BIG  # no bridge left: no crossing
    own = tuple(t["cells"][0] for t in tiles if t["kind"] == "bridge" and t["owner"] == seat)
    squares = tuple(occ)
    key = (board_of(s).name, squares, own, cross, tuple(cells))
    got = _COST_CACHE.get(key)
    if got is None:
        got = _cost_search(s, squares, own, cells, cross)
        while len(_COST_CACHE) >= _COST_CACHE_SIZE:
            del _COST_CACHE[next(iter(_COST_CACHE))]
        _COST_CACHE[key] = got
    return got


_EMPTY_COST: dict[tuple[str, int], list[int]] = {}


# the weights of `_cost_search` by (map, squares, crossing cost), own bridges aside: the searches
# of one decision share them. Bounded, oldest dropped first.
_WEIGHTS: dict[tuple, list[int]] = {}
# the last search per (map, own bridges, crossing cost, targets): (weights, distances); see below
_LAST: dict[tuple, tuple[list[int], list[int]]] = {}


def _changed(a: list[int], b: list[int], lo: int, hi: int) -> list[int]:
    """Indices in [lo, hi) where `a` and `b` differ (halving: few differ, slices compare in C)."""
    if a[lo:hi] == b[lo:hi]:
        return []
    if hi - lo <= 8:
        return [i for i in range(lo, hi) if a[i] != b[i]]
    mid = (lo + hi) // 2
    return _changed(a, b, lo, mid) + _changed(a, b, mid, hi)


def _cost_search(s, squares, own, cells, cross) -> list[int]:
    """The search behind `_cost_from` (shortest paths with 0/1/2 steps, in buckets by distance)."""
    b = board_of(s)
    wkey = (b.name, squares, cross)
    w = _WEIGHTS.get(wkey)
    if w is None:
        wempty = _EMPTY_COST.get((b.name, cross))
        if wempty is None:
            wempty = _EMPTY_COST[(b.name, cross)] = [cross if x else 1 for x in b.crossing]
        w = [wempty[i] if o == EMPTY else (0 if o == ROAD else _BIG) for i, o in enumerate(squares)]
        while len(_WEIGHTS) >= 8:
            del _WEIGHTS[next(iter(_WEIGHTS))]
        _WEIGHTS[wkey] = w
    if own:
        w = list(w)
        for c in own:
            w[c] = 0
    adj = b.adj
    base = (b.name, own, cross, tuple(cells))
    last = _LAST.get(base)
    buckets = None
    if last is not None:
        # the same search on squares that changed since: roads only (weights down) update the
        # last distances from the changed squares on; a new building (weight up): a new search
        wp, dp = last
        changed = _changed(w, wp, 0, len(w))
        if all(w[i] < wp[i] for i in changed):
            dist = list(dp)
            buckets = []
            for x in changed:
                nd = min(dist[n] for n in adj[x]) + w[x]
                if nd < dist[x]:
                    dist[x] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(x)
    if buckets is None:
        dist = [_BIG] * b.size
        for c in cells:
            dist[c] = 0
        buckets = [list(cells)]
    d = 0
    while d < len(buckets):
        for a in buckets[d]:
            if dist[a] != d:
                continue
            for n in adj[a]:
                nd = d + w[n]
                if nd < dist[n]:
                    dist[n] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(n)
        d += 1
    while len(_LAST) >= 256:
        del _LAST[next(iter(_LAST))]
    _LAST[base] = (w, dist)
    return dist


# _road_scores by content (everything it reads: map, squares, tiles, buildings, supply, the
# seat's bridges); a pure function of its key. One decision asks it several times.
_SCORES_CACHE: dict[tuple, dict[int, int]] = {}
_SCORES_CACHE_SIZE = 64


def _road_scores(s, seat) -> dict[int, int]:
    """Square -> roads still missing after a road/bridge there, for the squares connected to a
    tile the seat owns whose resource a placed building still needs. Memoised by content
    (`_SCORES_CACHE`): do not mutate the result."""
    key = (board_of(s).name, edition(s).version, seat, s["players"][seat]["bridges"], tuple(s["occ"]),
           tuple((t["kind"], t["res"], t["owner"], tuple(t["cells"]), tuple(t["claims"])) for t in s["tiles"]),
           tuple((pb["card"], pb["tile"], pb["complete"], tuple(pb["delivered"])) for pb in s["prestige"]),
           tuple(s["supply"].items()))
    got = _SCORES_CACHE.get(key)
    if got is None:
        got = _road_scores_of(s, seat)
        while len(_SCORES_CACHE) >= _SCORES_CACHE_SIZE:
            del _SCORES_CACHE[next(iter(_SCORES_CACHE))]
        _SCORES_CACHE[key] = got
    return got


def _road_scores_of(s, seat) -> dict[int, int]:
    needs = _needs(s)
    mine = [i for i, t in enumerate(s["tiles"]) if t["owner"] == seat and t["kind"] in _TILES and t["res"] in needs]
    if not needs:
        return {}
    net = Net(s, seat)
    maps: dict[int, list[int]] = {}
    out: dict[int, int] = {}
    left = [sum(1 for d in pb["delivered"] if d is None) for pb in s["prestige"]]
    tiles = s["tiles"]
    for i in mine:
        touch = net.tile_touch(i)
        for bi in needs[tiles[i]["res"]]:
            if bi not in maps:
                maps[bi] = _cost_from(s, seat, _building_cells(s, [bi]))
            dist = maps[bi]
            extra = 2 * (left[bi] - 1)  # buildings nearest completion first
            for c in touch:
                d = dist[c]
                if d < _BIG and d + extra < out.get(c, _BIG):
                    out[c] = d + extra
    _prereq_roads(s, seat, needs, net, out)
    return out


def _prereq_roads(s, seat, needs, net, out):
    """Roads joining the two prerequisites of a needed advanced resource the seat could build."""
    usable: dict[str, list[int]] = {}
    tiles = s["tiles"]
    for i, t in enumerate(tiles):
        if t["kind"] in _TILES and (t["owner"] == seat or seat in t["claims"]):
            usable.setdefault(t["res"], []).append(i)
    occ = s["occ"]
    for res in _wanted(needs):
        spec = ADVANCED.get(res)
        if spec is None or s["supply"][res] <= 0 or len(spec["prereqs"]) < 2:
            continue
        p1, p2 = spec["prereqs"]
        if p1 not in usable or p2 not in usable:
            continue
        t1 = [net.tile_touch(i) for i in usable[p1]]
        t2 = [net.tile_touch(i) for i in usable[p2]]
        if any(c for a in t1 for b in t2 for c in a & b if occ[c] == EMPTY):
            continue  # already joined: an upgrade is possible
        dist = _cost_from(s, seat, [c for i in usable[p2] for c in tiles[i]["cells"]])
        extra = 1 if res in needs else 3
        for a in t1:
            for c in a:
                d = dist[c]
                if d < _BIG and d + extra < out.get(c, _BIG):
                    out[c] = d + extra


def _house_or_good_bridge(s, seat, rng) -> bool:
    """Could a Build card lead to a house, or to a bridge that brings a delivery near?"""
    probe = dict(s)
    probe["cur"] = {"seat": seat, "role": "lead", "category": "build", "card": "build", "discount": 0, "bonus": {}}
    opts = list(_build_options(probe, seat))
    if any(a["kind"] == "house" for a in opts):
        return True
    bridges = [a for a in opts if a["kind"] == "bridge"]
    return bool(bridges) and _best_road(s, seat, bridges, rng, scarce=True) is not None


def _road_gap(s, seat) -> int:
    """Roads still missing for the seat's nearest delivery, from a square where it may build now."""
    scores = _road_scores(s, seat)
    cells = [c for c in _road_cells(s, seat) if c in scores] if scores else []
    return min((scores[c] for c in cells), default=_BIG)


def _best_road(s, seat, roads, rng, forced=False, scarce=False):
    """The road (or bridge) that brings an owned, needed resource closest to its building;
    None when no road helps (unless `forced`)."""
    scores = _road_scores(s, seat)
    scored = [a for a in roads if a["cell"] in scores]
    if scored:
        best = min(scores[a["cell"]] for a in scored)
        # the 64 roads are shared and scarce: long detours only now and then
        if best <= (2 if scarce else 4) or (not scarce and rng.random() < 0.3) or forced:
            return rng.choice([a for a in scored if scores[a["cell"]] == best])
    return rng.choice(roads) if forced else None


def _deliverable(s, card):
    """Per requirement of `card`: the squares where the building would receive it at once."""
    out = []
    nets = {}
    for res in edition(s).PRESTIGE[card]["requires"]:
        touch = set()
        for t in s["tiles"]:
            if t["res"] == res and t["owner"] is not None and t["kind"] in _TILES:
                net = nets.get(t["owner"]) or nets.setdefault(t["owner"], Net(s, t["owner"]))
                touch |= net.touch(t["cells"])
        out.append(touch)
    return out


def _available(s) -> set[str]:
    have = {t["res"] for t in s["tiles"] if t["kind"] in _TILES} | set(s["neutral"])
    for pl in s["players"]:
        have |= set(pl["resources"])
    return have


def _ready(s, card, have) -> int:
    """How many of `card`'s requirements exist or could be made from what exists."""
    n = 0
    for r in edition(s).PRESTIGE[card]["requires"]:
        if r in have or (r in ADVANCED and all(p in have for p in ADVANCED[r]["prereqs"])):
            n += 1
        elif r in ADVANCED and TIER[r] == 3:
            n += 0.5 * sum(1 for p in ADVANCED[r]["prereqs"] if p in have)
    return n - len(edition(s).PRESTIGE[card]["requires"])


def _choose_main(s, seat, main, rng):
    needs = _needs(s)
    wanted = _wanted(needs)
    ups = [a for a in main if a["type"] == "upgrade"]
    if ups:
        good = [a for a in ups if a["resource"] in needs]
        if good:
            res = rng.choice(sorted({a["resource"] for a in good}))
            good = [a for a in good if a["resource"] == res]
            return _pick_cells(s, res, good, lambda a: a["cells"], rng) or rng.choice(good)
        good = [a for a in ups if a["resource"] in wanted]
        return rng.choice(good or ups)
    imports = [a for a in main if a["type"] == "import"]
    good = [a for a in imports if a["resource"] in needs]
    if good and rng.random() < 0.9:
        return rng.choice(good)
    acc = [a for a in main if a["type"] == "access" and s["tiles"][a["tile"]]["res"] in wanted]
    if acc and rng.random() < 0.7:
        return rng.choice(acc)
    good = [a for a in imports if a["resource"] in wanted]
    if good and rng.random() < 0.5:
        return rng.choice(good)
    builds = [a for a in main if a["type"] == "build"]
    if builds and rng.random() < 0.5:
        bridges = [a for a in builds if a["kind"] == "bridge"]
        pick = _best_road(s, seat, bridges, rng, scarce=True) if bridges else None
        houses = [a for a in builds if a["kind"] == "house"]
        if pick or houses:
            return pick or rng.choice(houses)  # bridges (3 each) only where they bring a delivery near
    other = [a for a in main if a["type"] != "import" and a.get("kind") != "bridge"]
    if other:
        return rng.choice(other if rng.random() < 0.8 else [a for a in main if a.get("kind") != "bridge"])
    if imports:
        return rng.choice(imports)
    return None  # only bridges that bring nothing near: kept


def _card_weight(engine, s, seat, card) -> int:
    """Rough value of playing `card` face up now."""
    cat = _card_category(card)
    needs = _needs(s)
    if cat == "upgrade":
        return 3 if any(r in ADVANCED for r in _wanted(needs)) else 2
    if cat == "trade":
        mine = set(s["players"][seat]["resources"])
        return 3 if mine & set(needs) else 1
    if cat == "build":
        return 1
    if cat == "income":
        return 2
    return 1


def _place_spot(s, actions, rng):
    """Most requirements delivered at once, then the fewest roads still missing to the tiles
    of its other requirements."""
    card = s["vote"]["card"]
    touches = _deliverable(s, card)
    maps = []
    for res in edition(s).PRESTIGE[card]["requires"]:
        cells = [c for t in s["tiles"] if t["res"] == res and t["owner"] is not None and t["kind"] in _TILES
                 for c in t["cells"]]
        maps.append(_cost_from(s, -9, cells) if cells else None)

    def score(a):
        now = sum(1 for t in touches if t.intersection(a["cells"]))
        gap = sum(min(m[c] for c in a["cells"]) if m else 30 for m in maps)
        return (-now, gap)
    scores = [score(a) for a in actions]
    best = min(scores)
    return rng.choice([a for a, x in zip(actions, scores, strict=True) if x == best])


def _solo_short(s) -> bool:
    """Solo: would the claim tokens on the board cost more influence than the player holds?"""
    claims = sum(1 for pb in s["prestige"] if not pb["complete"])
    pl = s["players"][0]
    return _claims_cost(s, claims) + 2 > pl["fleeting"] + 2 * pl["lasting"]


def weighted_choice(engine, s, seat, actions, rng):
    types = {a["type"] for a in actions}
    if "draft_resource" in types and rng.random() < 0.8:
        mine = set(s["players"][seat]["resources"])
        pairs = [a for a in actions if any(a["resource"] in spec["prereqs"] and mine & set(spec["prereqs"])
                                           for spec in ADVANCED.values())]
        return rng.choice(pairs or actions)
    if "place_start" in types:
        return rng.choice(actions)
    if "call_vote" in types and (rng.random() < 0.1 or len(s["players"][seat]["hand"]) <= 2):
        return {"type": "call_vote"}
    if "play_card" in types:
        return _weighted_card(engine, s, seat, actions, rng)
    if "place_stall" in types:
        res = s["cur"]["stall"]["resource"]
        return _pick_cells(s, res, actions, lambda a: [a["cell"]], rng) or rng.choice(actions)
    if "reset_benefit" in types:
        roads = [a for a in actions if a["kind"] == "road"]
        pick = _best_road(s, seat, roads, rng) if roads else None
        return pick or {"type": "reset_benefit", "kind": rng.choice(("money", "influence"))}
    if "road_first" in types:  # the Upgrade road before the tile: rarely (its square list is long to make)
        if rng.random() < 0.01 or len(actions) == 1:  # v10: it may be the only way to resolve the card
            return {"type": "road_first"}
        actions = [a for a in actions if a["type"] != "road_first"]
        types = {a["type"] for a in actions}
    if "first_road" in types:
        return rng.choice(actions)
    main = [a for a in actions if a["type"] in _MAIN]
    roads = [a for a in actions if a["type"] == "road"]
    if roads and main and _road_gap(s, seat) <= 2 and rng.random() < 0.6:
        return _best_road(s, seat, roads, rng, forced=True)
    if main and rng.random() < 0.9:
        pick = _choose_main(s, seat, main, rng)
        if pick is not None:
            return pick
        if len(main) == len(actions):  # a main action is due (the lead): a bridge anyway
            return rng.choice(main)
    if "skip_roads" in types:
        pick = _best_road(s, seat, roads, rng) if roads else None
        return pick or {"type": "skip_roads"}
    if "place_prestige" in types and rng.random() < 0.95:
        return _place_spot(s, actions, rng)
    if "vote" in types:
        return _weighted_vote(s, actions, rng)
    if "choose_proposal" in types and rng.random() < 0.9:
        have = _available(s)

        def key(a):  # solo: the fewest requirements among the readiest, then the cheapest slot
            card = s["proposals"][a["proposal"]]
            return (_ready(s, card, have), -len(edition(s).PRESTIGE[card]["requires"]) if s["solo"] else 0, -a["proposal"])
        best = max(key(a) for a in actions)
        return rng.choice([a for a in actions if key(a) == best])
    if s["solo"] and "take_influence" in types and _solo_short(s):
        return {"type": "take_influence"}
    workers = [a for a in actions if a["type"] == "place_worker"]
    if workers and rng.random() < 0.5:
        return rng.choice(workers)
    pick = _best_road(s, seat, roads, rng) if roads else None
    if pick:
        return pick
    rest = [a for a in actions if a["type"] in ("take_money", "take_influence")]
    return rng.choice(rest or actions)


def _weighted_card(engine, s, seat, actions, rng):
    """Which card to play: a basic action for a road that brings a delivery near, else the
    weightiest card face up, now and then any."""
    up = [a for a in actions if a.get("face_up")]
    if not _house_or_good_bridge(s, seat, rng):  # bridges (3 each) are kept for deliveries
        up = [a for a in up if a["card"] == "income" or _card_category(a["card"]) != "build"]
    down = [a for a in actions if a["type"] == "play_card" and not a["face_up"]]
    if down and _road_gap(s, seat) <= 3 and rng.random() < 0.7:
        return rng.choice(down)  # a basic action: the road that brings a delivery near
    if up and rng.random() < 0.85:
        w = [_card_weight(engine, s, seat, a["card"]) for a in up]
        top = max(w)
        return rng.choice([a for a, x in zip(up, w, strict=True) if x == top] if rng.random() < 0.7 else up)
    return rng.choice([a for a in actions if a["type"] == "play_card"])


def _weighted_vote(s, actions, rng):
    """A cheap vote, for the readiest proposal most of the time."""
    cheap = [a for a in actions if a["fleeting"] + a["lasting"] <= 1]
    if rng.random() < 0.9:
        have = _available(s)
        best = max(_ready(s, s["proposals"][a["proposal"]], have) for a in cheap)
        cheap = [a for a in cheap if _ready(s, s["proposals"][a["proposal"]], have) == best]
    return rng.choice(cheap)
