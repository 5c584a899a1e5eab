"""The lean pipelined Redis client of the store's scripts (server/store/lean.py), against a
real redis-server: replies in order, redis-py's exception classes, a lost connection
failing only what was in flight, the read timeout, AUTH and SELECT from the URL."""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.exceptions as rex
from tablero.server.store.lean import LeanRedis, LeanScript, leanable


async def test_concurrent_commands_get_their_own_replies(fresh_redis_url: str) -> None:
    lean = LeanRedis(fresh_redis_url)
    try:
        await asyncio.gather(*(lean.execute("SET", f"k{i}", i) for i in range(200)))
        got = await asyncio.gather(*(lean.execute("GET", f"k{i}") for i in range(200)))
        assert got == [str(i).encode() for i in range(200)]
        assert await lean.execute("GET", "missing") is None
        assert await lean.execute("RPUSH", "l", b"a", "b") == 2
        assert await lean.execute("LRANGE", "l", 0, -1) == [b"a", b"b"]
        assert lean.connected == 1
    finally:
        await lean.aclose()


async def test_errors_are_redis_pys_classes_and_a_script_unknown_to_the_server_is_sent_whole(
        fresh_redis_url: str) -> None:
    lean = LeanRedis(fresh_redis_url)
    try:
        with pytest.raises(rex.ResponseError, match="wrong number of arguments"):
            await lean.execute("GET")
        with pytest.raises(rex.NoScriptError):
            await lean.execute("EVALSHA", "0" * 40, 0)
        assert await lean.execute("PING") == b"PONG"  # the connection goes on after an error
        script = LeanScript(lean, "return {KEYS[1], ARGV[1], tonumber(ARGV[2]) + 1}")
        await lean.execute("SCRIPT", "FLUSH")
        assert await script(keys=["k"], args=["v", 41]) == [b"k", b"v", 42]  # EVAL, then cached
        assert await lean.execute("SCRIPT", "EXISTS", script.sha) == [1]
        assert await script(keys=["k"], args=["w", 1]) == [b"k", b"w", 2]  # EVALSHA
    finally:
        await lean.aclose()


async def test_a_killed_connection_fails_what_was_in_flight_and_the_next_command_reconnects(
        fresh_redis_url: str) -> None:
    lean = LeanRedis(fresh_redis_url)
    admin = redis.Redis.from_url(fresh_redis_url)
    try:
        await lean.execute("CLIENT", "SETNAME", "lean-under-test")
        blocked = asyncio.ensure_future(lean.execute("BLPOP", "never", 0))  # in flight until killed
        await asyncio.sleep(0.1)
        assert admin.client_kill_filter(_type="normal", skipme=True) >= 1
        with pytest.raises(rex.ConnectionError):
            await asyncio.wait_for(blocked, 5)
        assert await lean.execute("PING") == b"PONG"  # a new connection
        assert await lean.execute("CLIENT", "GETNAME") is None
    finally:
        admin.close()
        await lean.aclose()


async def test_a_reply_later_than_the_socket_timeout_fails_the_connection(fresh_redis_url: str) -> None:
    lean = LeanRedis(fresh_redis_url, socket_timeout=0.3)
    try:
        with pytest.raises(rex.TimeoutError):
            await lean.execute("BLPOP", "never", 5)
        assert await lean.execute("PING") == b"PONG"
        assert await lean.execute("BLPOP", "never", 0.1) is None  # in time: no timeout
    finally:
        await lean.aclose()


async def test_a_cancelled_caller_does_not_shift_the_replies(fresh_redis_url: str) -> None:
    lean = LeanRedis(fresh_redis_url)
    try:
        await lean.execute("SET", "a", "1")
        slow = asyncio.ensure_future(lean.execute("BLPOP", "l2", 0.3))
        await asyncio.sleep(0.05)
        slow.cancel()
        after = asyncio.ensure_future(lean.execute("GET", "a"))  # queued behind the BLPOP
        assert await asyncio.wait_for(after, 5) == b"1"
    finally:
        await lean.aclose()


async def test_password_and_database_come_from_the_url() -> None:
    from tests.redis_server import RedisServer

    server = RedisServer().start()
    try:
        admin = redis.Redis(port=server.port)
        admin.config_set("requirepass", "s3cret")
        admin.close()
        url = f"redis://:s3cret@127.0.0.1:{server.port}/3"
        lean = LeanRedis(url)
        try:
            await lean.execute("SET", "where", "db3")
        finally:
            await lean.aclose()
        check = redis.Redis(port=server.port, password="s3cret", db=3)
        assert check.get("where") == b"db3"
        check.close()
        wrong = LeanRedis(f"redis://:nope@127.0.0.1:{server.port}/0")
        with pytest.raises(rex.AuthenticationError):
            await wrong.execute("PING")
        await wrong.aclose()
    finally:
        server.stop()


def test_only_plain_tcp_urls_are_lean() -> None:
    assert leanable("redis://127.0.0.1:6390/0") and leanable("redis://u:p@h:1/2")
    assert not leanable("rediss://h:1/0") and not leanable("unix:///tmp/r.sock")


def test_commands_are_packed_by_hiredis_as_the_python_loop_packs_them() -> None:
    """`pack` hands the command to hiredis (C); what it sends is byte for byte what the
    Python loop it replaced sends (floats as repr, big and negative integers, UTF-8), and an
    argument Redis cannot take is still refused with redis-py's DataError naming its type."""
    import random

    from tablero.server.store.lean import _pack, pack

    rng = random.Random(7)
    for i in range(5000):
        value = rng.choice([rng.random() * 10 ** rng.randint(-30, 30), -rng.random(), float(rng.randint(-9, 9)),
                            rng.randint(-2 ** 80, 2 ** 80), f"ñ€{i}", b"\x00\xff", ""])
        assert pack(("EVALSHA", "0" * 40, 1, "k", value)) == _pack(("EVALSHA", "0" * 40, 1, "k", value)), value
    assert pack(["GET", "x"]) == b"*2\r\n$3\r\nGET\r\n$1\r\nx\r\n"
    for bad, named in ((True, "bool"), (None, "NoneType"), ([1], "list")):
        with pytest.raises(rex.DataError, match=named):
            pack(("SET", "k", bad))
