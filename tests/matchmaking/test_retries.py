"""A retried CreateMatchTicket (same requestId) answers the ticket it made, whatever the
limits say now: a client that lost the answer and retries after its match learns its game,
even though the match's game now counts against TABLERO_MAX_OPEN_GAMES_PER_USER."""

from __future__ import annotations

import uuid

import pytest
import redis.asyncio as aioredis
from tablero.server.app import GameService
from tablero.server.auth import TokenSigner
from tablero.server.errors import InvalidArgument, OverQuota
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import MemoryLobby, RedisLobby, SQLiteLobby
from tablero.server.ratings.setup import attach
from tablero.server.store import open_store


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def games(request, tmp_path):
    client = None
    if request.param == "redis":
        url = request.getfixturevalue("fresh_redis_url")
        store, client = open_store(url, None), aioredis.from_url(url)
        lobby = RedisLobby(client)
        g = GameService(store, TokenSigner("s"), lobby=lobby, max_open_games_per_user=1)
        attach(g, client)
    elif request.param == "sqlite":
        db = str(tmp_path / "t.db")
        store = open_store(None, db)
        g = GameService(store, TokenSigner("s"), lobby=SQLiteLobby(db), max_open_games_per_user=1)
        attach(g, None, db)
    else:
        store = open_store(None, None)
        g = GameService(store, TokenSigner("s"), lobby=MemoryLobby(), max_open_games_per_user=1)
        attach(g)
    yield g
    if client is not None:
        await client.aclose()
    await store.close()


async def test_a_retry_after_the_match_answers_the_matched_ticket_at_the_open_games_cap(games):
    mm = games.matchmaking
    ann, bob = User(f"ann-{uuid.uuid4().hex[:6]}"), User(f"bob-{uuid.uuid4().hex[:6]}")
    first = (await mm.create({"engine": "tic-tac-toe", "requestId": "r1"}, ann))["ticket"]
    await mm.create({"engine": "tic-tac-toe"}, bob)
    assert await mm.round() == 1  # one match formed
    # ann now holds a running game: at the cap (1), a new ticket is refused ...
    with pytest.raises(OverQuota):
        await mm.create({"engine": "tic-tac-toe", "requestId": "r2"}, ann)
    # ... but the retry of the request that made her ticket answers it, matched, with its game.
    again = (await mm.create({"engine": "tic-tac-toe", "requestId": "r1"}, ann))["ticket"]
    assert again["id"] == first["id"] and again["status"] == "MATCH_TICKET_STATUS_MATCHED" and again["gameId"]
    # The request id is per user: another user's same id makes another ticket.
    cy = User(f"cy-{uuid.uuid4().hex[:6]}")
    assert (await mm.create({"engine": "tic-tac-toe", "requestId": "r1"}, cy))["ticket"]["id"] != first["id"]


async def test_a_request_id_too_long_is_refused_not_cut_to_a_prefix_another_request_shares(games):
    ann = User(f"ann-{uuid.uuid4().hex[:6]}")
    long_a, long_b = "x" * 128 + "a", "x" * 128 + "b"  # the same first 128 characters
    with pytest.raises(InvalidArgument, match="requestId"):
        await games.matchmaking.create({"engine": "tic-tac-toe", "requestId": long_a}, ann)
    with pytest.raises(InvalidArgument, match="requestId"):
        await games.matchmaking.create({"engine": "tic-tac-toe", "requestId": long_b}, ann)
    ok = (await games.matchmaking.create({"engine": "tic-tac-toe", "requestId": "x" * 128}, ann))["ticket"]
    assert ok["status"] == "MATCH_TICKET_STATUS_WAITING"


async def test_an_empty_ticket_id_is_invalid_argument_like_an_empty_user_id(games):
    ann = User(f"ann-{uuid.uuid4().hex[:6]}")
    for call in (games.matchmaking.get, games.matchmaking.cancel, games.matchmaking.watch):
        with pytest.raises(InvalidArgument, match="ticketId is required"):
            await call("", ann)


async def test_request_ids_of_users_whose_ids_share_a_colon_prefix_never_meet(games):
    """User "x" asking with requestId "b:c" and user "x:b" with "c" are two requests: the second
    must not get the first user's ticket (after the match it carries that user's seat token)."""
    x = f"x{uuid.uuid4().hex[:6]}"
    first = (await games.matchmaking.create({"engine": "goofspiel", "requestId": "b:c"}, User(x)))["ticket"]
    other = (await games.matchmaking.create({"engine": "goofspiel", "requestId": "c"}, User(x + ":b")))["ticket"]
    assert other["id"] != first["id"]
    assert (await games.matchmaking.store.get(other["id"]))["user"] == x + ":b"


async def test_a_request_id_reused_with_other_choices_is_refused(games):
    """An outside pass found the same requestId with another engine answered 200 with the first
    ticket, the second request dropped without a word; CreateGame refuses it. The same choices
    spelled out (a default given, timeoutSeconds the default) are the same request."""
    mm = games.matchmaking
    ann = User(f"ann-{uuid.uuid4().hex[:6]}")
    first = (await mm.create({"engine": "tic-tac-toe", "requestId": "r1", "ratingWindow": 50}, ann))["ticket"]
    for other in ({"engine": "goofspiel"}, {"engine": "tic-tac-toe"}, {"engine": "tic-tac-toe", "ratingWindow": 50,
                                                                      "timeoutSeconds": 30}):
        with pytest.raises(InvalidArgument) as refused:
            await mm.create({**other, "requestId": "r1"}, ann)
        assert refused.value.reason == "REQUEST_ID_REUSED", other
    same = await mm.create({"engine": "tic-tac-toe", "requestId": "r1", "ratingWindow": 50.0, "players": [2]}, ann)
    assert same["ticket"]["id"] == first["id"]


async def test_a_ticket_reads_the_same_whichever_copy_answers(games):
    """An outside pass saw a ticket's first watch message give botsAfterSeconds 2.0 and full
    times, the next 2 and times cut to Redis' 14 digits: the answers are normalized."""
    import json

    mm = games.matchmaking
    ann = User(f"ann-{uuid.uuid4().hex[:6]}")
    made = (await mm.create({"engine": "tic-tac-toe", "botsAfterSeconds": 2, "timeoutSeconds": 30}, ann))["ticket"]
    read = (await mm.get(made["id"], ann))["ticket"]
    cancelled = (await mm.cancel(made["id"], ann))["ticket"]
    fields = ("botsAfterSeconds", "ratingWindow", "createTime", "expireTime", "rating")
    assert json.dumps({k: made[k] for k in fields}) == json.dumps({k: read[k] for k in fields}) \
        == json.dumps({k: cancelled[k] for k in fields})
    assert made["botsAfterSeconds"] == 2.0 and made["createTime"] == round(made["createTime"], 3)
