"""JoinGame with a seat token of another game (an outside tester: it joined anonymously, as if
no token had been sent, and took the open seat). It is refused as every seat call of the game
refuses such a token, 403 / PERMISSION_DENIED `WRONG_GAME`, over REST, Connect and gRPC, and
changes nothing: the seat stays open, and a join without the token takes it."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


def _create(url: str, seats: list[str]) -> dict:
    r = plainhttp.post(f"{url}/v1/games", json={"engine": "tic-tac-toe", "seats": seats}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def _open_seats(url: str, gid: str) -> list[int]:
    game = plainhttp.get(f"{url}/v1/games/{gid}", timeout=10).json()
    return [s["seat"] for s in game["seats"] if not s["claimed"]]


def _other_games_token(url: str) -> str:
    return _create(url, ["human", "human"])["seats"][0]["token"]


def test_rest_and_connect_refuse_a_seat_token_of_another_game_and_change_nothing(server):
    url = server.http
    gid = _create(url, ["human", "open"])["game"]["id"]
    token = _other_games_token(url)
    auth = {"Authorization": f"Bearer {token}"}
    r = plainhttp.post(f"{url}/v1/games/{gid}/join", json={}, headers=auth, timeout=10)
    assert r.status_code == 403, r.text
    err = r.json()["error"]
    assert (err["code"], err["reason"]) == ("PERMISSION_DENIED", "WRONG_GAME"), err
    assert token.split(".")[0] in err["message"] and gid in err["message"], err
    r = plainhttp.post(f"{url}/tablero.v1.GameService/JoinGame", json={"gameId": gid}, headers=auth, timeout=10)
    assert r.status_code == 403 and r.json()["code"] == "permission_denied", r.text
    assert _open_seats(url, gid) == [1]  # nothing taken
    joined = plainhttp.post(f"{url}/v1/games/{gid}/join", json={}, timeout=10).json()
    assert joined["seat"] == 1, joined  # the seat was still open


def test_grpc_refuses_a_seat_token_of_another_game_and_changes_nothing(server):
    url = server.http
    gid = _create(url, ["human", "open"])["game"]["id"]
    token = _other_games_token(url)
    with grpc.insecure_channel(server.grpc) as ch:
        stub = games_pb2_grpc.GameServiceStub(ch)
        with pytest.raises(grpc.RpcError) as e:
            stub.JoinGame(games_pb2.JoinGameRequest(game_id=gid), metadata=(("authorization", f"Bearer {token}"),),
                          timeout=10)
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED, e.value
        details = dict(e.value.trailing_metadata())["grpc-status-details-bin"]
        info = error_details_pb2.ErrorInfo()
        assert status_pb2.Status.FromString(details).details[0].Unpack(info) and info.reason == "WRONG_GAME"
        assert _open_seats(url, gid) == [1]
        # Without the token, the join takes the seat that stayed open.
        assert stub.JoinGame(games_pb2.JoinGameRequest(game_id=gid), timeout=10).seat == 1
