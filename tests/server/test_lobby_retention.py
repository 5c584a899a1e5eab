"""Retention reaches the lobby on a real Redis: a game's lobby entry carries the game's TTL
(abandoned, finished) and goes with it, and the lobby's index (`tablero:lobby`, another slot)
loses the members of gone games in the background (RedisLobby.prune), without anyone listing."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
import redis.asyncio as aioredis
from tablero.server import runner
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.portal.lobby import RedisLobby
from tablero.server.store.redis import RedisStore, game_keys

from tests.server.support import ServerThread

INDEX = "tablero:lobby"
MOVES = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]  # X wins on the top row


@pytest.fixture(params=["lean", "redis-py"])
def lean(request) -> bool:
    """The lobby's writes over the store's lean connection (a plain server) or redis-py's client."""
    return request.param == "lean"


async def _service(redis_url: str, lean: bool, **retention) -> tuple[RedisStore, GameService, aioredis.Redis]:
    store = RedisStore(redis_url, **retention)
    client = aioredis.from_url(redis_url)
    lobby = RedisLobby(client, fast=store._lean[0] if lean and store._lean else None)
    return store, GameService(store, TokenSigner("s"), lobby=lobby), client


async def _gone(client: aioredis.Redis, key: str, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not await client.exists(key):
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_finished_games_lobby_entry_expires_with_the_game(redis_url, lean):
    store, games, client = await _service(redis_url, lean, finished_ttl=0.6)
    try:
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        k = game_keys(gid)
        assert await client.pttl(k.lobby) == -1  # a running game, no abandoned TTL: kept
        for seat, cell in MOVES:
            await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
        await games.games.drain()  # finish() runs off the reply path
        assert (await games.lobby.get(gid))["status"] == "FINISHED"
        assert 0 < await client.pttl(k.lobby) <= 600  # the status change kept the finished TTL
        assert await _gone(client, k.meta, 3)
        assert await _gone(client, k.lobby, 0.2)  # same expiry as the game's keys
        assert await client.zscore(INDEX, gid) is not None  # the index: another slot, see prune
    finally:
        await client.aclose()
        await store.close()


async def test_the_abandoned_ttl_of_the_entry_is_refreshed_by_moves_and_joins(redis_url, lean):
    ttl = 1.0
    store, games, client = await _service(redis_url, lean, abandoned_ttl=ttl)
    try:
        created = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("human", "open")))
        gid = created["game"]["id"]
        k = game_keys(gid)
        assert 0 < await client.pttl(k.lobby) <= 1000  # from the start, as the game's keys
        await asyncio.sleep(0.4)
        await games.join_game(cmd.JoinGame(gid))  # the claim refreshes it, the lobby's mark keeps it
        assert await client.pttl(k.lobby) > 800
        assert (await games.lobby.get(gid))["seats"][1]["taken"] is True
        for seat, cell in MOVES[:3]:  # 1.2 s of moves: past the first TTL, the game keeps its entry
            await asyncio.sleep(0.4)
            await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
            assert await client.pttl(k.lobby) > 800
            assert abs(await client.pttl(k.lobby) - await client.pttl(k.meta)) < 100
        assert (await games.lobby.get(gid))["status"] == "RUNNING"
        assert await _gone(client, k.meta, 3)  # nobody plays any more: abandoned
        assert await _gone(client, k.lobby, 0.2)
    finally:
        await client.aclose()
        await store.close()


async def test_delete_game_deletes_the_entry_and_finish_expires_it(redis_url):
    store, games, client = await _service(redis_url, True)
    try:
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        other = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        assert await store.finish(other, ttl=60)
        assert 0 < await client.pttl(game_keys(other).lobby) <= 60_000
        assert await store.delete_game(gid)
        assert not await client.exists(game_keys(gid).lobby)
    finally:
        await client.aclose()
        await store.close()


async def test_prune_walks_the_whole_index_and_drops_the_members_of_gone_games(fresh_redis_url):
    store, games, client = await _service(fresh_redis_url, True)
    lobby: RedisLobby = games.lobby
    try:
        running, ended, deleted = [], [], []
        for i in range(60):
            gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
            [running, ended, deleted][i % 3].append(gid)
        for gid in ended:
            assert await store.finish(gid, ttl=0.05)
        for gid in deleted:
            assert await store.delete_game(gid)
        # an entry written before entries expired with their games: its game is gone, it is not
        legacy = ended.pop()
        await asyncio.sleep(0.1)
        await client.set(game_keys(legacy).lobby, b'{"gameId": "%s"}' % legacy.encode())
        await client.zadd(INDEX, {"not{a}game": 1.0})
        assert await client.zcard(INDEX) == 61
        # a big enough index to be walked in steps (ZSCAN COUNT is a hint for a skiplist)
        await client.zadd(INDEX, {f"gone-{i}": float(i) for i in range(300)})
        removed, calls = 0, 0
        while True:
            removed += await lobby.prune(count=40)
            calls += 1
            if lobby._prune_cursor == 0:
                break
        assert calls > 2  # bounded steps, the cursor kept between them
        assert removed == 300 + len(ended) + 1 + len(deleted) + 1
        left = {m.decode() for m in await client.zrange(INDEX, 0, -1)}
        assert left == set(running)
        assert not await client.exists(game_keys(legacy).lobby)
        assert await lobby.prune() == 0  # the next walk starts again, finds nothing to drop
    finally:
        await client.aclose()
        await store.close()


def test_the_server_prunes_the_index_of_expired_games_without_a_listing(redis_url, monkeypatch):
    """As the acceptance pass found it: TABLERO_FINISHED_TTL on Redis, a game played to its
    end over HTTP, then nobody lists the lobby."""
    monkeypatch.setattr(runner, "LOBBY_PRUNE_INTERVAL", 0.1)
    raw = __import__("redis").Redis.from_url(redis_url)
    try:
        with ServerThread(redis_url=redis_url, finished_ttl=0.5) as server, \
                httpx.Client(base_url=server.http, timeout=10) as http:
            created = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            gid, tokens = created["game"]["id"], {s["seat"]: s["token"] for s in created["seats"]}
            for seat, cell in MOVES:
                r = http.post(f"/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                              headers={"Authorization": f"Bearer {tokens[seat]}"})
                assert r.status_code == 200, r.text
            assert raw.zscore(INDEX, gid) is not None
            deadline = time.monotonic() + 10
            while raw.zscore(INDEX, gid) is not None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert http.get(f"/v1/games/{gid}").status_code == 404
            assert not raw.exists(game_keys(gid).lobby)
            assert raw.zscore(INDEX, gid) is None
    finally:
        raw.close()


async def test_on_a_cluster_the_entry_expires_with_the_game_and_prune_drops_the_member(redis_cluster_url):
    """The entry's keys share the game's slot (one script each); the index is in another slot:
    the lobby writes it apart, and prune's pipelines span the cluster's nodes."""
    store = RedisStore(redis_cluster_url, finished_ttl=0.5)
    client = store._client  # as the runner gives a cluster's lobby the store's cluster client
    lobby = RedisLobby(client)
    games = GameService(store, TokenSigner("s"), lobby=lobby)
    try:
        ids = [(await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"] for _ in range(6)]
        gid, running = ids[0], ids[1:]
        for seat, cell in MOVES:
            await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
        await games.games.drain()
        k = game_keys(gid)
        assert 0 < await client.pttl(k.lobby) <= 500
        await lobby.remove(running.pop())  # RedisLobby.remove on a cluster too
        deadline = time.monotonic() + 5
        while await client.exists(k.meta) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not await client.exists(k.meta) and not await client.exists(k.lobby)
        while True:
            await lobby.prune(count=10)
            if lobby._prune_cursor == 0:
                break
        assert await client.zscore(INDEX, gid) is None
        assert all([await client.zscore(INDEX, g) is not None for g in running])
        assert all([(await lobby.get(g))["status"] == "RUNNING" for g in running])
    finally:
        await store.close()
