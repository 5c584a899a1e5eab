"""`?version=N` of a long game: how long GetGame takes for past versions (issue 10 item 5).

    python bench/past_versions.py [--engine phoenicia] [--seats 5] [--snapshot-every 100]

Plays one all-bot game to its end in process (SQLite in memory), then times GetGame at
versions just after the newest snapshot, far before it, and the head. The store keeps up
to SNAPSHOT_HISTORY past snapshots spread over the game, so a version before the newest
replays from a nearby one, not from the first event. Noisy on a shared machine; compare
the rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.server.app import commands as cmd  # noqa: E402
from tablero.server.app.service import GameService  # noqa: E402
from tablero.server.auth import TokenSigner  # noqa: E402
from tablero.server.store import SQLiteStore  # noqa: E402


async def main(a: argparse.Namespace) -> dict:
    games = GameService(SQLiteStore(), TokenSigner("s"), snapshot_every=a.snapshot_every)
    gid = (await games.create_game(cmd.CreateGame(a.engine, a.seats, seats=("bot",) * a.seats)))["game"]["id"]
    while (await games.get_game(cmd.GetGame(gid, None)))["game"]["status"] != "GAME_STATUS_FINISHED":
        await asyncio.sleep(0.05)
    await games.games.drain()
    head = (await games.get_game(cmd.GetGame(gid, None)))["game"]["version"]
    snap = (await games.store.get_snapshot(gid))[0]  # the newest
    out = {"engine": a.engine, "events": head, "newest_snapshot": snap}
    for label, v in (("just_after_snapshot", min(snap + 1, head)), ("mid_before_snapshot", max(1, snap // 2)),
                     ("first", 1), ("head", head)):
        t = time.perf_counter()
        for _ in range(a.repeat):
            await games.get_game(cmd.GetGame(gid, None, version=v))
        out[f"{label}_v{v}_ms"] = round((time.perf_counter() - t) * 1000 / a.repeat, 2)
    await games.store.close()
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--engine", default="phoenicia")
    p.add_argument("--seats", type=int, default=5)
    p.add_argument("--snapshot-every", type=int, default=100)
    p.add_argument("--repeat", type=int, default=5)
    print(json.dumps(asyncio.run(main(p.parse_args()))))
