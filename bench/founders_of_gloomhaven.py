"""Founders of Gloomhaven engine benchmark: random games per second, time per decision
(legal actions + act; the random player's choice excluded), cold load of a finished game
(snapshot JSON parse + tail evolve + first view), per player count (1 = solo).

    python bench/founders_of_gloomhaven.py [games per player count, default 10]
    python bench/founders_of_gloomhaven.py --solo-beam [deals, default 10] [K, default 10] [M, default 10]

`endings` counts how games end: `six_completions` (the rulebook's end), `stalled` (our last-resort
safety net, RULES.md) or, solo, `solo_complete` / `solo_incomplete` / `solo_claims_unpaid`.
Absolute figures are noisy on a shared machine.

`--solo-beam` plays solo deals (seeds 0..deals-1) as a planning player would: a beam search, a
hand cycle at a time, over the random player's moves (the best K partial games after each vote,
each continued M times with other random numbers, ranked by completions, deliveries, missing
requirements). It shows whether a careful player can win a deal the random player loses.
"""

from __future__ import annotations

import collections
import copy
import json
import random
import sys
import time

import tablero.engines.core  # noqa: F401 - loads engines.core for the attribute below

from tablero import engines

NAME = "founders-of-gloomhaven"


def play(seats: int, seed: int, options: dict | None = None):
    g = engines.LocalGame(NAME, seats=seats, seed=seed, options=options)
    engine = g.engine
    rng = random.Random(seed)
    decisions, spent, worst = 0, 0.0, 0.0
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        t0 = time.perf_counter()
        actions = g.legal_actions(seat)
        t1 = time.perf_counter()
        action = engine.random_action(g.state, seat, actions, rng)
        t2 = time.perf_counter()
        g.act(seat, action)
        t3 = time.perf_counter()
        d = (t1 - t0) + (t3 - t2)
        spent += d
        worst = max(worst, d)
        decisions += 1
    return g, decisions, spent, worst


def cold_load(g, snapshot_every: int = 50) -> float:
    """Seconds to rebuild the final state from the last snapshot (JSON) + the tail, and view it."""
    engine = g.engine
    n = len(g.events)
    cut = max(1, (n // snapshot_every) * snapshot_every)
    snap = json.dumps(engines.replay(g.events[:cut]).state)
    tail = g.events[cut:]
    t0 = time.perf_counter()
    state = json.loads(snap)
    for e in tail:
        state = engine.evolve(state, e)
    engine.view(state, 0)
    return time.perf_counter() - t0


def _beam_score(g) -> float:
    s, out = g.state, g.outcome()
    if out is not None:
        return 10**6 if out["winners"] == [0] else -10**6 + 100 * s["completions"]
    delivered = sum(1 for pb in s["prestige"] for d in pb["delivered"] if d is not None)
    missing = sum(1 for pb in s["prestige"] for d in pb["delivered"] if d is None)
    pl = s["players"][0]
    return 100 * s["completions"] + 10 * delivered - 15 * missing + 2 * pl["lasting"] + pl["money"] / 4


def _fork(g):
    h = copy.copy(g)
    h.state, h.events, h.decisions = engines.core.clone(g.state), list(g.events), list(g.decisions)
    h.rng = random.Random()
    h.rng.setstate(g.rng.getstate())
    return h


def solo_beam(seed: int, k: int = 10, m: int = 10):
    """The best game of a beam search over the random player's moves, a hand cycle at a time."""
    beam = [engines.LocalGame(NAME, seats=1, seed=seed)]
    r = random.Random(seed)
    while any(g.outcome() is None for g in beam):
        kids = []
        for g in beam:
            if g.outcome() is not None:
                kids.append(g)
                continue
            for _ in range(m):
                h, rng = _fork(g), random.Random(r.random())
                cycle = h.state["cycle"]
                while h.outcome() is None and h.state["cycle"] == cycle:
                    h.act(0, h.engine.random_action(h.state, 0, h.legal_actions(0), rng))
                kids.append(h)
        kids.sort(key=_beam_score, reverse=True)
        beam = kids[:k]
    return beam[0]


def main_beam(args: list[str]) -> None:
    deals, k, m = (int(x) for x in (args + ["10", "10", "10"][len(args):]))
    ends = collections.Counter()
    for seed in range(deals):
        g = solo_beam(seed, k, m)
        ends[g.outcome()["reason"]] += 1
        print(f"seed {seed}: {g.outcome()['reason']}, {g.state['completions']} completions", flush=True)
    print(f"{NAME} solo, beam search K={k} M={m}, {deals} deals: {dict(ends)}")


def main() -> None:
    if sys.argv[1:2] == ["--solo-beam"]:
        main_beam(sys.argv[2:])
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print(f"{NAME}: {games} random games per player count (noisy, shared machine)")
    print(f"{'players':>7} {'games/s':>8} {'decisions/game':>14} {'µs/decision':>11} {'worst ms':>8} "
          f"{'cold load ms (median/max)':>25} {'view KB':>7}  endings")
    for seats in (1, 2, 3, 4):
        t0 = time.perf_counter()
        decisions, spent, worst, loads, ends, size = 0, 0.0, 0.0, [], collections.Counter(), 0
        for seed in range(games):
            g, d, s, w = play(seats, seed)
            decisions += d
            spent += s
            worst = max(worst, w)
            ends[g.outcome()["reason"]] += 1
            loads.append(cold_load(g))
            size = max(size, len(json.dumps(g.view(0))))
        wall = time.perf_counter() - t0
        print(f"{seats:>7} {games / wall:>8.2f} {decisions / games:>14.0f} {1e6 * spent / decisions:>11.0f} "
              f"{1000 * worst:>8.1f} {1000 * sorted(loads)[len(loads) // 2]:>12.2f} /{1000 * max(loads):>10.2f} "
              f"{size / 1024:>7.1f}  {dict(ends)}")


if __name__ == "__main__":
    main()
