"""The rate limit's script (server/portal/lua/ratelimit_take.lua), run on its own against a
throwaway redis-server with the key and arguments RedisLimiter.take gives it (EVAL: the text as
shipped). The script reads Redis' clock (TIME); the tests set a bucket's state against it."""

from __future__ import annotations

import pytest
import redis
from tablero.server import luafiles
from tablero.server.portal import ratelimit
from tablero.server.portal.ratelimit import Rate

from tests.lua_support import text_client

r = pytest.fixture(text_client, name="r")  # a client of a throwaway redis-server that reads text

KEY = "tablero:rl:{calls:user:ana}"


def take(r: redis.Redis, rate: Rate) -> int:
    """The wait in microseconds (0: allowed), as RedisLimiter.take sends it."""
    return r.eval(luafiles.source("tablero.server.portal", "ratelimit_take"), 1, KEY, repr(rate.per_second),
                  rate.burst)


def redis_now(r: redis.Redis) -> float:
    s, us = r.time()
    return s + us / 1_000_000


def test_the_limiter_runs_the_shipped_text() -> None:
    assert ratelimit._TAKE == luafiles.source("tablero.server.portal", "ratelimit_take")


def test_a_new_bucket_is_full_and_allows_its_burst(r: redis.Redis) -> None:
    rate = Rate.parse("1/m,3")
    assert [take(r, rate) for _ in range(3)] == [0, 0, 0]
    tokens = float(r.hget(KEY, "tokens"))
    assert 0 <= tokens < 0.01  # three spent (a minute's rate refills next to nothing meanwhile)
    assert abs(float(r.hget(KEY, "ts")) - redis_now(r)) < 5
    # it lives as long as it takes to fill up again, and a second more
    assert 180_000 < r.pttl(KEY) <= 181_000


def test_an_exhausted_bucket_says_how_long_to_wait_and_spends_nothing(r: redis.Redis) -> None:
    rate = Rate.parse("1/m,2")
    take(r, rate), take(r, rate)
    wait = take(r, rate)
    assert 59_000_000 < wait <= 60_000_000  # a token a minute
    assert 0 <= float(r.hget(KEY, "tokens")) < 0.01
    assert 59_000_000 < take(r, rate) <= wait  # asked again: still waiting, no debt


def test_a_bucket_refills_at_its_rate_up_to_its_burst(r: redis.Redis) -> None:
    rate = Rate.parse("1/s,4")
    r.hset(KEY, mapping={"tokens": "0", "ts": repr(redis_now(r) - 0.5)})
    wait = take(r, rate)  # half a token back: half a second more to wait
    assert 0 < wait <= 500_000
    r.hset(KEY, mapping={"tokens": "0", "ts": repr(redis_now(r) - 60)})
    assert take(r, rate) == 0  # refilled, but only to the burst
    assert 2.99 <= float(r.hget(KEY, "tokens")) <= 3.0


def test_a_clock_behind_the_bucket_refills_nothing(r: redis.Redis) -> None:
    r.hset(KEY, mapping={"tokens": "0.5", "ts": repr(redis_now(r) + 100)})
    assert 0 < take(r, Rate.parse("1/s,4")) <= 500_000
