"""Every engine, every seat count: the issue-14 figures in one table.

    python bench/all_engines.py [games_per_count] [engine ...] [--best N]

Per engine and seat count it prints
- µs per decision: `legal_actions` + `act` (decide + evolve) of the seat to act, mean over
  every decision of the games, in CPU time of this process (`time.process_time`: other work on
  a shared machine does not count) and wall-clock;
- µs per bot choice: the engine's `random_action` picking from those legal actions (what the
  server's bots and the random play here run; uniform for most engines, a progress-weighted
  player for Founders of Gloomhaven), timed apart since it is the player's work, not the rules';
- random games/s: whole random games, start to end, the same loop;
- cold load ms of a finished game, as the server does it after a restart: parse the newest
  snapshot's JSON (the state at the last multiple of the server's snapshot interval), evolve
  the tail of the log after it, and build the first view (seat 0); CPU time, best of 5 per
  game, mean and worst over the games.

With `--best N` each game is played N times (the same seeded game, so the same work) and its
fastest run counts: the least disturbed by other work on the machine, the figure to compare
before and after a change (games/s is then the mean over the N runs).

Targets (issue 14): ≤ 200 µs per decision and ≤ 5 ms cold load at every seat count, checked on
the CPU figures. On a shared, loaded machine even CPU time is noisy (caches, frequency): compare
runs made side by side, and read the wall figure as the latency a player would have seen then.
"""

from __future__ import annotations

import json
import random
import sys
import time

from tablero.engines.core import LocalGame, clone

from tablero import engines

SNAPSHOT_EVERY = 100  # server/app/service.py GameService(snapshot_every=100)
DECISION_TARGET_US = 200
COLD_LOAD_TARGET_MS = 5.0

# Option sets benched beside the default ({}) at every seat count: New Bedford's solo games
# against 1, 2 and 3 Captains, with and without the Expert variant.
EXTRA_SETUPS: dict[str, list[tuple[int, dict]]] = {
    "new-bedford": [
        (1, {"captains": captains, **({"expert": True} if expert else {})})
        for captains in (["starbuck"], ["stubb", "flask"], ["flask", "ahab", "stubb"])
        for expert in (False, True)
    ],
}


def setups(engine) -> list[tuple[int, dict, str]]:
    """(seats, options, label) of every setup benched for `engine`."""
    out = [(n, {}, "") for n in range(engine.min_seats, engine.max_seats + 1)]
    for n, options in EXTRA_SETUPS.get(engine.name, []):
        label = "+" + "+".join(options["captains"]) + (" expert" if options.get("expert") else "")
        out.append((n, options, label))
    return out


def play(
    name: str, seats: int, seed: int, options: dict | None = None
) -> tuple[LocalGame, int, float, float, float]:
    """One random game; returns it, its number of decisions, the CPU and wall seconds they took
    (legal actions + act) and the CPU seconds the bot's choices took."""
    g = LocalGame(name, seats=seats, seed=seed, options=options)
    engine = g.engine
    rng = random.Random(seed)
    decisions = 0
    cpu = wall = choosing = 0.0
    cpu_clock, wall_clock = time.process_time, time.perf_counter
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        c0, w0 = cpu_clock(), wall_clock()
        actions = g.legal_actions(seat)
        c1, w1 = cpu_clock(), wall_clock()
        action = engine.random_action(g.state, seat, actions, rng)
        c2, w2 = cpu_clock(), wall_clock()
        g.act(seat, action)
        cpu += (c1 - c0) + (cpu_clock() - c2)
        wall += (w1 - w0) + (wall_clock() - w2)
        choosing += c2 - c1
        decisions += 1
    return g, decisions, cpu, wall, choosing


def cold_load(g: LocalGame, repeat: int = 5) -> float:
    """CPU seconds to load a finished game from its newest snapshot + tail and build the first
    view (best of `repeat`; CPU time of this process, so that other work on a shared machine
    does not count)."""
    engine = g.engine
    cut = (len(g.events) // SNAPSHOT_EVERY) * SNAPSHOT_EVERY or 1
    state = None
    for e in g.events[:cut]:
        state = engine.evolve(state, clone(e))
    snapshot = json.dumps(state)
    tail = json.loads(json.dumps(g.events[cut:]))
    best = float("inf")
    for _ in range(repeat):
        events = clone(tail)
        t0 = time.process_time()
        s = json.loads(snapshot)
        for e in events:
            s = engine.evolve(s, e)
        engine.view(s, 0)
        best = min(best, time.process_time() - t0)
    return best


def bench(name: str, games: int, best: int = 1) -> list[str]:
    engine = engines.get(name)
    lines = []
    for seats, options, label in setups(engine):
        decisions = 0
        cpu = wall_spent = choosing = 0.0
        t0 = time.perf_counter()
        played = []
        for i in range(games):
            # The same seeded game `best` times: the fastest run is the least disturbed.
            g, d, c, w, ch = min((play(name, seats, 10_000 + i, options) for _ in range(best)), key=lambda r: r[2])
            decisions += d
            cpu += c
            wall_spent += w
            choosing += ch
            played.append(g)
        wall = (time.perf_counter() - t0) / best
        loads = []
        for g in played:
            loads.append(cold_load(g))
        us = 1e6 * cpu / max(decisions, 1)
        us_wall = 1e6 * wall_spent / max(decisions, 1)
        us_choice = 1e6 * choosing / max(decisions, 1)
        mean_ms = 1000 * sum(loads) / len(loads)
        worst_ms = 1000 * max(loads)
        flag = "" if us <= DECISION_TARGET_US and worst_ms <= COLD_LOAD_TARGET_MS else "  << over target"
        lines.append(
            f"{name:12s} {seats}p{label:24s} {us:7.1f} µs/decision (wall {us_wall:6.1f}; bot choice {us_choice:6.1f})  "
            f"{games / wall:7.1f} games/s  "
            f"{decisions / games:6.0f} decisions/game  {sum(len(g.events) for g in played) / games:6.0f} events/game  "
            f"cold load {mean_ms:5.2f} ms (worst {worst_ms:5.2f}){flag}"
        )
    return lines


def main(argv: list[str]) -> None:
    best = 1
    if "--best" in argv:
        i = argv.index("--best")
        best = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    games = int(argv[0]) if argv and argv[0].isdigit() else 5
    names = [a for a in argv if not a.isdigit()] or engines.names()
    print(f"engine bench: {games} random games per seat count, best of {best}; targets ≤ {DECISION_TARGET_US} "
          f"µs/decision, ≤ {COLD_LOAD_TARGET_MS} ms cold load (snapshot every {SNAPSHOT_EVERY} events + tail + "
          "first view)")
    for name in names:
        for line in bench(name, games, best):
            print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
