"""Founders of Gloomhaven engine benchmark: random games per second, time per decision
(legal actions + act; the random player's choice excluded), cold load of a finished game
(snapshot JSON parse + tail evolve + first view), per player count (1 = solo).

    python bench/founders_of_gloomhaven.py [games per player count, default 10]

`endings` counts how games end: `six_completions` (the rulebook's end), `stalled` (our last-resort
safety net, RULES.md) or, solo, `solo_complete` / `solo_incomplete` / `solo_claims_unpaid`.
Absolute figures are noisy on a shared machine.
"""

from __future__ import annotations

import collections
import json
import random
import sys
import time

import engines

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


def main() -> None:
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
