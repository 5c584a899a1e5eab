"""The EventStore contract: every adapter passes this same suite.

Backends (fixtures in tests/store/conftest.py): SQLite in memory, SQLite in a
file, Redis and a 3-master Redis Cluster (throwaway servers from
tests/conftest.py). Tests that need two store instances on one backend (two
replicas) run on the backends that can share data: the SQLite file and Redis.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from pathlib import Path
from typing import Any

import pytest
from tablero.server.store import (
    Conflict,
    DuplicateRequest,
    EventStore,
    GameExists,
    GameNotFound,
    open_store,
)
from tablero.server.store.base import NUDGE, POKED, SNAPSHOT_HISTORY, Nudge, thinned

from tests.store.backends import Backend

REPO = Path(__file__).resolve().parents[2]
WAIT = 5.0  # seconds: the most any push is allowed to take before a test fails


@pytest.fixture
def store(backend: Backend) -> EventStore:
    return backend.open()


def new_id() -> str:
    return f"g-{uuid.uuid4().hex[:12]}"


def ev(n: int, **extra: Any) -> dict[str, Any]:
    return {"type": "test", "n": n, **extra}


async def outcomes(calls: list[Awaitable[Any]]) -> list[Any]:
    """Run calls concurrently; each result is the returned value or the exception raised."""
    return await asyncio.gather(*calls, return_exceptions=True)


async def wait_until(predicate: Callable[[], Awaitable[bool]], timeout: float = WAIT) -> None:
    async with asyncio.timeout(timeout):
        while not await predicate():
            await asyncio.sleep(0.01)


# -- create / read / version / meta ------------------------------------------------------


async def test_create_stores_meta_and_first_events(store: EventStore) -> None:
    g = new_id()
    meta = {"engine": "goofspiel", "seats": [{"kind": "human"}, {"kind": "ai"}], "options": {}}
    assert await store.create(g, meta, [ev(1), ev(2)]) == 2
    assert await store.version(g) == 2
    assert await store.read(g) == [ev(1), ev(2)]
    assert await store.get_meta(g) == meta


async def test_a_game_may_be_created_without_events(store: EventStore) -> None:
    g = new_id()
    assert await store.create(g, {"engine": "x"}, []) == 0
    assert await store.version(g) == 0
    assert await store.read(g) == []
    assert await store.append(g, 0, [ev(1)]) == 1


async def test_create_twice_raises_game_exists_and_keeps_the_first(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {"engine": "a"}, [ev(1)])
    with pytest.raises(GameExists):
        await store.create(g, {"engine": "b"}, [ev(9), ev(9)])
    assert await store.get_meta(g) == {"engine": "a"}
    assert await store.read(g) == [ev(1)]


async def test_unknown_game_raises_game_not_found(store: EventStore) -> None:
    g = new_id()
    for call in (
        store.read(g),
        store.version(g),
        store.get_meta(g),
        store.append(g, 0, [ev(1)]),
        store.claim_seat(g, [0]),
        store.put_snapshot(g, 1, {}),
    ):
        with pytest.raises(GameNotFound):
            await call
    with pytest.raises(GameNotFound):
        async with aclosing(store.watch(g, 0)) as events:
            await anext(events)
    assert await store.request_version(g, "r") is None
    assert await store.get_snapshot(g) is None
    # nothing of the failed calls created the game
    with pytest.raises(GameNotFound):
        await store.version(g)


@pytest.mark.parametrize("bad_id", ["", "a{b", "a}b", "{x}"])
async def test_every_store_refuses_the_same_game_ids(store: EventStore, bad_id: str) -> None:
    with pytest.raises(ValueError):
        await store.create(bad_id, {}, [ev(1)])
    for call in (store.read(bad_id), store.version(bad_id), store.append(bad_id, 0, [ev(1)])):
        with pytest.raises(GameNotFound):
            await call
    assert await store.get_snapshot(bad_id) is None


async def test_game_ids_may_hold_slashes_colons_and_unicode(store: EventStore) -> None:
    for g in (f"games/{new_id()}", f"a:b:{new_id()}", f"ünï-{new_id()}"):
        assert await store.create(g, {}, [ev(1)]) == 1
        assert await store.read(g) == [ev(1)]


async def test_events_and_meta_keep_exact_json(store: EventStore) -> None:
    g = new_id()
    tricky = {
        "type": "tricky",
        "empty_list": [],
        "empty_obj": {},
        "nested": [[], [{}], {"a": [1, [2, []]]}],
        "big": 2**53 + 1,
        "neg": -(2**62),
        "float": 0.1,
        "exp": 1e300,
        "text": 'ünïcödé ✓ "quoted" \\ {braces} \n',
        "flags": [True, False, None],
    }
    meta = {"engine": "x", "claimed": [], "seats": [], "options": {"deep": {"list": []}}}
    await store.create(g, meta, [tricky])
    await store.append(g, 1, [tricky])
    assert await store.read(g) == [tricky, tricky]
    assert await store.get_meta(g) == meta
    await store.put_snapshot(g, 2, tricky)
    assert await store.get_snapshot(g) == (2, tricky)


# -- append -------------------------------------------------------------------------------


async def test_append_at_current_version_returns_the_new_version(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    assert await store.append(g, 1, [ev(2), ev(3)]) == 3
    assert await store.append(g, 3, [ev(4)]) == 4
    assert await store.version(g) == 4
    assert await store.read(g) == [ev(1), ev(2), ev(3), ev(4)]


async def test_appending_no_events_checks_and_records_but_leaves_the_version(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    assert await store.append(g, 1, [], request_id="empty") == 1
    assert await store.request_version(g, "empty") == 1
    with pytest.raises(Conflict):
        await store.append(g, 0, [])
    assert await store.read(g) == [ev(1)]


async def test_stale_expected_version_raises_conflict_and_appends_nothing(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2)])
    for stale in (0, 1, 3, 99):
        with pytest.raises(Conflict) as caught:
            await store.append(g, stale, [ev(100)], request_id=f"r{stale}")
        assert (caught.value.game_id, caught.value.expected, caught.value.actual) == (g, stale, 2)
        # a refused append does not consume its request id
        assert await store.request_version(g, f"r{stale}") is None
    assert await store.version(g) == 2
    assert await store.read(g) == [ev(1), ev(2)]


async def test_concurrent_appenders_with_the_same_expected_version_exactly_one_wins(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(0)])
    results = await outcomes([store.append(g, 1, [ev(i), ev(i)]) for i in range(20)])
    winners = [i for i, r in enumerate(results) if r == 3]
    assert len(winners) == 1
    assert all(isinstance(r, Conflict) for i, r in enumerate(results) if i != winners[0])
    assert await store.read(g) == [ev(0), ev(winners[0]), ev(winners[0])]


async def test_appenders_on_two_replicas_exactly_one_wins(shared_backend: Backend) -> None:
    a, b = shared_backend.open(), shared_backend.open()
    g = new_id()
    await a.create(g, {}, [ev(0)])
    results = await outcomes([(a if i % 2 else b).append(g, 1, [ev(i)]) for i in range(20)])
    winners = [i for i, r in enumerate(results) if r == 2]
    assert len(winners) == 1
    assert sum(isinstance(r, Conflict) for r in results) == 19
    assert await b.read(g) == [ev(0), ev(winners[0])]


async def test_racing_writers_that_retry_on_conflict_lose_no_event(backend: Backend) -> None:
    stores = [backend.open(), backend.open()] if backend.shared else [backend.open()]
    g = new_id()
    await stores[0].create(g, {}, [])
    writers, each = 6, 5

    async def writer(w: int) -> None:
        store = stores[w % len(stores)]
        for k in range(each):
            while True:
                try:
                    await store.append(g, await store.version(g), [{"type": "w", "w": w, "k": k}])
                    break
                except Conflict:
                    await asyncio.sleep(0)

    await asyncio.gather(*(writer(w) for w in range(writers)))
    log = await stores[-1].read(g)
    assert len(log) == writers * each
    for w in range(writers):
        assert [e["k"] for e in log if e["w"] == w] == list(range(each))


# -- request ids (idempotent retries) ------------------------------------------------------


async def test_a_repeated_request_id_returns_the_first_version_and_appends_nothing(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    assert await store.append(g, 1, [ev(2), ev(3)], request_id="req-1") == 3
    assert await store.request_version(g, "req-1") == 3
    for expected in (3, 1):  # the retry may carry the old expected version: still a duplicate, not a conflict
        with pytest.raises(DuplicateRequest) as caught:
            await store.append(g, expected, [ev(2), ev(3)], request_id="req-1")
        assert (caught.value.game_id, caught.value.request_id, caught.value.version) == (g, "req-1", 3)
    assert await store.version(g) == 3
    assert await store.append(g, 3, [ev(4)], request_id="req-2") == 4
    assert await store.request_version(g, "req-2") == 4
    assert await store.request_version(g, "never") is None


async def test_a_duplicate_carries_the_fingerprint_its_request_was_recorded_with(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    await store.append_ex(g, 1, [ev(2)], "seat0:a", fingerprint="f00d")
    await store.append_ex(g, 2, [ev(3)], "seat0:b")  # none given: none recorded
    with pytest.raises(DuplicateRequest) as caught:
        await store.append_ex(g, 3, [ev(9)], "seat0:a", fingerprint="beef")
    assert (caught.value.version, caught.value.fingerprint) == (2, "f00d")
    with pytest.raises(DuplicateRequest) as caught:
        await store.append_ex(g, 3, [ev(9)], "seat0:b", fingerprint="beef")
    assert (caught.value.version, caught.value.fingerprint) == (3, "")
    assert [await store.request_fingerprint(g, r) for r in ("seat0:a", "seat0:b", "never")] == ["f00d", "", ""]
    assert await store.request_fingerprint(new_id(), "seat0:a") == ""
    assert await store.request_version(g, "seat0:a") == 2 and await store.read(g) == [ev(1), ev(2), ev(3)]
    assert (await store.export_game(g))["requests"] == {"seat0:a": 2, "seat0:b": 3}


async def test_request_ids_belong_to_one_game(store: EventStore) -> None:
    g1, g2 = new_id(), new_id()
    await store.create(g1, {}, [ev(1)])
    await store.create(g2, {}, [ev(1)])
    assert await store.append(g1, 1, [ev(2)], request_id="same") == 2
    assert await store.request_version(g2, "same") is None
    assert await store.append(g2, 1, [ev(2), ev(3)], request_id="same") == 3


async def test_concurrent_retries_of_one_request_append_once(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    results = await outcomes([store.append(g, 1, [ev(2)], request_id="r") for _ in range(10)])
    assert results.count(2) == 1
    duplicates = [r for r in results if isinstance(r, DuplicateRequest)]
    assert len(duplicates) == 9 and all(d.version == 2 for d in duplicates)
    assert await store.read(g) == [ev(1), ev(2)]


# -- seats ----------------------------------------------------------------------------------


async def test_claim_seat_takes_the_first_free_seat_in_the_order_given(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {"engine": "x", "seats": 4}, [])
    assert await store.claim_seat(g, [2, 0, 1]) == 2
    assert await store.claim_seat(g, [2, 0, 1]) == 0
    assert await store.claim_seat(g, [0, 2]) is None
    assert await store.claim_seat(g, [3]) == 3
    assert await store.get_meta(g) == {"engine": "x", "seats": 4, "claimed": [2, 0, 3]}


async def test_claim_seat_respects_seats_claimed_at_creation(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {"claimed": [0]}, [])
    assert await store.claim_seat(g, [0, 1]) == 1
    assert await store.claim_seat(g, [0, 1]) is None
    assert (await store.get_meta(g))["claimed"] == [0, 1]


async def test_a_claim_id_already_held_gets_its_seat_back(backend: Backend) -> None:
    """A retried join (its claim id comes from its requestId): the same seat, not a second one,
    on every replica, also when the retries race."""
    stores = [backend.open(), backend.open()] if backend.shared else [backend.open()]
    g = new_id()
    await stores[0].create(g, {"engine": "x", "seats": 3}, [])
    assert await stores[0].claim_seat(g, [1, 2], "first") == 1
    assert await stores[-1].claim_seat(g, [2], "first") == 1  # only seat 2 is open to a new claim: still 1
    results = await outcomes([stores[i % len(stores)].claim_seat(g, [2], "second") for i in range(6)])
    assert results == [2] * 6
    assert await stores[0].claim_seat(g, [2], "third") is None
    meta = await stores[0].get_meta(g)
    assert sorted(meta["claimed"]) == [1, 2] and meta["claims"] == {"1": "first", "2": "second"}


async def test_concurrent_claims_give_each_seat_once(backend: Backend) -> None:
    stores = [backend.open(), backend.open()] if backend.shared else [backend.open()]
    g = new_id()
    await stores[0].create(g, {"engine": "x"}, [])
    results = await outcomes([stores[i % len(stores)].claim_seat(g, [0, 1, 2, 3]) for i in range(12)])
    assert sorted(r for r in results if r is not None) == [0, 1, 2, 3]
    assert results.count(None) == 8
    assert sorted((await stores[0].get_meta(g))["claimed"]) == [0, 1, 2, 3]


# -- snapshots ------------------------------------------------------------------------------


async def test_a_newer_snapshot_replaces_an_older_one_never_the_reverse(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(i) for i in range(10)])
    assert await store.get_snapshot(g) is None
    await store.put_snapshot(g, 3, {"at": 3})
    assert await store.get_snapshot(g) == (3, {"at": 3})
    await store.put_snapshot(g, 8, {"at": 8, "board": [[0, 1], []]})
    assert await store.get_snapshot(g) == (8, {"at": 8, "board": [[0, 1], []]})
    await store.put_snapshot(g, 5, {"at": 5})
    await store.put_snapshot(g, 8, {"at": "again"})
    assert await store.get_snapshot(g) == (8, {"at": 8, "board": [[0, 1], []]})


async def test_a_cold_load_gets_the_newest_snapshot_and_the_entries_from_it(store: EventStore) -> None:
    g = new_id()
    with pytest.raises(GameNotFound):
        await store.load_newest(g)
    await store.create(g, {}, [ev(i) for i in range(6)])
    snap, entries = await store.load_newest(g)
    assert snap is None and [(e.version, e.event) for e in entries] == [(v, ev(v - 1)) for v in range(1, 7)]
    assert entries == await store.read_entries(g)  # the hashes too
    seat_left = [{"type": "tablero.seat_left", "seat": 1}]
    await store.put_snapshot(g, 4, {"at": 4}, seat_left)
    await store.append(g, 6, [ev(6), ev(7)])
    snap, entries = await store.load_newest(g)
    assert snap == (4, {"at": 4}, seat_left)
    assert [e.version for e in entries] == [4, 5, 6, 7, 8]  # from the snapshot's own entry
    assert entries == await store.read_entries(g, after_version=3)
    assert entries[-1].hash == (await store.head(g)).hash


async def test_past_snapshots_are_kept_spread_over_the_game(store: EventStore) -> None:
    # ?version=N replays from the newest snapshot at or before N: the store keeps up to
    # SNAPSHOT_HISTORY of them, thinned evenly, so the stretch replayed stays bounded.
    g = new_id()
    await store.create(g, {}, [ev(i) for i in range(300)])
    assert await store.snapshot_at(g, 300) is None
    seat_left = [{"type": "tablero.seat_left", "seat": 1}]
    for v in range(10, 301, 10):
        await store.put_snapshot(g, v, {"at": v}, seat_left if v >= 150 else [])
    await store.put_snapshot(g, 120, {"at": "older than the newest: ignored"})
    assert await store.snapshot_at(g, 5) is None  # the first one is never thinned away
    assert await store.snapshot_at(g, 10) == (10, {"at": 10}, [])
    kept = [s.version for s in [await store.snapshot_at(g, v) for v in range(10, 301)] if s is not None]
    assert len(set(kept)) <= SNAPSHOT_HISTORY
    assert max(b - a for a, b in zip(sorted(set(kept)), sorted(set(kept))[1:], strict=False)) <= 40
    for v in (57, 155, 299):
        snap = await store.snapshot_at(g, v)
        assert snap is not None and v - 40 < snap.version <= v and snap.state == {"at": snap.version}
        assert snap.platform == (seat_left if snap.version >= 150 else [])
    assert await store.snapshot_at(g, 300) == (300, {"at": 300}, seat_left)
    assert await store.get_snapshot(g) == (300, {"at": 300})
    assert await store.snapshot_at(new_id(), 300) is None


def test_thinning_keeps_the_first_and_the_newest_and_the_smallest_gaps_go() -> None:
    assert thinned([10, 20, 30, 40], 3) == [20]
    assert thinned([10, 11, 30, 40], 3) == [11]
    assert thinned(list(range(1, 101)), 100) == []
    rest = sorted(set(range(1, 101)) - set(thinned(list(range(1, 101)), 10)))
    assert len(rest) == 10 and rest[0] == 1 and rest[-1] == 100


# -- read paging ----------------------------------------------------------------------------


async def test_read_pages_with_after_version_and_limit(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(i) for i in range(1, 11)])
    assert await store.read(g, after_version=3, limit=4) == [ev(4), ev(5), ev(6), ev(7)]
    assert await store.read(g, after_version=8, limit=10) == [ev(9), ev(10)]
    assert await store.read(g, after_version=10) == []
    assert await store.read(g, after_version=50) == []
    assert await store.read(g, limit=2) == [ev(1), ev(2)]
    assert await store.read(g, after_version=2, limit=0) == []


# -- watch ----------------------------------------------------------------------------------


async def take(events: AsyncIterator[tuple[int, Any]], n: int) -> list[tuple[int, Any]]:
    got = []
    async with asyncio.timeout(WAIT):
        while len(got) < n:
            got.append(await anext(events))
    return got


async def test_watch_yields_history_then_live_events(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2), ev(3)])
    async with aclosing(store.watch(g, 1)) as events:
        assert await take(events, 2) == [(2, ev(2)), (3, ev(3))]
        pending = asyncio.ensure_future(take(events, 3))
        await asyncio.sleep(0.05)  # the watcher is now waiting for new events
        assert not pending.done()
        await store.append(g, 3, [ev(4)])
        await store.append(g, 4, [ev(5), ev(6)])
        assert await pending == [(4, ev(4)), (5, ev(5)), (6, ev(6))]


async def test_watch_from_the_current_version_waits_for_the_next_event(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [])
    async with aclosing(store.watch(g, 0)) as events:
        pending = asyncio.ensure_future(take(events, 1))
        await asyncio.sleep(0.05)
        await store.append(g, 0, [ev(1)])
        assert await pending == [(1, ev(1))]


async def test_watch_catches_up_on_a_long_history_in_order(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(i) for i in range(1, 1201)])
    async with aclosing(store.watch(g, 0)) as events:
        got = await take(events, 1200)
    assert got == [(i, ev(i)) for i in range(1, 1201)]


async def test_every_watcher_of_a_game_gets_every_event(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [ev(1)])
    async with aclosing(store.watch(g, 0)) as w1, aclosing(store.watch(g, 1)) as w2:
        pending = [asyncio.ensure_future(take(w1, 3)), asyncio.ensure_future(take(w2, 2))]
        await asyncio.sleep(0.05)
        await store.append(g, 1, [ev(2)])
        await store.append(g, 2, [ev(3)])
        first, second = await asyncio.gather(*pending)
    assert first == [(1, ev(1)), (2, ev(2)), (3, ev(3))]
    assert second == [(2, ev(2)), (3, ev(3))]


async def test_watchers_get_their_own_event_objects(store: EventStore) -> None:
    g = new_id()
    await store.create(g, {}, [])
    async with aclosing(store.watch(g, 0)) as w1, aclosing(store.watch(g, 0)) as w2:
        pending = [asyncio.ensure_future(take(w1, 1)), asyncio.ensure_future(take(w2, 1))]
        await asyncio.sleep(0.05)
        await store.append(g, 0, [ev(1, cards=[1, 2])])
        [(_, first)], [(_, second)] = await asyncio.gather(*pending)
    first["cards"].append(3)  # a consumer that edits what it got (e.g. to redact it)...
    assert second == ev(1, cards=[1, 2])  # ...changes nothing for the others
    assert await store.read(g) == [ev(1, cards=[1, 2])]


async def test_a_watcher_sees_events_appended_through_another_replica(shared_backend: Backend) -> None:
    watching, writing = shared_backend.open(), shared_backend.open()
    g = new_id()
    await writing.create(g, {}, [ev(1)])
    async with aclosing(watching.watch(g, 0)) as events:
        assert await take(events, 1) == [(1, ev(1))]
        pending = asyncio.ensure_future(take(events, 2))
        await asyncio.sleep(0.05)
        await writing.append(g, 1, [ev(2)])
        await writing.append(g, 2, [ev(3)])
        assert await pending == [(2, ev(2)), (3, ev(3))]


async def test_a_watcher_sees_events_appended_by_another_process(shared_backend: Backend) -> None:
    watching = shared_backend.open()
    g = new_id()
    await watching.create(g, {}, [ev(1)])
    redis_url, sqlite_path = shared_backend.open_store_args()
    script = (
        "import asyncio, sys\n"
        "from tablero.server.store import open_store\n"
        "async def main():\n"
        "    store = open_store(sys.argv[1] or None, sys.argv[2] or None)\n"
        "    await store.append(sys.argv[3], 1, [{'type': 'test', 'n': 2, 'by': 'child'}])\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
    )
    async with aclosing(watching.watch(g, 1)) as events:
        pending = asyncio.ensure_future(take(events, 1))
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            script,
            redis_url or "",
            sqlite_path or "",
            g,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stderr=subprocess.PIPE,
        )
        _, err = await child.communicate()
        assert child.returncode == 0, err.decode()
        assert await pending == [(2, ev(2, by="child"))]


async def test_a_cancelled_watch_leaves_nothing_behind(backend: Backend) -> None:
    store = backend.open()
    g = new_id()
    await store.create(g, {}, [ev(1)])
    seen: list[int] = []

    async def consume() -> None:
        async for version, _ in store.watch(g, 0):
            seen.append(version)

    task = asyncio.ensure_future(consume())
    await wait_until(lambda: _true(seen == [1]))
    await wait_until(lambda: _positive(backend.watchers_left(store)))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await wait_until(lambda: _zero(backend.watchers_left(store)))
    # the store still works, and a new watcher gets what was appended meanwhile
    assert await store.append(g, 1, [ev(2)]) == 2
    async with aclosing(store.watch(g, 1)) as events:
        assert await take(events, 1) == [(2, ev(2))]
    await wait_until(lambda: _zero(backend.watchers_left(store)))
    assert seen == [1]


async def test_stopping_iteration_closes_the_watch(backend: Backend) -> None:
    store = backend.open()
    g = new_id()
    await store.create(g, {}, [ev(1), ev(2)])
    async with aclosing(store.watch(g, 0)) as events:
        async for version, _ in events:
            if version == 2:
                break
    await wait_until(lambda: _zero(backend.watchers_left(store)))


async def test_a_nudged_watch_yields_poked_between_exact_events(store: EventStore) -> None:
    # The consumer's nudge (keep-alives, shutdown) wakes a waiting watch without an event;
    # a poke before the watch attached is not lost, and the events stay exact.
    g = new_id()
    await store.create(g, {}, [ev(1)])
    nudge = Nudge()
    nudge.poke()  # before the first step: kept until the store's watch attaches
    token = NUDGE.set(nudge)
    events = store.watch(g, 0)
    try:
        first = await anext(events)
    finally:
        NUDGE.reset(token)
    assert nudge.attached
    got = [first, await anext(events)]
    assert sorted(got, key=str) == sorted([POKED, (1, ev(1))], key=str)
    async with aclosing(events):
        pending = asyncio.ensure_future(anext(events))
        await asyncio.sleep(0.05)
        assert not pending.done()  # waiting for an event
        nudge.poke()
        assert await asyncio.wait_for(pending, 2) is POKED
        await store.append(g, 1, [ev(2)])
        assert await asyncio.wait_for(anext(events), 5) == (2, ev(2))
    # A watch started without NUDGE is not reached by it.
    async with aclosing(store.watch(g, 0)) as plain:
        assert await take(plain, 2) == [(1, ev(1)), (2, ev(2))]


async def _true(value: bool) -> bool:
    return value


async def _positive(count: Awaitable[int]) -> bool:
    return await count > 0


async def _zero(count: Awaitable[int]) -> bool:
    return await count == 0


# -- plumbing -------------------------------------------------------------------------------


async def test_ping_answers_on_a_working_store(store: EventStore) -> None:
    await store.ping()


async def test_open_store_picks_the_backend(backend: Backend) -> None:
    redis_url, sqlite_path = backend.open_store_args()
    store = open_store(redis_url, None if sqlite_path == ":memory:" else sqlite_path)
    backend.stores.append(store)
    expected = {
        "redis": "RedisStore",
        "redis-cluster": "RedisStore",
        "sqlite-file": "SQLiteStore",
        "sqlite-memory": "SQLiteStore",
    }[backend.kind]
    assert type(store).__name__ == expected
    g = new_id()
    assert await store.create(g, {}, [ev(1)]) == 1
    assert await store.read(g) == [ev(1)]


async def test_the_head_is_the_last_version_and_its_hash_as_a_resumed_watch_checks_it(store: EventStore) -> None:
    # What a watch that resumes at the head of a finished game asks (server/app/watching.py,
    # through GameRepository.head): the store's head, never a reach past the interface.
    g = new_id()
    with pytest.raises(GameNotFound):
        await store.head(g)
    await store.create(g, {}, [])
    assert (await store.head(g)).version == 0 and (await store.head(g)).hash == ""
    await store.append(g, 0, [ev(0), ev(1)])
    head = await store.head(g)
    assert head.version == 2 and head.hash == (await store.read_entries(g))[-1].hash != ""


async def test_every_adapter_declares_whether_snapshots_trim_and_how_long_finished_games_stay(
        store: EventStore) -> None:
    # The settings the repository and the watch read from the contract (EventStore), not by
    # probing an adapter: both off by default.
    assert store.trim_on_snapshot is False and store.finished_ttl is None
