"""Push at scale on a real Redis: a fixed number of connections for any number of watchers,
notifications that only speed things up (a lost one delays an event by at most the sweep
interval), watches that outlive every socket timeout, writers that watchers cannot starve."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import aclosing

import pytest
import redis.asyncio as aioredis
from tablero.server.store.push import PAGE as PUSH_PAGE
from tablero.server.store.redis import PUSH_EVENTS_MAX, RedisStore, channel_of


def new_id() -> str:
    return f"g-{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def clients_of(raw: aioredis.Redis, name_free_ids: set[int]) -> int:
    """Connections the server holds, other than those in `name_free_ids` (the test's own)."""
    return sum(1 for c in await raw.client_list() if int(c["id"]) not in name_free_ids)


@pytest.mark.parametrize("kind", ["redis", "redis-cluster"])
async def test_an_append_is_pushed_at_once_not_at_the_next_sweep(kind: str, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("redis_url" if kind == "redis" else "redis_cluster_url")
    watching, writing = RedisStore(url, sweep_interval=60), RedisStore(url)
    try:
        games = [new_id() for _ in range(6)]  # spread over the cluster's slots
        for g in games:
            await writing.create(g, {}, [{"n": 1}])
        watches = [watching.watch(g, 1) for g in games]
        pending = [asyncio.ensure_future(anext(w)) for w in watches]
        await asyncio.sleep(0.3)  # subscribed by now
        started = time.monotonic()
        for g in games:
            await writing.append(g, 1, [{"n": 2}])
        assert await asyncio.wait_for(asyncio.gather(*pending), 5) == [(2, {"n": 2})] * len(games)
        assert time.monotonic() - started < 2.0  # far below the 60 s sweep: it was pushed
        for w in watches:
            await w.aclose()
    finally:
        await watching.close()
        await writing.close()


async def test_an_event_whose_notification_is_lost_comes_with_the_next_sweep(redis_url: str, raw: aioredis.Redis) -> None:
    store = RedisStore(redis_url, sweep_interval=0.3)
    try:
        g = new_id()
        await store.create(g, {}, [{"n": 1}])
        h1 = (await store.head(g)).hash
        async with aclosing(store.watch(g, 1)) as events:
            pending = asyncio.ensure_future(anext(events))
            await asyncio.sleep(0.1)
            # A write whose notification never goes out (as if the subscriber had missed it).
            text = '{"n":2}'
            h2 = hashlib.sha1((h1 + text).encode()).hexdigest()[:16]
            await raw.xadd(f"tablero:{{{g}}}:events", {"e": text, "h": h2}, id="2-0")
            started = time.monotonic()
            assert await asyncio.wait_for(pending, 5) == (2, {"n": 2})
            assert time.monotonic() - started < 3.0  # about one sweep interval (0.3 s), with room for a loaded CI
    finally:
        await store.close()


async def test_a_killed_subscriber_connection_loses_no_event(redis_url: str, raw: aioredis.Redis) -> None:
    store = RedisStore(redis_url, sweep_interval=60)  # no sweep to help: the resubscription must
    writer = RedisStore(redis_url)
    try:
        g = new_id()
        await store.create(g, {}, [])
        async with aclosing(store.watch(g, 0)) as events:
            got: list[int] = []

            async def consume() -> None:
                async for version, _ in events:
                    got.append(version)
                    if version == 20:
                        return

            task = asyncio.ensure_future(consume())
            await asyncio.sleep(0.2)
            for v in range(20):
                await writer.append(g, v, [{"n": v + 1}])
                if v in (5, 12):
                    await raw.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
                await asyncio.sleep(0.02)
            await asyncio.wait_for(task, 10)
        assert got == list(range(1, 21))
    finally:
        await store.close()
        await writer.close()


async def test_a_watch_outlives_the_socket_timeout_when_nobody_moves(redis_url: str) -> None:
    store = RedisStore(redis_url, socket_timeout=0.3, sweep_interval=0.2)
    try:
        g = new_id()
        await store.create(g, {}, [{"n": 1}])
        async with aclosing(store.watch(g, 1)) as events:
            pending = asyncio.ensure_future(anext(events))
            await asyncio.sleep(1.5)  # five socket timeouts without an event
            assert not pending.done()
            await store.append(g, 1, [{"n": 2}])
            assert await asyncio.wait_for(pending, 5) == (2, {"n": 2})
    finally:
        await store.close()


async def test_thousands_of_watchers_do_not_starve_writers_and_hold_few_connections(
    fresh_redis_url: str, raw: aioredis.Redis
) -> None:
    games, per_game, moves = 50, 40, 8
    store = RedisStore(fresh_redis_url, write_pool_size=4, read_pool_size=4)
    mine = {int(c["id"]) for c in await raw.client_list()}
    try:
        ids = [new_id() for _ in range(games)]
        for g in ids:
            await store.create(g, {}, [])
        received: dict[tuple[str, int], list[int]] = {}

        async def watcher(g: str, i: int) -> None:
            seen = received[(g, i)] = []
            async for version, event in store.watch(g, 0):
                assert event == {"n": version}
                seen.append(version)
                if version == moves:
                    return

        watchers = [asyncio.ensure_future(watcher(g, i)) for g in ids for i in range(per_game)]
        await asyncio.sleep(1.0)
        held_idle = await clients_of(raw, mine)

        async def player(g: str) -> list[float]:
            latencies = []
            for v in range(moves):
                started = time.perf_counter()
                assert await store.append(g, v, [{"n": v + 1}], request_id=f"r{v}") == v + 1
                latencies.append(time.perf_counter() - started)
            return latencies

        results = await asyncio.gather(*(player(g) for g in ids), return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)]  # every write succeeded
        await asyncio.wait_for(asyncio.gather(*watchers), 60)
        held_busy = await clients_of(raw, mine)
    finally:
        await store.close()
    assert len(received) == games * per_game
    assert all(seen == list(range(1, moves + 1)) for seen in received.values())
    # 4 write + 4 read connections + 1 subscriber, however many games are watched
    assert held_idle <= 9 and held_busy <= 9, (held_idle, held_busy)


def _count_reads(store: RedisStore) -> list[int]:
    """From now on, [the number of reads of events] `store` makes (its watchers' and feeds')."""
    reads = [0]
    entries = store._entries

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        reads[0] += 1
        return await entries(*args, **kwargs)

    store._entries = counted  # type: ignore[method-assign]
    return reads


@pytest.mark.parametrize("size", ["small", "big"])
async def test_the_watchers_of_a_game_share_one_fetch_per_append(redis_url: str, size: str) -> None:
    # A small append's notification carries its entries: no read at all. A big one (over
    # PUSH_EVENTS_MAX bytes of events) notifies its version: one read for all 20 watchers.
    store, writer = RedisStore(redis_url, sweep_interval=60), RedisStore(redis_url)
    try:
        g = new_id()
        await writer.create(g, {}, [{"n": 1}])
        watchers = [store.watch(g, 1) for _ in range(20)]
        pending = [asyncio.ensure_future(anext(w)) for w in watchers]
        await asyncio.sleep(0.3)  # every watcher has read its history and waits
        reads = _count_reads(store)
        event = {"n": 2, "pad": "x" * (PUSH_EVENTS_MAX if size == "big" else 10)}
        await writer.append(g, 1, [event])
        assert await asyncio.wait_for(asyncio.gather(*pending), 5) == [(2, event)] * 20
        assert reads[0] == (1 if size == "big" else 0)  # never one read per watcher
        for w in watchers:
            await w.aclose()
    finally:
        await store.close()
        await writer.close()


async def test_watchers_opened_on_a_new_game_share_the_feeds_first_read(redis_url: str) -> None:
    # A page opened right after a create watches from the start: the watchers of a game this
    # replica does not watch yet get the history from the feed's first fetch (which follows
    # its subscription), not one read each. Every event still arrives, in order.
    store, writer = RedisStore(redis_url, sweep_interval=60), RedisStore(redis_url)
    try:
        warm = new_id()  # the replica's subscriber is connected already
        await writer.create(warm, {}, [{"n": 1}])
        w0 = store.watch(warm, 0)
        assert await asyncio.wait_for(anext(w0), 5) == (1, {"n": 1})
        g = new_id()
        await writer.create(g, {}, [{"n": 1}, {"n": 2}])
        reads = _count_reads(store)
        watchers = [store.watch(g, 0) for _ in range(5)]
        firsts = await asyncio.wait_for(asyncio.gather(*(anext(w) for w in watchers)), 5)
        assert firsts == [(1, {"n": 1})] * 5
        assert reads[0] == 1
        await writer.append(g, 2, [{"n": 3}])
        for w in watchers:
            assert await asyncio.wait_for(anext(w), 5) == (2, {"n": 2})
            assert await asyncio.wait_for(anext(w), 5) == (3, {"n": 3})
        # a watcher from a later version, or on a feed that has fetched, reads its own history
        late = store.watch(g, 0)
        assert await asyncio.wait_for(anext(late), 5) == (1, {"n": 1})
        assert reads[0] == 2
        for w in [*watchers, late, w0]:
            await w.aclose()
    finally:
        await store.close()
        await writer.close()


async def test_pushed_entries_are_trusted_only_when_they_follow_the_feed(redis_url: str) -> None:
    # A notification's entries are delivered as they are only when they start right after
    # the feed's last entry AND name its hash; otherwise (a gap after a lost notification,
    # or another history) the feed reads the store, and watchers get the store's truth.
    store, writer = RedisStore(redis_url, sweep_interval=60), RedisStore(redis_url)
    try:
        g = new_id()
        await writer.create(g, {}, [{"n": 1}])
        watcher = store.watch(g, 1)
        first = asyncio.ensure_future(anext(watcher))
        await asyncio.sleep(0.3)
        hub = store._hub
        # Another history: right version, wrong hash before it. Not delivered; a fetch finds nothing new.
        hub.pushed(channel_of(g), "0" * 16, [(2, "f" * 16, b'{"n":"forged"}')])
        # A gap: version 3 while the feed is at 1. Not delivered either.
        hub.pushed(channel_of(g), "0" * 16, [(3, "f" * 16, b'{"n":"gap"}')])
        await asyncio.sleep(0.3)
        assert not first.done()
        await writer.append(g, 1, [{"n": 2}])
        assert await asyncio.wait_for(first, 5) == (2, {"n": 2})
        await watcher.aclose()
    finally:
        await store.close()
        await writer.close()


async def test_a_new_feed_far_behind_the_head_jumps_instead_of_paging_the_history(redis_url: str) -> None:
    # A watch from version 0 of a long game starts a feed at 0: its first fetch finds a full
    # page, so the feed jumps to the head instead of reading the whole history a second
    # time (the watcher reads its own). Every event still arrives, in order, and then live ones.
    store, writer = RedisStore(redis_url, sweep_interval=60), RedisStore(redis_url)
    try:
        g = new_id()
        n = 3 * PUSH_PAGE + 7
        await writer.create(g, {}, [{"n": i} for i in range(1, n + 1)])
        reads: list[int] = []
        entries = store._entries

        async def counted(game_id, first, limit, **kwargs):  # type: ignore[no-untyped-def]
            reads.append(first)
            return await entries(game_id, first, limit, **kwargs)

        store._entries = counted  # type: ignore[method-assign]
        got = []
        async with aclosing(store.watch(g, 0)) as watch:
            while len(got) < n:
                got.append(await asyncio.wait_for(anext(watch), 5))
            await writer.append(g, n, [{"n": n + 1}])
            got.append(await asyncio.wait_for(anext(watch), 5))
        assert got == [(v, {"n": v}) for v in range(1, n + 2)]
        # the watcher's own pages (4) and the feed's first page, not the feed paging all of it too
        assert len(reads) <= 4 + 2, reads
    finally:
        await store.close()
        await writer.close()


@pytest.mark.parametrize("lean", [True, False])
async def test_a_watch_closed_and_reopened_at_once_keeps_its_push_and_leaks_no_subscription(
    redis_url: str, raw: aioredis.Redis, lean: bool
) -> None:
    # A browser that reconnects, or a page that re-renders, closes a watch and opens another on
    # the same game at once: the SUNSUBSCRIBE's confirmation then arrives after the new
    # SSUBSCRIBE. It is ours, not the server moving the channel away.
    watching, writing = RedisStore(redis_url, sweep_interval=60, lean=lean), RedisStore(redis_url)
    try:
        g = new_id()
        await writing.create(g, {}, [{"n": 1}])
        channel = channel_of(g)

        async def opened(after: int) -> tuple:
            events = watching.watch(g, after)
            first = asyncio.ensure_future(anext(events))
            for _ in range(5):  # let the generator join its feed
                await asyncio.sleep(0)
            return events, first

        async def closed(events, first) -> None:
            first.cancel()
            await asyncio.gather(first, return_exceptions=True)
            await events.aclose()

        rerouted: list[str] = []
        hub = watching._hub
        original = hub.rerouted
        hub.rerouted = lambda ch: (rerouted.append(ch), original(ch))  # type: ignore[method-assign]
        version = 1
        for _ in range(3):
            events, first = await opened(version)
            await closed(events, first)
            events, first = await opened(version)  # reopened before the server confirmed the close
            await asyncio.sleep(0.3)
            started = time.monotonic()
            await writing.append(g, version, [{"n": version + 1}])
            version += 1
            assert await asyncio.wait_for(first, 5) == (version, {"n": version})
            assert time.monotonic() - started < 2.0  # pushed, not left to the 60 s sweep
            await closed(events, first)
        # Open, close, open, close within one round trip: nothing is left subscribed.
        for _ in range(2):
            await closed(*(await opened(version)))
        await asyncio.sleep(0.5)
        assert rerouted == []
        assert (await raw.execute_command("PUBSUB", "SHARDNUMSUB", channel))[1] == 0
    finally:
        await watching.close()
        await writing.close()


async def test_a_made_up_after_hash_resets_its_own_watcher_only(redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A client resuming with a hash the log does not hold (made up, or from a lost history)
    is told so with a reset; the feed that every watcher of the game on this replica shares
    does not take that hash as the store's: no "history rewritten" warning (operators read it
    as lost writes) and no reset for the honest watchers beside it."""
    from tablero.server.store.base import Reset

    store, writer = RedisStore(redis_url, sweep_interval=60), RedisStore(redis_url)
    caplog.set_level("WARNING")
    try:
        g = new_id()
        await writer.create(g, {}, [{"n": 1}, {"n": 2}, {"n": 3}])
        made_up = store.watch(g, 2, after_hash="0123456789abcdef", resets=True)  # it opens the feed
        first = asyncio.ensure_future(anext(made_up))
        honest = store.watch(g, 0, resets=True)
        seen = [await asyncio.wait_for(anext(honest), 5) for _ in range(3)]
        assert isinstance(await asyncio.wait_for(first, 5), Reset)
        await writer.append(g, 3, [{"n": 4}])
        seen.append(await asyncio.wait_for(anext(honest), 5))
        assert [tuple(x) for x in seen] == [(1, {"n": 1}), (2, {"n": 2}), (3, {"n": 3}), (4, {"n": 4})]
        assert not [r for r in caplog.records if "history rewritten" in r.getMessage()]
        await made_up.aclose()
        await honest.aclose()
    finally:
        await store.close()
        await writer.close()


async def test_an_append_of_this_process_reaches_its_watchers_without_its_notification(redis_url: str) -> None:
    """An append made here is handed to this process's watchers of the game at once, in the loop
    turn after the writer goes on (issue 39: spectators hear of a move with the mover's reply),
    not when its notification comes back from Redis. With the game's subscription gone and the
    sweep a minute away, only that hand-over can bring the event; a second append whose chain
    does not follow the feed (another process wrote between) is left to the notification."""
    store = RedisStore(redis_url, sweep_interval=60)
    other = RedisStore(redis_url)
    g = new_id()
    try:
        await store.create(g, {}, [{"n": 1}])
        async with aclosing(store.watch(g, 1)) as watch:
            pending = asyncio.ensure_future(anext(watch))
            await asyncio.sleep(0.3)  # subscribed, and the feed's first fetch done
            hub = store._hub
            node = hub.routes[channel_of(g)]
            hub.subscribers[node].remove(channel_of(g))  # no notification reaches this process now
            await asyncio.sleep(0.1)
            await store.append(g, 1, [{"n": 2}])
            assert not pending.done()  # not before the writer's next step (its reply goes first)
            assert await asyncio.wait_for(pending, 1) == (2, {"n": 2})
            # Another process appends (unseen here), then this one: its entry does not follow
            # the feed's last, so it is not handed over (the feed would skip version 3).
            await other.append(g, 2, [{"n": 3}])
            await store.append(g, 3, [{"n": 4}])
            late = asyncio.ensure_future(anext(watch))
            await asyncio.sleep(0.3)
            assert not late.done()
            late.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await late
    finally:
        await store.close()
        await other.close()
