"""Store round trips per accepted action: the app's path on main against the one the store
now allows, on one Redis (AOF everysec), G games played at once.

    python bench/store_roundtrips.py                 # 50 games x 40 actions, 3 rounds
    python bench/store_roundtrips.py --games 20 --actions 100 --rounds 5
    python bench/store_roundtrips.py --fsync always   # what appendfsync always costs

- "main path" (what server/app/service.py does per SubmitAction today): get_meta,
  request_version, read(tail after the cached version), append  -> 4 round trips
- "one-trip path": get_meta(cached=True) (no round trip after the first), then
  append_ex(cached version, expected_hash=cached head hash, tail_limit=N) with the
  request id checked inside the same script; the tail is read only when the CAS
  fails, and then it comes with the Conflict  -> 1 round trip

Printed per path: actions/s, append-path latency p50/p99, store round trips to Redis
per action. Absolute
figures vary with the machine's load; compare the rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis.asyncio as aioredis  # noqa: E402
from tablero.server.store import Conflict  # noqa: E402
from tablero.server.store.redis import RedisStore  # noqa: E402

from tests.faults.redis_proc import FaultyRedis  # noqa: E402

EVENT = {"type": "place", "seat": 0, "cell": 4}


async def main_path(store: RedisStore, g: str, n: int, lat: list[float]) -> None:
    version = 0
    for i in range(n):
        started = time.perf_counter()
        await store.get_meta(g)
        await store.request_version(g, f"r{i}")
        tail = await store.read(g, after_version=version)
        version += len(tail)
        version = await store.append(g, version, [{**EVENT, "i": i}], request_id=f"r{i}")
        lat.append(time.perf_counter() - started)


async def one_trip_path(store: RedisStore, g: str, n: int, lat: list[float]) -> None:
    version, hash_ = 0, ""
    for i in range(n):
        started = time.perf_counter()
        await store.get_meta(g, cached=True)
        while True:
            try:
                r = await store.append_ex(
                    g, version, [{**EVENT, "i": i}], request_id=f"r{i}", expected_hash=hash_, tail_limit=100
                )
                version, hash_ = r.version, r.hash
                break
            except Conflict as c:  # another writer: catch up from the tail it carries
                if c.tail is None:
                    head = await store.head(g)
                    version, hash_ = head.version, head.hash
                else:
                    version, hash_ = c.tail[-1].version, c.tail[-1].hash
        lat.append(time.perf_counter() - started)


ROUND_TRIPS = [0]


def count_round_trips(store: RedisStore) -> None:
    """Count the store's calls to Redis (each _call is one round trip)."""
    call = store._call

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        ROUND_TRIPS[0] += 1
        return await call(*args, **kwargs)

    store._call = counted  # type: ignore[method-assign]


async def bench(store: RedisStore, raw: aioredis.Redis, path, games: int, actions: int, tag: str) -> dict[str, float]:
    ids = [f"{tag}-{g}" for g in range(games)]
    for g in ids:
        await store.create(g, {"engine": "bench", "seats": ["human", "human"], "claimed": []}, [])
    ROUND_TRIPS[0] = 0
    lat: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(path(store, g, actions, lat) for g in ids))
    elapsed = time.perf_counter() - started
    calls = ROUND_TRIPS[0]
    lat.sort()
    return {
        "actions/s": games * actions / elapsed,
        "p50 ms": lat[len(lat) // 2] * 1000,
        "p99 ms": lat[int(len(lat) * 0.99)] * 1000,
        "round trips/action": calls / (games * actions),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fsync", choices=["everysec", "always", "no"], default="everysec", help="appendfsync")
    args = parser.parse_args()
    try:
        import hiredis  # noqa: F401

        parser_name = "hiredis"
    except ImportError:
        parser_name = "pure-Python parser"
    with FaultyRedis(fsync=args.fsync) as server:
        store = RedisStore(server.url)
        count_round_trips(store)
        raw = aioredis.Redis.from_url(server.url)
        print(f"Redis AOF {args.fsync}, {args.games} games x {args.actions} actions, redis-py with {parser_name}")
        try:
            results: dict[str, list[dict[str, float]]] = {"main path": [], "one-trip path": []}
            for r in range(args.rounds):  # alternate the paths, so both see the same machine load
                results["main path"].append(await bench(store, raw, main_path, args.games, args.actions, f"m{r}"))
                results["one-trip path"].append(await bench(store, raw, one_trip_path, args.games, args.actions, f"o{r}"))
            for name, rows in results.items():
                med = {k: statistics.median(row[k] for row in rows) for k in rows[0]}
                print(f"  {name:14} " + ", ".join(f"{k} {v:.1f}" for k, v in med.items()) + "  (median of rounds)")
        finally:
            await store.close()
            await raw.aclose()


if __name__ == "__main__":
    asyncio.run(main())
