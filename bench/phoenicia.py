"""Phoenicia engine benchmark: random games per second, time per decision and replay
speed, per player count.

    python bench/phoenicia.py [games per player count, default 20]

`exhausted` counts the games ended by our dead-end safety net (RULES.md), `32-VP end`
the share that ended by the rulebook's 32 VP (seeds 0 .. games-1).
"""

from __future__ import annotations

import random
import sys
import time

import engines

NAME = "phoenicia"


def play(seats: int, seed: int) -> tuple[engines.LocalGame, int, float]:
    """One random game; returns the game, its decisions and the time spent in
    legal_actions + act (the random player's choice itself excluded)."""
    g = engines.LocalGame(NAME, seats=seats, seed=seed)
    engine = g.engine
    rng = random.Random(seed)
    decisions = 0
    spent = 0.0
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        t0 = time.perf_counter()
        actions = g.legal_actions(seat)
        t1 = time.perf_counter()
        action = engine.random_action(g.state, seat, actions, rng)
        t2 = time.perf_counter()
        g.act(seat, action)
        t3 = time.perf_counter()
        spent += (t1 - t0) + (t3 - t2)
        decisions += 1
    return g, decisions, spent


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{NAME}: {games} random games per player count")
    print(f"{'players':>7} {'games/s':>8} {'decisions/game':>14} {'rounds/game':>11} "
          f"{'ms/decision':>11} {'replay events/s':>15} {'exhausted':>9} {'32-VP end':>9}")
    for seats in range(2, 6):
        logs = []
        t0 = time.perf_counter()
        decisions = 0
        spent = 0.0
        rounds = 0
        exhausted = 0
        for seed in range(games):
            g, d, s = play(seats, seed)
            decisions += d
            spent += s
            rounds += g.state["round"]
            exhausted += g.outcome()["reason"] == "exhausted"  # our safety-net end (RULES.md)
            logs.append(g.events)
        wall = time.perf_counter() - t0
        n_events = sum(len(log) for log in logs)
        t1 = time.perf_counter()
        for log in logs:
            engines.replay(log)
        replay_s = time.perf_counter() - t1
        print(f"{seats:>7} {games / wall:>8.1f} {decisions / games:>14.0f} {rounds / games:>11.1f} "
              f"{1000 * spent / decisions:>11.3f} {n_events / replay_s:>15.0f} {exhausted:>9} "
              f"{100 * (games - exhausted) / games:>8.1f}%")


if __name__ == "__main__":
    main()
