"""Event store throughput: appends/s, read events/s and watch push latency per adapter.

    python bench/store.py                 # SQLite memory, SQLite file, Redis (own throwaway server)
    python bench/store.py --quick         # smaller counts
    python bench/store.py --cluster       # also a throwaway 3-master Redis Cluster
    python bench/store.py --repeat 5      # best of 5 rounds per figure (default 3)

Appends are single-event appends with an expected version and a request id, as
the app does them. "1 writer" is one coroutine appending to one game; "N
games" is N coroutines each appending to its own game at once. Reads replay one
long game (all at once, and in pages of 100). Push latency is the time from an
append on one store instance to its arrival at a watcher on ANOTHER instance
(another replica / process); for SQLite memory both are one instance.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack, aclosing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.server.store import EventStore, SQLiteStore  # noqa: E402
from tablero.server.store.redis import RedisStore  # noqa: E402

from tests.redis_server import RedisClusterServers, RedisServer  # noqa: E402

EVENT = {"type": "place_worker", "seat": 1, "space": "lumber_mill", "paid": {"food": 1, "wood": 0}, "bag": [3, 1, 4]}


async def bench_appends_one_writer(store: EventStore, tag: str, n: int) -> float:
    game = f"seq-{tag}"
    await store.create(game, {"engine": "bench"}, [EVENT])
    started = time.perf_counter()
    for v in range(1, n + 1):
        await store.append(game, v, [EVENT], request_id=f"r{v}")
    return n / (time.perf_counter() - started)


async def bench_appends_many_games(store: EventStore, tag: str, games: int, each: int) -> float:
    for g in range(games):
        await store.create(f"par{g}-{tag}", {"engine": "bench"}, [EVENT])

    async def writer(g: int) -> None:
        for v in range(1, each + 1):
            await store.append(f"par{g}-{tag}", v, [EVENT], request_id=f"r{v}")

    started = time.perf_counter()
    await asyncio.gather(*(writer(g) for g in range(games)))
    return games * each / (time.perf_counter() - started)


async def bench_reads(store: EventStore, tag: str, n: int, rounds: int) -> tuple[float, float]:
    game = f"long-{tag}"
    await store.create(game, {"engine": "bench"}, [EVENT] * n)
    started = time.perf_counter()
    for _ in range(rounds):
        assert len(await store.read(game)) == n
    whole = rounds * n / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(rounds):
        after = 0
        while page := await store.read(game, after, 100):
            after += len(page)
    paged = rounds * n / (time.perf_counter() - started)
    return whole, paged


async def bench_push_latency(writer: EventStore, watcher: EventStore, tag: str, n: int) -> tuple[float, float]:
    game = f"push-{tag}"
    await writer.create(game, {"engine": "bench"}, [EVENT])
    latencies: list[float] = []
    async with aclosing(watcher.watch(game, 1)) as events:
        for v in range(1, n + 1):
            arrival = asyncio.ensure_future(anext(events))
            await asyncio.sleep(0.002)  # let the watcher block first
            sent = time.perf_counter()
            await writer.append(game, v, [EVENT])
            assert (await asyncio.wait_for(arrival, 5))[0] == v + 1
            latencies.append(time.perf_counter() - sent)
    latencies.sort()
    return statistics.median(latencies) * 1000, latencies[int(len(latencies) * 0.99) - 1] * 1000


async def run(
    name: str, open_store: Callable[[], EventStore], shared: bool, quick: bool, repeat: int
) -> dict[str, str]:
    """Each figure is the best of `repeat` rounds (the machine is shared: the best is the least disturbed)."""
    scale = 0.2 if quick else 1.0
    rounds: list[tuple[float, ...]] = []
    for r in range(repeat):
        store = open_store()
        other = open_store() if shared else store
        try:
            one = await bench_appends_one_writer(store, str(r), int(2000 * scale))
            many = await bench_appends_many_games(store, str(r), 32, int(100 * scale))
            whole, paged = await bench_reads(store, str(r), int(10_000 * scale), 5)
            p50, p99 = await bench_push_latency(store, other, str(r), int(50 * scale))
        finally:
            await store.close()
            if other is not store:
                await other.close()
        rounds.append((one, many, whole, paged, p50, p99))
    one, many, whole, paged = (max(r[i] for r in rounds) for i in range(4))
    p50, p99 = (min(r[i] for r in rounds) for i in (4, 5))
    return {
        "store": name,
        "appends/s 1 writer": f"{one:,.0f}",
        "appends/s 32 games": f"{many:,.0f}",
        "read events/s": f"{whole:,.0f}",
        "read events/s (pages of 100)": f"{paged:,.0f}",
        "push p50 ms": f"{p50:.2f}",
        "push p99 ms": f"{p99:.2f}",
    }


def table(rows: list[dict[str, str]]) -> str:
    columns = list(rows[0])
    widths = [max(len(c), *(len(r[c]) for r in rows)) for c in columns]
    lines = ["  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))]
    lines += ["  ".join(r[c].rjust(w) for c, w in zip(columns, widths, strict=True)) for r in rows]
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (a smoke run)")
    parser.add_argument("--cluster", action="store_true", help="also bench a throwaway 3-master Redis Cluster")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per store; the best round is shown")
    args = parser.parse_args()
    rows = []
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tablero-bench-")))
        rows.append(await run("sqlite-memory", lambda: SQLiteStore(), False, args.quick, args.repeat))
        db = str(tmp / "bench.db")
        rows.append(await run("sqlite-file", lambda: SQLiteStore(db), True, args.quick, args.repeat))
        redis_url = stack.enter_context(RedisServer()).url
        rows.append(await run("redis", lambda: RedisStore(redis_url), True, args.quick, args.repeat))
        if args.cluster:
            cluster_url = stack.enter_context(RedisClusterServers()).url
            rows.append(await run("redis-cluster", lambda: RedisStore(cluster_url), True, args.quick, args.repeat))
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())
