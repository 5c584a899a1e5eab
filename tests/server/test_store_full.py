"""A full store (Redis at maxmemory with noeviction): an outside operator saw one warning, then
silence, while every write kept failing with "unavailable for a moment; retry" — an invitation to
retry storms against a store only an operator can free. Now the refusal has its own reason,
STORE_FULL, with a long Retry-After, the log says so as an error, and reads go on."""

from __future__ import annotations

import json

import grpc
import redis
from tablero_client._proto import games_pb2 as pb
from tablero_client._proto import games_pb2_grpc as pbg

from tests import plainhttp
from tests.redis_server import RedisServer
from tests.server.support import ServerProcess


def test_a_full_store_refuses_writes_with_store_full_and_reads_go_on():
    with RedisServer() as rs, ServerProcess({"TABLERO_REDIS_URL": rs.url, "TABLERO_LOG_LEVEL": "warning"}) as s:
        made = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "human"]})
        game, token = made.json()["game"]["id"], made.json()["seats"][0]["token"]
        r = redis.Redis.from_url(rs.url)
        r.config_set("maxmemory-policy", "noeviction")
        r.config_set("maxmemory", 1)  # every write refused: OOM command not allowed
        try:
            refused = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe"})
            assert refused.status_code == 503, refused.text
            err = refused.json()["error"]
            assert (err["code"], err["reason"]) == ("UNAVAILABLE", "STORE_FULL"), err
            assert int(refused.headers["retry-after"]) >= 30 and "full" in err["message"]
            move = plainhttp.post(f"{s.http}/v1/games/{game}/actions", json={"action": {"type": "place", "cell": 4}},
                                  headers={"authorization": f"Bearer {token}"})
            assert move.status_code == 503 and move.json()["error"]["reason"] == "STORE_FULL", move.text
            with grpc.insecure_channel(s.grpc) as ch:
                try:
                    pbg.GameServiceStub(ch).CreateGame(pb.CreateGameRequest(engine="tic-tac-toe"), timeout=10)
                    raise AssertionError("a create on a full store was accepted")
                except grpc.RpcError as e:
                    assert e.code() == grpc.StatusCode.UNAVAILABLE
                    assert int(dict(e.trailing_metadata())["retry-after"]) >= 30
            read = plainhttp.get(f"{s.http}/v1/games/{game}")
            assert read.status_code == 200 and read.json().get("version") == 1, read.text
        finally:
            r.config_set("maxmemory", 0)
            r.close()
        again = plainhttp.post(f"{s.http}/v1/games/{game}/actions", json={"action": {"type": "place", "cell": 4}},
                               headers={"authorization": f"Bearer {token}"})
        assert again.status_code == 200, again.text
        _code, err = s.terminate()
        lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
        assert any(ln["level"] == "error" and "is full and refuses writes" in ln["msg"] for ln in lines), lines
