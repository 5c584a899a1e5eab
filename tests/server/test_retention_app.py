"""Retention at the app level on a real Redis (issue 10 item 4): a finished game gets the
finished TTL; with trim on snapshot, versions a snapshot covers answer a clear
FAILED_PRECONDITION (GetGame ?version=N and ListEvents), later ones still answer."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis
from tablero.server.app import FailedPrecondition
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.store.redis import RedisStore, game_keys

MOVES = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]  # X wins on the top row


async def _played(store: RedisStore, snapshot_every: int) -> tuple[GameService, str]:
    games = GameService(store, TokenSigner("s"), snapshot_every=snapshot_every)
    gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
    for seat, cell in MOVES:
        await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
    await games.games.drain()  # snapshot and finish() are written off the reply path
    return games, gid


async def test_a_finished_game_expires_after_the_finished_ttl(redis_url):
    store = RedisStore(redis_url, finished_ttl=600)
    client = aioredis.from_url(redis_url)
    try:
        games, gid = await _played(store, 100)
        g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
        assert g["status"] == "GAME_STATUS_FINISHED"
        ttl = await client.pttl(game_keys(gid).events)
        assert 0 < ttl <= 600_000
        running = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        assert await client.pttl(game_keys(running).events) == -1  # kept while it runs
    finally:
        await client.aclose()
        await store.close()


async def test_trimmed_versions_say_clearly_what_is_no_longer_kept(redis_url):
    store = RedisStore(redis_url, trim_on_snapshot=True)
    try:
        games, gid = await _played(store, 4)  # snapshot at version 4: versions 1-3 trimmed
        with pytest.raises(FailedPrecondition, match="versions before 4 of this game are no longer kept"):
            await games.get_game(cmd.GetGame(gid, None, version=2))
        with pytest.raises(FailedPrecondition, match="no longer kept.*list with afterVersion=3 or later"):
            await games.list_events(cmd.ListEvents(gid, None))
        kept = await games.list_events(cmd.ListEvents(gid, None, after_version=3))
        assert [e["version"] for e in kept["events"]] == [4, 5, 6, 7] and not kept["nextPageToken"]
        assert (await games.get_game(cmd.GetGame(gid, None, version=5)))["game"]["version"] == 5
        head = (await games.get_game(cmd.GetGame(gid, None)))["game"]
        # a replica with an empty cache loads from the snapshot and the kept tail
        fresh = GameService(store, TokenSigner("s"))
        g = (await fresh.get_game(cmd.GetGame(gid, None)))["game"]
        assert g == head and g["status"] == "GAME_STATUS_FINISHED"
    finally:
        await store.close()
