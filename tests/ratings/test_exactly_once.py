"""Rating a finished game happens once: racing raters apply it once, and a game whose
finishing replica never rated it (it died right after the last append) is rated by the sweep."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis
from prometheus_client import REGISTRY
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import RedisLobby
from tablero.server.ratings.setup import attach
from tablero.server.store import open_store

MOVES = [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]  # X completes 2-4-6


async def _finished_game(games: GameService) -> str:
    gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
        {"kind": "me"}, {"kind": "human", "userId": "bea"}), user=User("al"))))["game"]["id"]
    for seat, cell in MOVES:
        await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
    await asyncio.gather(*list(games.bookkeeping.ending))  # the bookkeeping after the last move
    return gid


@pytest.fixture(params=["sqlite", "redis", "cluster"])
async def games(request, tmp_path):
    if request.param == "sqlite":
        store = open_store(None, str(tmp_path / "g.db"))
        g = GameService(store, TokenSigner("s"))
        attach(g, None, str(tmp_path / "g.db"))
        yield g
        await store.close()
        return
    if request.param == "cluster":  # every ratings key shares the {ratings} slot: the script runs there
        store = open_store(request.getfixturevalue("redis_cluster_url"), None)
        client = store._client
        await client.delete("tablero:{ratings}:journal", "tablero:{ratings}:pending", "tablero:{ratings}:seq")
        g = GameService(store, TokenSigner("s"), lobby=RedisLobby(client))
        attach(g, client)
        await g.ratings.store.reset()
        yield g
        await store.close()
        return
    url = request.getfixturevalue("fresh_redis_url")
    store, client = open_store(url, None), aioredis.from_url(url)
    g = GameService(store, TokenSigner("s"), lobby=RedisLobby(client))
    attach(g, client)
    yield g
    await client.aclose()
    await store.close()


async def test_racing_raters_apply_a_game_once(games):
    ratings = games.ratings
    games.ratings = None  # the finishing "replica" rates nothing: the racers below do
    gid = await _finished_game(games)
    games.ratings = ratings
    game = await games.games.current(gid, await games.games.meta(gid))
    results = await asyncio.gather(*(ratings.rate(game) for _ in range(8)))
    assert sorted(results) == [0] * 7 + [1]  # one applied it (sequence 1), the others found it rated
    p = (await ratings.player("al"))["player"]
    assert p["gamesPlayed"] == 1 and p["wins"] == 1 and await ratings.store.journal() == [gid]


async def test_the_sweep_rates_a_game_its_finishing_replica_did_not(games):
    ratings = games.ratings
    real = ratings.on_finished

    async def died(game):  # the replica that appended the last event died before rating it
        return None

    ratings.on_finished = died
    gid = await _finished_game(games)
    ratings.on_finished = real
    assert await ratings.store.journal() == []
    assert await ratings.sweep(time.time()) == 0  # not due yet
    assert await ratings.sweep(time.time() + 3600) == 1
    assert await ratings.store.journal() == [gid] and await ratings.store.pending_due(time.time() + 1e6, 10) == []
    assert await ratings.sweep(time.time() + 7200) == 0
    assert (await ratings.leaderboard("tic-tac-toe", 10, "", ""))["entries"][0]["userId"] == "al"


async def test_the_pending_set_is_a_gauge(games):
    """`tablero_ratings_pending`: the games registered for rating and not rated yet, as of the
    last sweep. It goes up with a finished game nobody rated, down once the sweep rates it."""
    ratings = games.ratings

    def pending() -> float | None:
        return REGISTRY.get_sample_value("tablero_ratings_pending")

    await ratings.sweep(time.time())
    assert pending() == 0
    real = ratings.on_finished

    async def died(game):  # the finishing replica died before rating it
        return None

    ratings.on_finished = died
    await _finished_game(games)
    ratings.on_finished = real
    await ratings.sweep(time.time())  # not due yet: still pending
    assert pending() == 1
    assert await ratings.sweep(time.time() + 3600) == 1
    assert pending() == 0
