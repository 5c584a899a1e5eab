"""The lobby lists games newest first, filtered and paginated, on every store."""

import pytest
import redis.asyncio as aioredis

from server.portal.lobby import BadPageToken, Filter, MemoryLobby, RedisLobby, SQLiteLobby
from tests.redis_server import RedisServer


def _entry(i, engine="tic-tac-toe", status="RUNNING", open_taken=(False,), user=None):
    seats = [{"seat": 0, "kind": "human", "user": {"id": user, "name": user} if user else None, "taken": True}]
    seats += [{"seat": 1 + k, "kind": "open", "user": None, "taken": t} for k, t in enumerate(open_taken)]
    return {"gameId": f"g{i:03d}", "engine": engine, "players": len(seats), "seats": seats, "status": status,
            "created": 1000.0 + i}


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def lobby(request, tmp_path):
    if request.param == "memory":
        yield MemoryLobby()
    elif request.param == "sqlite":
        yield SQLiteLobby(str(tmp_path / "lobby.db"))
    else:
        with RedisServer() as server:
            client = aioredis.Redis.from_url(server.url)
            yield RedisLobby(client)
            await client.aclose()


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
