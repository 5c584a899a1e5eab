"""Matchmaking: the matcher's choices, the ticket rules, a replica dying between the claim and
the game (another finishes the match, once), and the issue's bench at a smaller size."""

from __future__ import annotations

import time
import uuid

import pytest
import redis.asyncio as aioredis
from prometheus_client import REGISTRY
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.errors import FailedPrecondition, InvalidArgument, OverQuota, PermissionDenied
from tablero.server.matchmaking import matcher
from tablero.server.matchmaking.service import STALE
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import Filter, RedisLobby
from tablero.server.ratings.setup import attach
from tablero.server.store import open_store


def _t(i, user, rating, created=0.0, players=(2,), **more):
    return {"id": f"t{i}", "user": user, "rating": rating, "created": created, "players": list(players),
            "options": {}, **more}


def test_the_matcher_prefers_close_ratings_and_widens_with_the_wait():
    now = 0.0
    live = [_t(1, "a", 10), _t(2, "b", 30), _t(3, "c", 11), _t(4, "d", 29.5)]
    got = [sorted(t["user"] for t in g) for g, _ in matcher.matches(live, now)]
    assert got == [["a", "c"], ["b", "d"]]
    # 20 points apart: not at once (window 2), but after (20 - 2) / 1.5 = 12 s of waiting.
    far = [_t(1, "a", 10), _t(2, "b", 30)]
    assert matcher.matches(far, 11.9) == []
    assert len(matcher.matches(far, 12.1)) == 1
    # A ticket's own rating window caps the widening; options must be equal; one user never twice.
    assert matcher.matches([_t(1, "a", 10, ratingWindow=5), _t(2, "b", 30)], 1000) == []
    assert matcher.matches([_t(1, "a", 10, options={"x": 1}), _t(2, "b", 10)], 0) == []
    assert matcher.matches([_t(1, "a", 10), _t(2, "a", 10)], 0) == []
    # The largest table it can fill now; bots fill the smallest after botsAfter.
    three = [_t(1, "a", 10, players=(2, 3)), _t(2, "b", 10, players=(3,)), _t(3, "c", 10, players=(2, 3))]
    assert [n for _, n in matcher.matches(three, 0)] == [3]
    alone = [_t(1, "a", 10, botsAfter=5)]
    assert matcher.matches(alone, 4) == [] and [n for _, n in matcher.matches(alone, 5)] == [2]


def _unique(name: str) -> str:  # the cluster is the session's: other tests' users are there too
    return f"{name}-{uuid.uuid4().hex[:6]}"


async def _nothing(*args):
    return None


@pytest.fixture(params=["redis", "cluster"])
async def games(request):
    if request.param == "cluster":  # the tickets' keys share the {mm} slot: each script runs there
        store = open_store(request.getfixturevalue("redis_cluster_url"), None)
        client = store._client
        async for key in client.scan_iter(match="tablero:\\{mm\\}:*"):
            await client.delete(key)
    else:
        url = request.getfixturevalue("fresh_redis_url")
        store, client = open_store(url, None), aioredis.from_url(url)
    g = GameService(store, TokenSigner("s"), lobby=RedisLobby(client), max_open_games_per_user=2)
    attach(g, client)
    yield g
    if request.param == "redis":
        await client.aclose()
    await store.close()


async def test_ticket_rules(games):
    mm = games.matchmaking
    a = User(_unique("ann"), "Ann")
    with pytest.raises(InvalidArgument):
        await mm.create({"engine": "tic-tac-toe", "players": [5]}, a)
    with pytest.raises(InvalidArgument):
        await mm.create({"engine": "new-bedford", "options": {"nope": 1}}, a)
    t1 = (await mm.create({"engine": "tic-tac-toe", "requestId": "r"}, a))["ticket"]
    assert (await mm.create({"engine": "tic-tac-toe", "requestId": "r"}, a))["ticket"]["id"] == t1["id"]
    await mm.create({"engine": "tic-tac-toe"}, a)
    await mm.create({"engine": "tic-tac-toe"}, a)
    with pytest.raises(OverQuota):  # three waiting tickets at most
        await mm.create({"engine": "tic-tac-toe"}, a)
    with pytest.raises(PermissionDenied):
        await mm.get(t1["id"], User(_unique("bob")))
    assert (await mm.cancel(t1["id"], a))["ticket"]["status"] == "MATCH_TICKET_STATUS_CANCELLED"
    # Matched: tokens for each seat; the open-games cap (2 here) then refuses more tickets.
    b = User(_unique("bob"))
    for _ in range(2):
        await mm.create({"engine": "tic-tac-toe"}, b)
    assert await mm.round() == 2
    await mm.create({"engine": "tic-tac-toe"}, User(_unique("cy")))
    with pytest.raises(OverQuota):
        await mm.create({"engine": "tic-tac-toe"}, b)


async def test_a_match_claimed_by_a_replica_that_died_is_finished_once_by_another(games):
    mm = games.matchmaking
    ann, bob = User(_unique("ann")), User(_unique("bob"))
    ta = (await mm.create({"engine": "tic-tac-toe"}, ann))["ticket"]
    tb = (await mm.create({"engine": "tic-tac-toe"}, bob))["ticket"]

    async def died(match):  # the claiming replica makes the game, and dies before telling the tickets
        assign, mm.store.assign = mm.store.assign, _nothing
        try:
            await finish(match)
        finally:
            mm.store.assign = assign

    finish = mm._finish
    mm._finish = died
    assert await mm.round() == 1
    mm._finish = finish
    assert (await mm.get(ta["id"], ann))["ticket"]["status"] == "MATCH_TICKET_STATUS_WAITING"
    assert await mm.store.waiting("tic-tac-toe") == []  # claimed: matched with nobody else meanwhile
    # Another replica (a new owner) finds the stale match and finishes it; twice is harmless.
    other = type(mm)(mm.store, games)
    await other.round(time.time() + STALE + 1)
    (match_id,) = {(await mm.get(t["id"], u))["ticket"]["gameId"] for t, u in ((ta, ann), (tb, bob))}
    # The game was made before the replica died: the same id, so it is made once.
    listed, _ = await games.lobby.list(Filter(user=ann.id), 100, None)
    assert [e["gameId"] for e in listed] == [match_id]
    ga = (await mm.get(ta["id"], ann))["ticket"]
    seated = await games.get_game(cmd.GetGame(match_id, ga["seat"]))
    assert {s["userId"] for s in seated["game"]["seats"]} == {ann.id, bob.id}
    with pytest.raises(FailedPrecondition):
        await mm.cancel(ta["id"], ann)


@pytest.mark.slow
def test_two_replicas_one_killed_midway_lose_no_ticket():
    from bench.matchmaking import run

    report = run(users=60, tickets=120, rate=40)
    assert report["problems"] == [] and report["distinct ticket ids"] == 120
    assert set(report["status"]) <= {"MATCHED", "CANCELLED", "EXPIRED"}
    assert report["status"]["MATCHED"] >= 100


async def test_the_waiting_tickets_are_a_gauge(games):
    """`tablero_match_tickets_waiting`: the tickets waiting after the last matching round (an
    operator sees a queue nobody is matched from, which no metric showed)."""
    mm = games.matchmaking

    def waiting() -> float | None:
        return REGISTRY.get_sample_value("tablero_match_tickets_waiting")

    a = User(_unique("ann"), "Ann")
    t = (await mm.create({"engine": "tic-tac-toe"}, a))["ticket"]
    await mm.create({"engine": "new-bedford", "players": [2]}, a)
    assert await mm.round() == 0
    assert waiting() == 2
    await mm.cancel(t["id"], a)
    await mm.create({"engine": "new-bedford", "players": [2]}, User(_unique("bob")))
    assert await mm.round() == 1  # New Bedford's two tickets matched; nothing waits
    assert waiting() == 0
