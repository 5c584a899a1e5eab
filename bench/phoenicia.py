"""Phoenicia engine benchmark: random games per second, time per decision (legal
actions + act, target <= 200 us), cold load of a finished game (snapshot JSON parse +
tail evolve + first view, target <= 5 ms) and replay speed, per player count.

    python bench/phoenicia.py [games per player count, default 20]

The cold load takes the snapshot the server would hold (every SNAPSHOT_EVERY events,
as server/config.py) and the events after it, both as stored JSON text. Figures are
wall-clock on a shared machine: noisy, compare runs on the same box only.

`exhausted` counts the games ended by our dead-end safety net (RULES.md), `32-VP end`
the share that ended by the rulebook's 32 VP (seeds 0 .. games-1).
"""

from __future__ import annotations

import json
import random
import sys
import time

from tablero.engines.core import clone

from tablero import engines

NAME = "phoenicia"
SNAPSHOT_EVERY = 100


def cold_load(engine, events: list[dict]) -> float:
    """Seconds to load a finished game as a restarted server does: parse the newest
    snapshot and the tail after it, evolve the tail, build the first view."""
    cut = (len(events) - 1) // SNAPSHOT_EVERY * SNAPSHOT_EVERY
    state = None
    for e in events[:cut or 1]:
        state = engine.evolve(state, clone(e))
    snapshot = json.dumps(state)
    tail = json.dumps(events[cut or 1:])
    t0 = time.process_time()
    st = json.loads(snapshot)
    for e in json.loads(tail):
        st = engine.evolve(st, e)
    engine.view(st, 0)
    return time.process_time() - t0


def play(seats: int, seed: int) -> tuple[engines.LocalGame, int, float, int]:
    """One random game; returns the game, its decisions, the time spent in
    legal_actions + act (the random player's choice itself excluded) and the longest
    legal-action list."""
    g = engines.LocalGame(NAME, seats=seats, seed=seed)
    engine = g.engine
    rng = random.Random(seed)
    decisions = 0
    spent = 0.0
    widest = 0
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        t0 = time.process_time()
        actions = g.legal_actions(seat)
        t1 = time.process_time()
        widest = max(widest, len(actions))
        action = engine.random_action(g.state, seat, actions, rng)
        t2 = time.process_time()
        g.act(seat, action)
        t3 = time.process_time()
        spent += (t1 - t0) + (t3 - t2)
        decisions += 1
    return g, decisions, spent, widest


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{NAME}: {games} random games per player count")
    print(f"{'players':>7} {'games/s':>8} {'decisions/game':>14} {'rounds/game':>11} "
          f"{'us/decision':>11} {'max actions':>11} {'cold ms':>7} {'cold max':>8} "
          f"{'replay events/s':>15} {'exhausted':>9} {'32-VP end':>9}")
    for seats in range(2, 6):
        logs = []
        t0 = time.perf_counter()
        decisions = 0
        spent = 0.0
        rounds = 0
        exhausted = 0
        widest = 0
        for seed in range(games):
            g, d, s, w = play(seats, seed)
            widest = max(widest, w)
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
        engine = engines.get(NAME)
        colds = [min(cold_load(engine, log) for _ in range(3)) for log in logs]
        print(f"{seats:>7} {games / wall:>8.1f} {decisions / games:>14.0f} {rounds / games:>11.1f} "
              f"{1e6 * spent / decisions:>11.1f} {widest:>11} {1000 * sum(colds) / len(colds):>7.2f} "
              f"{1000 * max(colds):>8.2f} {n_events / replay_s:>15.0f} {exhausted:>9} "
              f"{100 * (games - exhausted) / games:>8.1f}%")


if __name__ == "__main__":
    main()
