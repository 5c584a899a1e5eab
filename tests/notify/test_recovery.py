"""The two guarantees a signal alone does not give: a write whose notify signal was lost (its
replica died between the commit and the signal) is still derived and delivered, by the sweep;
and a turn derived late (after further writes) still carries its deadline while its clock runs.
In process: a GameService on SQLite in memory, the Notifier on its SQLite queue, a real receiver."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from prometheus_client import REGISTRY
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.notify import open_queue
from tablero.server.notify.queue import SQLiteQueue
from tablero.server.notify.webhooks import parse_endpoints
from tablero.server.notify.worker import Notifier, Settings
from tablero.server.store import open_store

from tests.notify.receiver import Receiver, endpoints_json, secret
from tests.redis_server import RedisServer


async def _until(rec: Receiver, predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with rec.lock:
            if predicate(rec.accepted):
                return True
        await asyncio.sleep(0.05)
    with rec.lock:
        return predicate(rec.accepted)


def _notifier(rec: Receiver, service: GameService, sweep: float) -> Notifier:
    endpoints = parse_endpoints(endpoints_json((rec.url, secret())))
    return Notifier(SQLiteQueue(None), service, endpoints=endpoints, inbox=False,
                    settings=Settings(allow_private=True, backoff=0.05, poll=0.05, sweep=sweep))


async def _play(service: GameService, gid: str, seat: int, cell: int) -> dict[str, Any]:
    return await service.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))


async def test_a_write_whose_signal_was_lost_is_derived_by_the_sweep() -> None:
    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    with Receiver(secret()) as rec:
        notifier = _notifier(rec, service, sweep=0.3)
        service.notify = notifier.signal
        await notifier.start()
        try:
            gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", players=2)))["game"]["id"]
            for seat, cell in [(0, 0), (1, 3), (0, 1), (1, 4)]:
                await _play(service, gid, seat, cell)
            assert await _until(rec, lambda acc: sum(d["type"] == "turn.started" for d in acc) == 5, 10)
            # The game's last write, committed but never signalled: its replica "died" in between.
            service.notify = None
            await _play(service, gid, 0, 2)  # X wins
            assert await _until(rec, lambda acc: "game.finished" in [d["type"] for d in acc], 10), \
                [d["type"] for d in rec.accepted]
            finished = next(d for d in rec.accepted if d["type"] == "game.finished")
            head = await service.games.current(gid)
            assert finished["data"]["version"] == head.version and finished["data"]["outcome"]["winners"] == [0]
            # Each event once: the sweep derives from the cursor on, never again what was derived.
            ids = [d["id"] for d in rec.accepted]
            kinds = [d["type"] for d in rec.accepted]
            assert len(ids) == len(set(ids)) and kinds.count("game.finished") == 1 and kinds[-1] == "game.finished"
            # A finished game leaves the sweep's set.
            assert await notifier.q.take_open(0, 10) == []
        finally:
            await notifier.close()
            await store.close()


async def test_a_creation_whose_signal_was_lost_is_derived_by_the_sweep() -> None:
    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    with Receiver(secret()) as rec:
        notifier = _notifier(rec, service, sweep=0.3)
        service.notify_created = notifier.q.expect_open  # (as server.notify.build hooks it)
        await notifier.start()
        try:
            gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", players=2)))["game"]["id"]
            # The creation committed, its signal never sent; nothing else happens in the game.
            assert await _until(rec, lambda acc: len(acc) == 3, 10), [d["type"] for d in rec.accepted]
            assert [(d["type"], d["data"]["gameId"]) for d in rec.accepted] == [
                ("game.created", gid), ("game.started", gid), ("turn.started", gid)]
            # A creation that never committed leaves nothing behind.
            await notifier.q.expect_open("gNeverCreated")
            await asyncio.sleep(0.8)
            assert [g for g, _ in await notifier.q.take_open(0, 10)] == [gid]
        finally:
            await notifier.close()
            await store.close()


async def test_a_game_signalled_in_time_is_not_derived_again_by_the_sweep() -> None:
    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    with Receiver(secret()) as rec:
        notifier = _notifier(rec, service, sweep=0.1)
        service.notify = notifier.signal
        await notifier.start()
        try:
            gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", players=2)))["game"]["id"]
            await _play(service, gid, 0, 4)
            assert await _until(rec, lambda acc: sum(d["type"] == "turn.started" for d in acc) == 2, 10)
            swept = REGISTRY.get_sample_value("tablero_notify_swept_games_total") or 0
            await asyncio.sleep(0.8)  # many sweeps (every 25 ms): the game is checked, found derived
            assert (REGISTRY.get_sample_value("tablero_notify_swept_games_total") or 0) == swept
            assert len(rec.accepted) == 4 and [g for g, _ in await notifier.q.take_open(0, 10)] == [gid]
        finally:
            await notifier.close()
            await store.close()


async def test_a_turn_derived_late_keeps_the_deadline_of_its_running_clock() -> None:
    """Goofspiel (both seats bid at once) with a turn clock: seat 0 bids before the deriver
    runs, so the round's turn.started is derived at a version behind the head. Seat 1's turn is
    still running: its deadline is the clock's; seat 0's turn is over (it bid)."""
    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    with Receiver(secret()) as rec:
        notifier = _notifier(rec, service, sweep=60)
        service.notify = notifier.signal  # signals queue up; nothing derives them yet
        try:
            made = await service.create_game(cmd.CreateGame("goofspiel", players=2, options={"cards": 3},
                                                            clock={"moveSeconds": 3600, "onTimeout": "bot"}))
            gid = made["game"]["id"]
            game = (await service.submit_action(cmd.SubmitAction(gid, 0, {"type": "bid", "card": 1})))["game"]
            assert game["toAct"] == [1]
            head = await service.games.current(gid)
            [d1] = await service.turn_clocks.deadlines(head)
            assert d1["seat"] == 1 and d1["deadline"] > time.time() + 3000
            await notifier.start()  # the deriver, late: the game is a write further on
            assert await _until(rec, lambda acc: "turn.started" in [d["type"] for d in acc], 10)
            turn = next(d for d in rec.accepted if d["type"] == "turn.started")
            assert turn["data"]["version"] < head.version and turn["data"]["newly"] == [0, 1]
            assert turn["data"]["seats"] == [{"seat": 0, "userId": None},
                                             {"seat": 1, "userId": None, "deadline": d1["deadline"]}]
        finally:
            await notifier.close()
            await store.close()


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
async def test_the_open_set_follows_the_cursors(backend: str) -> None:
    """Open games enter the sweep's set when derived unfinished (or before their creation),
    leave it when derived finished; a taken game is not taken again before `older_than`."""
    if backend == "redis":
        server = RedisServer()
        server.__enter__()
        q: Any = open_queue(server.url, None)
    else:
        server, q = None, SQLiteQueue(None)
    try:
        assert await q.commit("g1", None, '{"v": 1}', [])
        await q.expect_open("g2")
        await q.expect_open("g1")  # already open: keeps its time
        await asyncio.sleep(0.05)
        taken = await q.take_open(0.01, 10)
        assert taken == [("g1", '{"v": 1}'), ("g2", None)]
        assert await q.take_open(1.0, 10) == []  # just checked
        assert await q.commit("g1", '{"v": 1}', '{"v": 2}', [], ttl=60)  # finished
        await asyncio.sleep(0.05)
        assert await q.take_open(0.01, 10) == [("g2", None)]
        await q.forget_open("g2")
        assert await q.take_open(0, 10) == []
    finally:
        await q.close()
        if server is not None:
            server.__exit__(None, None, None)
