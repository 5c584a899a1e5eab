"""A client's X-Request-Id (gRPC metadata x-request-id) is on its call's log line as
`x_request_id`, over REST, Connect and gRPC (outside acceptance pass: calls could not be
correlated with the logs; docs/operations.md "Logs")."""

from __future__ import annotations

import json

import grpc
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.server.support import ServerProcess


def test_a_clients_request_id_header_is_logged_on_each_transport():
    server = ServerProcess({"TABLERO_LOG_LEVEL": "info"}).start()
    try:
        made = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe"},
                              headers={"X-Request-Id": "rest-1"}, timeout=10).json()
        gid = made["game"]["id"]
        plainhttp.post(f"{server.http}/tablero.v1.GameService/GetGame", json={"gameId": gid},
                       headers={"X-Request-Id": "connect-2"}, timeout=10)
        plainhttp.get(f"{server.http}/v1/games/{gid}", headers={"X-Request-Id": "r" * 300}, timeout=10)
        with grpc.insecure_channel(server.grpc) as ch:
            games_pb2_grpc.GameServiceStub(ch).GetGame(games_pb2.GetGameRequest(game_id=gid),
                                                       metadata=(("x-request-id", "grpc-3"),), timeout=10)
    finally:
        _, err = server.terminate()
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{") and '"request"' in line]
    traced = {line.get("x_request_id"): line for line in lines if line.get("x_request_id")}
    assert traced["rest-1"]["rpc"] == "CreateGame" and traced["rest-1"]["transport"] == "http"
    assert traced["connect-2"]["rpc"] == "GetGame" and traced["connect-2"]["transport"] == "connect"
    assert traced["grpc-3"]["rpc"] == "GetGame" and traced["grpc-3"]["transport"] == "grpc"
    assert "r" * 128 in traced and "r" * 129 not in traced


def test_the_logged_id_is_cut_and_cleaned():
    from tablero.server.api.observe import traced

    assert traced(None) == {} and traced("") == {} and traced("\x01\x02") == {}
    assert traced("a\x00b\nc") == {"x_request_id": "abc"} and traced("x" * 200) == {"x_request_id": "x" * 128}


def test_a_metrics_scrape_is_logged_as_the_probes_are():
    """docs/operations.md: "HTTP probes and /metrics scrapes are logged too"; an outside pass
    found no line for a scrape (the metrics port is its own small server)."""
    server = ServerProcess({"TABLERO_LOG_LEVEL": "info"}).start()
    try:
        assert plainhttp.get(server.metrics, timeout=10).status_code == 200
        plainhttp.get(f"{server.http}/healthz", timeout=10)
    finally:
        _, err = server.terminate()
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{") and '"request"' in line]
    scrapes = [line for line in lines if line.get("path") == "/metrics"]
    assert len(scrapes) == 1 and scrapes[0]["transport"] == "metrics" and scrapes[0]["status"] == 200, lines
    assert any(line.get("path") == "/healthz" for line in lines)
