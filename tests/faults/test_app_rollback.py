"""App-level fault scenarios on a real redis-server with AOF (issue 17 item 1, issue 10).

The rollback scenario of issue 17, through two replicas' GameServices on one Redis:
X via replica A; copy the AOF (what a crash now would leave); O via A, acknowledged;
restart Redis from the copy; O at another cell via B; X via A. Before the hash chain,
A's cache matched by version alone and the last X was appended on a history that no
longer existed (an illegal log). Now A finds the history rewritten, reloads, and
decides on the store's game; its watcher is told to reset.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from tablero.server.app import FailedPrecondition, InvalidArgument
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.store import Reset
from tablero.server.store.redis import RedisStore

from tests.faults.redis_proc import FaultyRedis


def _legal_tic_tac_toe(events: list[dict]) -> bool:
    """Every placement is on a free cell, and X (seat 0) and O (seat 1) alternate."""
    taken, turn = set(), 0
    for e in events[1:]:
        cell, seat = e.get("cell"), e.get("seat")
        if cell in taken or seat != turn:
            return False
        taken.add(cell)
        turn = 1 - turn
    return True


async def _collect(it, into: list) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        async for item in it:
            into.append(item)


async def test_a_rollback_past_acknowledged_writes_never_yields_an_illegal_log():
    with FaultyRedis(fsync="always") as server:
        store_a, store_b = RedisStore(server.url, sweep_interval=0.2), RedisStore(server.url, sweep_interval=0.2)
        a, b = GameService(store_a, TokenSigner("s")), GameService(store_b, TokenSigner("s"))
        try:
            gid = (await a.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
            seen: list = []
            watching = asyncio.ensure_future(_collect(await a.watch_game(cmd.WatchGame(gid, None, 0)), seen))
            await a.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 0}, request_id="x0"))
            copy = await asyncio.to_thread(server.copy_aof)
            lost = await a.submit_action(cmd.SubmitAction(gid, 1, {"type": "place", "cell": 4}, request_id="o4"))
            assert lost["game"]["version"] == 3  # acknowledged
            for _ in range(100):
                if len(seen) >= 3:
                    break
                await asyncio.sleep(0.05)
            assert [s["event"].get("cell") for s in seen[1:3]] == [0, 4]  # the watcher was sent O@4
            await asyncio.to_thread(server.kill)
            server.restore_aof(copy)
            await asyncio.to_thread(server.start)

            o8 = await b.submit_action(cmd.SubmitAction(gid, 1, {"type": "place", "cell": 8}, request_id="o8"))
            assert o8["game"]["version"] == 3
            # A's cache holds O@4 at version 3: X@8 must be decided on the store's game (O@8)
            with pytest.raises(FailedPrecondition):
                await a.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 8}, request_id="x8"))
            ok = await a.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 2}, request_id="x2"))
            assert ok["game"]["version"] == 4

            events = await store_a.read(gid)
            assert [e.get("cell") for e in events[1:]] == [0, 8, 2]
            assert _legal_tic_tac_toe(events)
            # GetGame on A shows the store's game, not the lost one
            now = (await a.get_game(cmd.GetGame(gid, None)))["game"]
            assert now["version"] == 4
            # the watcher on A was told to reset to version 2, then got the new history
            for _ in range(100):
                if any(isinstance(s, Reset) for s in seen) and len(seen) >= 6:
                    break
                await asyncio.sleep(0.05)
            resets = [s for s in seen if isinstance(s, Reset)]
            assert resets and resets[0].version == 2, seen
            after = seen[seen.index(resets[0]) + 1:]
            assert [(s["version"], s["event"].get("cell")) for s in after] == [(3, 8), (4, 2)]
            watching.cancel()
            await asyncio.gather(watching, return_exceptions=True)
        finally:
            await a.games.drain()
            await b.games.drain()
            await store_a.close()
            await store_b.close()


async def _take(it, n_events: int, timeout: float = 10) -> list:
    """Items of a watch until `n_events` events (Resets included in the list, not counted)."""
    out: list = []

    async def run() -> None:
        async for item in it:
            out.append(item)
            if sum(1 for i in out if not isinstance(i, Reset)) >= n_events:
                return

    await asyncio.wait_for(run(), timeout)
    return out


@pytest.mark.parametrize("rewritten", [True, False], ids=["rewritten", "shorter"])
async def test_a_watch_resumed_after_a_rollback_with_its_hash_is_reset_not_diverged(rewritten: bool):
    """The watcher was away when Redis lost events it had been sent. Resuming by version
    alone cannot tell (the version exists again, or is beyond the head: 400 as before); with
    the hash of its last event (`afterHash`), the watch starts with a reset and the store's
    history, never events that continue a history the client holds but the store does not."""
    with FaultyRedis(fsync="always") as server:
        store_a, store_b = RedisStore(server.url, sweep_interval=0.2), RedisStore(server.url, sweep_interval=0.2)
        a, b = GameService(store_a, TokenSigner("s")), GameService(store_b, TokenSigner("s"))
        try:
            gid = (await a.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
            for i, cell in enumerate([4, 0, 8]):
                await a.submit_action(cmd.SubmitAction(gid, i % 2, {"type": "place", "cell": cell}, request_id=f"a{i}"))
            copy = await asyncio.to_thread(server.copy_aof)
            await a.submit_action(cmd.SubmitAction(gid, 1, {"type": "place", "cell": 1}, request_id="lost1"))
            await a.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 2}, request_id="lost2"))
            client = await _take(await b.watch_game(cmd.WatchGame(gid, None, 0)), 6)
            assert [c["version"] for c in client] == [1, 2, 3, 4, 5, 6]
            assert all(c.get("hash") for c in client), "every watched event carries its hash"
            last = client[-1]
            await asyncio.to_thread(server.kill)
            server.restore_aof(copy)
            await asyncio.to_thread(server.start)
            if rewritten:  # others play on from version 4: versions 5-7 exist again, differently
                for i, (seat, cell) in enumerate([(1, 2), (0, 1), (1, 6)]):
                    await b.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell},
                                                           request_id=f"b{i}"))
            store_log = await store_b.read(gid)
            head = len(store_log)
            if not rewritten:
                # By version alone, beyond the head: refused as before (a reset only when this
                # replica's cache still held the lost version, as A's does here).
                with contextlib.suppress(InvalidArgument):
                    resumed = await a.watch_game(cmd.WatchGame(gid, None, 6))
                    first = await asyncio.wait_for(anext(resumed), 10)
                    assert isinstance(first, Reset), first
                    items = await _take(resumed, head - first.version)
                    assert [i["event"] for i in items] == store_log[first.version:]
                    with pytest.raises(TimeoutError):  # the history once, not twice
                        await asyncio.wait_for(anext(resumed), 0.5)
                    await resumed.aclose()
                b.games.clear_cache()
                with pytest.raises(InvalidArgument, match="beyond the game's current version"):
                    await b.watch_game(cmd.WatchGame(gid, None, 6))
            for replica in (a, b):  # A's cache still holds the lost events; B's does not
                resumed = await replica.watch_game(cmd.WatchGame(gid, None, 6, after_hash=last["hash"]))
                first = await asyncio.wait_for(anext(resumed), 10)
                assert isinstance(first, Reset), first
                # what the client keeps (up to the reset) is the store's, event for event
                assert [c["event"] for c in client[:first.version]] == store_log[:first.version]
                items = await _take(resumed, head - first.version)
                assert [i["version"] for i in items] == list(range(first.version + 1, head + 1)), items
                assert [i["event"] for i in items] == store_log[first.version:], "not the store's history"
                assert not any(isinstance(i, Reset) for i in items), "one reset, not several"
                with pytest.raises(TimeoutError):  # and the history once, not twice
                    await asyncio.wait_for(anext(resumed), 0.5)
                await resumed.aclose()
            # The hash of an event the store still holds: resumed as usual, no reset.
            same = await _take(await b.watch_game(cmd.WatchGame(gid, None, 0)), head)
            resumed = await b.watch_game(cmd.WatchGame(gid, None, same[2]["version"], after_hash=same[2]["hash"]))
            rest = await _take(resumed, head - 3)
            assert [i["version"] for i in rest] == list(range(4, head + 1))
            await resumed.aclose()
        finally:
            await a.games.drain()
            await b.games.drain()
            await store_a.close()
            await store_b.close()
