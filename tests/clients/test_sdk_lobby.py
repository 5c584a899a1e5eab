"""The lobby (ListGames) through the Python SDK, over REST and gRPC, sync and async: an outside
tester found no way to list games with it (a portal's "My games" page had to call REST itself)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from tablero_client import FINISHED, OPEN, RUNNING, AsyncClient, Client, GameSummary, Unauthenticated

from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess


@pytest.fixture(scope="module")
def portal() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


@pytest.fixture(params=["rest", "grpc"])
def kw(request, portal: ServerProcess) -> dict[str, str]:
    return {"rest": portal.http} if request.param == "rest" else {"grpc": portal.grpc}


def test_list_games_filters_and_pages(kw):
    user = f"lobby-{next(iter(kw))}"
    with Client(**kw, token=token(user, "Lee")) as c:
        mine_open = c.create("tic-tac-toe", seats=["me", "open"])
        finished = c.create("tic-tac-toe", seats=["human", "human"])
        for seat, cell in [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]:
            finished.seat(seat).act({"type": "place", "cell": cell})
        other_engine = c.create("riverboat", seats=["human", "bot"])

        mine = c.list_games(mine=True)
        assert [g.id for g in mine.games] == [mine_open.game.id] and mine.next_page_token == ""
        [g] = mine.games
        assert isinstance(g, GameSummary) and g.engine == "tic-tac-toe" and g.status == RUNNING and g.players == 2
        assert [s.kind for s in g.seats][1] == OPEN and g.open_seats == [1] and g.create_time > 0

        ids = {x.game.id for x in (mine_open, finished, other_engine)}
        ttt = {g.id for g in c.all_games(engine="tic-tac-toe", page_size=1)}  # page after page
        assert ids & ttt == {mine_open.game.id, finished.game.id}
        done = [g for g in c.all_games(status="finished") if g.id in ids]
        assert [(g.id, g.status) for g in done] == [(finished.game.id, FINISHED)]
        assert finished.game.id in {g.id for g in c.all_games(status="GAME_STATUS_FINISHED")}
        with_open = {g.id for g in c.all_games(open_seats=True)} & ids
        without = {g.id for g in c.all_games(open_seats=False, status="running")} & ids
        assert with_open == {mine_open.game.id} and without == {other_engine.game.id}

        first = c.list_games(engine="tic-tac-toe", page_size=1)
        assert len(first.games) == 1 and first.next_page_token
        second = c.list_games(engine="tic-tac-toe", page_size=1, page_token=first.next_page_token)
        assert second.games[0].id != first.games[0].id

    with Client(**kw) as anonymous:  # "mine" needs the portal JWT
        with pytest.raises(Unauthenticated):
            anonymous.list_games(mine=True)
        assert [g.id for g in anonymous.list_games(mine=True, token=token(user)).games] == [mine_open.game.id]


def test_the_async_client_lists_games_too(kw):
    user = f"lobby-async-{next(iter(kw))}"

    async def main() -> tuple[str, list[str], list[str]]:
        async with AsyncClient(**kw, token=token(user)) as c:
            created = await c.create("tic-tac-toe", seats=["me", "open"])
            page = await c.list_games(mine=True, page_size=5)
            every = [g.id async for g in c.all_games(mine=True, page_size=1)]
            return created.game.id, [g.id for g in page.games], every

    game_id, page, every = asyncio.run(main())
    assert page == [game_id] and every == [game_id]


def test_seats_name_their_portal_users(kw):
    """A seat's `userId` / `userName` (REST and gRPC carry them, the TypeScript SDK's SeatInfo has
    them) were dropped by the Python SDK: "My games" could not say who sits where."""
    user = f"names-{next(iter(kw))}"
    with Client(**kw, token=token(user, "Nia")) as c:
        created = c.create("tic-tac-toe", seat_specs=[{"kind": "me"}, {"kind": "human", "user_id": "kim",
                                                                        "user_name": "Kim"}])
        [summary] = [g for g in c.list_games(mine=True).games if g.id == created.game.id]
        for seats in (created.game.seats, c.game(created.game.id).seats, summary.seats):
            assert [(s.user_id, s.user_name) for s in seats] == [(user, "Nia"), ("kim", "Kim")], seats
        anonymous = c.create("tic-tac-toe", seats=["human", "bot"])
    assert [(s.user_id, s.user_name) for s in anonymous.game.seats] == [(None, None), (None, None)]
