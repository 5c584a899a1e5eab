"""The lobby lists games newest first, filtered and paginated, on every store."""

import asyncio
import base64

import pytest
import redis.asyncio as aioredis
from tablero.server.portal.lobby import BadPageToken, Filter, MemoryLobby, RedisLobby, SQLiteLobby
from tablero.server.store.lean import LeanRedis

from tests.redis_server import RedisServer


def _entry(i, engine="tic-tac-toe", status="RUNNING", open_taken=(False,), user=None):
    seats = [{"seat": 0, "kind": "human", "user": {"id": user, "name": user} if user else None, "taken": True}]
    seats += [{"seat": 1 + k, "kind": "open", "user": None, "taken": t} for k, t in enumerate(open_taken)]
    return {"gameId": f"g{i:03d}", "engine": engine, "players": len(seats), "seats": seats, "status": status,
            "created": 1000.0 + i}


@pytest.fixture(params=["memory", "sqlite", "redis", "redis-lean"])
async def lobby(request, tmp_path):
    if request.param == "memory":
        yield MemoryLobby()
    elif request.param == "sqlite":
        yield SQLiteLobby(str(tmp_path / "lobby.db"))
    else:
        with RedisServer() as server:
            client = aioredis.Redis.from_url(server.url)
            lean = LeanRedis(server.url) if request.param == "redis-lean" else None
            yield RedisLobby(client, fast=lean)
            await client.aclose()
            if lean is not None:
                await lean.aclose()


async def test_newest_first_in_pages_that_cover_every_game_once(lobby):
    for i in range(45):
        await lobby.add(_entry(i))
    seen, token = [], None
    while True:
        page, token = await lobby.list(Filter(), 20, token)
        seen += [e["gameId"] for e in page]
        if not token:
            break
    assert seen == [f"g{i:03d}" for i in reversed(range(45))]


async def test_filters_engine_status_open_seats_and_user(lobby):
    await lobby.add(_entry(1, engine="goofspiel"))
    await lobby.add(_entry(2, open_taken=(True,)))
    await lobby.add(_entry(3, status="FINISHED"))
    await lobby.add(_entry(4, user="ana"))
    ids = lambda page: [e["gameId"] for e in page[0]]  # noqa: E731
    assert ids(await lobby.list(Filter(engine="goofspiel"), 10, None)) == ["g001"]
    assert ids(await lobby.list(Filter(open_seats=True), 10, None)) == ["g004", "g001"]
    assert ids(await lobby.list(Filter(open_seats=False), 10, None)) == ["g003", "g002"]
    assert ids(await lobby.list(Filter(status="FINISHED"), 10, None)) == ["g003"]
    assert ids(await lobby.list(Filter(user="ana"), 10, None)) == ["g004"]


async def test_updates_and_removal(lobby):
    await lobby.add(_entry(1))
    e = await lobby.get("g001")
    e["seats"][1]["taken"] = True
    await lobby.put(e)
    assert (await lobby.list(Filter(open_seats=True), 10, None))[0] == []
    await lobby.remove("g001")
    assert await lobby.get("g001") is None and (await lobby.list(Filter(), 10, None)) == ([], "")


async def test_a_forged_page_token_is_refused(lobby):
    with pytest.raises(BadPageToken):
        await lobby.list(Filter(), 10, "not-a-token")
    # well-formed JSON whose time is no finite number: refused alike on every store (on Redis
    # a NaN used to reach the range query and come back as the store's failure, a 503)
    for forged in ('[NaN, "x"]', '[Infinity, "x"]', '[1e400, "x"]', '[true, "x"]', "[" + "9" * 400 + ', "x"]'):
        token = base64.urlsafe_b64encode(forged.encode()).decode().rstrip("=")
        with pytest.raises(BadPageToken):
            await lobby.list(Filter(), 10, token)


async def test_writes_over_the_lean_connection_survive_a_dropped_connection():
    """A lobby write whose connection Redis drops while it is in flight is written again on
    a new connection (each write is idempotent), as redis-py's clients retry theirs."""
    with RedisServer() as server:
        client = aioredis.Redis.from_url(server.url)
        lean = LeanRedis(server.url)
        lobby = RedisLobby(client, fast=lean)
        try:
            await lobby.add(_entry(1, open_taken=(False,)))

            async def dropped_in_flight(write) -> None:
                await client.execute_command("CLIENT", "PAUSE", "300", "WRITE")  # the write waits in Redis
                task = asyncio.ensure_future(write)
                await asyncio.sleep(0.05)
                assert not task.done()
                assert await client.client_kill_filter(_type="normal", skipme=True) >= 1
                await task

            await dropped_in_flight(lobby.mark("g001", seat=1, user={"id": "ana", "name": "Ana"}))
            await dropped_in_flight(lobby.add(_entry(2)))
            entries, _ = await lobby.list(Filter(), 10, None)
            assert [e["gameId"] for e in entries] == ["g002", "g001"]
            assert entries[1]["seats"][1] == {"seat": 1, "kind": "open", "user": {"id": "ana", "name": "Ana"},
                                              "taken": True}
        finally:
            await client.aclose()
            await lean.aclose()


def test_the_lobby_and_clocks_on_a_file_do_not_sync_every_commit(tmp_path):
    """WAL with synchronous=NORMAL, as the store's own connection: a commit survives a crash
    of the process without an fsync each (FULL made every create and game end wait for the
    disk while holding the file's write lock, in every process on the file)."""
    from tablero.server.portal.clock import SQLiteClocks

    path = str(tmp_path / "games.db")
    for db in (SQLiteLobby(path)._db, SQLiteClocks(path)._db):
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


async def test_a_join_hold_is_one_per_user_and_game_until_released_or_lapsed(lobby):
    assert await lobby.hold("g001", "ann", 5)
    assert not await lobby.hold("g001", "ann", 5)  # her other join waits
    assert await lobby.hold("g001", "bob", 5) and await lobby.hold("g002", "ann", 5)  # others do not
    await lobby.release("g001", "ann")
    assert await lobby.hold("g001", "ann", 0.2)
    await asyncio.sleep(0.3)  # a replica that died mid-join: the hold lapses
    assert await lobby.hold("g001", "ann", 5)
