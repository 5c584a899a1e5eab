"""The lobby, clocks and rate limits share one Redis client beside the store's: after Redis
restarts, their pooled connections are stale. The first lobby read after a restart used
to answer 503 ("Connection closed by server"), once per worker, with Redis long back."""

from __future__ import annotations

import time

from tests import plainhttp
from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerThread


def test_the_lobby_answers_right_after_a_redis_restart():
    with FaultyRedis(fsync="everysec") as redis, ServerThread(redis_url=redis.url) as s:
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2})
        assert created.status_code == 200, created.text
        assert plainhttp.get(f"{s.http}/v1/games?pageSize=1").status_code == 200  # a pooled connection now
        for pause in (0.0, 3.0):  # at once (no health check due yet), and after an idle while
            redis.kill()
            redis.start()
            time.sleep(pause)
            r = plainhttp.get(f"{s.http}/v1/games?pageSize=5")
            assert r.status_code == 200, r.text
            assert created.json()["game"]["id"] in [g["id"] for g in r.json()["games"]]
