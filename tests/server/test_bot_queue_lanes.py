"""The thinking bots' queue serves people first (outside acceptance pass: 15 games whose every
seat was a hard bot slowed a medium bot facing a person from ~0.04 s to ~2.1 s a reply): a turn
of a game a person waits in (any seat not a bot at creation: human, open, me) is always taken
before any turn of a game with only bot seats. Leases, `again`, `depth` and `oldest` hold in
both lanes, on every backend; the call sites say which lane a game is in."""

from __future__ import annotations

import asyncio

import pytest
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.app.thinkers import BOT_ONLY_LANE, MemoryBotQueue, RedisBotQueue, SQLiteBotQueue, Thinkers
from tablero.server.auth import TokenSigner
from tablero.server.store import SQLiteStore
from tablero.server.store.redis import RedisStore

from tests.server.support import small_bot_budgets


@pytest.fixture(params=["memory", "sqlite", "redis", pytest.param("redis-cluster", marks=pytest.mark.slow)])
async def queue(request, tmp_path):
    if request.param == "memory":
        yield MemoryBotQueue()
    elif request.param == "sqlite":
        yield SQLiteBotQueue(str(tmp_path / "q.sqlite"))
    else:
        cluster = request.param == "redis-cluster"  # the scripts' one key: one slot
        store = RedisStore(request.getfixturevalue("redis_cluster_url" if cluster else "fresh_redis_url"))
        if cluster:
            await store._client.delete(RedisBotQueue.KEY)  # (the cluster is the session's)
        yield RedisBotQueue(store._client)
        await store.close()


async def test_a_persons_turn_is_taken_before_any_bot_only_turn(queue):
    await queue.offer("robots-1", bot_only=True)
    await queue.offer("robots-2", bot_only=True)
    await asyncio.sleep(0.05)
    await queue.offer("person")  # offered last, taken first
    assert await queue.depth() == 3
    assert await queue.take(60) == "person"
    assert await queue.take(60) == "robots-1"  # then the bot-only turns, oldest first
    assert await queue.take(60) == "robots-2"
    assert await queue.take(60) is None  # all leased
    assert await queue.depth() == 3


async def test_leases_again_depth_and_oldest_hold_in_both_lanes(queue):
    assert await queue.oldest() == 0.0
    await queue.offer("robots", bot_only=True)
    await asyncio.sleep(0.3)
    # A bot-only turn's wait is a wait (TableroBotQueueStalled): it is not hidden by its lane.
    assert 0.3 <= await queue.oldest() < 5
    await queue.offer("person")
    assert await queue.depth() == 2
    assert await queue.take(0.3) == "person"
    assert 0.3 <= await queue.oldest() < 5  # the bot-only turn still waits
    assert await queue.take(0.3) == "robots"
    assert await queue.take(0.3) is None and await queue.oldest() == 0.0  # both leased: nothing waits
    await queue.offer("robots", bot_only=True)  # a notice while leased does not shorten the lease
    await queue.offer("person")
    assert await queue.take(0.3) is None
    await asyncio.sleep(0.35)
    # Both leases lapsed: each turn is due again in its own lane, the person's first.
    assert 0.0 < await queue.oldest() < 5
    assert await queue.take(5) == "person"
    assert await queue.take(5) == "robots"
    await queue.again("robots")  # more to think, lane kept: still behind a person's later turn
    await asyncio.sleep(0.05)
    await queue.again("person")
    assert await queue.take(5) == "person"
    assert await queue.take(5) == "robots"
    await queue.again("robots", bot_only=True)
    await queue.again("person", bot_only=False)
    assert await queue.take(5) == "person"
    await queue.release("person")
    await queue.release("robots")
    assert await queue.depth() == 0 and await queue.oldest() == 0.0 and await queue.take(5) is None


async def test_entries_from_before_the_lanes_are_a_persons_turns(fresh_redis_url):
    """An upgrade: the key's entries scored by plain epoch time (in flight or due) are still
    taken, in the person lane, and `again` keeps them there."""
    import time

    store = RedisStore(fresh_redis_url)
    try:
        queue = RedisBotQueue(store._client)
        await queue.offer("new-robots", bot_only=True)
        await store._client.zadd(RedisBotQueue.KEY, {"old-due": time.time() - 1, "old-leased": time.time() + 0.3})
        assert await queue.take(5) == "old-due"
        assert await queue.take(5) == "new-robots"
        await asyncio.sleep(0.35)
        assert await queue.take(5) == "old-leased"  # its lease lapsed
        await queue.again("old-leased")
        assert await store._client.zscore(RedisBotQueue.KEY, "old-leased") < BOT_ONLY_LANE
    finally:
        await store.close()


@pytest.fixture
def _small_budgets(monkeypatch):
    small_bot_budgets(monkeypatch)


async def _settle(games: GameService) -> None:
    """Until the offers the service started (tasks) are done."""
    for _ in range(100):
        if not games._offers:
            return
        await asyncio.sleep(0.01)


async def test_the_service_offers_each_game_in_its_lane_and_a_worker_keeps_it(_small_budgets):
    games = GameService(SQLiteStore(), TokenSigner("s"))
    robots = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("bot:hard", "bot:medium"))))["game"]["id"]
    await _settle(games)
    await asyncio.sleep(0.02)
    person = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("bot:medium", "human"))))["game"]["id"]
    await _settle(games)
    assert await games.bot_queue.depth() == 2
    assert await games.bot_queue.take(60) == person
    assert await games.bot_queue.take(60) == robots
    # A worker plays the bot-only game's turn and offers it again: in the bot-only lane still.
    thinkers = Thinkers(games, games.bot_queue, processes=0, in_process=True)
    assert await thinkers.turn(robots)
    await asyncio.sleep(0.02)
    later = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("bot:medium", "open"))))["game"]["id"]
    await _settle(games)
    assert await games.bot_queue.take(60) == later  # an open seat: someone may be waiting for the game
    assert await games.bot_queue.take(60) == robots
