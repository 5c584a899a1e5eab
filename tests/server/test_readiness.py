"""Readiness follows the store: gRPC health of the API service and /readyz turn
NOT_SERVING / 503 when Redis goes away; liveness stays SERVING."""

import time

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from tablero.server import runner as server_runner
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.redis_server import RedisServer
from tests.server.support import ServerThread


def _wait(cond, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.1)
    return False


def test_readiness_follows_the_store_and_liveness_does_not(monkeypatch):
    monkeypatch.setattr(server_runner, "READINESS_INTERVAL", 0.2)
    redis = RedisServer().start()
    try:
        with ServerThread(redis_url=redis.url) as s, grpc.insecure_channel(s.grpc) as ch:
            h = health_pb2_grpc.HealthStub(ch)

            def status(service):
                return h.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status

            serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
            assert _wait(lambda: status("tablero.v1.GameService") == serving)
            assert plainhttp.get(s.http + "/readyz").status_code == 200
            redis.stop()
            assert _wait(lambda: status("tablero.v1.GameService") == not_serving)
            assert status("") == serving  # liveness: the process is fine
            r = plainhttp.get(s.http + "/readyz", timeout=10)
            assert r.status_code == 503
            # A request that needs the store gets a clear UNAVAILABLE, not a traceback.
            r = plainhttp.post(s.http + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}, timeout=30)
            assert r.status_code == 503 and r.json()["error"]["code"] == "UNAVAILABLE"
            assert r.json()["error"]["reason"] == "UNAVAILABLE"  # docs/api.md, "Error reasons"
            with pytest.raises(grpc.RpcError) as e:
                games_pb2_grpc.GameServiceStub(ch).CreateGame(
                    games_pb2.CreateGameRequest(engine="tic-tac-toe", players=2), timeout=30)
            info = error_details_pb2.ErrorInfo()
            details = dict(e.value.trailing_metadata())["grpc-status-details-bin"]
            assert status_pb2.Status.FromString(details).details[0].Unpack(info)
            assert e.value.code() == grpc.StatusCode.UNAVAILABLE and info.reason == "UNAVAILABLE"
    finally:
        redis.stop()
