"""Leaderboard page tokens are signed, as the API's other page tokens (server.app.paging), and
bound to their list (the engine's board), so one of another board is refused with a reason, and
a forged or unsigned one (a bare `{"o": offset}` from before) is refused. One the server could not
have issued (an offset beyond any rank, which is an int32 in the API) is 400 INVALID_ARGUMENT, on
SQLite and on Redis, not a 413 that names SQLite's integer range or a 500 from Redis."""

from __future__ import annotations

import base64
import json

import pytest
import redis.asyncio as aioredis
from tablero.server.app import GameService
from tablero.server.auth import TokenSigner
from tablero.server.errors import InvalidArgument
from tablero.server.portal.lobby import MemoryLobby, RedisLobby
from tablero.server.ratings.setup import attach
from tablero.server.store import open_store


@pytest.fixture(params=["sqlite", "redis"])
async def ratings(request):
    client = None
    if request.param == "redis":
        url = request.getfixturevalue("fresh_redis_url")
        store, client = open_store(url, None), aioredis.from_url(url)
        g = GameService(store, TokenSigner("s"), lobby=RedisLobby(client))
        attach(g, client)
    else:
        store = open_store(None, None)
        g = GameService(store, TokenSigner("s"), lobby=MemoryLobby())
        attach(g)
    yield g.ratings
    if client is not None:
        await client.aclose()
    await store.close()


def _signed(ratings, offset: int) -> str:
    """A token as the server signs them (as if it had issued this offset)."""
    return ratings.games.pages.seal(["lb", "tic-tac-toe", offset])


def _unsigned(offset: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"o": offset}).encode()).decode().rstrip("=")


@pytest.mark.parametrize("offset", [2**31, 2**63, 10**21])
async def test_a_page_token_beyond_any_rank_is_invalid_argument(ratings, offset):
    with pytest.raises(InvalidArgument, match="pageToken"):
        await ratings.leaderboard("tic-tac-toe", 5, _signed(ratings, offset), "")


async def test_an_issued_offset_past_the_end_is_an_empty_page(ratings):
    page = await ratings.leaderboard("tic-tac-toe", 5, _signed(ratings, 40), "")
    assert page["entries"] == [] and page["nextPageToken"] == ""


async def test_an_unsigned_or_altered_token_is_refused(ratings):
    for token in (_unsigned(0), _signed(ratings, 5)[:-2] + "AA"):
        with pytest.raises(InvalidArgument) as e:
            await ratings.leaderboard("tic-tac-toe", 5, token, "")
        assert e.value.reason == "PAGE_TOKEN_INVALID" and "not a token this server issued" in e.value.message


async def test_a_token_names_its_board_and_another_board_refuses_it(ratings):
    page = await ratings.leaderboard("tic-tac-toe", 5, _signed(ratings, 40), "")
    token = page["previousPageToken"]
    assert token and "40" not in token and "35" not in token
    again = await ratings.leaderboard("tic-tac-toe", 5, token, "")
    assert again["previousPageToken"] and again["nextPageToken"] == ""  # it pages on its own board
    with pytest.raises(InvalidArgument) as e:
        await ratings.leaderboard("riverboat", 5, token, "")
    assert e.value.reason == "PAGE_TOKEN_INVALID"
    assert "'tic-tac-toe' leaderboard" in e.value.message and "first page" in e.value.message
    forged = base64.urlsafe_b64encode(json.dumps(["lb", "tic-tac-toe", "x"]).encode()).decode()
    with pytest.raises(InvalidArgument, match="not a token this server issued"):
        await ratings.leaderboard("tic-tac-toe", 5, forged, "")
