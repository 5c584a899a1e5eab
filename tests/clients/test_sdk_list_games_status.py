"""The SDK's lobby listing with a status it does not take (outside tester: over REST the server's
"status must be GAME_STATUS_RUNNING or GAME_STATUS_FINISHED" came back, over gRPC the local
protobuf parser's "Failed to parse status field: Invalid enum value GAME_STATUS_BOGUS for enum
type ..." — and GAME_STATUS_UNSPECIFIED was refused over REST but listed everything over gRPC).
Now both transports, sync and async, raise the same InvalidArgument naming the valid values, and
take "unspecified" / GAME_STATUS_UNSPECIFIED as no filter, as the server does on every transport
(a proto3 enum's zero is its unset value; it was refused here before any request)."""

from __future__ import annotations

import asyncio

import pytest
from tablero_client import AsyncClient, Client, InvalidArgument

from tests import plainhttp
from tests.server.support import ServerThread

BAD = ("bogus", "RUNNING_", "GAME_STATUS_", 5)
NO_FILTER = ("unspecified", "GAME_STATUS_UNSPECIFIED", "game_status_unspecified")


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}, timeout=10)
        yield s


def _refusal(call) -> tuple[type, str, str | None]:
    with pytest.raises(InvalidArgument) as e:
        call()
    return type(e.value), str(e.value), e.value.reason


def test_a_bad_status_is_the_same_refusal_over_rest_and_grpc(server):
    rest, grpc = Client(rest=server.http, retries=0), Client(grpc=server.grpc, retries=0)
    for status in BAD:
        over_rest = _refusal(lambda c=rest, s=status: c.list_games(status=s))
        over_grpc = _refusal(lambda c=grpc, s=status: c.list_games(status=s))
        assert over_rest == over_grpc, (status, over_rest, over_grpc)
        cls, message, reason = over_rest
        assert cls is InvalidArgument and reason == "INVALID_ARGUMENT"
        assert "GAME_STATUS_RUNNING" in message and "GAME_STATUS_FINISHED" in message, message
        assert "protobuf" not in message and "parse" not in message, message
    for status in ("running", "Finished", "GAME_STATUS_RUNNING", "game_status_finished"):
        assert len(rest.list_games(status=status).games) == len(grpc.list_games(status=status).games)
    assert len(rest.list_games(status="running").games) == 1


def test_unspecified_is_no_filter_on_both_transports(server):
    rest, grpc = Client(rest=server.http, retries=0), Client(grpc=server.grpc, retries=0)
    every = {g.id for g in rest.list_games().games}
    assert every
    for status in NO_FILTER:
        assert {g.id for g in rest.list_games(status=status).games} == every, status
        assert {g.id for g in grpc.list_games(status=status).games} == every, status


def test_the_async_client_refuses_it_alike(server):
    async def refusals() -> list[str]:
        out = []
        for kw in ({"rest": server.http}, {"grpc": server.grpc}):
            client = AsyncClient(**kw, retries=0)
            try:
                with pytest.raises(InvalidArgument) as e:
                    await client.list_games(status="bogus")
                out.append(str(e.value))
            finally:
                await client.close()
        return out

    over_rest, over_grpc = asyncio.run(refusals())
    assert over_rest == over_grpc and "GAME_STATUS_RUNNING" in over_rest
