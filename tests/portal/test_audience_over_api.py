"""A server given TABLERO_PORTAL_AUDIENCE and TABLERO_PORTAL_ISSUER takes only the portal JWTs
that name them, over REST and gRPC (server.portal.identity); one given none refuses a JWT that
names an audience."""

import json
import time

import grpc
import httpx
import jwt
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "k1-" + "a" * 40
ISSUER = "https://id.example/"


def _jwt(**claims) -> str:
    body = {"sub": "ana", "exp": int(time.time()) + 600, **claims}
    return jwt.encode({k: v for k, v in body.items() if v is not None}, KEY, algorithm="HS256", headers={"kid": "k1"})


def _create(s: ServerThread, token: str) -> httpx.Response:
    return plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2},
                          headers={"Authorization": f"Bearer {token}"})


def test_only_tokens_for_this_audience_and_issuer_are_taken():
    with ServerThread(portal_keys=json.dumps({"k1": KEY}), portal_audience="tablero",
                      portal_issuer=ISSUER) as s:
        assert _create(s, _jwt(aud="tablero", iss=ISSUER)).status_code == 200
        for claims, said in (({"aud": "some-other-api", "iss": ISSUER}, "audience"),
                             ({"aud": "tablero", "iss": "https://evil.example/"}, "issuer"),
                             ({"iss": ISSUER}, '"aud"')):
            r = _create(s, _jwt(**claims))
            assert r.status_code == 401 and r.json()["error"]["reason"] == "TOKEN_INVALID", r.text
            assert said in r.json()["error"]["message"], r.text
        with grpc.insecure_channel(s.grpc) as channel:
            stub = pbg.GameServiceStub(channel)
            md = [("authorization", f"Bearer {_jwt(aud='some-other-api', iss=ISSUER)}")]
            try:
                stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", players=2), metadata=md)
                raise AssertionError("a token for another audience was taken over gRPC")
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.UNAUTHENTICATED and "audience" in e.details(), e.details()


def test_without_an_audience_set_a_token_naming_one_is_refused():
    with ServerThread(portal_keys=json.dumps({"k1": KEY})) as s:
        assert _create(s, _jwt()).status_code == 200
        r = _create(s, _jwt(aud="some-other-api"))
        assert r.status_code == 401 and "TABLERO_PORTAL_AUDIENCE" in r.json()["error"]["message"], r.text
