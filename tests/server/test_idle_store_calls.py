"""An idle replica leaves its store alone. Before, every `tablero serve` asked Redis about 64
times a second with nobody playing: its bot worker looked at the bot queue every 50 ms (a script
and the read inside it) and its matcher ran a round every 100 ms (two reads). Now an idle worker
looks less and less often (up to every 0.4 s) and an idle matcher every second, and a turn or a
ticket made on the replica wakes them at once, so play waits no longer than before."""

from __future__ import annotations

import asyncio
import time

import redis
from tablero.server.app.thinkers import IDLE_POLL, MemoryBotQueue, Thinkers

from tests.redis_server import RedisServer
from tests.server.support import ServerProcess


def test_an_idle_server_asks_its_redis_a_few_times_a_second() -> None:
    with RedisServer() as store:
        env = {"TABLERO_REDIS_URL": store.url, "TABLERO_LOG_LEVEL": "warning"}
        with ServerProcess(env):
            client = redis.Redis.from_url(store.url)
            try:
                time.sleep(3)  # started: the workers have found the queue empty a few times
                client.config_resetstat()
                began = time.monotonic()
                time.sleep(4)
                stats = client.info("commandstats")
                seconds = time.monotonic() - began
            finally:
                client.close()
    calls = sum(v["calls"] for k, v in stats.items() if "resetstat" not in k and "info" not in k)
    # now about 13 a second (the bot queue, the matcher, the clock sweep, the gauges); before, 64
    assert calls / seconds < 30, stats


async def test_a_turn_offered_here_wakes_an_idle_worker_at_once() -> None:
    taken: asyncio.Queue[tuple[str, float]] = asyncio.Queue()

    class Recording(Thinkers):
        async def turn(self, game_id: str) -> bool:
            taken.put_nowait((game_id, time.monotonic()))
            await self.queue.release(game_id)
            return True

    queue = MemoryBotQueue()
    workers = Recording(None, queue, processes=0, in_process=True)
    workers.start()
    try:
        await asyncio.sleep(2 * IDLE_POLL + 0.5)  # long idle: the worker looks every IDLE_POLL
        offered = time.monotonic()
        await queue.offer("g1")
        game_id, at = await asyncio.wait_for(taken.get(), 5)
        assert game_id == "g1"
        assert at - offered < IDLE_POLL / 4, at - offered  # not at its next look
    finally:
        await workers.close()
