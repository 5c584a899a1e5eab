"""The fan-out hands a game's new entries to its watchers one loop step after they arrive, so
that the reply to the write that made them (its store answer read in the same pass over the
sockets) goes out first; a jump or a rewritten history in between voids that hand-out."""

from __future__ import annotations

import asyncio

from tablero.server.store.push import Feed, Watcher


async def test_the_watchers_wake_after_the_reply_whose_answer_came_in_the_same_pass():
    feed = Feed("g", 1, "h1")
    watcher = Watcher()
    feed.watchers.add(watcher)
    order: list[str] = []
    answer = asyncio.get_running_loop().create_future()

    async def watching() -> None:
        await watcher.wait()
        order.append("watcher")

    async def replying() -> None:
        await answer  # the store's answer to the write
        order.append("reply")

    tasks = [asyncio.create_task(watching()), asyncio.create_task(replying())]
    await asyncio.sleep(0)  # both wait
    feed.deliver([(2, "h2", b'{"type":"x"}')])  # the notification is read first...
    answer.set_result(None)  # ...then the answer to the write, in the same pass over the sockets
    assert feed.last == 2 and feed.last_hash == "h2"  # the feed's own place moves at once
    await asyncio.gather(*tasks)
    assert order == ["reply", "watcher"]
    assert list(watcher.buffer) == [(2, "h2", '{"type":"x"}')]


async def test_a_jump_or_a_rewrite_before_the_hand_out_voids_it():
    for change in ("jump", "restart"):
        feed = Feed("g", 1, "h1")
        watcher = Watcher()
        feed.watchers.add(watcher)
        feed.deliver([(2, "h2", b"{}")])
        if change == "jump":
            feed.jump(5, "h5")  # the watchers re-read from their own version instead
        else:
            feed.restart(1, 3, "x3")
        await asyncio.sleep(0)
        assert not watcher.buffer, change  # nothing of the voided history reaches the watcher
        assert watcher.overflow if change == "jump" else watcher.rewritten == 1
