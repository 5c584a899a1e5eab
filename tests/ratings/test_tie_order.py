"""Equal ratings: the order docs/ratings.md states (user id descending), the same on SQLite and
Redis, and "around me" agrees with the top-N pages (a user's rank is where the pages list them)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import RedisLobby
from tablero.server.ratings.setup import attach
from tablero.server.store import open_store

MOVES = [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]  # seat 0 completes 2-4-6


@pytest.fixture(params=["sqlite", "redis"])
async def games(request, tmp_path):
    client = None
    if request.param == "redis":
        url = request.getfixturevalue("fresh_redis_url")
        store, client = open_store(url, None), aioredis.from_url(url)
        g = GameService(store, TokenSigner("s"), lobby=RedisLobby(client))
        attach(g, client)
    else:
        store = open_store(None, str(tmp_path / "g.db"))
        g = GameService(store, TokenSigner("s"))
        attach(g, None, str(tmp_path / "g.db"))
    yield g
    if client is not None:
        await client.aclose()
    await store.close()


async def _win(games: GameService, winner: str, loser: str) -> None:
    gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
        {"kind": "me"}, {"kind": "human", "userId": loser}), user=User(winner))))["game"]["id"]
    for seat, cell in MOVES:
        await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
    await asyncio.gather(*list(games.bookkeeping.ending))


async def test_equal_ratings_are_listed_by_user_id_descending_and_around_me_agrees(games):
    await _win(games, "bob", "amy")
    await _win(games, "zed", "yan")
    board = await games.ratings.leaderboard("tic-tac-toe", 10, "", "")
    assert [e["userId"] for e in board["entries"]] == ["zed", "bob", "yan", "amy"]
    assert [e["rank"] for e in board["entries"]] == [1, 2, 3, 4]
    for e in board["entries"]:
        around = await games.ratings.leaderboard("tic-tac-toe", 1, "", e["userId"])
        assert [(x["rank"], x["userId"]) for x in around["entries"]] == [(e["rank"], e["userId"])]


async def test_around_me_keeps_its_page_full_at_either_end_of_the_board(games):
    """An outside pass asked for pageSize 5 around the last-ranked user and got 3 entries (the
    page centred past the board's end); at the top the page was already kept full."""
    await _win(games, "bob", "amy")
    await _win(games, "zed", "yan")
    await _win(games, "cid", "dot")
    board = await games.ratings.leaderboard("tic-tac-toe", 10, "", "")
    users = [e["userId"] for e in board["entries"]]
    assert len(users) == 6
    for user in users:
        around = await games.ratings.leaderboard("tic-tac-toe", 5, "", user)
        ranks = [e["rank"] for e in around["entries"]]
        assert len(ranks) == 5 and user in [e["userId"] for e in around["entries"]], (user, ranks)
    assert [e["rank"] for e in (await games.ratings.leaderboard("tic-tac-toe", 5, "", users[-1]))["entries"]] == \
        [2, 3, 4, 5, 6]


async def test_paging_back_from_a_full_page_at_the_bottom_repeats_nobody(games):
    """The verifying pass paged back from the around-me page of the last-ranked user (kept full,
    so it started off a multiple of the page size): the first page came back overlapping the one
    after it. The page before one that starts under the page size is shorter, from the top."""
    await _win(games, "bob", "amy")
    await _win(games, "zed", "yan")
    await _win(games, "cid", "dot")
    last = (await games.ratings.leaderboard("tic-tac-toe", 10, "", ""))["entries"][-1]["userId"]
    page = await games.ratings.leaderboard("tic-tac-toe", 4, "", last)
    seen = [e["rank"] for e in page["entries"]]
    assert seen == [3, 4, 5, 6]
    while page["previousPageToken"]:
        page = await games.ratings.leaderboard("tic-tac-toe", 4, page["previousPageToken"], "")
        seen = [e["rank"] for e in page["entries"]] + seen
    assert seen == [1, 2, 3, 4, 5, 6]
    # and forward again from the top, whole pages
    first = await games.ratings.leaderboard("tic-tac-toe", 4, "", "")
    assert [e["rank"] for e in first["entries"]] == [1, 2, 3, 4]
