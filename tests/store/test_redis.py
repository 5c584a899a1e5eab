"""Redis-specific guarantees of RedisStore: key layout, hash slots, server-side atomicity, errors."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import aclosing

import pytest
import redis.asyncio as aioredis
from redis.crc import key_slot
from tablero.server.store import AppendResult, Conflict, StoreError
from tablero.server.store.redis import RedisStore, game_keys

from tests.redis_server import RedisServer


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    s = RedisStore(redis_url, block_ms=1000)
    yield s
    await s.close()


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


def new_id() -> str:
    return f"g-{uuid.uuid4().hex[:12]}"


@pytest.mark.parametrize("game_id", ["g1", "0f3c9a8e-2b1d-4c55-9e77-1a2b3c4d5e6f", "games/x", "ünï", "a:b:c"])
def test_all_keys_of_a_game_share_one_hash_slot(game_id: str) -> None:
    keys = game_keys(game_id)
    assert len({key_slot(k.encode()) for k in keys}) == 1
    assert key_slot(keys.events.encode()) == key_slot(game_id.encode())
    assert keys.events == f"tablero:{{{game_id}}}:events"


@pytest.mark.parametrize("game_id", ["", "a{b", "a}b", "{x}"])
def test_a_game_id_that_would_move_the_hash_tag_is_refused(game_id: str) -> None:
    with pytest.raises(ValueError):
        game_keys(game_id)


async def test_the_keys_on_the_server_have_the_documented_layout(store: RedisStore, raw: aioredis.Redis) -> None:
    g = new_id()
    await store.create(g, {"engine": "x", "claimed": [1]}, [{"type": "a"}, {"type": "b"}])
    await store.append(g, 2, [{"type": "c"}], request_id="req-7")
    await store.claim_seat(g, [0, 1])
    await store.put_snapshot(g, 3, {"board": []})
    keys = sorted([k.decode() async for k in raw.scan_iter(match=f"tablero:{{{g}}}:*")])
    assert keys == sorted(f"tablero:{{{g}}}:{suffix}" for suffix in ("events", "meta", "claimed", "req", "snap", "snaps"))
    assert len({key_slot(k.encode()) for k in keys}) == 1
    entries = await raw.xrange(f"tablero:{{{g}}}:events")
    assert [(i, json.loads(f[b"e"])) for i, f in entries] == [
        (b"1-0", {"type": "a"}),
        (b"2-0", {"type": "b"}),
        (b"3-0", {"type": "c"}),
    ]
    assert json.loads(await raw.get(f"tablero:{{{g}}}:meta")) == {"engine": "x", "claimed": [1]}
    assert await raw.lrange(f"tablero:{{{g}}}:claimed", 0, -1) == [b"1", b"0"]
    assert await raw.hgetall(f"tablero:{{{g}}}:req") == {b"req-7": b"3"}
    assert json.loads(await raw.get(f"tablero:{{{g}}}:snap")) == {"version": 3, "state": {"board": []}}


async def test_an_append_is_one_script_call_checked_on_the_server(
    store: RedisStore, raw: aioredis.Redis, redis_url: str
) -> None:
    g = new_id()
    await store.create(g, {}, [{"type": "a"}])
    await store.append(g, 1, [{"type": "warm-up"}])  # the script is loaded and cached by now
    await raw.ping()  # and both clients hold an open connection (no handshake in the trace)
    marker = f"end-{uuid.uuid4().hex}"
    seen: list[tuple[str, str]] = []
    monitor_client = aioredis.Redis.from_url(redis_url)
    try:
        async with monitor_client.monitor() as monitor:
            await store.append(g, 2, [{"type": "b"}], request_id="r")
            with pytest.raises(Conflict):
                await store.append(g, 2, [{"type": "stale"}])
            await raw.echo(marker)
            async with asyncio.timeout(5):
                while True:
                    command = await monitor.next_command()
                    if marker in command["command"]:
                        break
                    seen.append((command["client_type"], command["command"].split()[0].upper()))
    finally:
        await monitor_client.aclose()
    from_clients = [name for kind, name in seen if kind != "lua"]
    from_scripts = [name for kind, name in seen if kind == "lua"]
    # Python sent one EVALSHA per append; the reads and writes ran inside the script.
    assert from_clients == ["EVALSHA", "EVALSHA"]
    assert "XADD" in from_scripts and "XREVRANGE" in from_scripts and "HSET" in from_scripts
    assert "SPUBLISH" in from_scripts  # the notification is part of the same atomic step
    assert await store.read(g) == [{"type": "a"}, {"type": "warm-up"}, {"type": "b"}]


async def test_many_clients_appending_at_once_make_one_gapless_stream(redis_url: str, raw: aioredis.Redis) -> None:
    clients = [RedisStore(redis_url) for _ in range(8)]
    g = new_id()
    await clients[0].create(g, {}, [])
    wins: list[int] = []
    try:

        async def appender(c: int, round_: int, expected: int) -> None:
            try:
                wins.append(await clients[c].append(g, expected, [{"type": "x", "c": c, "round": round_}]))
            except Conflict:
                pass

        for round_ in range(10):
            # every client tries to append at the same version: exactly one wins each round
            tasks = [appender(c, round_, round_) for c in range(len(clients)) for _ in range(3)]
            await asyncio.gather(*tasks)
            assert len(wins) == round_ + 1
    finally:
        for client in clients:
            await client.close()
    assert wins == list(range(1, 11))
    ids = [entry_id for entry_id, _ in await raw.xrange(f"tablero:{{{g}}}:events")]
    assert ids == [f"{n}-0".encode() for n in range(1, 11)]


async def test_appends_survive_a_flushed_script_cache(store: RedisStore, raw: aioredis.Redis) -> None:
    g = new_id()
    await store.create(g, {}, [{"type": "a"}])
    await raw.script_flush()
    assert await store.append(g, 1, [{"type": "b"}]) == 2
    assert await store.claim_seat(g, [0]) == 0


async def test_an_unreachable_server_is_a_store_error() -> None:
    with RedisServer() as server:
        url = server.url
    store = RedisStore(url)  # the server is gone: nothing listens on that port now
    try:
        with pytest.raises(StoreError):
            await store.ping()
        with pytest.raises(StoreError):
            await store.append("g", 0, [{"type": "a"}])
    finally:
        await store.close()


async def test_a_watch_ends_with_store_error_when_the_server_goes_away() -> None:
    server = RedisServer().start()
    store = RedisStore(server.url, outage_grace=5.0, sweep_interval=0.2)  # a short outage would be ridden out
    try:
        g = new_id()
        await store.create(g, {}, [{"type": "a"}])
        async with aclosing(store.watch(g, 0)) as events:
            assert await anext(events) == (1, {"type": "a"})
            pending = asyncio.ensure_future(anext(events))
            await asyncio.sleep(0.1)
            await asyncio.to_thread(server.stop)
            gone = time.monotonic()
            with pytest.raises(StoreError):
                async with asyncio.timeout(10):
                    await pending
            # At the grace (5 s) after the outage began, give or take a sweep: an outside pass saw
            # 13.5 s for a grace of 10 (the failing reads' own retries were not counted).
            took = time.monotonic() - gone
            assert 4.5 < took < 5.0 + 1.0, took
    finally:
        server.stop()
        await store.close()


def test_cluster_urls_select_the_cluster_client() -> None:
    from redis.asyncio.cluster import RedisCluster

    # Creating the client does not connect yet.
    assert isinstance(RedisStore("redis+cluster://127.0.0.1:7000")._client, RedisCluster)
    assert isinstance(RedisStore("redis://127.0.0.1:7000", cluster=True)._client, RedisCluster)
    assert not isinstance(RedisStore("redis://127.0.0.1:7000")._client, RedisCluster)


async def test_a_fresh_cluster_client_takes_concurrent_first_calls(redis_cluster_url: str) -> None:
    # Regression: redis-py 8.1's async RedisCluster broke commands issued while it initialised.
    setup = RedisStore(redis_cluster_url)
    try:
        for _ in range(10):
            g = new_id()
            await setup.create(g, {}, [{"type": "a"}])
            fresh = RedisStore(redis_cluster_url)
            try:
                results = await asyncio.gather(
                    *(fresh.append(g, 1, [{"type": "b", "i": i}]) for i in range(20)), return_exceptions=True
                )
            finally:
                await fresh.close()
            assert results.count(2) == 1
            assert sum(isinstance(r, Conflict) for r in results) == 19, [r for r in results if r != 2]
    finally:
        await setup.close()


async def blocked_clients(raw: aioredis.Redis) -> int:
    return int((await raw.info("clients"))["blocked_clients"])


async def notify_clients(raw: aioredis.Redis) -> int:
    """Connections of the server that hold shard subscriptions."""
    return sum(1 for c in await raw.client_list() if int(c.get("ssub", 0)) > 0)


async def test_the_watchers_of_many_games_share_one_notification_connection(
    store: RedisStore, raw: aioredis.Redis
) -> None:
    games = [new_id() for _ in range(10)]
    for g in games:
        await store.create(g, {}, [{"type": "a", "n": 1}])
    watchers = [store.watch(g, 0) for g in games for _ in range(5)]
    try:
        assert [await anext(w) for w in watchers] == [(1, {"type": "a", "n": 1})] * 50
        pending = [asyncio.ensure_future(anext(w)) for w in watchers]
        await asyncio.sleep(0.2)
        assert await notify_clients(raw) == 1
        assert await blocked_clients(raw) == 0  # nothing blocks on the server
        for g in games:
            await store.append(g, 1, [{"type": "a", "n": 2}])
        assert await asyncio.wait_for(asyncio.gather(*pending), 5) == [(2, {"type": "a", "n": 2})] * 50
        held = await store.connections()
        assert held["notify"] == 1 and held["read"] <= 16 and held["write"] <= 16
    finally:
        for w in watchers:
            await w.aclose()
    async with asyncio.timeout(5):
        while (await raw.execute_command("PUBSUB", "SHARDCHANNELS")) != []:
            await asyncio.sleep(0.01)
    assert store._hub.feeds == {}


async def test_a_watcher_joining_a_running_feed_gets_the_whole_history(store: RedisStore) -> None:
    g = new_id()
    await store.create(g, {}, [{"n": 1}])
    async with aclosing(store.watch(g, 0)) as early:
        assert await anext(early) == (1, {"n": 1})
        for v in range(1, 6):
            await store.append(g, v, [{"n": v + 1}])
            assert await asyncio.wait_for(anext(early), 5) == (v + 1, {"n": v + 1})
        async with aclosing(store.watch(g, 2)) as late:  # the feed is already at version 6
            assert [await asyncio.wait_for(anext(late), 5) for _ in range(4)] == [(v, {"n": v}) for v in range(3, 7)]
            await store.append(g, 6, [{"n": 7}])
            assert await asyncio.wait_for(anext(late), 5) == (7, {"n": 7})
            assert await asyncio.wait_for(anext(early), 5) == (7, {"n": 7})


async def test_a_watcher_that_falls_far_behind_still_gets_every_event_in_order(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablero.server.store import push

    monkeypatch.setattr(push.Watcher, "MAX_BUFFER", 5)
    g = new_id()
    await store.create(g, {}, [])
    async with aclosing(store.watch(g, 0)) as slow, aclosing(store.watch(g, 0)) as fast:
        first_slow = asyncio.ensure_future(anext(slow))
        first_fast = asyncio.ensure_future(anext(fast))
        await asyncio.sleep(0.05)
        for v in range(40):
            await store.append(g, v, [{"n": v + 1}])
        got_fast = [await asyncio.wait_for(first_fast, 5)] + [await asyncio.wait_for(anext(fast), 5) for _ in range(39)]
        await asyncio.sleep(0.05)
        assert any(w.overflow for w in store._hub.feeds[g].watchers)  # the slow one dropped its buffer
        got_slow = [await asyncio.wait_for(first_slow, 5)] + [await asyncio.wait_for(anext(slow), 5) for _ in range(39)]
    assert got_fast == got_slow == [(v, {"n": v}) for v in range(1, 41)]


async def test_closing_the_store_ends_its_watchers_with_store_error(redis_url: str, raw: aioredis.Redis) -> None:
    store = RedisStore(redis_url)
    g = new_id()
    await store.create(g, {}, [])
    events = store.watch(g, 0)
    pending = asyncio.ensure_future(anext(events))
    await asyncio.sleep(0.05)
    await store.close()
    with pytest.raises(StoreError):
        await asyncio.wait_for(pending, 5)
    async with asyncio.timeout(5):
        while await blocked_clients(raw) != 0:
            await asyncio.sleep(0.01)


async def test_a_retried_create_whose_first_attempt_landed_succeeds(store: RedisStore, raw: aioredis.Redis) -> None:
    g = new_id()
    meta = {"engine": "x", "created": 1.5}
    assert await store.create(g, meta, [{"n": 1}]) == 1
    k = game_keys(g)
    # what the retry of a create whose reply was lost sends: the same meta text, flagged as a retry
    args = ['{"engine":"x","created":1.5}', 0, 0, '{"n":1}']
    assert (await store._create(keys=list(k), args=["1", *args]))[0] == 1
    assert await store._create(keys=list(k), args=["0", *args]) == -1  # a first attempt: GameExists
    other = ['{"engine":"y","created":1.5}', 0, 0, '{"n":1}']
    assert await store._create(keys=list(k), args=["1", *other]) == -1  # another game's retry
    assert await store.read(g) == [{"n": 1}]


async def test_a_stream_written_before_hash_chains_stays_readable_and_writable(
    store: RedisStore, raw: aioredis.Redis
) -> None:
    import hashlib

    g = new_id()
    k = game_keys(g)
    # the layout main wrote: entries with only the "e" field
    await raw.set(k.meta, '{"engine":"x"}')
    for n in (1, 2):
        await raw.xadd(k.events, {"e": json.dumps({"n": n})}, id=f"{n}-0")
    assert await store.read(g) == [{"n": 1}, {"n": 2}]
    assert await store.head(g) == AppendResult(2, "")
    assert [e.hash for e in await store.read_entries(g)] == ["", ""]
    # an unknown hash is not checked: any expected_hash passes on a legacy head
    result = await store.append_ex(g, 2, [{"n": 3}], expected_hash="whatever")
    assert result.version == 3
    assert result.hash == hashlib.sha1(b'{"n":3}').hexdigest()[:16]  # the chain starts after them
    async with aclosing(store.watch(g, 1)) as events:
        assert [await asyncio.wait_for(anext(events), 5) for _ in range(2)] == [(2, {"n": 2}), (3, {"n": 3})]
