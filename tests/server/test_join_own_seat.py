"""A seat token is one seat of one game, not a player.

- JoinGame sent with a seat token of the SAME game joined anonymously and took a second seat
  (one player, two seats: a page that sends its stored token with every call of the game, an
  invite link opened twice). Now its holder gets that seat back (the same seat and token, as a
  portal user's second join gets the seat they hold): no second seat, nothing written, even
  once the game is full. REST, Connect and gRPC.
- CreateGame sent with a seat token made an anonymous game as if no token had been sent. Now
  it is refused, 401 UNAUTHENTICATED `TOKEN_INVALID` naming why, and makes no game.
"""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.server.support import ServerThread

JOIN = "/tablero.v1.GameService/JoinGame"
CREATE = "/tablero.v1.GameService/CreateGame"


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


def _create(url: str, seats: list[str]) -> dict:
    r = plainhttp.post(f"{url}/v1/games", json={"engine": "tic-tac-toe", "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def _claimed(url: str, gid: str) -> list[bool]:
    return [s["claimed"] for s in plainhttp.get(f"{url}/v1/games/{gid}").json()["seats"]]


def _rest_join(url: str, gid: str, token: str | None) -> dict:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    r = plainhttp.post(f"{url}/v1/games/{gid}/join", json={"requestId": "join-own-seat-0123456789"}, headers=auth)
    assert r.status_code == 200, r.text
    return r.json()


def _connect_join(url: str, gid: str, token: str | None) -> dict:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    r = plainhttp.post(f"{url}{JOIN}", json={"gameId": gid}, headers=auth)
    assert r.status_code == 200, r.text
    return {"seat": 0, **r.json()}  # (proto3 JSON leaves a zero out)


def _grpc_join(target: str):
    def join(url: str, gid: str, token: str | None) -> dict:
        with grpc.insecure_channel(target) as ch:
            meta = (("authorization", f"Bearer {token}"),) if token else ()
            out = games_pb2_grpc.GameServiceStub(ch).JoinGame(games_pb2.JoinGameRequest(game_id=gid), metadata=meta,
                                                              timeout=10)
            return {"gameId": out.game_id, "seat": out.seat, "token": out.token}
    return join


@pytest.mark.parametrize("transport", ["rest", "connect", "grpc"])
def test_a_seat_token_of_the_game_gets_its_own_seat_back_not_a_second_one(server, transport):
    join = {"rest": _rest_join, "connect": _connect_join, "grpc": _grpc_join(server.grpc)}[transport]
    url = server.http
    created = _create(url, ["human", "open"])
    gid, creator = created["game"]["id"], created["seats"][0]["token"]
    assert join(url, gid, creator) == {"gameId": gid, "seat": 0, "token": creator}
    assert _claimed(url, gid) == [True, False]  # no seat taken
    first = join(url, gid, None)  # an anonymous join takes the open seat
    assert first["seat"] == 1 and _claimed(url, gid) == [True, True]
    # The game is full: its players get their own seats back, not SEAT_TAKEN; a joined seat's
    # token (it names its claim) too, again and again.
    for _ in range(2):
        assert join(url, gid, first["token"]) == first
        assert join(url, gid, creator)["seat"] == 0


def test_create_with_a_seat_token_is_refused_on_every_transport(server):
    url = server.http
    token = _create(url, ["human", "human"])["seats"][0]["token"]
    before = len(plainhttp.get(f"{url}/v1/games", params={"pageSize": 100}).json()["games"])
    auth = {"Authorization": f"Bearer {token}"}
    body = {"engine": "tic-tac-toe", "players": 2}
    r = plainhttp.post(f"{url}/v1/games", json=body, headers=auth)
    assert r.status_code == 401, r.text
    err = r.json()["error"]
    assert (err["code"], err["reason"]) == ("UNAUTHENTICATED", "TOKEN_INVALID"), err
    assert "seat token" in err["message"] and "portal JWT" in err["message"], err
    r = plainhttp.post(f"{url}{CREATE}", json=body, headers=auth)
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated", r.text
    assert "seat token" in r.json()["message"]
    with grpc.insecure_channel(server.grpc) as ch:
        with pytest.raises(grpc.RpcError) as e:
            games_pb2_grpc.GameServiceStub(ch).CreateGame(
                games_pb2.CreateGameRequest(engine="tic-tac-toe", players=2),
                metadata=(("authorization", f"Bearer {token}"),), timeout=10)
    assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED, e.value
    info = error_details_pb2.ErrorInfo()
    details = dict(e.value.trailing_metadata())["grpc-status-details-bin"]
    assert status_pb2.Status.FromString(details).details[0].Unpack(info) and info.reason == "TOKEN_INVALID"
    assert len(plainhttp.get(f"{url}/v1/games", params={"pageSize": 100}).json()["games"]) == before  # none made
    assert plainhttp.post(f"{url}/v1/games", json=body).status_code == 200  # without the token: made
