"""create() as a portal integrator uses it: a portal JWT (the client's or the call's), "me" seats,
seatSpecs, a turn clock, onLeave and rated, over REST and gRPC."""

from __future__ import annotations

import pytest
from tablero_client import AsyncClient, Client, Unauthenticated

from tests import plainhttp
from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess


@pytest.fixture(scope="module")
def portal():
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


@pytest.fixture(params=["rest", "grpc"])
def where(request, portal) -> dict[str, str]:
    return {"rest": portal.http} if request.param == "rest" else {"grpc": portal.grpc}


def test_a_me_seat_needs_the_jwt_and_takes_it_from_the_client_or_the_call(portal, where):
    kind = next(iter(where))
    with Client(**where) as anonymous:
        with pytest.raises(Unauthenticated) as e:
            anonymous.create("tic-tac-toe", seats=["me", "open"])
        assert e.value.reason == "TOKEN_MISSING"
        created = anonymous.create("tic-tac-toe", seats=["me", "open"], token=token(f"ann-{kind}"))
        assert created.game.seats[0].claimed and not created.game.seats[1].claimed
    with Client(**where, token=token(f"cli-{kind}", "Cli")) as c:
        created = c.create("tic-tac-toe", seats=["me", "bot:hard"], on_leave="bot",
                           clock={"move_seconds": 120, "on_timeout": "bot"}, rated=False)
        assert created.game.seats[1].bot_level == "hard"
        r = plainhttp.get(f"{portal.http}/v1/games/{created.game.id}")
        assert r.status_code == 200, r.text
        raw = r.json()  # the Game itself (response_body: "game")
        assert raw["seats"][0]["userId"] == f"cli-{kind}" and raw["seats"][0]["userName"] == "Cli"
        assert [d["seat"] for d in raw.get("deadlines", [])] == [0]  # the clock runs for the seat to act
        created.seat(0).act({"type": "place", "cell": 4})  # the seat's token came back with the game
        specs = c.create("tic-tac-toe", seat_specs=[{"kind": "me"}, {"kind": "human", "user_id": "bob",
                                                                     "userName": "Bob"}])
        raw = plainhttp.get(f"{portal.http}/v1/games/{specs.game.id}").json()
        assert [(s.get("userId"), s.get("userName")) for s in raw["seats"]] == [
            (f"cli-{kind}", "Cli"), ("bob", "Bob")]


def test_the_async_client_too(portal):
    import asyncio

    async def main() -> None:
        async with AsyncClient(rest=portal.http, token=token("async-user")) as c:
            created = await c.create("tic-tac-toe", seats=["me", "open"])
            assert created.game.seats[0].claimed

    asyncio.run(main())
