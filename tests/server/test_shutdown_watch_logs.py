"""A watch ended by a graceful shutdown (SIGTERM) is logged as code OK with `"ended": "shutdown"`
on every transport, as docs/operations.md ("Graceful shutdown", step 2) says (outside acceptance
pass: the SSE watch's line had no `ended`; the Connect and gRPC-Web watches' said UNAVAILABLE)."""

from __future__ import annotations

import json
import struct
import threading

import grpc
import httpx
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests.server.support import ServerProcess

GAME = "/tablero.v1.GameService/"


def _frame(payload: bytes) -> bytes:
    return b"\0" + struct.pack(">I", len(payload)) + payload


def _open(http: httpx.Client, kind: str, gid: str) -> threading.Event:
    """A watch of `gid` over `kind`, read to its end on a thread; the event is set once its first
    message has arrived."""
    opened = threading.Event()
    if kind == "sse":
        request = http.build_request("GET", f"/v1/games/{gid}/watch")
    elif kind == "connect":
        request = http.build_request("POST", GAME + "WatchGame", content=_frame(json.dumps({"gameId": gid}).encode()),
                                     headers={"content-type": "application/connect+json"})
    else:
        request = http.build_request("POST", GAME + "WatchGame",
                                     content=_frame(pb.WatchGameRequest(game_id=gid).SerializeToString()),
                                     headers={"content-type": "application/grpc-web+proto", "x-grpc-web": "1"})

    def read() -> None:
        try:
            r = http.send(request, stream=True)
            for _ in r.iter_bytes():
                opened.set()
            r.close()
        except httpx.HTTPError:
            pass
        opened.set()

    threading.Thread(target=read, daemon=True).start()
    return opened


def test_a_watch_ended_by_sigterm_is_logged_ok_with_ended_shutdown_on_every_transport():
    with ServerProcess({"TABLERO_LOG_LEVEL": "info"}) as server, httpx.Client(base_url=server.http, timeout=30) as http:
        gid = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()["game"]["id"]
        opened = [_open(http, kind, gid) for kind in ("sse", "connect", "grpc-web")]
        channel = grpc.insecure_channel(server.grpc)
        stream = pbg.GameServiceStub(channel).WatchGame(pb.WatchGameRequest(game_id=gid), timeout=30)
        assert next(stream).version == 1
        assert all(o.wait(10) for o in opened)
        code, err = server.terminate()
        channel.close()
    assert code == 0, err
    watches = [json.loads(line) for line in err.splitlines() if '"rpc":"WatchGame"' in line.replace(" ", "")]
    lines = [w for w in watches if w.get("msg") == "request"]
    # SSE; Connect and gRPC-Web (both "connect": the same handler); gRPC
    assert sorted(w["transport"] for w in lines) == ["connect", "connect", "grpc", "http"], watches
    for line in lines:
        assert line["code"] == "OK" and line.get("ended") == "shutdown" and "reason" not in line, line
