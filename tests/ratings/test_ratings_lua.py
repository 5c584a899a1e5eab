"""Each Lua script of the ratings (server/ratings/lua/*.lua), run on its own against a throwaway
redis-server with the keys and arguments RedisRatings gives it (EVAL: the text as shipped)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from tablero.server import luafiles
from tablero.server.ratings import store
from tablero.server.ratings.store import NONE, RECENT, Change

from tests.lua_support import text_client

r = pytest.fixture(text_client, name="r")  # a client of a throwaway redis-server that reads text

PKG = "tablero.server.ratings"
P = store._P
ENGINE = "tic-tac-toe"


def commit(r: redis.Redis, game_id: str, changes: list[Change], replay: bool = False) -> Any:
    """What RedisRatings.commit sends."""
    keys = [P + "journal", P + "pending", P + "seq", P + "lb:" + ENGINE, P + "names"]
    args: list[Any] = [game_id, ENGINE, "1" if replay else "0", len(changes)]
    for c in changes:
        keys += [P + "u:" + c.user, P + "recent:" + c.user]
        args += [c.user, c.expected or NONE, c.new, repr(c.score), c.name or "", c.recent]
    return r.eval(luafiles.source(PKG, "commit"), len(keys), *keys, *args)


def player(r: redis.Redis, user: str, count: int) -> Any:
    """What RedisRatings.player sends."""
    return r.eval(luafiles.source(PKG, "player"), 3, P + "u:" + user, P + "recent:" + user, P + "names", count, user)


def change(user: str, expected: str | None, new: str, score: float, name: str | None = None,
           recent: str = "{}") -> Change:
    return Change(user, expected, new, score, name, recent)


def test_commit_rates_every_player_of_a_game_in_one_step(r: redis.Redis) -> None:
    r.zadd(P + "pending", {"g1": 5, "g2": 6})
    seq = commit(r, "g1", [change("ana", None, "[25,8,1,1]", 1.5, "Ana", '{"g":"g1"}'),
                           change("bob", None, "[24,8,1,0]", -0.5, None, '{"g":"g1","lost":1}')])
    assert seq == 1
    assert r.hgetall(P + "u:ana") == {ENGINE: "[25,8,1,1]"} and r.hgetall(P + "u:bob") == {ENGINE: "[24,8,1,0]"}
    assert r.zrevrange(P + "lb:" + ENGINE, 0, -1, withscores=True) == [("ana", 1.5), ("bob", -0.5)]
    assert r.hgetall(P + "names") == {"ana": "Ana"}  # "" keeps the name there is (none)
    assert r.lrange(P + "recent:bob", 0, -1) == ['{"g":"g1","lost":1}']
    assert r.zrange(P + "journal", 0, -1, withscores=True) == [("g1", 1)]
    assert r.get(P + "seq") == "1"
    assert r.zrange(P + "pending", 0, -1) == ["g2"]
    assert commit(r, "g2", [change("ana", "[25,8,1,1]", "[26,7,2,2]", 2.0)]) == 2
    assert r.lrange(P + "recent:ana", 0, -1) == ["{}", '{"g":"g1"}']  # newest first
    assert r.hget(P + "names", "ana") == "Ana"


def test_commit_of_a_game_rated_already_is_0_and_changes_nothing(r: redis.Redis) -> None:
    commit(r, "g1", [change("ana", None, "[25,8,1,1]", 1.5)])
    before = {k: r.dump(k) for k in r.keys("*")}
    assert commit(r, "g1", [change("ana", "[25,8,1,1]", "[30,6,2,2]", 9.0)]) == 0
    assert {k: r.dump(k) for k in r.keys("*")} == before


def test_commit_after_a_rating_moved_is_minus_1_and_writes_nothing(r: redis.Redis) -> None:
    commit(r, "g1", [change("bob", None, "[24,8,1,0]", -0.5)])
    r.zadd(P + "pending", {"g2": 1})
    before = {k: r.dump(k) for k in r.keys("*")}
    # ana's expectation holds, bob's does not (he was rated meanwhile): neither is written
    assert commit(r, "g2", [change("ana", None, "[25,8,1,1]", 1.5), change("bob", None, "[23,8,1,0]", -1)]) == -1
    assert commit(r, "g2", [change("ana", "[25,8,1,1]", "[25,8,1,1]", 1.5)]) == -1  # she has none
    assert {k: r.dump(k) for k in r.keys("*")} == before


def test_commit_replayed_skips_the_journal_and_the_sequence(r: redis.Redis) -> None:
    commit(r, "g1", [change("ana", None, "[25,8,1,1]", 1.5)])
    r.delete(P + "u:ana", P + "lb:" + ENGINE, P + "recent:ana")  # a rebuild starts from nothing
    assert commit(r, "g1", [change("ana", None, "[25,8,1,1]", 1.5)], replay=True) == 1
    assert r.hget(P + "u:ana", ENGINE) == "[25,8,1,1]" and r.zscore(P + "lb:" + ENGINE, "ana") == 1.5
    assert r.get(P + "seq") == "1" and r.zrange(P + "journal", 0, -1, withscores=True) == [("g1", 1)]
    assert commit(r, "g1", [change("ana", "[25,8,1,1]", "[26,8,2,2]", 2)], replay=True) == 1  # again: no check


def test_commit_keeps_each_users_newest_recent_games(r: redis.Redis) -> None:
    rating = None
    for i in range(RECENT + 3):
        new = f"[{i},8,{i + 1},0]"
        assert commit(r, f"g{i}", [change("ana", rating, new, i, recent=f'{{"g":{i}}}')]) == i + 1
        rating = new
    assert r.lrange(P + "recent:ana", 0, -1) == [f'{{"g":{i}}}' for i in range(RECENT + 2, 2, -1)]


def test_player_of_nobody_is_empty(r: redis.Redis) -> None:
    assert player(r, "ghost", RECENT) == [[], [], ""]


def test_player_reads_the_ratings_the_recent_games_and_the_name(r: redis.Redis) -> None:
    commit(r, "g1", [change("ana", None, "[25,8,1,1]", 1.5, "Ana", '{"g":1}')])
    r.hset(P + "u:ana", "go", "[20,8,1,0]")
    commit(r, "g2", [change("ana", "[25,8,1,1]", "[26,7,2,2]", 2.0, recent='{"g":2}')])
    flat, recent, name = player(r, "ana", 1)
    assert dict(zip(flat[::2], flat[1::2], strict=True)) == {ENGINE: "[26,7,2,2]", "go": "[20,8,1,0]"}
    assert recent == ['{"g":2}'] and name == "Ana"
    assert player(r, "ana", RECENT)[1] == ['{"g":2}', '{"g":1}']
