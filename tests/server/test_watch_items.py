"""The one watch loop (server.api.watch.items): events, keep-alives after a quiet period, and the
server's shutdown reaching every open watch."""

from __future__ import annotations

import asyncio

from tablero.server.api.watch import items


async def _events(n: int):
    for v in range(1, n + 1):
        yield {"version": v}
    await asyncio.sleep(3600)  # a quiet game


async def test_keepalives_come_only_after_a_quiet_period_and_the_shutdown_ends_every_watch() -> None:
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    watches = [items(_events(2), stopping, keepalive=0.2) for _ in range(3)]
    for w in watches:
        assert [(await anext(w)).kind for _ in range(2)] == ["event", "event"]
    t0 = loop.time()
    assert (await anext(watches[0])).kind == "keepalive"
    assert 0.15 <= loop.time() - t0 < 1.0
    t1 = loop.time()
    assert (await anext(watches[0])).kind == "keepalive"  # and again after another quiet period
    assert 0.15 <= loop.time() - t1 < 1.0
    stopping.set()
    for w in watches:
        kinds = [(await asyncio.wait_for(anext(w), 2)).kind]
        while kinds[-1] == "keepalive":
            kinds.append((await asyncio.wait_for(anext(w), 2)).kind)
        assert kinds[-1] == "shutdown"
        await w.aclose()


async def test_without_keepalives_a_quiet_watch_sends_nothing_until_the_shutdown() -> None:
    stopping = asyncio.Event()
    w = items(_events(1), stopping, keepalive=None)
    assert (await anext(w)).kind == "event"
    pending = asyncio.ensure_future(anext(w))
    await asyncio.sleep(0.3)
    assert not pending.done()
    stopping.set()
    assert (await asyncio.wait_for(pending, 2)).kind == "shutdown"
    await w.aclose()


async def test_a_watch_of_a_store_runs_in_its_consumers_task_with_keepalives_and_the_shutdown() -> None:
    # items() with a Nudge: no reader task per watcher; the keep-alive timer and the shutdown
    # nudge the store's own waiter, and events still come as they are appended.
    from tablero.server.store import SQLiteStore
    from tablero.server.store.base import Nudge

    store = SQLiteStore()
    try:
        await store.create("g", {}, [{"type": "e", "n": 1}])
        stopping = asyncio.Event()
        tasks_before = len(asyncio.all_tasks())
        watches = [items(store.watch("g", 0), stopping, keepalive=0.2, nudge=Nudge()) for _ in range(20)]
        for w in watches:
            first = await anext(w)
            assert (first.kind, first.data) == ("event", (1, {"type": "e", "n": 1}))
        assert len(asyncio.all_tasks()) - tasks_before <= 2  # the store's and the shutdown's, not one per watch
        t0 = asyncio.get_running_loop().time()
        assert (await asyncio.wait_for(anext(watches[0]), 2)).kind == "keepalive"
        assert asyncio.get_running_loop().time() - t0 >= 0.15
        pending = [asyncio.ensure_future(anext(w)) for w in watches[1:]]
        await store.append("g", 1, [{"type": "e", "n": 2}])
        for w, p in zip(watches[1:], pending, strict=True):
            item = await asyncio.wait_for(p, 2)
            while item.kind == "keepalive":
                item = await asyncio.wait_for(anext(w), 2)
            assert (item.kind, item.data) == ("event", (2, {"type": "e", "n": 2}))
        stopping.set()
        for w in watches:
            kinds = [(await asyncio.wait_for(anext(w), 2)).kind]
            while kinds[-1] in ("keepalive", "event"):
                kinds.append((await asyncio.wait_for(anext(w), 2)).kind)
            assert kinds[-1] == "shutdown"
            await w.aclose()
        assert sum(len(f.watchers) for f in store._feeds.values()) == 0
    finally:
        await store.close()
