"""Fault injection at the store level, on real redis-server processes with AOF.

Every scenario drives players (one writer per game, with a cache of the log's head:
version + chain hash, retrying through failures with the same request id, as a client
does) and watchers (resets=True), injects a fault, and checks:

- no acknowledged action is duplicated, and every one is at the version it was
  acknowledged at — or counted as lost, which only a rollback may cause;
- the log's hash chain is intact (recomputed from the events);
- every watcher's view, after applying its Reset markers, equals the store's log;
- rollbacks are detected: a cache at a lost head gets HistoryRewritten, never a silent append.

Figures per scenario are printed (run with -s to see them).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

import pytest
from tablero.server.store import Conflict, DuplicateRequest, HistoryRewritten, Reset, StoreError
from tablero.server.store.redis import RedisStore

from tests.faults.redis_proc import FaultyRedis

GAMES = 8


def chain_ok(entries: list[Any]) -> bool:
    h = ""
    for e in entries:
        h = hashlib.sha1((h + json.dumps(e.event, separators=(",", ":"))).encode()).hexdigest()[:16]
        if e.hash != h:
            return False
    return True


def _cancelled_yet() -> None:
    """A player retries store errors forever, but not once its task is cancelled: a cancel
    that redis-py lost on the way (see `server.store.redis_clients._raise_if_cancelling`) must not
    leave it retrying a closed store after the test (the event loop's teardown hung)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


@dataclass
class Player:
    store: RedisStore
    game: str
    version: int = 0
    hash: str = ""
    acked: list[tuple[int, int]] = field(default_factory=list)  # (version, move number)
    rewrites: int = 0
    errors: int = 0

    async def move(self, i: int) -> None:
        while True:
            try:
                r = await self.store.append_ex(
                    self.game, self.version, [{"i": i}], request_id=f"m{i}", expected_hash=self.hash, tail_limit=50
                )
                self.version, self.hash = r.version, r.hash
                self.acked.append((r.version, i))
                return
            except DuplicateRequest as d:  # an earlier attempt landed; its reply was lost
                self.acked.append((d.version, i))
                await self.reload()
                return
            except HistoryRewritten:
                self.rewrites += 1
                await self.reload()
            except Conflict:
                await self.reload()
            except StoreError:
                _cancelled_yet()
                self.errors += 1
                await asyncio.sleep(0.02)

    async def reload(self) -> None:
        while True:
            try:
                head = await self.store.head(self.game)
                self.version, self.hash = head.version, head.hash
                return
            except StoreError:
                _cancelled_yet()
                self.errors += 1
                await asyncio.sleep(0.02)


class WatchLog:
    """A watcher (resets=True) and the log it reconstructs."""

    def __init__(self, store: RedisStore, game: str) -> None:
        self.events: list[dict[str, Any]] = []
        self.resets = 0
        self.task = asyncio.ensure_future(self._run(store, game))

    async def _run(self, store: RedisStore, game: str) -> None:
        async with aclosing(store.watch(game, 0, resets=True)) as items:
            async for item in items:
                if isinstance(item, Reset):
                    self.resets += 1
                    del self.events[item.version :]
                else:
                    version, event = item
                    assert version == len(self.events) + 1, (version, len(self.events))
                    self.events.append(event)

    async def until(self, version: int, timeout: float = 20) -> None:
        async with asyncio.timeout(timeout):
            while len(self.events) < version:
                if self.task.done():
                    self.task.result()
                await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


@dataclass
class Figures:
    acked: int = 0
    lost: int = 0
    duplicated: int = 0
    misplaced: int = 0
    rewrites_detected: int = 0
    watcher_resets: int = 0
    recovery_s: float = 0.0


async def check(store: RedisStore, players: list[Player], watchers: list[WatchLog]) -> Figures:
    f = Figures()
    for p, w in zip(players, watchers, strict=True):
        entries = await store.read_entries(p.game)
        assert chain_ok(entries), f"broken hash chain in {p.game}"
        moves = [e.event["i"] for e in entries]
        f.duplicated += len(moves) - len(set(moves))
        for version, i in p.acked:
            f.acked += 1
            if i not in moves:
                f.lost += 1
            elif moves.index(i) + 1 != version:
                f.misplaced += 1
        f.rewrites_detected += p.rewrites
        await w.until(len(entries))
        await asyncio.sleep(0.2)  # nothing more may come
        assert w.events == [e.event for e in entries], f"watcher of {p.game} diverged from the log"
        f.watcher_resets += w.resets
    return f


async def play(players: list[Player], moves: range) -> None:
    async def one(p: Player) -> None:
        for i in moves:
            await p.move(i)

    await asyncio.gather(*(one(p) for p in players))


@pytest.fixture
async def setup(request: pytest.FixtureRequest) -> AsyncIterator[tuple[FaultyRedis, RedisStore]]:
    server = FaultyRedis(fsync=getattr(request, "param", "always")).start()
    store = RedisStore(server.url, socket_timeout=1.0, sweep_interval=0.2, outage_grace=30, retries=3)
    yield server, store
    await store.close()
    server.stop()


async def start_games(store: RedisStore, n: int = GAMES) -> tuple[list[Player], list[WatchLog]]:
    players = []
    for k in range(n):
        g = f"fault-{k}-{time.monotonic_ns()}"
        await store.create(g, {}, [])
        players.append(Player(store, g))
    return players, [WatchLog(store, p.game) for p in players]


def report(name: str, f: Figures) -> None:
    print(f"\n[faults] {name}: {f}")


@pytest.mark.parametrize("setup", ["always"], indirect=True)
async def test_sigkill_and_restart_with_aof_always_loses_nothing(setup: tuple[FaultyRedis, RedisStore]) -> None:
    server, store = setup
    players, watchers = await start_games(store)
    await play(players, range(0, 20))
    writing = asyncio.ensure_future(play(players, range(20, 60)))
    await asyncio.sleep(0.3)
    await asyncio.to_thread(server.kill)
    await asyncio.sleep(0.5)
    await asyncio.to_thread(server.start)
    restarted = time.monotonic()
    # the first call after the restart succeeds: stale pooled connections are retried
    await store.ping()
    recovery = time.monotonic() - restarted
    await asyncio.wait_for(writing, 60)
    f = await check(store, players, watchers)
    f.recovery_s = round(recovery, 3)
    report("SIGKILL + restart, appendfsync always", f)
    for w in watchers:
        await w.stop()
    assert f.acked == GAMES * 60 and f.lost == 0 and f.duplicated == 0 and f.misplaced == 0
    assert recovery < 1.0


@pytest.mark.parametrize("setup", ["everysec"], indirect=True)
async def test_sigkill_with_aof_everysec_loses_at_most_the_last_second_and_it_is_detected(
    setup: tuple[FaultyRedis, RedisStore],
) -> None:
    server, store = setup
    players, watchers = await start_games(store)
    await play(players, range(0, 10))
    writing = asyncio.ensure_future(play(players, range(10, 60)))
    await asyncio.sleep(0.4)
    await asyncio.to_thread(server.kill)
    await asyncio.sleep(0.3)
    await asyncio.to_thread(server.start)
    await asyncio.wait_for(writing, 60)
    f = await check(store, players, watchers)
    report("SIGKILL + restart, appendfsync everysec", f)
    for w in watchers:
        await w.stop()
    assert f.duplicated == 0 and f.misplaced == 0
    # whatever was lost, a player whose cache held it noticed (no silent append on a lost head)
    assert f.lost == 0 or f.rewrites_detected > 0


@pytest.mark.parametrize("setup", ["always"], indirect=True)
async def test_an_aof_rolled_back_past_acknowledged_writes_is_detected(setup: tuple[FaultyRedis, RedisStore]) -> None:
    server, store = setup
    players, watchers = await start_games(store)
    strict = [asyncio.ensure_future(_expect_rewrite(store, p.game)) for p in players]
    await play(players, range(0, 5))
    copy = await asyncio.to_thread(server.copy_aof)  # what a crash now would leave
    await play(players, range(5, 8))  # acknowledged, then lost
    for w, p in zip(watchers, players, strict=True):
        await w.until(p.version)
    stale = [(p.version, p.hash) for p in players]
    await asyncio.to_thread(server.kill)
    server.restore_aof(copy)
    await asyncio.to_thread(server.start)
    # another replica, its cache empty, writes different events at the lost versions
    other = RedisStore(server.url)
    try:
        for p in players:
            head = await other.head(p.game)
            assert head.version == 5
            for n in range(3):
                await other.append(p.game, head.version + n, [{"i": 100 + n}], request_id=f"other{n}")
    finally:
        await other.close()
    # the first replica's caches are at version 8 — the store is at 8 too, with other events
    for p, (version, hash_) in zip(players, stale, strict=True):
        with pytest.raises(HistoryRewritten):
            await store.append_ex(p.game, version, [{"i": 999}], expected_hash=hash_)
    # without the hash the stale cache would have appended on a history that no longer exists
    await play(players, range(8, 12))  # players reload on HistoryRewritten and go on
    f = await check(store, players, watchers)
    report("AOF restored to a copy (rollback past acknowledged writes)", f)
    for w in watchers:
        await w.stop()
    assert f.lost == GAMES * 3 and f.duplicated == 0
    assert f.rewrites_detected >= GAMES and f.watcher_resets >= GAMES
    # watchers without resets=True end with HistoryRewritten rather than diverge
    for task in strict:
        assert isinstance(await asyncio.wait_for(task, 10), HistoryRewritten)


async def _expect_rewrite(store: RedisStore, game: str) -> BaseException | None:
    try:
        async for _ in store.watch(game, 0):
            pass
    except HistoryRewritten as e:
        return e
    return None


@pytest.mark.parametrize("setup", ["always"], indirect=True)
async def test_a_paused_redis_costs_only_the_pause(setup: tuple[FaultyRedis, RedisStore]) -> None:
    server, store = setup
    players, watchers = await start_games(store)
    await play(players, range(0, 10))
    writing = asyncio.ensure_future(play(players, range(10, 50)))
    await asyncio.sleep(0.2)
    server.pause()
    await asyncio.sleep(2.0)
    server.resume()
    resumed = time.monotonic()
    await store.ping()
    recovery = time.monotonic() - resumed
    await asyncio.wait_for(writing, 60)
    f = await check(store, players, watchers)
    f.recovery_s = round(recovery, 3)
    report("SIGSTOP 2 s", f)
    for w in watchers:
        await w.stop()
    assert f.acked == GAMES * 50 and f.lost == 0 and f.duplicated == 0 and f.misplaced == 0
    assert recovery < 1.5


@pytest.mark.parametrize("setup", ["always"], indirect=True)
async def test_stale_pooled_connections_after_a_restart_cost_no_failed_call(
    setup: tuple[FaultyRedis, RedisStore],
) -> None:
    server, store = setup
    g = f"pool-{time.monotonic_ns()}"
    await store.create(g, {}, [{"i": 0}])
    # fill both pools with open connections
    await asyncio.gather(*(store.read(g) for _ in range(16)), *(store.put_snapshot(g, 1, {}) for _ in range(16)))
    # (the scripts share one pipelined connection per direction: server/store/lean.py)
    assert (await store.connections())["read"] >= 1
    await asyncio.to_thread(server.kill)
    await asyncio.to_thread(server.start)
    # every pooled connection is dead now; each call must still succeed on its first try
    # (with retries=0 and health_check_interval=0 this fails: that was main's behaviour)
    results = await asyncio.gather(
        *(store.read(g) for _ in range(16)),
        store.append(g, 1, [{"i": 1}], request_id="r1"),
        *(store.version(g) for _ in range(16)),
        return_exceptions=True,
    )
    assert [r for r in results if isinstance(r, BaseException)] == []


async def test_a_connection_closed_under_a_command_is_a_lost_connection_not_a_bug() -> None:
    """redis-py's cluster client can close a connection while another command is about to
    write on it (after a failover): the AttributeError it raises is retried as a lost
    connection. Any other AttributeError stays a bug."""
    from redis.asyncio.connection import Connection
    from tablero.server.store.redis_clients import _dropped_under_us

    try:
        await Connection(port=1)._send_packed_command([b"PING\r\n"])  # never connected: no writer
    except AttributeError as e:
        assert _dropped_under_us(e)
    else:
        raise AssertionError("redis-py wrote on a connection it never opened")
    try:
        None.writelines  # type: ignore[attr-defined]  # noqa: B018 - the same message, our own frame
    except AttributeError as e:
        assert not _dropped_under_us(e)


def test_a_closed_uvloop_transport_under_a_command_is_a_lost_connection_not_a_bug() -> None:
    """The same under uvloop (the server's loop): a write on a transport that a failover closed
    raises uvloop's RuntimeError "the handler is closed" (CI saw it escape a watcher's re-route
    after CLUSTER FAILOVER). It is a lost connection; other RuntimeErrors stay bugs."""
    import uvloop
    from redis.asyncio.connection import Connection
    from tablero.server.store.redis_clients import _dropped_under_us

    server = FaultyRedis(fsync="no").start()

    async def write_on_closed() -> BaseException:
        conn = Connection(host="127.0.0.1", port=server.port)
        await conn.connect()
        conn._writer.transport.close()
        await asyncio.sleep(0.01)
        try:
            await conn.send_packed_command([b"PING\r\n"], check_health=False)
        except Exception as e:  # noqa: BLE001 - the error is what is checked
            return e
        finally:
            await conn.disconnect()
        raise AssertionError("redis-py wrote on a closed transport")

    try:
        error = uvloop.run(write_on_closed())
    finally:
        server.stop()
    assert isinstance(error, RuntimeError) and _dropped_under_us(error), error
    try:
        raise RuntimeError("the handler is closed")  # the same words, our own frame
    except RuntimeError as e:
        assert not _dropped_under_us(e)


async def test_a_frozen_redis_fails_a_call_within_two_socket_timeouts() -> None:
    """SIGSTOP for longer than the store may wait: a call that times out is retried within two
    socket timeouts in all, then fails (UNAVAILABLE to the client), not once per retry."""
    server = FaultyRedis(fsync="always").start()
    store = RedisStore(server.url, socket_timeout=0.5, retries=5, sweep_interval=60)
    try:
        game = "frozen-1"
        await store.create(game, {}, [{"type": "x"}])
        server.pause()
        t = time.monotonic()
        with pytest.raises(StoreError):
            await store.head(game)
        took = time.monotonic() - t
        assert 0.9 <= took < 1.8, took  # two timeouts (+ a backoff), not six
    finally:
        server.resume()
        await store.close()
        server.stop()
