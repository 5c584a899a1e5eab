"""A refused call's log line names the error's reason, as its answer does (outside operator pass:
a portal whose users all got 401 showed in the logs only `"code": "UNAUTHENTICATED"`, the same for
an expired JWT, one signed with a key the server does not have, or a seat token of another game;
the operator could not tell a clock-skewed portal from a botched key rotation without a client's
answer in hand). Over REST, Connect and gRPC (docs/operations.md, "Logs")."""

from __future__ import annotations

import json
import time

import grpc
import jwt
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.server.support import ServerProcess

KEY = "a-portal-secret-of-at-least-32-bytes!"


def _jwt(exp: float, key: str = KEY) -> dict[str, str]:
    token = jwt.encode({"sub": "u1", "exp": int(exp)}, key, algorithm="HS256", headers={"kid": "k1"})
    return {"Authorization": f"Bearer {token}"}


def test_a_refused_calls_log_line_has_its_reason():
    server = ServerProcess({"TABLERO_LOG_LEVEL": "info", "TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY})}).start()
    try:
        h = server.http
        assert plainhttp.get(f"{h}/v1/games", params={"mine": "true"}, headers={**_jwt(time.time() - 120),
                             "X-Request-Id": "expired"}, timeout=10).status_code == 401
        assert plainhttp.get(f"{h}/v1/games", params={"mine": "true"}, timeout=10, headers={
            **_jwt(time.time() + 300, "some-other-portal-key-of-32-bytes-or-more"), "X-Request-Id": "wrong-key"},
        ).status_code == 401
        assert plainhttp.get(f"{h}/v1/games/nope", headers={"X-Request-Id": "missing"}, timeout=10).status_code == 404
        assert plainhttp.post(f"{h}/tablero.v1.GameService/GetGame", json={"gameId": "nope"},
                              headers={"X-Request-Id": "connect"}, timeout=10).status_code == 404
        with grpc.insecure_channel(server.grpc) as ch:
            try:
                games_pb2_grpc.GameServiceStub(ch).GetGame(games_pb2.GetGameRequest(game_id="nope"),
                                                           metadata=(("x-request-id", "grpc"),), timeout=10)
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.NOT_FOUND
        made = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe"}, headers={"X-Request-Id": "ok"},
                              timeout=10)
        assert made.status_code == 200
    finally:
        _, err = server.terminate()
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{") and '"request"' in line]
    by_id = {line["x_request_id"]: line for line in lines if line.get("x_request_id")}
    assert by_id["expired"]["code"] == "UNAUTHENTICATED" and by_id["expired"]["reason"] == "TOKEN_EXPIRED"
    assert by_id["wrong-key"]["reason"] == "TOKEN_INVALID"
    for rid in ("missing", "connect", "grpc"):
        assert by_id[rid]["code"] == "NOT_FOUND" and by_id[rid]["reason"] == "GAME_NOT_FOUND", by_id[rid]
    assert "reason" not in by_id["ok"]
