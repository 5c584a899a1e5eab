"""The one watch loop (server.api.watch.items): events, keep-alives after a quiet period, and the
server's shutdown reaching every open watch."""

from __future__ import annotations

import asyncio

from server.api.watch import items


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
