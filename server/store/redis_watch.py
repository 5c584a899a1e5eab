"""Push for the Redis store's watchers (RedisStore.watch): one notification subscriber per
Redis node, one fetch per game and notification, fanned out to every local watcher.

    tablero:{G}:n   the shard pub/sub channel of game G (channel_of): after each append
                    "<version>", or the appended entries themselves (PUSH_EVENTS_MAX)

`WatchHub` keeps the feeds (server/store/push.py) of the games watched in this process;
`_Subscriber` owns one node's pub/sub connection (redis-py, or a lean push connection on a
plain server). A periodic sweep over the watched games' heads catches whatever a lost
notification would have delayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from tablero.server.store import push, redis_sentinel
from tablero.server.store.base import AppendResult, GameNotFound, StoreError
from tablero.server.store.lean import LeanRedis, open_push
from tablero.server.store.redis_clients import _text

if TYPE_CHECKING:
    from tablero.server.store.redis import RedisStore

log = logging.getLogger("tablero.store.redis")

_WATCH_PAGE = push.PAGE


def channel_of(game_id: str) -> str:
    """The shard pub/sub channel an append of `game_id` publishes its new version on (same slot)."""
    return f"tablero:{{{game_id}}}:n"


def _game_of(channel: str) -> str:
    """The game whose notifications `channel` carries (channel_of's inverse)."""
    return channel.removeprefix("tablero:{").removesuffix("}:n")


def _pushed_rows(data: bytes) -> tuple[str, list[tuple[int, str, bytes]]]:
    """An append's notification with its entries → (the hash before them, the rows)."""
    lines = data.split(b"\n")
    first, _, prev = lines[0].partition(b" ")
    version = int(first)
    rows = []
    for i, line in enumerate(lines[1:]):
        hash_, sep, event = line.partition(b" ")
        if not sep:
            raise ValueError("not an entry")
        rows.append((version + i, hash_.decode(), event))
    if not rows:
        raise ValueError("no entries")
    return prev.decode(), rows


class _Feed(push.Feed):
    def __init__(self, game_id: str, start: AppendResult) -> None:
        super().__init__(game_id, start.version, start.hash)
        self.channel = channel_of(game_id)


class WatchHub:
    """Push for every watcher of this store with a fixed number of Redis connections.

    - Appends SPUBLISH the new version on the game's shard channel.
    - One subscriber connection per Redis node (one on a plain server) SSUBSCRIBEs the
      channels of the games watched here; a notification makes the game's feed fetch the
      new entries ONCE (read pool, XRANGE from its last version) and hand them to every
      local watcher.
    - Every `sweep_interval` each feed fetches anyway: a lost notification (subscriber
      reconnecting, slot moving, ...) delays an event by at most that long, never loses it.
      The fetch starts AT the feed's last version, so a rewritten history is noticed too.
    """

    SWEEP_CHUNK = 500  # games whose heads one pipelined sweep call asks for

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.feeds: dict[str, _Feed] = {}
        self.subscribers: dict[str, _Subscriber] = {}  # node name -> its subscriber
        self.routes: dict[str, str] = {}  # channel -> node name it is subscribed on
        self.sweeper: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    # -- watchers ------------------------------------------------------------------------

    def join(self, game_id: str, watcher: push.Watcher, start: AppendResult) -> _Feed:
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = _Feed(game_id, start)
            self._subscribe(feed)
        elif start.version > feed.last:
            self.fetch(feed)  # the feed is behind what this watcher just saw: catch it up
        feed.watchers.add(watcher)
        if self.sweeper is None or self.sweeper.done():
            self.sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="tablero-redis-sweep")
        return feed

    def leave(self, game_id: str, watcher: push.Watcher) -> None:
        feed = self.feeds.get(game_id)
        if feed is None or watcher not in feed.watchers:
            return
        feed.watchers.discard(watcher)
        if not feed.watchers:
            del self.feeds[game_id]
            node = self.routes.pop(feed.channel, None)
            if node is not None and node in self.subscribers:
                self.subscribers[node].remove(feed.channel)

    # -- notifications -------------------------------------------------------------------

    def _subscribe(self, feed: _Feed) -> None:
        try:
            node, host, port = self._node_of(feed.channel)
        except Exception:  # noqa: BLE001 - the cluster's topology is not known yet: the sweep covers it
            self._spawn(self._route_later(feed.channel))
            return
        subscriber = self.subscribers.get(node)
        if subscriber is None:
            subscriber = self.subscribers[node] = _Subscriber(self, node, host, port)
        self.routes[feed.channel] = node
        subscriber.add(feed.channel)

    def _node_of(self, channel: str) -> tuple[str, str | None, int | None]:
        client = self.store._reads.client
        if isinstance(client, RedisCluster):
            if getattr(client, "_initialize", False):
                raise StoreError("cluster not initialised")
            node = client.get_node_from_key(channel)
            return node.name, node.host, node.port
        return "default", None, None

    async def _route_later(self, channel: str, refresh: bool = False) -> None:
        client = self.store._reads.client
        if refresh and isinstance(client, RedisCluster):
            # Where the slots are now (redis-py's NodesManager, asked again): the channel's node
            # moved (MOVED on subscribe).
            with contextlib.suppress(Exception):
                await client.nodes_manager.initialize()
        with contextlib.suppress(StoreError):
            await self.store.ping()  # initialises a cluster client
        await asyncio.sleep(0.1)
        for feed in list(self.feeds.values()):
            if feed.channel == channel and channel not in self.routes:
                self._subscribe(feed)
                self.fetch(feed)

    def rerouted(self, channel: str) -> None:
        """A subscriber lost `channel` (slot moved, MOVED on subscribe): route it again."""
        self.routes.pop(channel, None)
        self._spawn(self._route_later(channel, refresh=True))

    def notified(self, channel: str, version: int | None) -> None:
        feed = self.feeds.get(_game_of(channel))
        if feed is not None and (version is None or version > feed.last):
            self.fetch(feed)

    def pushed(self, channel: str, prev_hash: str, rows: list[push.Row]) -> None:
        """A notification that carries its entries: delivered as they are when they follow
        the feed's last entry in the same history (no read), else fetched from the store."""
        feed = self.feeds.get(_game_of(channel))
        if feed is None or rows[-1][0] <= feed.last:
            return
        if not feed.fetching and rows[0][0] == feed.last + 1 and prev_hash == feed.last_hash:
            feed.deliver(rows)
        else:
            self.fetch(feed)

    def appended(self, game_id: str, head: AppendResult, texts: list[str]) -> None:
        """An append made by this process: handed to the game's watchers here at once, so that
        they hear of a move in the loop turn after the mover's reply, not when its notification
        comes back from Redis (which, then a duplicate, is dropped by version); when it follows
        the feed (push.hand_over)."""
        push.hand_over(self.feeds.get(game_id), head.version, head.hash, texts)

    def seen(self, channel: str, data: bytes) -> bool:
        """Whether a notification carrying entries brings nothing new here (nobody watches the
        game here, or the feed has its last entry already: this process's own append, handed
        over as it was made), told from its first line and its number of lines, unparsed."""
        feed = self.feeds.get(_game_of(channel))
        if feed is None:
            return True
        try:
            last = int(data[:data.index(b" ")]) + data.count(b"\n") - 1
        except ValueError:
            return False
        return last <= feed.last

    def resync(self, channels: list[str]) -> None:
        """A subscriber (re)connected: whatever was published meanwhile is fetched now."""
        for channel in channels:
            self.notified(channel, None)

    def subscriber_connections(self) -> int:
        return sum(1 for s in self.subscribers.values() if s.connected)

    # -- fetching ------------------------------------------------------------------------

    def fetch(self, feed: _Feed) -> None:
        if feed.fetching:
            feed.again = True
            return
        feed.fetching = True
        self._spawn(self._fetch(feed))

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _fetch(self, feed: _Feed) -> None:
        try:
            while feed.watchers and self.feeds.get(feed.game_id) is feed:
                feed.again = False
                # The outage is timed from the first read that failed, as it started (its own
                # retries count), so watches end TABLERO_STORE_OUTAGE_GRACE after it began.
                started = time.monotonic()
                # A read may take the grace at most (its retries included), and once failing only
                # what is left of it.
                budget = self.store.outage_grace if feed.failing_since is None else \
                    max(0.0, self.store.outage_grace - (started - feed.failing_since))
                try:
                    async with asyncio.timeout(budget):
                        page = await self.store._entries(feed.game_id, max(feed.last, 1), _WATCH_PAGE + 1,
                                                         patient=True)
                except GameNotFound as e:
                    for watcher in list(feed.watchers):
                        watcher.fail(e)
                    return
                except (StoreError, TimeoutError) as failed:
                    e = failed if isinstance(failed, StoreError) else \
                        StoreError(f"redis: unreachable for {self.store.outage_grace:g} s")
                    feed.failing_since = feed.failing_since or started
                    if time.monotonic() - feed.failing_since >= self.store.outage_grace or self.store._closed:
                        for watcher in list(feed.watchers):
                            watcher.fail(e)
                    return  # the next sweep tries again
                feed.failing_since = None
                if feed.rewritten_at(page):
                    valid = await self.divergence(feed, feed.last)
                    head = await self.store.head(feed.game_id)
                    log.warning("game %s: history rewritten after version %d", feed.game_id, valid)
                    feed.restart(valid, head.version, head.hash)
                    continue
                if feed.last > 0:
                    if not feed.last_hash and page:  # a feed started without the head's hash
                        feed.last_hash = page[0][1]
                    page = page[1:]
                if not feed.primed and len(page) >= _WATCH_PAGE:
                    # A new feed that started far behind the head (a watch from early in a long
                    # game): jump to the head instead of paging the history through; each
                    # watcher reads its own history anyway.
                    head = await self.store.head(feed.game_id)
                    feed.jump(head.version, head.hash)
                    return
                feed.primed = True
                feed.deliver(page)
                if not feed.again and len(page) < _WATCH_PAGE:
                    return
        except StoreError:
            return
        finally:
            feed.fetching = False

    async def divergence(self, feed: _Feed, upto: int) -> int:
        return await push.divergence(feed.ring, upto, lambda first, limit: self.store._entries(feed.game_id, first, limit))

    async def _sweep(self) -> None:
        while self.feeds and not self.store._closed:
            await asyncio.sleep(self.store.sweep_interval)
            feeds = [f for f in self.feeds.values() if not f.fetching]
            failing = [f for f in feeds if f.failing_since is not None]
            if failing:  # straight to their fetch, which the grace left bounds (no heads read first)
                for feed in failing:
                    self.fetch(feed)
                feeds = [f for f in feeds if f.failing_since is None]
            if isinstance(self.store._reads.client, RedisCluster):
                for feed in feeds:
                    self.fetch(feed)
            else:
                # One script call per SWEEP_CHUNK games asks for their heads; only the games
                # whose head moved (or changed hash) are fetched.
                for i in range(0, len(feeds), self.SWEEP_CHUNK):
                    chunk = feeds[i : i + self.SWEEP_CHUNK]
                    asked = time.monotonic()
                    try:
                        async with asyncio.timeout(self.store.outage_grace):
                            heads = await self.store._heads([f.game_id for f in chunk])
                    except (StoreError, TimeoutError):
                        heads = [None] * len(chunk)  # the fetches report the outage, timed from here
                        for feed in chunk:
                            feed.failing_since = feed.failing_since or asked
                    for feed, head in zip(chunk, heads, strict=True):
                        if head is None or head != (feed.last, feed.last_hash):
                            self.fetch(feed)
            for channel in [f.channel for f in self.feeds.values() if f.channel not in self.routes]:
                self._spawn(self._route_later(channel))

    async def close(self) -> None:
        feeds, self.feeds = list(self.feeds.values()), {}
        for feed in feeds:
            for watcher in feed.watchers:
                watcher.fail(StoreError("the Redis store is closed"))
        tasks = [*self.tasks, *(s.task for s in self.subscribers.values() if s.task is not None)]
        if self.sweeper is not None:
            tasks.append(self.sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for subscriber in self.subscribers.values():
            await subscriber.close()


class _Subscriber:
    """One pub/sub connection to one Redis node, SSUBSCRIBEd to the channels routed to it.

    Its loop owns the connection: (un)subscriptions are queued and sent between reads, a
    lost connection is reopened with backoff and every channel re-subscribed (then every
    feed fetched, since notifications may have been missed). No read timeout applies
    while it waits for messages; a PING every few seconds finds a dead peer."""

    POLL = 0.05  # seconds between checks for queued (un)subscriptions
    PING_EVERY = 5.0

    def __init__(self, hub: WatchHub, node: str, host: str | None, port: int | None) -> None:
        self.hub, self.node = hub, node
        self.host, self.port = host, port
        self.channels: set[str] = set()
        self.pending: set[str] = set()  # to subscribe
        self.dropped: set[str] = set()  # to unsubscribe
        self.leaving: dict[str, int] = {}  # SUNSUBSCRIBEs sent whose confirmation is still to come
        self.connected = False
        self.client: aioredis.Redis | None = None
        self.push: Any = None  # the lean pub/sub connection (plain server), when open
        lean = hub.store._lean[0] if hub.store._lean and host is None else None
        self.task: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._run() if lean is None else self._run_lean(lean), name=f"tablero-redis-notify-{node}"
        )

    def add(self, channel: str) -> None:
        self.channels.add(channel)
        self.dropped.discard(channel)
        if self.push is not None and self.connected:  # lean: sent at once, no reply awaited
            self.push.command("SSUBSCRIBE", channel)
        else:
            self.pending.add(channel)

    def remove(self, channel: str) -> None:
        self.channels.discard(channel)
        self.pending.discard(channel)
        if self.push is not None and self.connected:
            self.push.command("SUNSUBSCRIBE", channel)
            self.leaving[channel] = self.leaving.get(channel, 0) + 1
        else:
            self.dropped.add(channel)

    def _connect(self) -> aioredis.Redis:
        store = self.hub.store
        options = {**store._options, "socket_timeout": None, "retry": Retry(NoBackoff(), 0), "max_connections": 2}
        if self.host is None:
            return store._plain_client(**options)
        scheme = store.url.partition("://")[0]
        auth = store.url.partition("://")[2].rpartition("@")
        userinfo = f"{auth[0]}@" if auth[1] else ""
        return aioredis.Redis.from_url(f"{scheme}://{userinfo}{self.host}:{self.port}/0", **options)

    async def _run(self) -> None:
        backoff = 0.05
        while True:
            pubsub = None
            try:
                self.client = self._connect()
                pubsub = self.client.pubsub()
                await pubsub.ping()
                self.pending = set(self.channels)
                self.dropped.clear()
                self.leaving.clear()
                await self._apply(pubsub)
                self.connected = True
                backoff = 0.05
                self.hub.resync(list(self.channels))
                last_ping = time.monotonic()
                while True:
                    message = await pubsub.get_message(timeout=self.POLL)
                    while message is not None:
                        self._handle(message)
                        message = await pubsub.get_message(timeout=0)
                    await self._apply(pubsub)
                    if time.monotonic() - last_ping > self.PING_EVERY:
                        await pubsub.ping()
                        last_ping = time.monotonic()
            except asyncio.CancelledError:
                raise
            except redis.exceptions.ResponseError as e:
                # MOVED/ASK for an SSUBSCRIBE: our view of the cluster is stale. Route every
                # channel of this node again (most come back here); the sweep covers the gap.
                log.warning("redis notifications from %s: %s; re-routing its channels", self.node, e)
                self.connected = False
                moved, self.channels = list(self.channels), set()
                self.pending.clear()
                for channel in moved:
                    self.hub.rerouted(channel)
            except Exception as e:  # noqa: BLE001 - any failure: reconnect
                if self.connected:
                    log.warning("redis notifications from %s lost (%s); reconnecting", self.node, e)
                self.connected = False
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                if self.client is not None:
                    with contextlib.suppress(Exception):
                        await self.client.aclose()
                    for sentinel in getattr(redis_sentinel.sentinel_of(self.client), "sentinels", ()):
                        with contextlib.suppress(Exception):
                            await sentinel.aclose()
                    self.client = None
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    async def _run_lean(self, lean: LeanRedis) -> None:
        """`_run` over a lean push connection (a plain server): (un)subscriptions are written
        as they come, messages handled as they arrive; a PING when quiet for PING_EVERY
        seconds, and a connection silent for three of them is dropped and reopened."""
        backoff = 0.05
        while True:
            try:
                self.push = push = await open_push(lean, self._on_push)
                for channel in sorted(self.channels):
                    push.command("SSUBSCRIBE", channel)
                self.pending.clear()
                self.dropped.clear()
                self.leaving.clear()
                self.connected = True
                backoff = 0.05
                self.hub.resync(list(self.channels))
                while not push.lost.done():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(push.lost), self.PING_EVERY)
                    quiet = time.monotonic() - push.last_seen
                    if quiet > 3 * self.PING_EVERY:
                        push.fail(redis.exceptions.ConnectionError("no answer to PING"))
                    elif quiet > self.PING_EVERY:
                        push.command("PING")
                raise redis.exceptions.ConnectionError("connection lost")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any failure: reconnect
                if self.connected:
                    log.warning("redis notifications from %s lost (%s); reconnecting", self.node, e)
            finally:
                self.connected = False
                if self.push is not None:
                    self.push.fail(redis.exceptions.ConnectionError("closed"))
                    self.push = None
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    def _on_push(self, reply: Any) -> None:
        if isinstance(reply, list) and len(reply) >= 3:
            self._handle({"type": reply[0], "channel": reply[1], "data": reply[2]})

    async def _apply(self, pubsub: Any) -> None:
        # One channel per command: on a cluster node several channels of different slots
        # in one SSUBSCRIBE would be refused (CROSSSLOT).
        while self.pending:
            await pubsub.ssubscribe(self.pending.pop())
        while self.dropped:
            channel = self.dropped.pop()
            self.leaving[channel] = self.leaving.get(channel, 0) + 1
            await pubsub.sunsubscribe(channel)

    def _handle(self, message: dict[str, Any]) -> None:
        kind = _text(message.get("type", b""))
        channel = _text(message.get("channel") or b"")
        if kind == "smessage":
            data = message["data"]
            if isinstance(data, str):
                data = data.encode()
            if b"\n" in data:  # the entries themselves (see PUSH_EVENTS_MAX)
                if self.hub.seen(channel, data):
                    return
                try:
                    rows = _pushed_rows(data)
                except ValueError:
                    self.hub.notified(channel, None)
                else:
                    self.hub.pushed(channel, rows[0], rows[1])
                return
            try:
                version: int | None = int(data)
            except (TypeError, ValueError):
                version = None
            self.hub.notified(channel, version)
        elif kind == "ssubscribe":
            self.hub.notified(channel, None)  # appended before the subscription took: fetch it
        elif kind == "sunsubscribe":
            left = self.leaving.get(channel, 0)
            if left:  # the confirmation of one we sent (the channel may be wanted again since)
                if left == 1:
                    del self.leaving[channel]
                else:
                    self.leaving[channel] = left - 1
            elif channel in self.channels:
                # Not asked for: the server moved the channel's slot away. Route it again.
                self.channels.discard(channel)
                self.hub.rerouted(channel)

    async def close(self) -> None:
        self.connected = False
        if self.push is not None:
            self.push.fail(redis.exceptions.ConnectionError("closed"))
            self.push = None
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()
