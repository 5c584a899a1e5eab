"""Each Lua script of the lobby (server/portal/lua/lobby_*.lua), run on its own against a
throwaway redis-server with the keys and arguments RedisLobby gives it (EVAL: the text as
shipped)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from tablero.server.portal import lobby
from tablero.server.store.ids import game_keys

from tests.lua_support import run_script, text_client

r = pytest.fixture(text_client, name="r")  # a client of a throwaway redis-server that reads text

PKG = "tablero.server.portal"
INDEX = lobby._INDEX
K = game_keys("g1")


def run(r: redis.Redis, name: str, keys: list[str], *args: Any) -> Any:
    return run_script(r, PKG, name, keys, *args)


def entry(game_id: str = "g1", created: float = 100.0) -> dict[str, Any]:
    return {"gameId": game_id, "created": created, "status": "WAITING",
            "seats": [{"seat": 0, "kind": "open", "taken": False}, {"seat": 1, "kind": "open", "taken": False},
                      {"seat": 2, "kind": "open", "taken": False}]}


def add(r: redis.Redis, e: dict[str, Any], cluster: bool = False) -> Any:
    """What RedisLobby.add sends (on a cluster, without the index)."""
    k = game_keys(e["gameId"])
    keys = [k.lobby, k.meta] if cluster else [k.lobby, k.meta, INDEX]
    return run(r, "lobby_add", keys, json.dumps(e), e["created"], e["gameId"])


def mark(r: redis.Redis, seat: int | None = None, user: dict[str, Any] | None = None, status: str | None = None,
         bots: list[int] | None = None, acted: list[int] | None = None) -> Any:
    """What RedisLobby.mark sends."""
    return run(r, "lobby_mark", [K.lobby], "" if seat is None else str(seat),
               "" if user is None else json.dumps(user), status or "", "".join(f",{int(b)}," for b in bots or ()),
               "".join(f",{int(a)}," for a in acted or ()))


def stored(r: redis.Redis, key: str = K.lobby) -> dict[str, Any]:
    return json.loads(r.get(key))


def test_add_writes_the_entry_and_its_index_member(r: redis.Redis) -> None:
    r.set(K.meta, "{}")
    assert add(r, entry(created=123.5)) == 1
    assert stored(r) == entry(created=123.5) and r.pttl(K.lobby) == -1  # the game lives for ever: so does it
    assert r.zrange(INDEX, 0, -1, withscores=True) == [("g1", 123.5)]


def test_add_gives_the_entry_the_games_ttl(r: redis.Redis) -> None:
    r.set(K.meta, "{}", px=90_000)
    add(r, entry())
    assert 80_000 < r.pttl(K.lobby) <= 90_000


def test_add_for_a_game_without_meta_keeps_no_ttl(r: redis.Redis) -> None:
    add(r, entry())
    assert r.pttl(K.lobby) == -1


def test_add_on_a_cluster_leaves_the_index_to_the_caller(r: redis.Redis) -> None:
    assert add(r, entry(), cluster=True) == 1
    assert stored(r) == entry() and r.exists(INDEX) == 0


def test_mark_of_no_entry_is_0(r: redis.Redis) -> None:
    assert mark(r, seat=0, status="PLAYING") == 0
    assert r.exists(K.lobby) == 0


def test_mark_takes_a_seat_for_a_user(r: redis.Redis) -> None:
    add(r, entry())
    assert mark(r, seat=1, user={"id": "u1", "name": "Ana"}) == 1
    seats = stored(r)["seats"]
    assert seats[1] == {"seat": 1, "kind": "open", "taken": True, "user": {"id": "u1", "name": "Ana"}}
    assert not seats[0]["taken"] and not seats[2]["taken"] and stored(r)["status"] == "WAITING"
    assert mark(r, seat=2) == 1  # taken by nobody known
    assert stored(r)["seats"][2] == {"seat": 2, "kind": "open", "taken": True}


def test_mark_sets_the_status_and_the_bots_and_keeps_the_ttl(r: redis.Redis) -> None:
    r.set(K.meta, "{}", px=90_000)
    add(r, entry())
    assert mark(r, status="PLAYING", bots=[0, 2]) == 1
    e = stored(r)
    assert e["status"] == "PLAYING" and [s["kind"] for s in e["seats"]] == ["bot", "open", "bot"]
    assert not any(s["taken"] for s in e["seats"])
    assert 80_000 < r.pttl(K.lobby) <= 90_000


def test_mark_notes_the_seats_that_have_moved(r: redis.Redis) -> None:
    add(r, entry())
    assert mark(r, acted=[1]) == 1
    assert [s.get("acted") for s in stored(r)["seats"]] == [None, True, None]
    assert mark(r, acted=[0, 1]) == 1 and [s.get("acted") for s in stored(r)["seats"]] == [True, True, None]


def test_mark_with_nothing_to_change_writes_the_entry_as_it_was(r: redis.Redis) -> None:
    add(r, entry())
    assert mark(r) == 1 and stored(r) == entry()
    # without the bots argument at all (an older caller's three): the same
    assert run(r, "lobby_mark", [K.lobby], "", "", "DONE") == 1 and stored(r)["status"] == "DONE"


def prune(r: redis.Redis, cursor: int, count: int = lobby.PRUNE_BATCH) -> list[Any]:
    """What RedisLobby.prune sends."""
    return run(r, "lobby_prune", [INDEX], cursor, count, *lobby._PRUNE_PARTS)


def prune_all(r: redis.Redis, count: int = lobby.PRUNE_BATCH) -> int:
    cursor, removed = prune(r, 0, count)
    while int(cursor) != 0:
        cursor, more = prune(r, int(cursor), count)
        removed += more
    return removed


def test_prune_parts_name_a_games_meta_and_entry() -> None:
    head, meta_tail, entry_tail = lobby._PRUNE_PARTS
    assert (head + "g1" + meta_tail, head + "g1" + entry_tail) == (K.meta, K.lobby)


def test_prune_of_an_empty_index_removes_nothing(r: redis.Redis) -> None:
    assert prune(r, 0) == ["0", 0]


def test_prune_removes_the_members_of_gone_games_and_their_entries(r: redis.Redis) -> None:
    live, no_entry, gone = game_keys("live"), game_keys("noentry"), game_keys("gone")
    r.set(live.meta, "{}"), r.set(live.lobby, "{}")
    r.set(no_entry.meta, "{}")
    r.set(gone.lobby, "{}")  # an entry written before entries expired with their games
    braced = "tablero:{a{b}:lobby"
    r.set(braced, "{}")
    r.zadd(INDEX, {"live": 1, "noentry": 2, "gone": 3, "a{b": 4, "never": 5})
    assert prune(r, 0) == ["0", 4]  # a small sorted set is scanned whole
    assert r.zrange(INDEX, 0, -1) == ["live"]
    assert r.exists(gone.lobby) == 0  # the gone game's entry goes with it
    assert r.exists(live.lobby, no_entry.meta) == 2  # a running game's keys are the store's
    assert r.exists(braced) == 1  # no game's id: its "entry" is no key of ours to delete


def test_prune_removes_more_members_than_one_zrem_takes(r: redis.Redis) -> None:
    r.set(game_keys("live").meta, "{}"), r.set(game_keys("live").lobby, "{}")
    r.zadd(INDEX, {f"gone{i}": i for i in range(1234)} | {"live": 0})
    assert prune_all(r, count=5000) == 1234
    assert r.zrange(INDEX, 0, -1) == ["live"]


def test_prune_walks_a_big_index_in_steps(r: redis.Redis) -> None:
    r.zadd(INDEX, {f"gone{i}": i for i in range(300)})  # big enough to be scanned in steps
    cursor, removed = prune(r, 0, 10)
    assert int(cursor) != 0 and 0 < removed < 300
    assert removed + prune_all(r, count=10) == 300
    assert r.exists(INDEX) == 0
