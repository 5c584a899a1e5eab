"""The fan-out hands a game's new entries to its watchers one loop step after they arrive, so
that the reply to the write that made them (its store answer read in the same pass over the
sockets) goes out first; a jump or a rewritten history in between voids that hand-out."""

from __future__ import annotations

import asyncio
import json

from tablero.server.store import push
from tablero.server.store.base import Reset
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


class _Log:
    """A store's rows in memory, whose history a test rewrites (a failover to a replica
    that lacked the newest entries, then other writes)."""

    def __init__(self, rows: list[tuple[int, str]]) -> None:
        self.rows = [(v, h, b'{"type":"%s"}' % h.encode()) for v, h in rows]

    async def entries(self, first: int, limit: int):
        return [r for r in self.rows if r[0] >= first][:limit]

    def rewrite(self, keep: int, rows: list[tuple[int, str]]) -> None:
        self.rows = [r for r in self.rows if r[0] <= keep] + [(v, h, b'{"type":"%s"}' % h.encode()) for v, h in rows]

    def watch(self, feed_at: tuple[int, str]):  # noqa: ANN201 - (watcher, the watch from the start)
        feed, watcher = Feed("g", *feed_at), Watcher()
        feed.watchers.add(watcher)
        return watcher, push.watch_loop("g", 0, None, True, feed, watcher, self.entries)

    def written(self, watcher: Watcher, keep: int, rows: list[tuple[int, str]]) -> None:
        """`rows` written after version `keep` (a rewrite), and the feed pushes them."""
        self.rewrite(keep, rows)
        watcher.push([(v, h, json.dumps({"type": h}, separators=(",", ":"))) for v, h in rows])


async def _take(gen, n: int) -> list:
    return [await asyncio.wait_for(gen.__anext__(), 2) for _ in range(n)]


async def test_a_watcher_reset_below_its_place_reads_what_its_dropped_buffer_held():
    # The feed finds a rewrite after version 3 while this watcher, at 2, still had 3 and 4 in
    # its buffer: nothing it yielded is void, but 3 and 4 must still come (read again).
    log = _Log([(1, "a"), (2, "b")])
    watcher, gen = log.watch((2, "b"))
    assert [w[0] for w in await _take(gen, 2)] == [1, 2]
    log.written(watcher, 2, [(3, "c"), (4, "d")])
    watcher.reset(3)  # the feed's restart (it had delivered a 4 of another history)
    got = await _take(gen, 2)
    assert [(w[0], w.hash) for w in got] == [(3, "c"), (4, "d")]
    await gen.aclose()


async def test_a_watcher_that_caught_up_on_the_new_history_reads_what_the_reset_dropped():
    log = _Log([(1, "a"), (2, "b"), (3, "c")])
    watcher, gen = log.watch((3, "c"))
    assert [w[0] for w in await _take(gen, 3)] == [1, 2, 3]
    log.written(watcher, 3, [(4, "d")])
    watcher.reset(1)  # a rewrite the feed saw after 1, but this watcher's 3 is still the store's
    assert [(w[0], w.hash) for w in await _take(gen, 1)] == [(4, "d")]
    await gen.aclose()


async def test_an_entry_of_another_history_at_a_version_already_yielded_resets_the_watch():
    # The watcher read 3 ("x") from the old master itself, before the feed saw it; the master
    # died, the replica promoted lacked it, and 3 ("c") and 4 were written there. The feed,
    # at 2, delivers 3 and 4 of the new history: the watch must say Reset(2), not go on from
    # its own 3 with the new 4.
    log = _Log([(1, "a"), (2, "b"), (3, "x")])
    watcher, gen = log.watch((2, "b"))
    assert [(w[0], w.hash) for w in await _take(gen, 3)] == [(1, "a"), (2, "b"), (3, "x")]
    log.written(watcher, 2, [(3, "c"), (4, "d")])
    got = await _take(gen, 3)
    assert isinstance(got[0], Reset) and got[0].version == 2
    assert [(w[0], w.hash) for w in got[1:]] == [(3, "c"), (4, "d")]
    await gen.aclose()
