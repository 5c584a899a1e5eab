"""A portal user's joins that race (two devices, a retried request, two replicas) hand out
one seat: found by an outside acceptance pass, where two joins at once gave one user two
seats of a game (7 in 15 tries on one replica, every try across two)."""

import asyncio

import pytest
import redis.asyncio as aioredis

from server.app import commands as cmd
from server.app.service import GameService
from server.auth import TokenSigner
from server.portal.identity import User
from server.portal.lobby import RedisLobby, SQLiteLobby
from server.store import SQLiteStore
from server.store.redis import RedisStore


@pytest.fixture(params=["sqlite-file", "redis"])
async def two_replicas(request, tmp_path):
    """Two services on one store and one lobby, as two replicas (or workers) are."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        clients = [aioredis.Redis.from_url(url) for _ in range(2)]
        stores = [RedisStore(url) for _ in range(2)]
        lobbies = [RedisLobby(c) for c in clients]
    else:
        path = str(tmp_path / "g.db")
        clients = []
        stores = [SQLiteStore(path) for _ in range(2)]
        lobbies = [SQLiteLobby(path + ".lobby") for _ in range(2)]
    services = [GameService(s, TokenSigner("s"), lobby=lb) for s, lb in zip(stores, lobbies, strict=True)]
    yield services
    for s in stores:
        await s.close()
    for c in clients:
        await c.aclose()


async def test_a_users_racing_joins_get_one_seat_on_every_replica(two_replicas):
    a, b = two_replicas
    ann = User("ann", "Ann")
    for _ in range(5):
        gid = (await a.create_game(cmd.CreateGame("goofspiel", 3, seats=("me", "open", "open"), user=ann)))["game"]["id"]
        joins = [cmd.JoinGame(gid, User("bob", "Bob")) for _ in range(4)]
        answers = await asyncio.gather(*(svc.join_game(j) for svc, j in zip((a, b, a, b), joins, strict=True)))
        assert {r["seat"] for r in answers} == {1}, answers  # one seat, the same token for every device
        assert len({r["token"] for r in answers}) == 1
        seats = (await b.get_game(cmd.GetGame(gid, None)))["game"]["seats"]
        assert [(s.get("userId"), s["claimed"]) for s in seats] == [("ann", True), ("bob", True), (None, False)]
        # The other open seat is still there for someone else.
        assert (await b.join_game(cmd.JoinGame(gid, User("cy"))))["seat"] == 2
