"""With its Redis stopped (the port closed: every connection refused), the lobby list and a
leaderboard fail as fast as a create, on REST and gRPC, with the create's reason
(UNAVAILABLE), not after seconds of backoff (before: the lobby list at the 5 s request
deadline, SERVER_DEADLINE; the leaderboard after 2.5 s); with Redis started again both work.
The store's default retries are kept: a refused connection is what is no longer retried for
long (server/store/redis_clients.REFUSED_RETRY_FOR)."""

from __future__ import annotations

import time

import grpc
import httpx
from google.rpc import error_details_pb2, status_pb2
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.grpc.gen import players_pb2 as ppb
from tablero.server.grpc.gen import players_pb2_grpc as ppbg

from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerThread


def _grpc_reason(call, request) -> tuple[str, str]:
    try:
        call(request, timeout=30)
    except grpc.RpcError as e:
        status = status_pb2.Status.FromString(dict(e.trailing_metadata())["grpc-status-details-bin"])
        info = error_details_pb2.ErrorInfo()
        status.details[0].Unpack(info)
        return e.code().name, info.reason
    raise AssertionError("the call was answered")


def _timed(call):
    started = time.monotonic()
    out = call()
    return out, time.monotonic() - started


def test_reads_on_a_refusing_redis_fail_at_once_with_the_creates_reason() -> None:
    with FaultyRedis(fsync="always") as redis_server, ServerThread(redis_url=redis_server.url) as server, \
            grpc.insecure_channel(server.grpc) as channel:
        http = httpx.Client(base_url=server.http, timeout=30)
        games, players = pbg.GameServiceStub(channel), ppbg.PlayerServiceStub(channel)
        rest = {
            "create": lambda: http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}),
            "list": lambda: http.get("/v1/games"),
            "leaderboard": lambda: http.get("/v1/leaderboards/tic-tac-toe"),
        }
        rpc = {
            "create": lambda: _grpc_reason(games.CreateGame, pb.CreateGameRequest(engine="tic-tac-toe", players=2)),
            "list": lambda: _grpc_reason(games.ListGames, pb.ListGamesRequest()),
            "leaderboard": lambda: _grpc_reason(players.GetLeaderboard, ppb.GetLeaderboardRequest(engine="tic-tac-toe")),
        }
        for name, call in rest.items():  # every connection opened and used once
            assert call().status_code == 200, name
        redis_server.kill()
        for name, call in rest.items():
            r, took = _timed(call)
            assert r.status_code == 503, (name, r.text)
            assert (r.json()["error"]["code"], r.json()["error"]["reason"]) == ("UNAVAILABLE", "UNAVAILABLE"), (name, r.text)
            assert took < 1.0, (name, f"REST answered after {took:.2f} s")
        for name, call in rpc.items():
            answer, took = _timed(call)
            assert answer == ("UNAVAILABLE", "UNAVAILABLE"), (name, answer)
            assert took < 1.0, (name, f"gRPC answered after {took:.2f} s")
        redis_server.start()
        assert http.get("/v1/games").status_code == 200
        assert http.get("/v1/leaderboards/tic-tac-toe").status_code == 200
        games.ListGames(pb.ListGamesRequest(), timeout=10)
        players.GetLeaderboard(ppb.GetLeaderboardRequest(engine="tic-tac-toe"), timeout=10)
