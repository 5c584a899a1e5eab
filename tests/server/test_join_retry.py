"""An anonymous JoinGame with a requestId can be retried (outside acceptance pass: a join whose
answer was lost claimed the seat, nobody had its token, and the retry found every seat taken):
the same requestId gets the same seat and token back, over REST, Connect and gRPC, from another
replica too (tests/store/test_contract.py); another requestId, or none, is a new join."""

from __future__ import annotations

import grpc
import pytest
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.server.support import ServerThread, post_and_drop_the_answer


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


def _game(url: str, seats: list[str]) -> str:
    return plainhttp.post(f"{url}/v1/games", json={"engine": "tic-tac-toe", "seats": seats}, timeout=10).json()["game"]["id"]


def _join(url: str, gid: str, body: dict) -> dict:
    r = plainhttp.post(f"{url}/v1/games/{gid}/join", json=body, timeout=10)
    return {"status": r.status_code, **r.json()}


def test_a_join_whose_answer_was_lost_is_retried_with_its_request_id(server):
    url = server.http
    gid = _game(url, ["human", "open"])
    # The first attempt: sent whole, the connection closed before the answer is read.
    post_and_drop_the_answer(url, f"/v1/games/{gid}/join", b'{"requestId": "join-1-0123456789ab"}')
    seat = plainhttp.get(f"{url}/v1/games/{gid}", timeout=10).json()["seats"][1]
    assert seat["claimed"] is True
    again = _join(url, gid, {"requestId": "join-1-0123456789ab"})
    assert again["status"] == 200 and again["seat"] == 1, again
    # The token works: the seat can play once seat 0 has.
    assert plainhttp.get(f"{url}/v1/games/{gid}/legal-actions", headers={"Authorization": f"Bearer {again['token']}"},
                         timeout=10).status_code == 200
    # Retried once more: the same token. Another requestId, or none, is another join: no seat left.
    assert _join(url, gid, {"requestId": "join-1-0123456789ab"})["token"] == again["token"]
    for body in ({"requestId": "join-2-0123456789ab"}, {}):
        other = _join(url, gid, body)
        assert other["status"] == 409 and other["error"]["reason"] == "SEAT_TAKEN", other


def test_the_same_request_id_over_connect_and_grpc_is_the_same_join(server):
    url = server.http
    gid = _game(url, ["open", "open"])
    first = plainhttp.post(f"{url}/tablero.v1.GameService/JoinGame", json={"gameId": gid, "requestId": "r-0123456789abcdef"},
                           timeout=10).json()
    with grpc.insecure_channel(server.grpc) as ch:
        stub = games_pb2_grpc.GameServiceStub(ch)
        second = stub.JoinGame(games_pb2.JoinGameRequest(game_id=gid, request_id="r-0123456789abcdef"))
        third = stub.JoinGame(games_pb2.JoinGameRequest(game_id=gid, request_id="s-0123456789abcdef"))
    first_seat = first.get("seat", 0)  # (proto3 JSON leaves a 0 out)
    assert (second.seat, second.token) == (first_seat, first["token"])
    assert third.seat != first_seat
    # The same requestId in another game is that game's own join.
    other = _game(url, ["open", "human"])
    assert _join(url, other, {"requestId": "r-0123456789abcdef"})["seat"] == 0


def test_a_request_id_too_long_is_refused(server):
    gid = _game(server.http, ["human", "open"])
    r = _join(server.http, gid, {"requestId": "x" * 129})
    assert r["status"] == 400 and "requestId" in r["error"]["message"], r
    assert plainhttp.get(f"{server.http}/v1/games/{gid}", timeout=10).json()["seats"][1]["claimed"] is False


def test_an_anonymous_join_with_a_short_request_id_is_refused(server):
    """An anonymous join's requestId is the only proof that a retry is its sender's: whoever sends
    it again gets the seat's token. An outside pass joined with "1" and, as another client, got
    the same token with "1" again. A short id (easy to guess) is refused, the seat left open."""
    gid = _game(server.http, ["human", "open"])
    for short in ("1", " " * 16, " 1" + " " * 14):  # (blanks count for nothing: anyone guesses them)
        r = _join(server.http, gid, {"requestId": short})
        assert r["status"] == 400 and r["error"]["reason"] == "INVALID_ARGUMENT" and "at least 16" in r["error"]["message"]
    assert plainhttp.get(f"{server.http}/v1/games/{gid}", timeout=10).json()["seats"][1].get("claimed") is not True
    assert _join(server.http, gid, {"requestId": "y" * 16})["seat"] == 1
