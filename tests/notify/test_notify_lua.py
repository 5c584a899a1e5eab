"""Each Lua script of the notification queue (server/notify/lua/*.lua), run on its own against a
throwaway redis-server with the keys and arguments RedisQueue gives it (EVAL: the text as
shipped)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from tablero.server.notify import queue

from tests.lua_support import run_script, text_client

r = pytest.fixture(text_client, name="r")  # a client of a throwaway redis-server that reads text

P = queue.P
NOW = 1_000_000_000  # us: the scripts take every time from their caller
LEASE = 30_000_000


def run(r: redis.Redis, name: str, keys: list[str], *args: Any) -> Any:
    return run_script(r, "tablero.server.notify", name, keys, *args)


def commit(r: redis.Redis, game: str, old: str, new: str, *deliveries: str, now: int = NOW, ttl_ms: int = 0) -> Any:
    return run(r, "commit", [P + "cursor:" + game, P], game, old, new, now, ttl_ms, *deliveries)


def claim(r: redis.Redis, target: str, now: int, limit: int = 10) -> list[Any]:
    return run(r, "claim", [P], target, now, now + LEASE, limit)


def settle(r: redis.Redis, target: str, lane: str, token: int | str, action: str, due: int, extra: str = "") -> Any:
    return run(r, "settle", [P], target, lane, token, action, due, extra)


def lane(r: redis.Redis, target: str, name: str) -> list[str]:
    return r.lrange(P + "lane:" + target + "|" + name, 0, -1)


def test_commit_moves_the_cursor_opens_the_game_and_queues_each_delivery_on_its_lane(r: redis.Redis) -> None:
    assert commit(r, "g1", "", "c1", "hook", "g1", "e1", "hook", "g1", "e2", "push", "g1", "p1") == 1
    assert r.get(P + "cursor:g1") == "c1" and r.pttl(P + "cursor:g1") == -1  # kept for ever
    assert r.zscore(P + "open", "g1") == NOW
    assert lane(r, "hook", "g1") == ["e1", "e2"] and lane(r, "push", "g1") == ["p1"]
    assert r.hgetall(P + "depth") == {"hook": "2", "push": "1"}
    assert r.zrange(P + "due:hook", 0, -1, withscores=True) == [("g1", NOW)]


def test_commit_refuses_a_cursor_that_moved_and_writes_nothing(r: redis.Redis) -> None:
    assert commit(r, "g1", "c0", "c1", "hook", "g1", "e1") == 0  # expected a cursor, there is none
    assert r.keys("*") == []
    commit(r, "g1", "", "c1")
    assert commit(r, "g1", "", "c2", "hook", "g1", "e1") == 0
    assert commit(r, "g1", "c0", "c2", "hook", "g1", "e1") == 0
    assert r.get(P + "cursor:g1") == "c1" and lane(r, "hook", "g1") == []


def test_commit_to_a_lane_already_due_keeps_its_score(r: redis.Redis) -> None:
    commit(r, "g1", "", "c1", "hook", "g1", "e1")
    (_, i, _, _) = claim(r, "hook", NOW)
    assert commit(r, "g1", "c1", "c2", "hook", "g1", "e2", now=NOW + 5) == 1
    assert r.zscore(P + "due:hook", "g1") == NOW + LEASE + i  # still the claim's token
    assert r.zscore(P + "open", "g1") == NOW + 5
    assert lane(r, "hook", "g1") == ["e1", "e2"]


def test_commit_of_a_finished_game_keeps_its_cursor_for_the_ttl_and_closes_it(r: redis.Redis) -> None:
    commit(r, "g1", "", "c1")
    assert commit(r, "g1", "c1", "c2", "hook", "g1", "e9", ttl_ms=60_000) == 1
    assert r.get(P + "cursor:g1") == "c2" and 0 < r.pttl(P + "cursor:g1") <= 60_000
    assert r.zscore(P + "open", "g1") is None
    assert lane(r, "hook", "g1") == ["e9"]


def test_claim_of_nothing_due_is_empty(r: redis.Redis) -> None:
    assert claim(r, "hook", NOW) == []
    commit(r, "g1", "", "c1", "hook", "g1", "e1", now=NOW + 10)
    assert claim(r, "hook", NOW) == []  # due later
    assert claim(r, "push", NOW + 10) == []  # another target's lanes


def test_claim_leases_the_due_lanes_oldest_first_with_their_heads_and_attempts(r: redis.Redis) -> None:
    commit(r, "g2", "", "c", "hook", "g2", "b1", now=NOW + 2)
    commit(r, "g1", "", "c", "hook", "g1", "a1", "hook", "g1", "a2", now=NOW + 1)
    commit(r, "g3", "", "c", "hook", "g3", "c1", now=NOW + 3)
    r.hset(P + "att", "hook|g1", '{"n":1}')
    assert claim(r, "hook", NOW + 3, limit=2) == ["g1", 1, "a1", '{"n":1}', "g2", 2, "b1", ""]
    base = NOW + 3 + LEASE
    assert r.zrange(P + "due:hook", 0, -1, withscores=True) == [("g3", NOW + 3), ("g1", base + 1), ("g2", base + 2)]
    assert lane(r, "hook", "g1") == ["a1", "a2"]  # claiming sends nothing: the head stays
    assert claim(r, "hook", NOW + 3) == ["g3", 1, "c1", ""]  # the leased lanes are not due again
    assert claim(r, "hook", base) == []  # ...until their lease runs out
    # g1's lease and g3's (claimed at the same now, first in its claim) end together
    assert claim(r, "hook", base + 1) == ["g1", 1, "a1", '{"n":1}', "g3", 2, "c1", ""]


def test_claim_drops_a_due_lane_that_is_empty(r: redis.Redis) -> None:
    r.zadd(P + "due:hook", {"gone": NOW})
    assert claim(r, "hook", NOW) == []
    assert r.exists(P + "due:hook") == 0


def test_settle_needs_the_claims_token(r: redis.Redis) -> None:
    assert settle(r, "hook", "g1", 5, "ack", NOW) == 0  # no such lane
    commit(r, "g1", "", "c", "hook", "g1", "e1")
    claim(r, "hook", NOW)
    token = NOW + LEASE + 1
    for action in ("ack", "retry", "dead"):
        assert settle(r, "hook", "g1", token - 1, action, NOW, "{}") == 0
    assert lane(r, "hook", "g1") == ["e1"] and r.hget(P + "depth", "hook") == "1" and r.llen(P + "dead") == 0
    assert settle(r, "hook", "g1", str(token), "ack", NOW) == 1  # the token as the caller sends it: text


def test_settle_retry_keeps_the_head_and_its_attempt_and_makes_the_lane_due_then(r: redis.Redis) -> None:
    commit(r, "g1", "", "c", "hook", "g1", "e1")
    claim(r, "hook", NOW)
    assert settle(r, "hook", "g1", NOW + LEASE + 1, "retry", NOW + 500, '{"attempt":1}') == 1
    assert lane(r, "hook", "g1") == ["e1"] and r.hget(P + "depth", "hook") == "1"
    assert r.zscore(P + "due:hook", "g1") == NOW + 500
    assert claim(r, "hook", NOW + 500) == ["g1", 1, "e1", '{"attempt":1}']


def test_settle_ack_pops_the_head_and_the_next_is_due_or_the_lane_leaves(r: redis.Redis) -> None:
    commit(r, "g1", "", "c", "hook", "g1", "e1", "hook", "g1", "e2")
    claim(r, "hook", NOW)
    r.hset(P + "att", "hook|g1", '{"attempt":2}')
    assert settle(r, "hook", "g1", NOW + LEASE + 1, "ack", NOW + 7) == 1
    assert lane(r, "hook", "g1") == ["e2"] and r.hget(P + "depth", "hook") == "1"
    assert r.hget(P + "att", "hook|g1") is None
    assert r.zscore(P + "due:hook", "g1") == NOW + 7
    claim(r, "hook", NOW + 7)
    assert settle(r, "hook", "g1", NOW + 7 + LEASE + 1, "ack", NOW + 8) == 1
    assert lane(r, "hook", "g1") == [] and r.hget(P + "depth", "hook") == "0"
    assert r.zscore(P + "due:hook", "g1") is None


def test_settle_dead_pops_the_head_into_the_dead_letters(r: redis.Redis) -> None:
    commit(r, "g1", "", "c", "hook", "g1", "e1")
    claim(r, "hook", NOW)
    assert settle(r, "hook", "g1", NOW + LEASE + 1, "dead", NOW, '{"dead":1}') == 1
    assert r.lrange(P + "dead", 0, -1) == ['{"dead":1}']
    assert lane(r, "hook", "g1") == [] and r.hget(P + "depth", "hook") == "0" and r.exists(P + "due:hook") == 0


def dead(target: str, lane_: str, event_id: str) -> str:
    raw = json.dumps({"event": {"id": event_id}})
    return json.dumps({"target": target, "lane": lane_, "raw": raw, "item": {"event": {"id": event_id}}})


def test_replay_of_no_dead_letters_is_nothing(r: redis.Redis) -> None:
    assert run(r, "replay", [P], NOW, "*") == 0
    assert r.keys("*") == []


def test_replay_puts_every_dead_letter_back_at_the_end_of_its_lane(r: redis.Redis) -> None:
    commit(r, "g1", "", "c", "hook", "g1", "e3", now=NOW - 9)
    r.rpush(P + "dead", dead("hook", "g1", "e1"), dead("hook", "g2", "e2"), dead("push", "g1", "e4"))
    assert run(r, "replay", [P], NOW, "*") == 3
    assert lane(r, "hook", "g1") == ["e3", json.dumps({"event": {"id": "e1"}})]
    assert lane(r, "hook", "g2") == [json.dumps({"event": {"id": "e2"}})]
    assert r.hgetall(P + "depth") == {"hook": "3", "push": "1"}
    assert r.zrange(P + "due:hook", 0, -1, withscores=True) == [("g1", NOW - 9), ("g2", NOW)]  # g1 was due
    assert r.zscore(P + "due:push", "g1") == NOW
    assert r.exists(P + "dead") == 0


def test_replay_of_one_event_keeps_the_others_dead_in_their_order(r: redis.Redis) -> None:
    others = [dead("hook", "g1", "e1"), dead("hook", "g3", "e3"), dead("hook", "g4", "e4")]
    r.rpush(P + "dead", others[0], dead("hook", "g2", "e2"), *others[1:])
    assert run(r, "replay", [P], NOW, "e2") == 1
    assert lane(r, "hook", "g2") == [json.dumps({"event": {"id": "e2"}})]
    assert r.lrange(P + "dead", 0, -1) == others
    assert run(r, "replay", [P], NOW, "nope") == 0
    assert r.lrange(P + "dead", 0, -1) == others


def test_drop_deletes_a_targets_lanes_and_attempts_in_steps_and_leaves_the_others(r: redis.Redis) -> None:
    commit(r, "g1", "", "c1", "gone", "g1", "e1", "gone", "g1", "e2", "hook", "g1", "h1")
    commit(r, "g2", "", "c2", "gone", "g2", "e3")
    commit(r, "g3", "", "c3", "gone", "g3", "e4")
    lane_, token = claim(r, "gone", NOW, 1)[:2]
    assert lane_ == "g1"
    settle(r, "gone", "g1", token, "retry", NOW + 5, '{"attempt":1}')  # an attempt kept; due last
    r.rpush(P + "dead", dead("gone", "g9", "e9"))
    assert run(r, "drop", [P], "gone", 2) == [2, 2]  # the two lanes due first (g2, g3): g1 left
    assert r.hget(P + "depth", "gone") == "2" and r.zrange(P + "due:gone", 0, -1) == ["g1"]
    assert run(r, "drop", [P], "gone", 2) == [1, 2]
    assert run(r, "drop", [P], "gone", 2) == [0, 0]
    assert [k for k in r.keys("*") if "gone" in k] == [] and r.llen(P + "dead") == 1  # its dead letters stay
    assert r.hgetall(P + "depth") == {"hook": "1"} and r.hgetall(P + "att") == {}
    assert lane(r, "hook", "g1") == ["h1"]


def test_take_open_of_none_is_empty(r: redis.Redis) -> None:
    assert run(r, "take_open", [P], NOW, NOW, 10) == []
    assert r.keys("*") == []


def test_take_open_hands_out_the_games_checked_longest_ago_with_their_cursors(r: redis.Redis) -> None:
    r.zadd(P + "open", {"g1": NOW - 30, "g2": NOW - 20, "g3": NOW - 10, "g4": NOW})
    r.set(P + "cursor:g2", "c2")
    assert run(r, "take_open", [P], NOW - 10, NOW + 1, 2) == ["g1", "", "g2", "c2"]
    assert r.zrange(P + "open", 0, -1, withscores=True) == [("g3", NOW - 10), ("g4", NOW), ("g1", NOW + 1),
                                                            ("g2", NOW + 1)]
    assert run(r, "take_open", [P], NOW - 10, NOW + 2, 5) == ["g3", ""]  # the others count as checked now
    assert run(r, "take_open", [P], NOW - 20, NOW + 3, 5) == []
