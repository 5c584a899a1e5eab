"""Cross-framework benchmark on the reference game, Tic-Tac-Toe: random playouts
per second through Tablero's LocalGame driver, through the bare engine contract
(decide + evolve), through a full replay of each log, and — when installed —
OpenSpiel's C++ tic_tac_toe via pyspiel (`pip install -e '.[bench]'`).

    python bench/cross_framework.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.engines.core import start_event  # noqa: E402

from tablero import engines  # noqa: E402


def timed(fn, seconds: float) -> tuple[int, int, float]:
    games = moves = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        moves += fn()
        games += 1
    return games, moves, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    s = ap.parse_args().seconds
    rng = random.Random(1)
    engine = engines.get("tic-tac-toe")
    logs: list[list[dict]] = []

    def local_game() -> int:
        g = engines.LocalGame("tic-tac-toe", seats=2, seed=rng.random())
        n = g.play_random(rng=rng)
        if len(logs) < 2000:
            logs.append(g.events)
        return n

    def bare_engine() -> int:
        state = engine.evolve(None, start_event(engine, 2, {}, rng))
        n = 0
        while engine.outcome(state) is None:
            seat = next(iter(engine.to_act(state)))
            for e in engine.decide(state, seat, rng.choice(engine.legal_actions(state, seat)), rng):
                state = engine.evolve(state, e)
            n += 1
        return n

    rows = [("tablero LocalGame", *timed(local_game, s)), ("tablero bare contract", *timed(bare_engine, s))]
    i = 0

    def replay() -> int:
        nonlocal i
        log = logs[i % len(logs)]
        i += 1
        engines.replay(log)
        return len(log)

    rows.append(("tablero replay (events)", *timed(replay, s)))
    try:
        import pyspiel

        game = pyspiel.load_game("tic_tac_toe")

        def spiel() -> int:
            st = game.new_initial_state()
            n = 0
            while not st.is_terminal():
                st.apply_action(rng.choice(st.legal_actions()))
                n += 1
            return n

        rows.append(("openspiel pyspiel (C++)", *timed(spiel, s)))
    except ImportError:
        print("(pyspiel not installed: pip install -e '.[bench]' to compare with OpenSpiel)")
    print(f"{'framework':26} {'games/s':>10} {'moves/s':>10} {'us/move':>9}")
    for name, games, moves, dt in rows:
        unit = "events/s" if "replay" in name else "moves/s"
        print(f"{name:26} {games / dt:10.0f} {moves / dt:10.0f} {dt / moves * 1e6:9.2f}  ({unit})")


if __name__ == "__main__":
    main()
