"""Unary calls have a deadline (TABLERO_REQUEST_DEADLINE, 5 s by default; server/http/deadline.py),
on REST, Connect and gRPC alike. With Redis frozen (SIGSTOP: the connection stays open, no answer
comes) a GetGame waited about 20 s and a CreateGame about 24 s for their 503 (two store calls,
each with the 10 s socket timeout), longer than clients and proxies wait; a Connect call without
`Connect-Timeout-Ms` and a gRPC call with a long deadline waited as long (only REST had the
deadline). Now each answers UNAVAILABLE, reason SERVER_DEADLINE, at the deadline (REST 503, Connect
`unavailable` 503 with an ErrorInfo, gRPC UNAVAILABLE with `grpc-status-details-bin`), a client's
shorter deadline still ends its call first (DEADLINE_EXCEEDED), and nothing is lost: a create and
a move retried with their requestId once Redis answers again are each applied once, with the
default store settings."""

from __future__ import annotations

import base64

import grpc
import httpx
from google.protobuf import json_format, struct_pb2
from google.rpc import error_details_pb2, status_pb2
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerThread

DEADLINE = 5.0  # the default
FROZEN_FOR = DEADLINE + 3  # longer than the deadline, shorter than one socket timeout (10 s)
SHORTER = 2.0  # a client's own deadline, shorter than the server's
SERVICE = "/tablero.v1.GameService"


def _info(details_bin: bytes) -> str:
    info = error_details_pb2.ErrorInfo()
    assert status_pb2.Status.FromString(details_bin).details[0].Unpack(info)
    return info.reason


class Rest:
    def __init__(self, server: ServerThread) -> None:
        self.http = httpx.Client(base_url=server.http, timeout=60)

    def _out(self, r: httpx.Response):
        if r.status_code == 200:
            return r.json()
        err = r.json()["error"]
        assert r.status_code == 503 or err["code"] != "UNAVAILABLE", r.text
        return (err["code"], err.get("reason"), err["message"])

    def get(self, gid: str, shorter: bool = False):
        return self._out(self.http.get(f"/v1/games/{gid}"))

    def create(self, rid: str):
        return self._out(self.http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "requestId": rid}))

    def move(self, gid: str, token: str, rid: str):
        return self._out(self.http.post(f"/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                                        json={"action": {"type": "place", "cell": 4}, "requestId": rid}))


class Connect(Rest):
    def _call(self, method: str, body: dict, token: str | None = None, shorter: bool = False):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if shorter:
            headers["Connect-Timeout-Ms"] = str(int(SHORTER * 1000))
        r = self.http.post(f"{SERVICE}/{method}", json=body, headers=headers)
        if r.status_code == 200:
            return r.json()
        err = r.json()
        reasons = [error_details_pb2.ErrorInfo.FromString(base64.b64decode(d["value"] + "=" * (-len(d["value"]) % 4)))
                   .reason for d in err.get("details", ()) if d["type"] == "google.rpc.ErrorInfo"]
        assert r.status_code == 503 or err["code"] != "unavailable", r.text
        return (err["code"].upper(), reasons[0] if reasons else None, err.get("message", ""))

    def get(self, gid: str, shorter: bool = False):
        out = self._call("GetGame", {"gameId": gid}, shorter=shorter)
        return out.get("game", out) if isinstance(out, dict) else out

    def create(self, rid: str):
        return self._call("CreateGame", {"engine": "tic-tac-toe", "players": 2, "requestId": rid})

    def move(self, gid: str, token: str, rid: str):
        out = self._call("SubmitAction", {"gameId": gid, "action": {"type": "place", "cell": 4}, "requestId": rid},
                         token)
        return out.get("game", out) if isinstance(out, dict) else out


class Grpc:
    def __init__(self, server: ServerThread) -> None:
        self.stub = games_pb2_grpc.GameServiceStub(grpc.insecure_channel(server.grpc))

    def _call(self, method: str, request, token: str | None = None, timeout: float = 60):
        meta = (("authorization", f"Bearer {token}"),) if token else ()
        try:
            out = getattr(self.stub, method)(request, metadata=meta, timeout=timeout)
        except grpc.RpcError as e:
            trailers = dict(e.trailing_metadata() or ())
            reason = _info(trailers["grpc-status-details-bin"]) if "grpc-status-details-bin" in trailers else None
            return (e.code().name, reason, e.details())
        return json_format.MessageToDict(out)

    def get(self, gid: str, shorter: bool = False):
        out = self._call("GetGame", games_pb2.GetGameRequest(game_id=gid), timeout=SHORTER if shorter else 60)
        return out.get("game", out) if isinstance(out, dict) else out

    def create(self, rid: str):
        return self._call("CreateGame", games_pb2.CreateGameRequest(engine="tic-tac-toe", players=2, request_id=rid))

    def move(self, gid: str, token: str, rid: str):
        action = struct_pb2.Struct()
        action.update({"type": "place", "cell": 4})
        out = self._call("SubmitAction", games_pb2.SubmitActionRequest(game_id=gid, action=action, request_id=rid),
                         token)
        return out.get("game", out) if isinstance(out, dict) else out


def test_a_frozen_redis_ends_unary_calls_at_the_deadline_on_every_transport_and_their_retries_land_once() -> None:
    redis_server = FaultyRedis(fsync="always").start()
    try:
        with ServerThread(redis_url=redis_server.url) as server:
            assert server.config.request_deadline == DEADLINE
            clients = {"rest": Rest(server), "connect": Connect(server), "grpc": Grpc(server)}
            games = {}
            for name in clients:
                game = clients["rest"].http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
                games[name] = (game["game"]["id"], game["seats"][0]["token"], game["game"]["version"])
            rid = {name: (f"deadline-create-{name}-0123456789", f"deadline-move-{name}-0123456789") for name in clients}
            calls = {}
            for name, c in clients.items():
                gid, token, _ = games[name]
                calls[(name, "get")] = lambda c=c, gid=gid: c.get(gid)
                calls[(name, "create")] = lambda c=c, r=rid[name][0]: c.create(r)
                calls[(name, "move")] = lambda c=c, gid=gid, t=token, r=rid[name][1]: c.move(gid, t, r)
            for name in ("connect", "grpc"):  # a client's own, shorter deadline ends its call first
                calls[(name, "shorter")] = lambda c=clients[name], gid=games[name][0]: c.get(gid, shorter=True)
            answers = redis_server.calls_while_frozen(calls, FROZEN_FOR)
            for (name, what), (out, took) in answers.items():
                if what == "shorter":
                    assert out[0] == "DEADLINE_EXCEEDED", (name, out, round(took, 2))
                    assert took < DEADLINE - 1, (name, round(took, 2))
                    continue
                assert isinstance(out, tuple), (name, what, f"answered after {took:.1f} s", out)
                code, reason, message = out
                assert (code, reason) == ("UNAVAILABLE", "SERVER_DEADLINE"), (name, what, out, round(took, 1))
                assert "TABLERO_REQUEST_DEADLINE" in message and "requestId" in message, (name, message)
                assert DEADLINE - 0.5 < took < DEADLINE + 2, (name, what, round(took, 2))
            # Redis answers again: the retries land, each exactly once, whatever the first attempts did.
            for name, c in clients.items():
                gid, token, v0 = games[name]
                first = c.create(rid[name][0])
                assert isinstance(first, dict), (name, first)
                again = c.create(rid[name][0])
                assert again["game"]["id"] == first["game"]["id"] and again["seats"] == first["seats"], name
                moved = c.move(gid, token, rid[name][1])
                assert isinstance(moved, dict) and moved["version"] == v0 + 1, (name, moved)
                assert c.move(gid, token, rid[name][1])["version"] == v0 + 1, name
                game = clients["rest"].http.get(f"/v1/games/{gid}").json()
                assert game["version"] == v0 + 1 and game["toAct"] == [1], (name, game)
                assert len(clients["rest"].http.get(f"/v1/games/{gid}/events").json()["events"]) == v0 + 1, name
    finally:
        redis_server.kill()
