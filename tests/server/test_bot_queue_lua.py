"""The thinking bots' queue script (server/app/lua/thinkers_take.lua), run on its own against a
throwaway redis-server with the key and arguments RedisBotQueue.take gives it (EVAL: the text
as shipped)."""

from __future__ import annotations

import pytest
import redis
from tablero.server import luafiles
from tablero.server.app.thinkers import BOT_ONLY_LANE as LANE
from tablero.server.app.thinkers import RedisBotQueue

from tests.lua_support import text_client

r = pytest.fixture(text_client, name="r")  # a client of a throwaway redis-server that reads text

KEY = RedisBotQueue.KEY
NOW = 1_700_000_000.25


def take(r: redis.Redis, now: float, lease: float = 20.0) -> str | None:
    return r.eval(luafiles.source("tablero.server.app", "thinkers_take"), 1, KEY, repr(now), repr(now + lease),
                  repr(LANE), repr(now + LANE), repr(now + lease + LANE))


def again(r: redis.Redis, game_id: str, now: float) -> None:
    r.eval(luafiles.source("tablero.server.app", "thinkers_again"), 1, KEY, game_id, repr(now), repr(now + LANE),
           repr(LANE))


def test_the_class_runs_the_shipped_text() -> None:
    assert RedisBotQueue._TAKE == luafiles.source("tablero.server.app", "thinkers_take")
    assert RedisBotQueue._AGAIN == luafiles.source("tablero.server.app", "thinkers_again")


def test_take_of_an_empty_queue_is_none(r: redis.Redis) -> None:
    assert take(r, NOW) is None
    assert r.exists(KEY) == 0


def test_take_leases_the_first_due_game(r: redis.Redis) -> None:
    r.zadd(KEY, {"late": NOW + 1, "second": NOW - 1, "first": NOW - 2})
    assert take(r, NOW, lease=20.0) == "first"
    assert r.zscore(KEY, "first") == NOW + 20.0  # leased: due when the lease lapses
    assert take(r, NOW) == "second"
    assert take(r, NOW) is None  # "late" is not due yet, the others are leased
    assert r.zrange(KEY, 0, -1) == ["late", "first", "second"]  # taking removes nothing


def test_a_lapsed_lease_is_taken_again(r: redis.Redis) -> None:
    r.zadd(KEY, {"g": NOW})
    assert take(r, NOW, lease=5.0) == "g"
    assert take(r, NOW + 4.9) is None
    assert take(r, NOW + 5.0, lease=5.0) == "g"
    assert r.zscore(KEY, "g") == NOW + 10.0


def test_a_due_persons_game_is_taken_before_any_bot_only_game(r: redis.Redis) -> None:
    """A game a person waits in is scored by its time; a bot-only one by its time plus LANE."""
    r.zadd(KEY, {"robots": LANE + NOW - 60, "person": NOW - 1, "later": NOW + 1, "robots-later": LANE + NOW + 1})
    assert take(r, NOW, lease=20.0) == "person"
    assert r.zscore(KEY, "person") == NOW + 20.0
    assert take(r, NOW, lease=20.0) == "robots"  # no person's game due: the bot-only one
    assert r.zscore(KEY, "robots") == NOW + 20.0 + LANE  # leased in its own lane
    assert take(r, NOW) is None  # the rest is not due yet
    assert take(r, NOW + 1) == "later"
    assert take(r, NOW + 1) == "robots-later"
    assert take(r, NOW + 20.0, lease=5.0) == "person"  # leases lapse in both lanes, people first
    assert take(r, NOW + 20.0, lease=5.0) == "robots"


def test_again_keeps_the_lane_of_the_entry(r: redis.Redis) -> None:
    r.zadd(KEY, {"robots": LANE + NOW + 20, "person": NOW + 20})
    again(r, "robots", NOW)
    again(r, "person", NOW)
    again(r, "new", NOW)  # no entry: a person's (as before the lanes)
    assert r.zscore(KEY, "robots") == LANE + NOW
    assert r.zscore(KEY, "person") == NOW and r.zscore(KEY, "new") == NOW
