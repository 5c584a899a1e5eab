"""Each Lua script of the matchmaking tickets (server/matchmaking/lua/*.lua), run on its own
against a throwaway redis-server with the keys and arguments RedisTickets gives it (EVAL: the
text as shipped)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import redis
from tablero.server import luafiles
from tablero.server.matchmaking import store
from tablero.server.matchmaking.store import KEEP_ENDED, MAX_WAITING, request_key

from tests.lua_support import run_script, text_client

r = pytest.fixture(text_client, name="r")  # a client of a throwaway redis-server that reads text

PKG = "tablero.server.matchmaking"
P = store._P
NOW = 1000.0


def run(r: redis.Redis, name: str, keys: list[str], *args: Any) -> Any:
    return run_script(r, PKG, name, keys, *args)


def ticket(tid: str, user: str = "ana", engine: str = "tic-tac-toe", expires: float = NOW + 60) -> dict[str, Any]:
    return {"id": tid, "user": user, "engine": engine, "created": NOW, "expires": expires, "status": "WAITING",
            "version": 1}


def add(r: redis.Redis, t: dict[str, Any], request_id: str = "") -> Any:
    u = t["user"]
    keys = [P + "t:" + t["id"], P + "q:" + t["engine"], P + "engines", P + "w:" + u, P + "r:" + request_key(u, request_id)]
    return run(r, "add", keys, json.dumps(t), t["created"], t["id"], t["engine"], MAX_WAITING,
               "1" if request_id else "0")


def end(r: redis.Redis, status: str, now: float, *ids: str) -> list[str]:
    return run(r, "end", [P + "m"], status, now, KEEP_ENDED, *ids)


def claim(r: redis.Redis, match_id: str, *ids: str, claimed: float = NOW) -> Any:
    match = {"id": match_id, "claimed": claimed, "seats": [{"ticket": i} for i in ids]}
    return run(r, "claim", [P + "m"], json.dumps(match), match_id, claimed, *ids)


def assign(r: redis.Redis, match_id: str, now: float, *pairs: Any) -> Any:
    return run(r, "assign", [P + "m"], match_id, now, KEEP_ENDED, *pairs)


def get(r: redis.Redis, tid: str) -> dict[str, Any] | None:
    raw = r.get(P + "t:" + tid)
    return None if raw is None else json.loads(raw)


def test_every_script_that_builds_keys_builds_them_with_the_stores_prefix() -> None:
    for name in ("add", "end", "claim", "assign"):
        assert luafiles.constant(PKG, name, "P") == P, name


def test_add_writes_a_waiting_ticket_into_its_queue(r: redis.Redis) -> None:
    t = ticket("t1")
    assert json.loads(add(r, t)) == t
    assert get(r, "t1") == t and r.ttl(P + "t:t1") == -1
    assert r.zrange(P + "q:tic-tac-toe", 0, -1, withscores=True) == [("t1", NOW)]
    assert r.smembers(P + "engines") == {"tic-tac-toe"}
    assert r.smembers(P + "w:ana") == {"t1"}
    assert r.keys(P + "r:*") == []  # no request id: none recorded


def test_add_with_a_known_request_id_answers_the_earlier_ticket(r: redis.Redis) -> None:
    first = ticket("t1")
    add(r, first, request_id="req")
    assert r.get(P + "r:" + request_key("ana", "req")) == "t1"
    assert 86000 < r.ttl(P + "r:" + request_key("ana", "req")) <= 86400
    assert json.loads(add(r, ticket("t2"), request_id="req")) == first
    assert get(r, "t2") is None and r.smembers(P + "w:ana") == {"t1"}


def test_add_with_a_request_id_whose_ticket_is_gone_adds_the_new_one(r: redis.Redis) -> None:
    add(r, ticket("t1"), request_id="req")
    r.delete(P + "t:t1")
    assert json.loads(add(r, ticket("t2"), request_id="req"))["id"] == "t2"
    assert r.get(P + "r:" + request_key("ana", "req")) == "t2"


def test_add_refuses_a_user_with_too_many_waiting_tickets(r: redis.Redis) -> None:
    for i in range(MAX_WAITING):
        add(r, ticket(f"t{i}"))
    assert add(r, ticket("over"), request_id="req") == ""
    assert get(r, "over") is None and r.zcard(P + "q:tic-tac-toe") == MAX_WAITING
    assert r.exists(P + "r:" + request_key("ana", "req")) == 0
    assert json.loads(add(r, ticket("bob1", user="bob")))["id"] == "bob1"  # another user's count


def test_end_cancels_a_waiting_ticket_and_answers_it(r: redis.Redis) -> None:
    add(r, ticket("t1"))
    (raw,) = end(r, "CANCELLED", NOW + 1, "t1")
    t = json.loads(raw)
    assert (t["status"], t["version"], t["endTime"]) == ("CANCELLED", 2, NOW + 1)
    assert get(r, "t1") == t and KEEP_ENDED - 5 < r.ttl(P + "t:t1") <= KEEP_ENDED
    assert r.zcard(P + "q:tic-tac-toe") == 0 and r.scard(P + "w:ana") == 0
    assert end(r, "CANCELLED", NOW + 2, "t1") == [raw]  # ended already: answered as it is


def test_end_expires_only_the_tickets_past_their_expiry_and_answers_unknown_ones_empty(r: redis.Redis) -> None:
    add(r, ticket("old", expires=NOW + 5))
    add(r, ticket("new", expires=NOW + 50))
    old, new, unknown = end(r, "EXPIRED", NOW + 5, "old", "new", "nope")
    assert json.loads(old)["status"] == "EXPIRED" and json.loads(new) == ticket("new", expires=NOW + 50)
    assert unknown == ""
    assert r.zrange(P + "q:tic-tac-toe", 0, -1) == ["new"] and r.smembers(P + "w:ana") == {"new"}
    assert r.ttl(P + "t:new") == -1


def test_end_leaves_a_claimed_ticket_alone(r: redis.Redis) -> None:
    add(r, ticket("t1"))
    claim(r, "m1", "t1")
    (raw,) = end(r, "CANCELLED", NOW, "t1")
    assert json.loads(raw)["status"] == "MATCHING" and get(r, "t1")["status"] == "MATCHING"


def test_claim_takes_every_ticket_of_a_match_out_of_the_queue_and_records_the_match(r: redis.Redis) -> None:
    add(r, ticket("a1"))
    add(r, ticket("b1", user="bob"))
    add(r, ticket("c1", user="cy"))
    assert claim(r, "m1", "a1", "b1", claimed=NOW + 3) == 1
    for tid in ("a1", "b1"):
        t = get(r, tid)
        assert (t["status"], t["match"], t["version"]) == ("MATCHING", "m1", 1)
    assert r.zrange(P + "q:tic-tac-toe", 0, -1) == ["c1"]
    assert r.scard(P + "w:ana") == 0 and r.scard(P + "w:bob") == 0
    assert json.loads(r.get(P + "m:m1"))["seats"] == [{"ticket": "a1"}, {"ticket": "b1"}]
    assert r.zrange(P + "m", 0, -1, withscores=True) == [("m1", NOW + 3)]


def test_claim_with_a_ticket_not_waiting_or_unknown_writes_nothing(r: redis.Redis) -> None:
    add(r, ticket("a1"))
    add(r, ticket("b1", user="bob"))
    claim(r, "m1", "b1")
    before = {k: r.dump(k) for k in r.keys("*")}
    assert claim(r, "m2", "a1", "b1") == 0  # b1 is in m1
    assert claim(r, "m3", "a1", "gone") == 0
    assert {k: r.dump(k) for k in r.keys("*")} == before
    assert get(r, "a1")["status"] == "WAITING"


def test_assign_matches_the_tickets_of_its_match_and_drops_the_record(r: redis.Redis) -> None:
    add(r, ticket("a1"))
    add(r, ticket("b1", user="bob"))
    add(r, ticket("c1", user="cy"))
    claim(r, "m1", "a1", "b1")
    claim(r, "m2", "c1")
    assert assign(r, "m1", NOW + 9, "a1", 1, "b1", 0, "c1", 1, "gone", 2) == 1
    a1, b1 = get(r, "a1"), get(r, "b1")
    assert (a1["status"], a1["gameId"], a1["seat"], a1["matchTime"], a1["version"]) == ("MATCHED", "m1", 1, NOW + 9, 2)
    assert (b1["status"], b1["seat"]) == ("MATCHED", 0)
    assert KEEP_ENDED - 5 < r.ttl(P + "t:a1") <= KEEP_ENDED
    assert get(r, "c1")["status"] == "MATCHING"  # another match's ticket is left as it is
    assert r.exists(P + "m:m1") == 0 and r.zrange(P + "m", 0, -1) == ["m2"]
    assert get(r, "gone") is None


def test_assign_of_a_finished_match_changes_nothing(r: redis.Redis) -> None:
    add(r, ticket("a1"))
    claim(r, "m1", "a1")
    assign(r, "m1", NOW, "a1", 0)
    done = get(r, "a1")
    assert assign(r, "m1", NOW + 1, "a1", 1) == 1
    assert get(r, "a1") == done


def lease(r: redis.Redis, owner: str, ttl_ms: int) -> Any:
    return run(r, "lease", [P + "lease:tic-tac-toe"], owner, ttl_ms)


def test_lease_is_held_by_one_owner_renewed_by_it_and_free_once_it_lapses(r: redis.Redis) -> None:
    assert lease(r, "a", 60_000) == 1
    assert r.get(P + "lease:tic-tac-toe") == "a" and 59_000 < r.pttl(P + "lease:tic-tac-toe") <= 60_000
    assert lease(r, "b", 60_000) == 0
    assert lease(r, "a", 50) == 1  # renewed (here shortened) by its holder
    assert r.pttl(P + "lease:tic-tac-toe") <= 50
    deadline = time.monotonic() + 5
    while r.exists(P + "lease:tic-tac-toe") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert lease(r, "b", 60_000) == 1
    assert r.get(P + "lease:tic-tac-toe") == "b"
