"""The random player's weighting (test kit, bots, bench): uniform play rarely connects
resources to prestige buildings, so choices lean toward progress. Not part of the rules."""

from __future__ import annotations

from .board import EMPTY, Net, board_of

_MAIN = {"recruit", "import", "access", "import_access", "upgrade", "build"}


def _distance_to_needs(s) -> list[int]:
    """Steps from each square to the nearest unfinished prestige building (through land)."""
    b = board_of(s)
    big = 10**6
    dist = [big] * b.size
    frontier = []
    for pb in s["prestige"]:
        if pb["complete"]:
            continue
        for c in s["tiles"][pb["tile"]]["cells"]:
            dist[c] = 0
            frontier.append(c)
    while frontier:
        nxt = []
        for a in frontier:
            for n in b.adj[a]:
                if dist[n] == big and (s["occ"][n] in (EMPTY, -2) or b.crossing[n]):
                    dist[n] = dist[a] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _deliverable(s, card):
    """Per requirement of `card`: the squares where the building would receive it at once."""
    from .data import PRESTIGE
    out = []
    nets = {}
    for res in PRESTIGE[card]["requires"]:
        touch = set()
        for t in s["tiles"]:
            if t["res"] == res and t["owner"] is not None and t["kind"] in ("stall", "t2", "t3"):
                net = nets.get(t["owner"]) or nets.setdefault(t["owner"], Net(s, t["owner"]))
                touch |= net.touch(t["cells"])
        out.append(touch)
    return out


def _best_road(s, roads, rng):
    if s["prestige"] and rng.random() < 0.95:
        dist = _distance_to_needs(s)
        best = min(dist[a["cell"]] for a in roads)
        return rng.choice([a for a in roads if dist[a["cell"]] == best])
    return rng.choice(roads)


def weighted_choice(engine, s, seat, actions, rng):
    types = {a["type"] for a in actions}
    if "draft_resource" in types and rng.random() < 0.8:
        from .data import ADVANCED
        mine = set(s["players"][seat]["resources"])
        pairs = [a for a in actions if any(a["resource"] in spec["prereqs"] and mine & set(spec["prereqs"])
                                           for spec in ADVANCED.values())]
        return rng.choice(pairs or actions)
    if "call_vote" in types and (rng.random() < 0.1 or len(s["players"][seat]["hand"]) <= 2):
        return {"type": "call_vote"}
    if "play_card" in types:
        up = [a for a in actions if a.get("face_up")]
        if up and rng.random() < 0.85:
            from .engine import _card_category
            ups = [a for a in up if a["card"] != "income" and _card_category(a["card"]) == "upgrade"]
            return rng.choice(ups if ups and rng.random() < 0.6 else up)
        return rng.choice([a for a in actions if a["type"] == "play_card"])
    if "reset_benefit" in types:
        kind = rng.choice(sorted({a["kind"] for a in actions}))
        pick = [a for a in actions if a["kind"] == kind]
        return _best_road(s, pick, rng) if kind == "road" else pick[0]
    main = [a for a in actions if a["type"] in _MAIN]
    if main and rng.random() < 0.9:
        ups = [a for a in main if a["type"] == "upgrade"]
        if ups:
            return rng.choice(ups)
        return rng.choice(main)
    roads = [a for a in actions if a["type"] == "road"]
    if "skip_roads" in types:
        return _best_road(s, roads, rng) if roads and rng.random() < 0.8 else {"type": "skip_roads"}
    if "place_prestige" in types and rng.random() < 0.9:
        touches = _deliverable(s, s["vote"]["card"])

        def score(a):
            return sum(1 for t in touches if t.intersection(a["cells"]))
        best = max(score(a) for a in actions)
        return rng.choice([a for a in actions if score(a) == best])
    if "vote" in types:
        cheap = [a for a in actions if a["fleeting"] + a["lasting"] <= 1]
        if rng.random() < 0.85:
            from .data import PRESTIGE
            have = {t["res"] for t in s["tiles"] if t["owner"] is not None} | set(s["neutral"])

            def ready(a):
                req = PRESTIGE[s["proposals"][a["proposal"]]]["requires"]
                return sum(1 for r in req if r in have) - len(req)
            best = max(ready(a) for a in cheap)
            cheap = [a for a in cheap if ready(a) == best]
        return rng.choice(cheap)
    workers = [a for a in actions if a["type"] == "place_worker"]
    if workers and rng.random() < 0.5:
        return rng.choice(workers)
    if roads and rng.random() < 0.25:
        return _best_road(s, roads, rng)
    rest = [a for a in actions if a["type"] in ("take_money", "take_influence")]
    return rng.choice(rest or actions)
