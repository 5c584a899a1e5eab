"""Riverboat benchmark: full random games per second, mean time per decision (legal_actions +
act) and replay speed, per player count.

    python bench/riverboat.py [games_per_count]
"""

from __future__ import annotations

import random
import sys
import time

import engines
from engines.core import LocalGame, replay


def play(seats: int, seed: int) -> tuple[LocalGame, int, float]:
    """One random game; returns the game, its number of decisions and the time they took."""
    g = LocalGame("riverboat", seats=seats, seed=seed)
    rng = random.Random(seed)
    engine = g.engine
    decisions = 0
    spent = 0.0
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        t0 = time.perf_counter()
        actions = g.legal_actions(seat)
        g.act(seat, engine.random_action(g.state, seat, actions, rng))
        spent += time.perf_counter() - t0
        decisions += 1
    return g, decisions, spent


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    engines.get("riverboat")
    print(f"riverboat benchmark: {games} random games per player count")
    for seats in (2, 3, 4):
        t0 = time.perf_counter()
        logs = []
        decisions = 0
        spent = 0.0
        for i in range(games):
            g, d, s = play(seats, 10_000 + i)
            logs.append(g.events)
            decisions += d
            spent += s
        wall = time.perf_counter() - t0
        n_events = sum(len(log) for log in logs)
        t1 = time.perf_counter()
        for log in logs:
            replay(log)
        replay_time = time.perf_counter() - t1
        print(
            f"{seats} players: {games / wall:6.1f} games/s, {decisions / games:5.0f} decisions/game, "
            f"{1000 * spent / decisions:6.3f} ms/decision, {n_events / games:5.0f} events/game, "
            f"replay {n_events / replay_time:8.0f} events/s"
        )


if __name__ == "__main__":
    main()
