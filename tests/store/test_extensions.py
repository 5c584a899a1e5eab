"""The EventStore extensions (hash chain, append_ex, retention, rewritten-history watchers),
on every backend."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from contextlib import aclosing
from typing import Any

import pytest
from tablero.server.store import (
    AppendResult,
    Conflict,
    DuplicateRequest,
    EventStore,
    GameNotFound,
    HistoryRewritten,
    Reset,
    Trimmed,
)

from tests.store.backends import Backend
from tests.store.test_contract import ev, new_id, take


@pytest.fixture
def store(backend: Backend) -> EventStore:
    return backend.open()


def chain(prev: str, event: dict[str, Any]) -> str:
    text = json.dumps(event, separators=(",", ":"), allow_nan=False)
    return hashlib.sha1((prev + text).encode()).hexdigest()[:16]


def hashes(events: list[dict[str, Any]]) -> list[str]:
    out, h = [], ""
    for e in events:
        h = chain(h, e)
        out.append(h)
    return out


# -- hash chain ---------------------------------------------------------------------------


async def test_every_entry_carries_the_chain_hash_the_same_on_every_backend(store: EventStore) -> None:
    g = new_id()
    events = [ev(1), ev(2, cards=[1, 2]), ev(3, text="ünï")]
    await store.create(g, {}, events[:1])
    result = await store.append_ex(g, 1, events[1:], request_id="r")
    assert result == AppendResult(3, hashes(events)[-1])
    entries = await store.read_entries(g)
    assert [(e.version, e.hash, e.event) for e in entries] == list(zip([1, 2, 3], hashes(events), events, strict=True))
    assert await store.head(g) == AppendResult(3, hashes(events)[-1])
    assert [e.version for e in await store.read_entries(g, after_version=1, limit=1)] == [2]
    with pytest.raises(GameNotFound):
        await store.head(new_id())


async def test_an_empty_game_has_the_empty_hash(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [])
    assert await store.head(g) == AppendResult(0, "")
    assert (await store.append_ex(g, 0, [ev(1)], expected_hash="")).hash == hashes([ev(1)])[0]


async def test_append_with_the_right_expected_hash_succeeds(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    h1 = hashes([ev(1)])[0]
    assert (await store.append_ex(g, 1, [ev(2)], expected_hash=h1)).version == 2


async def test_a_wrong_expected_hash_is_history_rewritten_and_writes_nothing(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2)])
    with pytest.raises(HistoryRewritten) as caught:
        await store.append_ex(g, 2, [ev(3)], request_id="r", expected_hash="0123456789abcdef")
    assert isinstance(caught.value, Conflict)  # callers that evict on Conflict reload
    assert (caught.value.version, caught.value.actual, caught.value.head_hash) == (2, 2, hashes([ev(1), ev(2)])[1])
    assert await store.version(g) == 2
    assert await store.request_version(g, "r") is None


async def test_a_store_behind_the_callers_version_is_history_rewritten(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    with pytest.raises(HistoryRewritten) as caught:
        await store.append_ex(g, 3, [ev(4)], expected_hash="0123456789abcdef")
    assert caught.value.actual == 1
    # without an expected hash it is an ordinary conflict, as before
    with pytest.raises(Conflict) as plain:
        await store.append_ex(g, 3, [ev(4)])
    assert type(plain.value) is Conflict


async def test_a_conflict_carries_the_missing_tail_when_asked(store: EventStore) -> None:
    g = new_id()
    events = [ev(1), ev(2), ev(3), ev(4)]
    await store.create(g, {}, events)
    with pytest.raises(Conflict) as caught:
        await store.append_ex(g, 2, [ev(99)], tail_limit=5, expected_hash=hashes(events)[1])
    tail = caught.value.tail
    assert tail is not None and [(e.version, e.hash, e.event) for e in tail] == [
        (3, hashes(events)[2], ev(3)),
        (4, hashes(events)[3], ev(4)),
    ]
    assert caught.value.head_hash == hashes(events)[3]
    # too far behind for the limit, or not asked: no tail
    with pytest.raises(Conflict) as far:
        await store.append_ex(g, 1, [ev(99)], tail_limit=2)
    assert far.value.tail is None
    with pytest.raises(Conflict) as unasked:
        await store.append_ex(g, 2, [ev(99)])
    assert unasked.value.tail is None
    # a duplicate request still wins over the version check
    await store.append_ex(g, 4, [ev(5)], request_id="r")
    with pytest.raises(DuplicateRequest):
        await store.append_ex(g, 1, [ev(5)], request_id="r", tail_limit=10, expected_hash="x")


# -- retention ------------------------------------------------------------------------------


async def test_trim_drops_what_the_snapshot_covers_and_reads_say_so(store: EventStore) -> None:
    g = new_id()
    events = [ev(i) for i in range(1, 11)]
    await store.create(g, {}, events)
    assert await store.trim(g) == 1  # no snapshot: nothing to trim
    await store.put_snapshot(g, 6, {"at": 6})
    assert await store.trim(g) == 6
    with pytest.raises(Trimmed) as caught:
        await store.read(g)
    assert (caught.value.game_id, caught.value.first_kept) == (g, 6)
    with pytest.raises(Trimmed):
        await store.read(g, after_version=4, limit=3)
    # what a snapshot-based load needs is still there
    assert await store.read(g, after_version=6) == events[6:]
    assert await store.read(g, after_version=5, limit=2) == events[5:7]
    assert await store.version(g) == 10
    assert (await store.append_ex(g, 10, [ev(11)])).hash == hashes([*events, ev(11)])[-1]
    with pytest.raises(Trimmed):
        async with aclosing(store.watch(g, 2)) as events_seen:
            await anext(events_seen)
    async with aclosing(store.watch(g, 8)) as events_seen:
        assert [v for v, _ in await take(events_seen, 3)] == [9, 10, 11]


async def test_finish_expires_the_whole_game_after_its_ttl(backend: Backend) -> None:
    store = backend.open()
    g = new_id()
    await store.create(g, {"engine": "x"}, [ev(1)])
    await store.append(g, 1, [ev(2)], request_id="r")
    await store.claim_seat(g, [0])
    await store.put_snapshot(g, 2, {"s": 1})
    assert await store.finish(g) is False  # no finished_ttl set: kept forever
    assert await store.finish(g, ttl=0.3) is True
    assert await store.version(g) == 2
    await asyncio.sleep(0.5)
    with pytest.raises(GameNotFound):
        await store.version(g)
    with pytest.raises(GameNotFound):
        await store.get_meta(g)
    assert await store.get_snapshot(g) is None
    assert await store.request_version(g, "r") is None
    with pytest.raises(GameNotFound):
        await store.finish(g, ttl=1)
    if backend.kind == "redis":
        keys = [k async for k in store._client.scan_iter(match=f"tablero:{{{g}}}:*")]  # type: ignore[attr-defined]
        assert keys == []


async def test_delete_and_archive_a_game(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {"engine": "x"}, [ev(1)])
    await store.append(g, 1, [ev(2)], request_id="r")
    await store.put_snapshot(g, 2, {"s": 2})
    written: list[dict[str, Any]] = []

    async def write(document: dict[str, Any]) -> None:
        written.append(json.loads(json.dumps(document)))  # it must be plain JSON

    document = await store.archive(g, write)
    assert written == [document]
    assert document == {
        "game_id": g,
        "meta": {"engine": "x"},
        "version": 2,
        "first_kept": 1,
        "events": [ev(1), ev(2)],
        "hashes": hashes([ev(1), ev(2)]),
        "requests": {"r": 2},
        "snapshot": {"version": 2, "state": {"s": 2}},
    }
    with pytest.raises(GameNotFound):
        await store.version(g)
    assert await store.delete_game(g) is False
    g2 = new_id()
    await store.create(g2, {}, [ev(1)])
    with pytest.raises(Conflict):
        await store.delete_game(g2, if_version=5)
    assert await store.version(g2) == 1
    assert await store.delete_game(g2, if_version=1) is True
    with pytest.raises(GameNotFound):
        await store.read(g2)


async def test_get_meta_cached_answers_without_the_store(backend: Backend) -> None:
    store = backend.open()
    g = new_id()
    await store.create(g, {"engine": "x", "claimed": []}, [])
    first = await store.get_meta(g, cached=True)
    first["engine"] = "edited"  # the caller's own copy
    assert (await store.get_meta(g, cached=True))["engine"] == "x"
    await store.claim_seat(g, [1])
    assert (await store.get_meta(g))["claimed"] == [1]  # uncached: exact


# -- rewritten history ----------------------------------------------------------------------


async def rewrite_last(backend: Backend, store: EventStore, g: str, keep: int, new_events: list[dict]) -> None:
    """What a Redis rollback does: the events after `keep` vanish; then another writer
    appends different ones at the same versions."""
    if backend.kind.startswith("redis"):
        client, key = store._writes.client, f"tablero:{{{g}}}:events"  # type: ignore[attr-defined]
        kept = await client.xrange(key, "-", f"{keep}-0")
        await client.delete(key)  # a restored AOF forgets the stream's last id too
        for entry_id, fields in kept:
            await client.xadd(key, fields, id=entry_id)
    else:
        conn = sqlite3.connect(backend.target if backend.kind == "sqlite-file" else ":memory:")
        if backend.kind == "sqlite-memory":  # the in-memory database is only reachable through the store
            await store._run(lambda c: c.execute("DELETE FROM events WHERE game_id = ? AND version > ?", (g, keep)))  # type: ignore[attr-defined]
            await store._run(lambda c: c.execute("UPDATE games SET version = ? WHERE game_id = ?", (keep, g)))  # type: ignore[attr-defined]
        else:
            conn.execute("DELETE FROM events WHERE game_id = ? AND version > ?", (g, keep))
            conn.execute("UPDATE games SET version = ? WHERE game_id = ?", (keep, g))
            conn.commit()
        conn.close()
    await store.append(g, keep, new_events)


async def test_a_watcher_raises_history_rewritten_by_default(backend: Backend) -> None:
    store = backend.open()
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2)])
    async with aclosing(store.watch(g, 0)) as events:
        assert await take(events, 2) == [(1, ev(1)), (2, ev(2))]
        await store.append(g, 2, [ev(3)])
        assert await take(events, 1) == [(3, ev(3))]
        pending = asyncio.ensure_future(anext(events))
        await asyncio.sleep(0.05)
        await rewrite_last(backend, store, g, 2, [ev(30), ev(40)])
        with pytest.raises(HistoryRewritten) as caught:
            await asyncio.wait_for(pending, 5)
    assert caught.value.version == 3


async def test_a_watcher_with_resets_gets_a_reset_and_the_new_history(backend: Backend) -> None:
    store = backend.open()
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2)])
    async with aclosing(store.watch(g, 0, resets=True)) as events:
        assert await take(events, 2) == [(1, ev(1)), (2, ev(2))]
        await store.append(g, 2, [ev(3)])
        assert await take(events, 1) == [(3, ev(3))]
        pending = asyncio.ensure_future(take(events, 3))
        await asyncio.sleep(0.05)
        await rewrite_last(backend, store, g, 2, [ev(30), ev(40)])
        assert await pending == [Reset(2), (3, ev(30)), (4, ev(40))]
        await store.append(g, 4, [ev(50)])
        assert await take(events, 1) == [(5, ev(50))]


async def test_a_resumed_watch_with_a_stale_hash_sees_the_rewrite(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2), ev(3)])
    with pytest.raises(HistoryRewritten):
        async with aclosing(store.watch(g, 2, after_hash="0123456789abcdef")) as events:
            await anext(events)
    async with aclosing(store.watch(g, 2, after_hash=hashes([ev(1), ev(2)])[1])) as events:
        assert await take(events, 1) == [(3, ev(3))]


async def test_open_store_passes_settings_to_the_adapter(backend: Backend) -> None:
    from tablero.server.store import open_store

    redis_url, sqlite_path = backend.open_store_args()
    store = open_store(
        redis_url, None if sqlite_path == ":memory:" else sqlite_path,
        finished_ttl=7.0, write_pool_size=3, poll_interval=None,
    )
    backend.stores.append(store)
    assert store.finished_ttl == 7.0  # type: ignore[attr-defined]
    if backend.kind.startswith("redis"):
        assert store._writes.size == 3  # type: ignore[attr-defined]
    else:
        assert store.poll_interval == 0.05  # type: ignore[attr-defined]  # None: the default
