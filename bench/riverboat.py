"""Riverboat benchmark: full random games per second, mean time per decision (legal_actions +
act, CPU and wall), replay speed and the cold load of a finished game (newest snapshot JSON +
tail + first view), per player count. Targets (issue 14): ≤ 200 µs per decision, ≤ 5 ms cold
load. The same figures for every engine: bench/all_engines.py.

    python bench/riverboat.py [games_per_count]
    python bench/riverboat.py --balance [games_per_count]

`--balance` plays one-step-lookahead greedy games instead (each seat picks the action that
maximises its score if the game ended right after it) and prints the mean VP of every scoring
category per player count: the check that every category of our edition's components matters
in play (RULES.md, "Our edition").
"""

from __future__ import annotations

import random
import sys
import time

from all_engines import cold_load  # bench/ is on sys.path when this script runs
from tablero.engines.core import LocalGame, replay
from tablero.engines.riverboat import scoring

from tablero import engines


def play(seats: int, seed: int) -> tuple[LocalGame, int, float]:
    """One random game; returns the game, its number of decisions and the time they took."""
    g = LocalGame("riverboat", seats=seats, seed=seed)
    rng = random.Random(seed)
    engine = g.engine
    decisions = 0
    spent = 0.0
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        t0 = time.process_time()
        actions = g.legal_actions(seat)
        g.act(seat, engine.random_action(g.state, seat, actions, rng))
        spent += time.process_time() - t0
        decisions += 1
    return g, decisions, spent


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    engines.get("riverboat")
    print(f"riverboat benchmark: {games} random games per player count")
    for seats in (2, 3, 4):
        t0 = time.perf_counter()
        logs = []
        games_played = []
        decisions = 0
        spent = 0.0
        for i in range(games):
            g, d, s = play(seats, 10_000 + i)
            logs.append(g.events)
            games_played.append(g)
            decisions += d
            spent += s
        wall = time.perf_counter() - t0
        n_events = sum(len(log) for log in logs)
        t1 = time.perf_counter()
        for log in logs:
            replay(log)
        replay_time = time.perf_counter() - t1
        loads = [cold_load(g) for g in games_played]
        print(
            f"{seats} players: {games / wall:6.1f} games/s, {decisions / games:5.0f} decisions/game, "
            f"{1e6 * spent / decisions:6.1f} µs/decision (CPU), {n_events / games:5.0f} events/game, "
            f"replay {n_events / replay_time:8.0f} events/s, cold load {1000 * sum(loads) / len(loads):.2f} ms "
            f"(worst {1000 * max(loads):.2f})"
        )


def _greedy_value(state: dict, seat: int) -> float:
    if state["phase"] == "over":
        return state["result"]["scores"][seat]
    p = state["players"][seat]
    # score if the game ended now, plus a little for workers on the mat and surveyors in hand
    return scoring.final_scoring(state)[seat]["total"] + 0.3 * sum(p["worker"]) + 0.5 * p["surveyors"]


def greedy_game(seats: int, seed: int) -> LocalGame:
    g = LocalGame("riverboat", seats=seats, seed=seed)
    rng = random.Random(seed)
    engine = g.engine
    while g.outcome() is None:
        seat = min(g.to_act())
        actions = g.legal_actions(seat)
        if len(actions) > 60:
            actions = rng.sample(actions, 60)
        best: list[dict] = []
        best_v = float("-inf")
        for a in actions:
            after = engine.simulate(g.state, engine.decide(g.state, seat, a, random.Random(0)))
            v = _greedy_value(after, seat)
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif v > best_v - 1e-9:
                best.append(a)
        g.act(seat, rng.choice(best))
    return g


def balance(games: int) -> None:
    final = scoring.FINAL_CATEGORIES
    print(f"riverboat balance: {games} greedy games per player count, mean VP per player")
    for seats in (2, 3, 4):
        sums: dict[str, float] = {}
        scores = []
        for i in range(games):
            out = greedy_game(seats, 20_000 + i).outcome()
            for row in out["details"]:
                scores.append(row["total"])
                for k in final:
                    sums[k] = sums.get(k, 0) + row[k]["vp"]
                for k, v in row["in_game"]["by_source"].items():
                    sums[k] = sums.get(k, 0) + v
                reached = sum(1 for b in row["harbor"]["boats"] if b["reached"])
                sums["(boats reached)"] = sums.get("(boats reached)", 0) + reached
                sums["(agents)"] = sums.get("(agents)", 0) + row["agents"]["count"]
        n = len(scores)
        parts = ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(sums.items()))
        print(f"{seats} players: score {sum(scores) / n:.1f} (min {min(scores)}, max {max(scores)}); {parts}")


if __name__ == "__main__":
    if "--balance" in sys.argv:
        rest = [a for a in sys.argv[1:] if a != "--balance"]
        balance(int(rest[0]) if rest else 10)
    else:
        main()
