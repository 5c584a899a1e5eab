"""New Bedford engine benchmark: per player count, full random games per second, mean
time per decision (legal_actions + act), the view a client fetches before each decision
(mean ms and largest JSON size; not counted in games/s) and replay speed in events per second.

    python bench/new_bedford.py [games per player count, default 20]
"""

from __future__ import annotations

import json
import random
import sys
import time

import engines
from engines.core import LocalGame, replay


def bench(seats: int, games: int) -> dict:
    engine = engines.get("new-bedford")
    decisions = 0
    decide_time = 0.0
    view_time = 0.0
    view_max = 0
    not_play = 0.0  # view and its JSON size, kept out of games/s
    logs = []
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        g = LocalGame(engine, seats=seats, seed=seed)
        while g.outcome() is None:
            (seat,) = g.to_act()
            t = time.perf_counter()
            view = engine.view(g.state, seat)
            view_time += time.perf_counter() - t
            view_max = max(view_max, len(json.dumps(view)))
            not_play += time.perf_counter() - t
            t = time.perf_counter()
            actions = g.legal_actions(seat)
            g.act(seat, engine.random_action(g.state, seat, actions, rng))
            decide_time += time.perf_counter() - t
            decisions += 1
        logs.append(g.events)
    wall = time.perf_counter() - t0 - not_play
    events = sum(len(log) for log in logs)
    t = time.perf_counter()
    for log in logs:
        replay(log)
    replay_time = time.perf_counter() - t
    return {
        "seats": seats,
        "games": games,
        "games_per_s": games / wall,
        "decisions_per_game": decisions / games,
        "ms_per_decision": 1000 * decide_time / decisions,
        "view_ms": 1000 * view_time / decisions,
        "view_max_kb": view_max / 1024,
        "events_per_game": events / games,
        "replay_events_per_s": events / replay_time,
    }


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"New Bedford benchmark: {games} random games per player count")
    print(f"{'players':>7} {'games/s':>8} {'decisions/game':>15} {'ms/decision':>12} {'events/game':>12} "
          f"{'replay events/s':>16} {'view ms':>8} {'max view KB':>12}")
    for seats in (2, 3, 4):
        r = bench(seats, games)
        print(f"{r['seats']:>7} {r['games_per_s']:>8.1f} {r['decisions_per_game']:>15.1f} "
              f"{r['ms_per_decision']:>12.3f} {r['events_per_game']:>12.1f} {r['replay_events_per_s']:>16.0f} "
              f"{r['view_ms']:>8.2f} {r['view_max_kb']:>12.1f}")


if __name__ == "__main__":
    main()
