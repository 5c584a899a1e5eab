"""Bot levels and the thinking bots' queue (issue 34): a bot seat names its level, plain
"bot" stays easy, medium and hard bots' turns go through the store's durable queue to bot
workers in other processes, and a worker that dies mid-thought loses the turn, not the game."""

from __future__ import annotations

import asyncio
import time

import pytest
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.app.thinkers import MemoryBotQueue, RedisBotQueue, SQLiteBotQueue, Thinkers
from tablero.server.auth import TokenSigner
from tablero.server.errors import InvalidArgument
from tablero.server.store import SQLiteStore
from tablero.server.store.redis import RedisStore

from tests.server.support import small_bot_budgets


async def _until(cond, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


@pytest.fixture(autouse=True)
def _small_budgets(monkeypatch):
    small_bot_budgets(monkeypatch)


async def test_plain_bot_is_easy_and_levels_are_kept_and_checked():
    games = GameService(SQLiteStore(), TokenSigner("s"))
    g = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("human", "bot")))
    meta = await games.games.meta(g["game"]["id"])
    assert "bot_levels" not in meta  # as before levels: old games and plain bots replay alike
    g = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
        {"kind": "human"}, {"kind": "bot", "level": "hard"})))
    assert (await games.games.meta(g["game"]["id"]))["bot_levels"] == [None, "hard"]
    assert [s.get("botLevel") for s in g["game"]["seats"]] == [None, "hard"]
    # the lobby's summary says the level too (ListGames, as GetGame)
    listed = await games.list_games(cmd.ListGames())
    (summary,) = [x for x in listed["games"] if x["id"] == g["game"]["id"]]
    assert [s.get("botLevel") for s in summary["seats"]] == [None, "hard"]
    # An easy bot asked for by name is shown as such (an outside acceptance pass could not tell
    # it from a plain one); it plays as a plain one does, on the request path.
    g = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("bot:easy", "human")))
    assert [s.get("botLevel") for s in g["game"]["seats"]] == ["easy", None] and g["game"]["version"] == 2
    g = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("human", "bot:medium")))
    assert (await games.games.meta(g["game"]["id"]))["seats"] == ["human", "bot"]
    with pytest.raises(InvalidArgument, match="bot level must be one of easy, medium, hard"):
        await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
            {"kind": "human"}, {"kind": "bot", "level": "expert"})))
    with pytest.raises(InvalidArgument, match="only a bot seat has a level"):
        await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
            {"kind": "human", "level": "hard"}, {"kind": "bot"})))


@pytest.mark.slow  # a spawned process
async def test_a_hard_bot_waits_for_a_worker_and_the_worker_plays_it():
    games = GameService(SQLiteStore(), TokenSigner("s"))
    # A turn clock bounds the thought (half its seconds): the bot plays its best move so far.
    created = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
        {"kind": "human"}, {"kind": "bot", "level": "hard"}), clock={"moveSeconds": 1}))
    gid, token_seat = created["game"]["id"], 0
    await games.submit_action(cmd.SubmitAction(gid, token_seat, {"type": "place", "cell": 0}))
    await asyncio.sleep(0.05)
    # No worker yet: the request did not think, the turn waits in the queue.
    assert (await games.games.current(gid)).version == 2
    assert await games.bot_queue.depth() == 1
    thinkers = Thinkers(games, games.bot_queue, processes=1, nice=0)
    thinkers.start()
    try:
        await _until(lambda: _version_is(games, gid, 3), 120)  # a spawned process on a busy machine
        await _until(_empty(games.bot_queue))
    finally:
        await thinkers.close()
    game = await games.games.current(gid)
    assert game.to_act == {0}


async def _version_is(games, gid, v):
    return (await games.games.current(gid)).version == v


def _empty(queue):
    async def check():
        return await queue.depth() == 0
    return check


@pytest.mark.slow  # a spawned process
async def test_a_hard_and_a_medium_bot_play_a_game_to_the_end_on_a_process_pool():
    games = GameService(SQLiteStore(), TokenSigner("s"))
    thinkers = Thinkers(games, games.bot_queue, processes=1, nice=0)
    thinkers.start()
    try:
        created = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
            {"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "medium"}), clock={"moveSeconds": 1}))
        gid = created["game"]["id"]

        async def over():
            return (await games.games.current(gid)).finished
        await _until(over, 180)
    finally:
        await thinkers.close()
    assert thinkers.played >= 5


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
async def test_a_worker_that_dies_mid_thought_loses_the_turn_to_another(kind, tmp_path, request):
    if kind == "memory":
        queue = MemoryBotQueue()
    elif kind == "sqlite":
        queue = SQLiteBotQueue(str(tmp_path / "q.sqlite"))
    else:
        store = RedisStore(request.getfixturevalue("fresh_redis_url"))
        queue = RedisBotQueue(store._client)
    await queue.offer("g1")
    await queue.offer("g1")  # idempotent
    assert await queue.depth() == 1
    assert await queue.take(0.3) == "g1"  # a worker takes it, then dies (never releases)
    assert await queue.take(0.3) is None  # leased: nobody else takes it meanwhile
    await queue.offer("g1")  # a replica's notice while it is leased does not shorten the lease
    assert await queue.take(0.3) is None
    await asyncio.sleep(0.35)
    assert await queue.take(5) == "g1"  # the lease lapsed: another worker takes the turn
    await queue.again("g1")  # more to think: ready at once
    assert await queue.take(5) == "g1"
    await queue.release("g1")
    assert await queue.depth() == 0 and await queue.take(5) is None


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
async def test_the_queue_says_how_long_its_oldest_due_turn_has_waited(kind, tmp_path, request):
    """tablero_bot_queue_oldest_seconds (the TableroBotQueueStalled alert): a due turn's wait
    grows until a worker takes it; a leased turn is not waiting."""
    if kind == "memory":
        queue = MemoryBotQueue()
    elif kind == "sqlite":
        queue = SQLiteBotQueue(str(tmp_path / "q.sqlite"))
    else:
        store = RedisStore(request.getfixturevalue("fresh_redis_url"))
        queue = RedisBotQueue(store._client)
    assert await queue.oldest() == 0.0
    await queue.offer("g1")
    await asyncio.sleep(0.3)
    await queue.offer("g2")
    assert 0.3 <= await queue.oldest() < 5
    assert await queue.take(60) == "g1"  # leased: g2 is now the oldest due turn
    assert await queue.oldest() < 0.3
    await queue.release("g2")
    assert await queue.oldest() == 0.0  # g1 is in thought, nothing waits


async def test_a_game_stuck_with_a_dead_workers_lease_is_played_after_the_lease():
    games = GameService(SQLiteStore(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=(
        {"kind": "human"}, {"kind": "bot", "level": "medium"})))
    gid = created["game"]["id"]
    await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}))
    await asyncio.sleep(0.05)
    assert await games.bot_queue.take(0.5) == gid  # the dead worker's lease
    thinkers = Thinkers(games, games.bot_queue, processes=0, in_process=True, lease=5)
    thinkers.start()
    try:
        t = time.monotonic()
        await _until(lambda: _version_is(games, gid, 3))
        assert time.monotonic() - t >= 0.3  # not before the lease lapsed
    finally:
        await thinkers.close()
