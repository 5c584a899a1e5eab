"""Moves' latency with 10 webhook endpoints (one never answering) against none, in one run.

Two `tablero serve` replicas on one Redis: A without webhooks, B with TABLERO_WEBHOOKS naming
10 endpoints (9 answering 204 at once, one holding every request until it times out). The
same players play whole tic-tac-toe games on A and on B in alternating rounds (so drift in
the machine's load hits both alike), and the moves' latencies (client side, POST
/v1/games/{id}/actions) are compared.

    python bench/webhooks.py [--rounds 4] [--games 100] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.faults.app_load import Replica  # noqa: E402
from tests.notify.play import expected_ids, play_many  # noqa: E402
from tests.notify.receiver import Receiver, secret  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--concurrency", type=int, default=8)
    ns = ap.parse_args()
    with RedisServer() as redis, Receiver(secret()) as ok, Receiver(secret(), hang=True) as never:
        hooks = [{"url": f"{ok.url}/{i}", "secret": secret(), "id": f"ep{i}"} for i in range(9)]
        hooks.append({"url": never.url, "secret": secret(), "id": "never"})
        base = {"TABLERO_REDIS_URL": redis.url}
        with_hooks = {**base, "TABLERO_WEBHOOKS": json.dumps(hooks), "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1"}
        a, b = Replica(base).start(), Replica(with_hooks).start()
        lat: dict[str, list[float]] = {"none": [], "10 endpoints": []}
        try:
            asyncio.run(play_many([a.http], 20, ns.concurrency))  # warm-up
            implied = [i for g in asyncio.run(play_many([b.http], 20, ns.concurrency)) for i in expected_ids(g)]
            t0 = time.monotonic()
            for r in range(ns.rounds):
                for name, rep in (("none", a), ("10 endpoints", b)) if r % 2 == 0 else \
                        (("10 endpoints", b), ("none", a)):
                    games = asyncio.run(play_many([rep.http], ns.games, ns.concurrency, seed=r))
                    lat[name] += [x for g in games for x in g.latencies]
                    if rep is b:
                        implied += [i for g in games for i in expected_ids(g)]
            took = time.monotonic() - t0
            # Then the backlog: every implied event to each of the 9 answering endpoints.
            drained = ok.wait_for(lambda acc: len(acc) >= 9 * len(implied), timeout=300)
            drain = time.monotonic() - t0 - took
        finally:
            a.close()
            b.close()
        print(f"{ns.rounds} rounds x {ns.games} games per side, concurrency {ns.concurrency}, {took:.0f} s; the 9 "
              f"answering endpoints had all {9 * len(implied)} deliveries {drain:.0f} s after the last move"
              + ("" if drained else f" (NOT drained: {len(ok.accepted)})"))
        print(f"{'webhooks':<14}{'moves':>7}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'mean ms':>9}")
        for name, xs in lat.items():
            print(f"{name:<14}{len(xs):>7}{pct(xs, .5):>9.2f}{pct(xs, .9):>9.2f}{pct(xs, .99):>9.2f}"
                  f"{statistics.mean(xs) * 1000:>9.2f}")
        print(f"p99 ratio (10 endpoints / none): {pct(lat['10 endpoints'], .99) / pct(lat['none'], .99):.2f}")


if __name__ == "__main__":
    main()
