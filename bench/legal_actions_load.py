"""Legal actions on or off the event loop (server/app/offload.py, TABLERO_LEGAL_EXECUTOR).

    python bench/legal_actions_load.py [seconds_per_run]

Three parts:

1. The hop: µs per `legal_actions` call of each engine's first decision, called directly
   (inline) and through `run_in_executor` on a 4-thread pool (what `thread` costs a call
   that goes to the pool). The engines' own cost is tiny beside the hop for tic-tac-toe.
2. Cheap reads on a real server (`tablero serve` in its own process, SQLite in memory): 8
   clients read one tic-tac-toe game's legal actions in a loop for `seconds_per_run`;
   requests/s and p50/p99 latency, for `inline`, `thread` (the default: inline until an
   engine's call has been slow) and `thread` with TABLERO_LEGAL_INLINE_BELOW=0 (every call
   on the pool).
3. A slow list beside cheap moves: 4 clients read a legal-action list that takes 0.4 s of
   CPU (the test engine of tests/server/test_legal_offload.py) while one client plays
   tic-tac-toe moves; the moves' p50/max, `inline` against `thread`.

On a shared 2-core machine the figures are noisy; compare runs made side by side.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.engines.core import LocalGame  # noqa: E402

from tablero import engines  # noqa: E402
from tests.server.test_legal_offload import SLOW_S, SlowEngineServer, SlowLegalActions  # noqa: E402

AUTH = "Authorization"


def hop(rounds: int = 2000) -> None:
    print("1. µs per legal_actions call, first decision (median of 5 runs)")
    print(f"{'engine':<24}{'inline':>10}{'pool hop':>10}")
    pool = concurrent.futures.ThreadPoolExecutor(4)

    async def through_pool(fn, *args) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(rounds):
            await loop.run_in_executor(pool, fn, *args)

    for name in engines.names():
        g = LocalGame(name, seats=2, seed=1)
        seat = min(g.to_act())
        fn, state = g.engine.legal_actions, g.state
        inline, hopped = [], []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(rounds):
                fn(state, seat)
            inline.append((time.perf_counter() - t) / rounds * 1e6)
            t = time.perf_counter()
            asyncio.run(through_pool(fn, state, seat))
            hopped.append((time.perf_counter() - t) / rounds * 1e6)
        print(f"{name:<24}{statistics.median(inline):>10.1f}{statistics.median(hopped):>10.1f}")
    pool.shutdown()


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] * 1000


def _readers(base: str, url: str, headers: dict[str, str], n: int, took: list[float] | None = None):
    """n client threads reading `url` in a loop (timing each read into `took`), all started
    when this returns; call the returned function to stop them."""
    clients = [httpx.Client(base_url=base, timeout=60) for _ in range(n)]  # made here: slow in a thread
    stop = threading.Event()
    ready = threading.Barrier(n + 1)

    def read(c: httpx.Client) -> None:
        ready.wait()
        while not stop.is_set():
            t = time.perf_counter()
            assert c.get(url, headers=headers).status_code == 200
            if took is not None:
                took.append(time.perf_counter() - t)

    threads = [threading.Thread(target=read, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    ready.wait()

    def finish() -> None:
        stop.set()
        for t in threads:
            t.join()
        for c in clients:
            c.close()

    return finish


def cheap_reads(seconds: float) -> None:
    print(f"\n2. tic-tac-toe legal actions, 8 clients, {seconds:.0f} s per run")
    print(f"{'executor':<34}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}")
    for label, env in (
        ("inline", {"TABLERO_LEGAL_EXECUTOR": "inline"}),
        ("thread (default)", {"TABLERO_LEGAL_EXECUTOR": "thread"}),
        ("thread, INLINE_BELOW=0 (all pool)", {"TABLERO_LEGAL_EXECUTOR": "thread", "TABLERO_LEGAL_INLINE_BELOW": "0"}),
    ):
        with SlowEngineServer(env) as server, httpx.Client(base_url=server.http) as http:
            out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            url = f"/v1/games/{out['game']['id']}/legal-actions"
            headers = {AUTH: f"Bearer {out['seats'][0]['token']}"}
            took: list[float] = []
            finish = _readers(server.http, url, headers, 8, took)
            time.sleep(seconds)
            finish()
        print(f"{label:<34}{len(took) / seconds:>8.0f}{_pct(took, 0.5):>9.2f}{_pct(took, 0.99):>9.2f}")


def slow_beside_cheap() -> None:
    print(f"\n3. tic-tac-toe moves beside 4 clients reading a {SLOW_S} s legal-action list")
    print(f"{'executor':<34}{'moves':>8}{'p50 ms':>9}{'max ms':>9}")
    for mode in ("inline", "thread"):
        with SlowEngineServer({"TABLERO_LEGAL_EXECUTOR": mode, "TABLERO_LEGAL_WORKERS": "2"}) as server, \
                httpx.Client(base_url=server.http, timeout=60) as http:
            slow = http.post("/v1/games", json={"engine": SlowLegalActions.name, "players": 2}).json()
            url = f"/v1/games/{slow['game']['id']}/legal-actions"
            headers = {AUTH: f"Bearer {slow['seats'][0]['token']}"}
            http.get(url, headers=headers)  # the first one is judged slow
            finish = _readers(server.http, url, headers, 4)
            time.sleep(0.1)
            took = []
            for _ in range(4):
                out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
                gid, (x, o) = out["game"]["id"], [s["token"] for s in out["seats"]]
                for token, cell in ((x, 0), (o, 3), (x, 1), (o, 4), (x, 2)):
                    t = time.perf_counter()
                    http.post(f"/v1/games/{gid}/actions", headers={AUTH: f"Bearer {token}"},
                              json={"action": {"type": "place", "cell": cell}})
                    took.append(time.perf_counter() - t)
            finish()
        print(f"{mode:<34}{len(took):>8}{_pct(took, 0.5):>9.1f}{max(took) * 1000:>9.1f}")


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds_per_run", nargs="?", type=float, default=5.0, help="seconds per run (default 5)")
    seconds = ap.parse_args().seconds_per_run
    hop()
    cheap_reads(seconds)
    slow_beside_cheap()


if __name__ == "__main__":
    main()
