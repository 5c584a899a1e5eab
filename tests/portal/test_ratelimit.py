"""Rate limits: the setting's syntax, token buckets in process and shared through Redis."""

import asyncio

import pytest
import redis.asyncio as aioredis
from tablero.server.portal.ratelimit import InProcessLimiter, Rate, RedisLimiter

from tests.redis_server import RedisServer


@pytest.mark.parametrize(
    ("text", "per_second", "burst"),
    [("20/s", 20, 20), ("20/s,40", 20, 40), ("5/m,10", 5 / 60, 10), ("1/h", 1 / 3600, 1), (" 2 / s , 3 ", 2, 3)],
)
def test_rate_syntax(text, per_second, burst):
    r = Rate.parse(text)
    assert r.per_second == pytest.approx(per_second) and r.burst == burst


@pytest.mark.parametrize("text", ["", "20", "20/d", "0/s", "-1/s", "a/s", "20/s,"])
def test_bad_rates_are_refused_with_the_setting_name(text):
    with pytest.raises(ValueError, match="TABLERO_RATE_LIMIT"):
        Rate.parse(text, "TABLERO_RATE_LIMIT")


async def test_in_process_bucket_allows_the_burst_then_says_how_long_to_wait():
    lim = InProcessLimiter(Rate.parse("2/s,3"))
    assert [await lim.take("ip:1", now=100.0) for _ in range(3)] == [0, 0, 0]
    assert await lim.take("ip:1", now=100.0) == pytest.approx(0.5)
    assert await lim.take("ip:2", now=100.0) == 0  # other subjects have their own bucket
    assert await lim.take("ip:1", now=100.6) == 0  # refilled
    assert await lim.take("ip:1", now=100.6) > 0


async def test_redis_bucket_is_shared_by_every_client():
    with RedisServer() as server:
        a = aioredis.Redis.from_url(server.url)
        b = aioredis.Redis.from_url(server.url)
        try:
            la, lb = RedisLimiter(a, Rate.parse("1/m,4")), RedisLimiter(b, Rate.parse("1/m,4"))
            waits = await asyncio.gather(*(lim.take("user:ana") for lim in (la, lb, la, lb, la, lb)))
            assert sorted(w == 0 for w in waits) == [False, False, True, True, True, True]
            assert max(waits) == pytest.approx(60, abs=1)  # one token a minute
            assert await la.take("user:bob") == 0
        finally:
            await a.aclose()
            await b.aclose()
