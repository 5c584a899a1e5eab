"""Each Lua script of the Redis store (server/store/lua/*.lua), run on its own against a
throwaway redis-server with the keys and arguments RedisStore gives it (EVAL: the text
as shipped, lib.lua's helpers prepended where the script uses them)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from tablero.server.store import redis_scripts
from tablero.server.store.ids import game_keys

G = "lua1"
K = game_keys(G)


@pytest.fixture
def r(fresh_redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(fresh_redis_url)
    try:
        yield client
    finally:
        client.close()


def run(r: redis.Redis, name: str, keys: list[str] | tuple[str, ...], *args: Any) -> Any:
    return r.eval(redis_scripts.SCRIPTS[name], len(keys), *keys, *args)


def chain(prev: str, event: str) -> str:
    return hashlib.sha1((prev + event).encode()).hexdigest()[:16]


E1, E2, E3 = '{"type":"a"}', '{"type":"b"}', '{"type":"c"}'
H1 = chain("", E1)
H2 = chain(H1, E2)
H3 = chain(H2, E3)


def create(r: redis.Redis, *events: str, meta: str = '{"engine":"x"}', ttl: int = 0) -> Any:
    return run(r, "create", K, "0", meta, 0, ttl, *events)


def append(r: redis.Redis, expected: int, *events: str, request_id: str = "", expected_hash: str = "-",
           tail: int = 0, channel: str = "") -> list[Any]:
    return run(r, "append", K, expected, "1" if request_id else "0", request_id, expected_hash, tail, channel, 0,
               *events)


def test_every_script_is_a_shipped_file_and_every_file_a_script() -> None:
    shipped = {p.stem for p in Path(redis_scripts.__file__).with_name("lua").glob("*.lua")}
    assert shipped == {*redis_scripts.NAMES, "lib"}
    assert set(redis_scripts.SCRIPTS) == set(redis_scripts.NAMES)


def test_the_package_data_ships_the_lua_files() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "lua/*.lua" in pyproject["tool"]["setuptools"]["package-data"]["tablero.server.store"]


def test_the_scripts_that_use_the_helpers_carry_them_and_the_others_do_not() -> None:
    lib = redis_scripts.source("lib")
    for name, text in redis_scripts.SCRIPTS.items():
        assert text.startswith(lib) == (name not in redis_scripts.STANDALONE), name


def test_create_writes_the_meta_the_claims_and_the_chained_events(r: redis.Redis) -> None:
    assert run(r, "create", K, "0", '{"engine":"x"}', 2, 0, 1, 0, E1, E2) == [2, H2.encode()]
    assert r.get(K.meta) == b'{"engine":"x"}'
    assert r.lrange(K.claimed, 0, -1) == [b"0", b"1"]
    assert [(i, f[b"h"]) for i, f in r.xrange(K.events)] == [(b"1-0", H1.encode()), (b"2-0", H2.encode())]


def test_create_refuses_an_existing_game_but_a_retry_with_its_own_meta_gets_the_head(r: redis.Redis) -> None:
    create(r, E1, meta='{"id":1}')
    assert create(r, E1, meta='{"id":2}') == -1
    assert run(r, "create", K, "1", '{"id":1}', 0, 0, E1) == [1, H1.encode()]
    assert run(r, "create", K, "1", '{"id":2}', 0, 0, E1) == -1


def test_create_with_a_ttl_sets_it_on_every_key(r: redis.Redis) -> None:
    run(r, "create", K, "0", "{}", 1, 0, 60_000, E1)
    assert 0 < r.pttl(K.meta) <= 60_000 and 0 < r.pttl(K.events) <= 60_000 and 0 < r.pttl(K.claimed)


def test_append_checks_the_version_and_the_hash_and_records_the_request(r: redis.Redis) -> None:
    assert append(r, 0, E1) == [1]  # unknown game
    create(r, E1)
    assert append(r, 1, E2, request_id="r1", expected_hash=H1) == [0, 2, H2.encode()]
    assert append(r, 0, E3, request_id="r1") == [2, 2, b""]  # duplicate, whatever its version (no fingerprint)
    assert append(r, 1, E3) == [3, 2, H2.encode()]  # conflict
    assert append(r, 1, E3, tail=5) == [3, 2, H2.encode(), 2, H2.encode(), E2.encode()]  # with the tail
    assert append(r, 2, E3, expected_hash="0123456789abcdef") == [4, 2, H2.encode()]  # rewritten
    assert append(r, 5, E3, expected_hash=H2) == [4, 2, H2.encode()]  # store behind the caller
    assert r.hget(K.req, "r1") == b"2"


def test_append_records_a_fingerprint_after_the_mode_digit_and_a_duplicate_answers_it(r: redis.Redis) -> None:
    create(r, E1)
    assert run(r, "append", K, 1, "1f00d", "seat0:a", "-", 0, "", 0, E2) == [0, 2, H2.encode()]
    assert r.hget(K.req, "seat0:a") == b"2" and r.hget(K.req, "#fp:seat0:a") == b"f00d"
    # "2" (replicated acknowledgement): the duplicate writes its record again, and answers the fingerprint.
    assert run(r, "append", K, 2, "2beef", "seat0:a", "-", 0, "", 0, E3) == [2, 2, b"f00d"]
    assert r.hget(K.req, "#fp:seat0:a") == b"f00d" and r.xlen(K.events) == 2


def test_append_notifies_its_entries_or_only_its_version_when_they_are_big(r: redis.Redis) -> None:
    create(r, E1)
    limit = redis_scripts.constant("append", "PUSH_EVENTS_MAX")
    pubsub = r.pubsub()
    pubsub.ssubscribe("tablero:{lua1}:n")
    assert pubsub.get_sharded_message(timeout=1)["type"] == "ssubscribe"
    append(r, 1, E2, channel="tablero:{lua1}:n")
    big = json.dumps({"type": "big", "pad": "x" * limit})
    append(r, 2, big, channel="tablero:{lua1}:n")
    first = pubsub.get_sharded_message(timeout=1)
    second = pubsub.get_sharded_message(timeout=1)
    pubsub.close()
    assert first["data"] == f"2 {H1}\n{H2} {E2}".encode()
    assert second["data"] == b"3"


def test_claim_seat_takes_the_first_free_seat_with_its_claim_id(r: redis.Redis) -> None:
    assert run(r, "claim_seat", K, 0, "", 1) == [-1, 0]
    create(r, E1)
    assert run(r, "claim_seat", K, 0, "c1", 1, 2) == [1, 1]
    assert run(r, "claim_seat", K, 0, "", 1, 2) == [1, 2]
    assert run(r, "claim_seat", K, 0, "", 1, 2) == [0, 0]
    assert r.lrange(K.claimed, 0, -1) == [b"1:c1", b"2"]


def test_put_snapshot_keeps_only_newer_ones_thins_the_past_and_may_trim(r: redis.Redis) -> None:
    assert run(r, "put_snapshot", K, 1, '{"version":1,"state":1}', "0", 16) == -1
    create(r, E1, E2, E3)
    assert run(r, "put_snapshot", K, 2, '{"version":2,"state":2}', "0", 2) == 1
    assert run(r, "put_snapshot", K, 1, '{"version":1,"state":1}', "0", 2) == 0
    assert run(r, "put_snapshot", K, 3, '{"version":3,"state":3}', "1", 2) == 1
    assert r.get(K.snap) == b'{"version":3,"state":3}'
    assert sorted(r.hkeys(K.snaps)) == [b"2", b"3"]
    assert [i for i, _ in r.xrange(K.events)] == [b"3-0"]  # trimmed up to the snapshot's own entry


def test_trim_drops_what_the_snapshot_covers_and_answers_the_first_kept(r: redis.Redis) -> None:
    assert run(r, "trim", [K.events, K.meta, K.snap]) == -1
    create(r, E1, E2, E3)
    assert run(r, "trim", [K.events, K.meta, K.snap]) == 1  # no snapshot: nothing to drop
    r.set(K.snap, '{"version":2,"state":null}')
    assert run(r, "trim", [K.events, K.meta, K.snap]) == 2


def test_read_answers_json_or_numbered_entries_and_says_when_its_start_is_trimmed(r: redis.Redis) -> None:
    assert run(r, "read", [K.events, K.meta], 1, "", "0") == [-1]
    create(r, E1, E2, E3)
    assert run(r, "read", [K.events, K.meta], 2, "", "0") == [0, f"[{E2},{E3}]".encode()]
    assert run(r, "read", [K.events, K.meta], 2, 1, "1") == [0, 2, H2.encode(), E2.encode()]
    r.xtrim(K.events, minid="3-0", approximate=False)
    assert run(r, "read", [K.events, K.meta], 1, "", "0") == [2, 3]


def test_load_answers_the_newest_snapshot_and_the_entries_from_its_version(r: redis.Redis) -> None:
    assert run(r, "load", [K.events, K.meta, K.snap]) == [-1]
    create(r, E1, E2)
    assert run(r, "load", [K.events, K.meta, K.snap]) == [0, b"", 1, H1.encode(), E1.encode(), 2, H2.encode(),
                                                          E2.encode()]
    r.set(K.snap, '{"version":2,"state":7}')
    assert run(r, "load", [K.events, K.meta, K.snap]) == [0, b'{"version":2,"state":7}', 2, H2.encode(),
                                                          E2.encode()]


def test_head_answers_the_last_version_and_hash(r: redis.Redis) -> None:
    assert run(r, "head", [K.events, K.meta]) == [-1, b""]
    create(r)
    assert run(r, "head", [K.events, K.meta]) == [0, b""]
    append(r, 0, E1, E2)
    assert run(r, "head", [K.events, K.meta]) == [2, H2.encode()]


def test_heads_answers_the_heads_of_many_games(r: redis.Redis) -> None:
    create(r, E1)
    assert run(r, "heads", [K.events, game_keys("none").events]) == [1, H1.encode(), 0, b""]


def test_get_meta_answers_the_meta_and_the_claims(r: redis.Redis) -> None:
    assert run(r, "get_meta", [K.meta, K.claimed]) is None
    run(r, "create", K, "0", '{"engine":"x"}', 1, 0, 0)
    assert run(r, "get_meta", [K.meta, K.claimed]) == [b'{"engine":"x"}', [b"0"]]


def test_expire_sets_the_ttl_on_every_key_of_a_known_game(r: redis.Redis) -> None:
    assert run(r, "expire", K, 5000) == 0
    create(r, E1)
    r.set(K.lobby, "{}")
    assert run(r, "expire", K, 5000) == 1
    assert all(0 < r.pttl(k) <= 5000 for k in (K.events, K.meta, K.lobby))


def test_delete_removes_every_key_only_at_the_version_asked(r: redis.Redis) -> None:
    assert run(r, "delete", K, "") == 0
    create(r, E1)
    r.set(K.lobby, "{}")
    assert run(r, "delete", K, 2) == -2
    assert run(r, "delete", K, 1) == 1
    assert r.exists(*K) == 0


def test_touch_request_writes_a_known_request_again(r: redis.Redis) -> None:
    assert run(r, "touch_request", [K.req], "r1") is None
    r.hset(K.req, "r1", 4)
    assert run(r, "touch_request", [K.req], "r1") == 4


def test_touch_game_writes_the_meta_again_and_keeps_its_ttl(r: redis.Redis) -> None:
    assert run(r, "touch_game", [K.meta]) == 0
    assert not r.exists(K.meta)  # an unknown game is not made
    create(r, E1)
    r.pexpire(K.meta, 60_000)
    assert run(r, "touch_game", [K.meta]) == 1
    assert r.get(K.meta) == b'{"engine":"x"}' and 0 < r.pttl(K.meta) <= 60_000
    # (That it is replicated, so that a WAIT after it confirms the game's writes: test_redis_sentinel.py.)


def test_snapshot_at_answers_the_newest_snapshot_not_past_a_version(r: redis.Redis) -> None:
    assert run(r, "snapshot_at", [K.snap, K.snaps], 10) is None
    r.set(K.snap, '{"version":8,"state":8}')
    r.hset(K.snaps, mapping={"2": '{"version":2,"state":2}', "5": '{"version":5,"state":5}',
                             "8": '{"version":8,"state":8}'})
    assert run(r, "snapshot_at", [K.snap, K.snaps], 10) == b'{"version":8,"state":8}'
    assert run(r, "snapshot_at", [K.snap, K.snaps], 6) == b'{"version":5,"state":5}'
    assert run(r, "snapshot_at", [K.snap, K.snaps], 1) is None
