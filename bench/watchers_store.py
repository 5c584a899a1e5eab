"""Live play at scale, at the store level: W watchers on G games on one RedisStore (one replica)
while the G games are played, against the same play without watchers.

    python bench/watchers_store.py                      # 2,000 watchers on 50 games, Redis with AOF everysec
    python bench/watchers_store.py --watchers 500 --games 20 --moves 20
    python bench/watchers_store.py --sqlite             # the same on a SQLite file (one process)

Each game is played by one writer: `moves` single-event appends (append_ex with the
cached version and a request id, as the app does them), one after another. Printed:
Redis connections the replica holds (CLIENT LIST, without the bench's own) idle with
watchers and at the end, events delivered (and whether every watcher got every event of
its game in order), and append latency p50/p99 with and without watchers. The machine is
shared: absolute figures are noisy; compare the two rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis.asyncio as aioredis  # noqa: E402
from tablero.server.store import EventStore, SQLiteStore  # noqa: E402
from tablero.server.store.redis import RedisStore  # noqa: E402

from tests.faults.redis_proc import FaultyRedis  # noqa: E402

EVENT = {"type": "place", "seat": 1, "cell": 4, "pad": "x" * 60}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] * 1000


async def play(store: EventStore, games: list[str], moves: int) -> list[float]:
    latencies: list[float] = []

    async def one(g: str) -> None:
        version = await store.version(g)
        for m in range(moves):
            started = time.perf_counter()
            version = (await store.append_ex(g, version, [{**EVENT, "m": m}], request_id=f"r{m}")).version
            latencies.append(time.perf_counter() - started)

    await asyncio.gather(*(one(g) for g in games))
    return latencies


async def run(store: EventStore, raw: aioredis.Redis | None, n_games: int, n_watchers: int, moves: int, tag: str) -> None:
    async def connections() -> int | str:
        if raw is None:
            return "-"
        return sum(1 for c in await raw.client_list() if c.get("name") != "bench")

    # Without watchers
    plain = [f"plain-{tag}-{g}" for g in range(n_games)]
    for g in plain:
        await store.create(g, {"engine": "bench"}, [])
    warm = [f"warm-{tag}-{g}" for g in range(5)]
    for g in warm:
        await store.create(g, {"engine": "bench"}, [])
    await play(store, warm, 3)  # warm the scripts and pools
    without = await play(store, plain, moves)

    # With watchers
    games = [f"watched-{tag}-{g}" for g in range(n_games)]
    for g in games:
        await store.create(g, {"engine": "bench"}, [])
    per_game = n_watchers // n_games
    delivered = 0
    in_order = True

    async def watcher(g: str) -> None:
        nonlocal delivered, in_order
        expected = 1
        async for version, event in store.watch(g, 0):
            if version != expected or event["m"] != version - 1:
                in_order = False
            expected += 1
            delivered += 1
            if version == moves:
                return

    tasks = [asyncio.ensure_future(watcher(g)) for g in games for _ in range(per_game)]
    await asyncio.sleep(2.0)
    idle = await connections()
    started, cpu = time.perf_counter(), time.process_time()
    with_w = await play(store, games, moves)
    written = time.perf_counter() - started
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    all_delivered = time.perf_counter() - started
    cpu = time.process_time() - cpu
    busy = await connections()
    expected_total = per_game * n_games * moves
    print(f"  games {n_games}, watchers {per_game * n_games} ({per_game}/game), moves/game {moves}")
    print(f"  connections held: idle with watchers {idle}, after the run {busy}")
    print(f"  events delivered: {delivered} of {expected_total}, every watcher in order: {in_order and delivered == expected_total}")
    print(f"  writes {len(with_w)} in {written:.2f} s; last event delivered {all_delivered:.2f} s after the first write"
          f" (this process used {cpu:.2f} s of CPU meanwhile)")
    print(f"  append latency without watchers: p50 {pct(without, 0.5):.2f} ms, p99 {pct(without, 0.99):.2f} ms")
    print(f"  append latency with watchers:    p50 {pct(with_w, 0.5):.2f} ms, p99 {pct(with_w, 0.99):.2f} ms"
          f"  (p99 ratio {pct(with_w, 0.99) / max(pct(without, 0.99), 1e-9):.2f}x)")
    print(f"  mean {statistics.mean(with_w) * 1000:.2f} ms with, {statistics.mean(without) * 1000:.2f} ms without")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--write-pool", type=int, default=16)
    parser.add_argument("--read-pool", type=int, default=16)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file instead of Redis")
    args = parser.parse_args()
    if args.sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            store = SQLiteStore(str(Path(tmp) / "bench.db"))
            print("SQLite file store")
            try:
                await run(store, None, args.games, args.watchers, args.moves, "s")
            finally:
                await store.close()
        return
    with FaultyRedis(fsync="everysec") as server:
        store = RedisStore(server.url, write_pool_size=args.write_pool, read_pool_size=args.read_pool)
        raw = aioredis.Redis.from_url(server.url, client_name="bench")
        print(f"Redis {server.url} (AOF everysec), write pool {args.write_pool}, read pool {args.read_pool}")
        try:
            await run(store, raw, args.games, args.watchers, args.moves, "r")
        finally:
            await store.close()
            await raw.aclose()


if __name__ == "__main__":
    asyncio.run(main())
