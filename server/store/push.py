"""Fan-out of one game's new events to every watcher of it in this process (both adapters).

A `Feed` per watched game fetches new entries ONCE per change (from its last version,
inclusive, so that a rewritten history shows as a changed hash) and pushes them to
every `Watcher`; `watch_loop` is the body of `EventStore.watch`: each watcher reads
its own history first, then takes what the feed pushes.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from tablero.server import fastjson
from tablero.server.store.base import NUDGE, POKED, HistoryRewritten, Reset, StoreError, Watched, chain

# Events are read in pages of this size while catching up.
PAGE = 500

# (version, hash, event JSON) as read from a store
Row = tuple[int, str, "bytes | str"]


class Watcher:
    """What the feed hands to one watch() iteration: a bounded buffer and a wake-up."""

    # A watcher that falls this far behind drops its buffer and re-reads from the store.
    MAX_BUFFER = 1000

    __slots__ = ("buffer", "overflow", "error", "rewritten", "pending", "waiter", "poked", "loop")

    def __init__(self) -> None:
        # Kept: asyncio.get_running_loop() costs a getpid() system call on Python 3.11, and
        # a watcher waits once per event.
        self.loop = asyncio.get_running_loop()
        self.buffer: collections.deque[Row] = collections.deque()
        self.overflow = False
        self.error: StoreError | None = None
        self.rewritten: int | None = None  # set: events after this version were rewritten
        # A bare future rather than an asyncio.Event: the fan-out wakes thousands of watchers
        # per second, and this is the cheapest wake-up asyncio has.
        self.pending = False
        self.waiter: asyncio.Future[None] | None = None
        self.poked = False  # the consumer nudged it (base.Nudge): yield POKED

    def poke(self) -> None:
        self.poked = True
        self.wake()

    def wake(self) -> None:
        self.pending = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Until something was pushed since the last call (returns at once if it was)."""
        if not self.pending:
            self.waiter = self.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        self.pending = False

    def push(self, batch: list[Row]) -> None:
        if self.overflow or len(self.buffer) + len(batch) > self.MAX_BUFFER:
            self.overflow = True
            self.buffer.clear()
        else:
            self.buffer.extend(batch)
        self.wake()

    def reset(self, valid: int) -> None:
        self.rewritten = valid if self.rewritten is None else min(self.rewritten, valid)
        self.buffer.clear()
        self.wake()

    def fail(self, error: StoreError) -> None:
        self.error = error
        self.wake()


class Feed:
    """The watchers of one game in this process, and where the feed has got to."""

    RING = 64  # (version, hash) pairs remembered to find where a rewritten history diverged

    def __init__(self, game_id: str, version: int, hash_: str) -> None:
        self.game_id = game_id
        self.last, self.last_hash = version, hash_
        self.ring: collections.deque[tuple[int, str]] = collections.deque(maxlen=self.RING)
        self.ring.append((version, hash_))
        self.watchers: set[Watcher] = set()
        self.fetching = False
        self.again = False
        self.failing_since: float | None = None
        self.primed = False  # a fetch has brought it to the store's head once
        self.epoch = 0  # moves on at each jump and restart: a delivery still to be handed out is void
        self.loop: asyncio.AbstractEventLoop | None = None  # kept (see Watcher.loop) at the first delivery

    def rewritten_at(self, page: list[Row]) -> bool:
        """Whether `page` (read from the feed's last version, inclusive) shows that the entry
        at `last` is gone or has another hash."""
        if self.last <= 0:
            return False
        first = page[0] if page else None
        return first is None or first[0] != self.last or bool(self.last_hash and first[1] and first[1] != self.last_hash)

    def deliver(self, page: list[Row]) -> None:
        if page:
            # JSON bytes decoded to text once here, not once per watcher.
            page = [(v, h, e.decode() if isinstance(e, bytes) else e) for v, h, e in page]
            self.last, self.last_hash = page[-1][0], page[-1][1]
            self.ring.extend((v, h) for v, h, _ in page)
            # The watchers are handed the entries one loop step later: the reply to the write
            # that made them (its store answer comes in the same read of the sockets as this
            # notification, or just after) goes out first, and the fan-out follows it.
            if self.loop is None:
                self.loop = asyncio.get_running_loop()
            self.loop.call_soon(self._push, self.epoch, list(self.watchers), page)

    def _push(self, epoch: int, watchers: list[Watcher], page: list[Row]) -> None:
        if epoch != self.epoch:
            return  # a jump or a rewritten history since: the watchers re-read instead
        for watcher in watchers:
            watcher.push(page)

    def jump(self, version: int, hash_: str) -> None:
        """Go on from the store's head (version, hash_) without delivering what lies between:
        every watcher re-reads from its own last version (as after an overflow)."""
        self.last, self.last_hash, self.primed = version, hash_, True
        self.epoch += 1
        self.ring.clear()
        self.ring.append((version, hash_))
        for watcher in list(self.watchers):
            watcher.overflow = True
            watcher.buffer.clear()
            watcher.wake()

    def restart(self, valid: int, version: int, hash_: str) -> None:
        """The history after `valid` was rewritten; the store's head is (version, hash_)."""
        self.last, self.last_hash = version, hash_
        self.epoch += 1
        self.ring.clear()
        self.ring.append((version, hash_))
        for watcher in list(self.watchers):
            watcher.reset(valid)


def hand_over(feed: Feed | None, version: int, hash_: str, texts: list[str]) -> bool:
    """An append this process made (`texts`: its events' JSON; the log's head after it:
    `version`, `hash_`) delivered to `feed` as written, when its entries follow the feed's last
    one in the same history: their hashes, chained from the feed's last hash as the store chains
    them (base.chain), end at the store's. Whether it was (else the store's notification or a
    fetch brings them)."""
    first = version - len(texts) + 1
    if feed is None or not texts or feed.fetching or feed.last != first - 1 or not feed.last_hash:
        return False
    rows: list[Row] = []
    h = feed.last_hash
    for i, text in enumerate(texts):
        h = chain(h, text)
        rows.append((first + i, h, text))
    if h != hash_:
        return False
    feed.deliver(rows)
    return True


async def divergence(pairs: Any, upto: int, entries: Callable[[int, int], Awaitable[list[Row]]]) -> int:
    """The newest version <= `upto` among `pairs` (the (version, hash) a feed delivered, or a
    watch yielded) that the store still has with the same hash: everything after it may
    have been rewritten (0 when none is known)."""
    known = [(v, h) for v, h in pairs if 0 < v <= upto]
    if not known:
        return 0
    try:
        stored = {v: h for v, h, _ in await entries(known[0][0], upto - known[0][0] + 1)}
    except StoreError:
        return 0
    valid = 0
    for v, h in known:
        if stored.get(v) is None or (h and stored[v] and stored[v] != h):
            break
        valid = v
    return valid


async def _still_holds(entries: Callable[[int, int], Awaitable[list[Row]]], version: int, hash_: str) -> bool:
    page = await entries(version, 1)
    return bool(page) and page[0][0] == version and page[0][1] == hash_


async def _void_after(watcher: Watcher, entries: Callable[[int, int], Awaitable[list[Row]]],
                      mine: collections.deque[tuple[int, str]], last: int, last_hash: str | None) -> int | None:
    """After a reset of `watcher`: the version its watch goes back to, or None when nothing it
    yielded is void (its place was at or below the divergence, or it caught up on the new
    history itself: a resumed watch that read it before the feed found the rewrite)."""
    valid, watcher.rewritten = watcher.rewritten, None
    assert valid is not None
    if last <= valid or (last_hash and await _still_holds(entries, last, last_hash)):
        return None
    return min(valid, await divergence(mine, last, entries))


def _yielded_other(mine: collections.deque[tuple[int, str]], last: int, version: int, hash_: str) -> bool:
    """Whether the watch yielded another hash than `hash_` at `version` (<= `last`), by what
    it remembers (`mine`: its newest (version, hash) pairs, the last one at `last`): it read
    that entry from the store itself, before the feed, and the store has lost it since (a
    failover to a replica that lacked it)."""
    i = len(mine) - 1 - (last - version)
    if i < 0 or not mine or mine[-1][0] != last:
        return False
    v, h = mine[i]
    return v == version and bool(h) and h != hash_


async def watch_loop(
    game_id: str,
    after_version: int,
    after_hash: str | None,
    resets: bool,
    feed: Feed,
    watcher: Watcher,
    entries: Callable[[int, int], Awaitable[list[Row]]],
    *,
    catch_up: bool = True,
) -> AsyncIterator[Any]:
    """The body of watch(): `entries(first, limit)` reads rows from version `first` on
    (inclusive). The caller has joined `watcher` to `feed` and leaves it afterwards. Without
    `catch_up` the watcher starts by waiting for what the feed delivers (the caller knows a
    fetch from the watcher's own version is coming); a gap still makes it read."""
    last, last_hash = max(after_version, 0), after_hash
    # (version, hash) of what this watch has yielded (and the consumer's own last event,
    # when it named its hash): where a rewritten history parted from what the consumer holds.
    # The feed's memory is not it for a watch resumed from another history.
    mine: collections.deque[tuple[int, str]] = collections.deque(maxlen=Feed.RING)
    if after_hash:
        mine.append((last, after_hash))
    nudge = NUDGE.get()
    if nudge is not None:
        nudge.attach(watcher.poke)
    while True:
        watcher.pending = False
        if watcher.poked:
            watcher.poked = False
            yield POKED
            continue
        if watcher.error is not None:
            raise watcher.error
        if watcher.rewritten is not None:
            # The reset dropped the buffer: read on from the store (else what the buffer held
            # would come only with the game's next move), from `valid` when anything is void.
            valid, catch_up = await _void_after(watcher, entries, mine, last, last_hash), True
            if valid is not None:
                if not resets:
                    raise HistoryRewritten(game_id, valid + 1, feed.last)
                while mine and mine[-1][0] > valid:
                    mine.pop()
                last, last_hash = valid, (mine[-1][1] if mine and mine[-1][0] == valid else None)
                watcher.buffer.clear()
                yield Reset(valid)
                continue
        if watcher.overflow:
            watcher.overflow, catch_up = False, True
            watcher.buffer.clear()
        while not catch_up and watcher.buffer:
            version, hash_, text = watcher.buffer.popleft()
            if version == last + 1:
                last, last_hash = version, hash_
                mine.append((version, hash_))
                yield Watched(version, fastjson.loads(text), hash_)  # parsed per watcher: no two share an event dict
            elif version > last + 1:  # pushed before we caught up: read the gap
                catch_up = True
            elif hash_ and _yielded_other(mine, last, version, hash_):
                watcher.reset(version - 1)  # everything after the divergence is void
                break
        if watcher.rewritten is not None:
            continue
        if catch_up:
            # From `last` itself (when there is one): its hash tells whether the history we
            # were given is still the store's.
            page = await entries(last if last > 0 else 1, PAGE + 1)
            if last > 0:
                if not page or page[0][0] != last or (last_hash and page[0][1] and page[0][1] != last_hash):
                    watcher.rewritten = last - 1  # how far back: from what this watch yielded (above)
                    continue
                page = page[1:]
            for version, hash_, text in page:
                last, last_hash = version, hash_
                mine.append((version, hash_))
                yield Watched(version, fastjson.loads(text), hash_)
            catch_up = len(page) >= PAGE
            continue
        await watcher.wait()
