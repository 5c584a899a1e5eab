"""Redis memory per finished game, per engine: random games played to the end through the
app's GameService on a RedisStore, then MEMORY USAGE summed over each game's keys.

    python bench/store_memory.py                # 5 games per engine
    python bench/store_memory.py --games 20

Printed per engine: events per game, bytes per finished game (median), split into the
event stream, the request-id hash, meta + seats + newest snapshot ("other"), the past
snapshots kept for `?version=N` ("history"), and the same after trim() (the events
the final snapshot covers dropped). Figures depend on Redis' encodings (listpack sizes),
not on machine load.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis.asyncio as aioredis  # noqa: E402
from tablero.server.app import commands as cmd  # noqa: E402
from tablero.server.app.service import GameService  # noqa: E402
from tablero.server.auth import TokenSigner  # noqa: E402
from tablero.server.store.redis import RedisStore, game_keys  # noqa: E402

from tablero import engines  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402


async def play_one(games: GameService, engine: str) -> str:
    """One random game played to its end by bot seats (the server's own random player)."""
    info = engines.get(engine)
    created = await games.create_game(cmd.CreateGame(engine, info.min_seats, seats=("bot",) * info.min_seats))
    game_id = created["game"]["id"]
    for _ in range(100_000):
        if (await games.get_game(cmd.GetGame(game_id, None)))["game"]["status"] == "GAME_STATUS_FINISHED":
            break
        await asyncio.sleep(0.02)
    await games.games.drain()
    return game_id


async def usage(raw: aioredis.Redis, game_id: str) -> dict[str, int]:
    out = {}
    for name, key in game_keys(game_id)._asdict().items():
        out[name] = int(await raw.memory_usage(key, samples=0) or 0)
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--engines", nargs="*", default=engines.names())
    args = parser.parse_args()
    with RedisServer() as server:
        store = RedisStore(server.url)
        raw = aioredis.Redis.from_url(server.url)
        games = GameService(store, TokenSigner("bench"), snapshot_every=100)
        print(f"{'engine':12} {'events':>7} {'bytes/game':>11} {'stream':>8} {'req ids':>8} {'other':>7} {'history':>8} {'trimmed':>8}")
        try:
            for engine in args.engines:
                rows = []
                for _ in range(args.games):
                    g = await play_one(games, engine)
                    before = await usage(raw, g)
                    version = await store.version(g)
                    snap = await store.get_snapshot(g)
                    if snap is None or snap[0] < version:  # what finishing a game would keep: its last state
                        final = await games.games.at(g, version)
                        await store.put_snapshot(g, final.version, final.state, final.platform)
                    await store.trim(g)
                    after = await usage(raw, g)
                    rows.append((version, before, after))
                med = statistics.median
                print(
                    f"{engine:12} {med(r[0] for r in rows):7.0f} {med(sum(r[1].values()) for r in rows):11.0f} "
                    f"{med(r[1]['events'] for r in rows):8.0f} {med(r[1]['req'] for r in rows):8.0f} "
                    f"{med(r[1]['meta'] + r[1]['claimed'] + r[1]['snap'] for r in rows):7.0f} "
                    f"{med(r[1]['snaps'] for r in rows):8.0f} "
                    f"{med(sum(r[2].values()) for r in rows):8.0f}"
                )
        finally:
            await store.close()
            await raw.aclose()


if __name__ == "__main__":
    asyncio.run(main())
