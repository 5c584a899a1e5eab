"""A portal that sends its user's JWT mangled (quoted, as a JSON string is; or cut short, as a
truncated cookie is) to CreateGame or JoinGame is told so (401 TOKEN_INVALID), on REST and
gRPC. It used to get a 200 and an anonymous seat: a seat bound to nobody, which the user's
"My games", notifications and ratings never see. No token at all is anonymous play, as before;
a seat token is no player either: CreateGame refuses it (401 TOKEN_INVALID, it made an anonymous
game), JoinGame refuses one of another game (WRONG_GAME) and gives one of its own game that seat
back (tests/server/test_join_own_seat.py).
"""

from __future__ import annotations

import json
import time

import grpc
import jwt
import pytest
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests import plainhttp
from tests.server.support import ServerProcess

KEY = "k1-" + "a" * 40


def _jwt(user: str) -> str:
    return jwt.encode({"sub": user, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})


@pytest.fixture
def server(fresh_redis_url):
    proc = ServerProcess({"TABLERO_REDIS_URL": fresh_redis_url,
                          "TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY})}).start()
    try:
        yield proc
    finally:
        proc.kill()


def _open_game(server: ServerProcess) -> str:
    r = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]})
    assert r.status_code == 200, r.text
    return r.json()["game"]["id"]


def test_a_mangled_jwt_is_refused_by_create_and_join_not_taken_as_anonymous(server):
    good = _jwt("quin")
    for mangled in (f'"{good}"', good.rsplit(".", 1)[0], "garbage"):
        auth = {"Authorization": f"Bearer {mangled}"}
        gid = _open_game(server)
        for r in (plainhttp.post(f"{server.http}/v1/games/{gid}/join", json={}, headers=auth),
                  plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2},
                                 headers=auth)):
            e = r.json()["error"]
            assert r.status_code == 401 and e["reason"] == "TOKEN_INVALID", (mangled, r.text)
            assert "neither a portal JWT nor a seat token" in e["message"], r.text
        # Nothing was taken: the open seat is still open, and the user holds no game.
        game = plainhttp.get(f"{server.http}/v1/games/{gid}").json()
        assert game["seats"][1]["claimed"] is False, game
    mine = plainhttp.get(f"{server.http}/v1/games", params={"mine": "true"},
                         headers={"Authorization": f"Bearer {good}"}).json()
    assert mine["games"] == [], mine

    ch = grpc.insecure_channel(server.grpc)
    try:
        stub = pbg.GameServiceStub(ch)
        gid = _open_game(server)
        with pytest.raises(grpc.RpcError) as refused:
            stub.JoinGame(pb.JoinGameRequest(game_id=gid), metadata=[("authorization", f'Bearer "{good}"')])
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED, refused.value
        # The JWT itself binds the seat; no token plays anonymously (a seat token of another game
        # is refused: WRONG_GAME, tests/server/test_join_wrong_game.py).
        joined = stub.JoinGame(pb.JoinGameRequest(game_id=gid), metadata=[("authorization", f"Bearer {good}")])
        assert joined.seat == 1
    finally:
        ch.close()
    other = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    seat_token = {"Authorization": f"Bearer {other['seats'][0]['token']}"}
    for auth in (seat_token, {}):
        r = plainhttp.post(f"{server.http}/v1/games/{_open_game(server)}/join", json={}, headers=auth)
        if auth:  # a seat token of another game joins nothing
            assert r.status_code == 403 and r.json()["error"]["reason"] == "WRONG_GAME", r.text
        else:
            assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        r = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}, headers=auth)
        if auth:  # a seat token is no player: no anonymous game made as if it had not been sent
            assert r.status_code == 401 and r.json()["error"]["reason"] == "TOKEN_INVALID", r.text
        else:
            assert r.status_code == 200, r.text
