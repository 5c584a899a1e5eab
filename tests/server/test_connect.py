"""Connect and gRPC-Web on the HTTP port (server.http.connect): the same RPCs, answers and
refusals as gRPC, at the standard paths, from the same process."""

from __future__ import annotations

import asyncio
import base64
import json
import struct

import httpx
import pytest
from google.rpc import error_details_pb2
from tablero.server.api.watch import WatchItem
from tablero.server.grpc.gen import games_pb2
from tablero.server.http.connect import connect_app

from tests import plainhttp
from tests.server.support import ServerThread, scrape

GAME = "/tablero.v1.GameService/"


def _frame(payload: bytes, flags: int = 0) -> bytes:
    return bytes([flags]) + struct.pack(">I", len(payload)) + payload


def _frames(body: bytes) -> list[tuple[int, bytes]]:
    out, i = [], 0
    while i < len(body):
        flags, size = body[i], struct.unpack(">I", body[i + 1:i + 5])[0]
        out.append((flags, body[i + 5:i + 5 + size]))
        i += 5 + size
    return out


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


def _create(server, seats=("human", "human")) -> tuple[str, list[str]]:
    r = plainhttp.post(server.http + GAME + "CreateGame", json={"engine": "tic-tac-toe", "seats": list(seats)})
    assert r.status_code == 200, r.text
    body = r.json()
    return body["game"]["id"], [s["token"] for s in body["seats"]]


def test_unary_rpcs_answer_connect_json_and_binary(server):
    r = plainhttp.post(server.http + GAME + "ListEngines", json={})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert "riverboat" in [e["name"] for e in r.json()["engines"]]
    game_id, tokens = _create(server)
    req = games_pb2.SubmitActionRequest(game_id=game_id)
    req.action.update({"type": "place", "cell": 4})
    r = plainhttp.post(server.http + GAME + "SubmitAction", content=req.SerializeToString(),
                   headers={"content-type": "application/proto", "authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/proto"
    game = games_pb2.SubmitActionResponse.FromString(r.content).game
    assert game.version == 2 and list(game.to_act) == [1]
    rest = plainhttp.get(f"{server.http}/v1/games/{game_id}").json()
    assert rest["version"] == 2  # one store, one service: REST sees the Connect move


@pytest.mark.parametrize(("case", "code", "status"), [
    ("out_of_turn", "failed_precondition", 400),
    ("no_token", "unauthenticated", 401),
    ("unknown_game", "not_found", 404),
    ("bad_action", "invalid_argument", 400),
])
def test_refusals_are_connect_errors_with_the_grpc_codes(server, case, code, status):
    game_id, tokens = _create(server)
    body = {"gameId": game_id, "action": {"type": "place", "cell": 4}}
    headers = {"authorization": f"Bearer {tokens[1]}"}
    if case == "no_token":
        headers = {}
    elif case == "unknown_game":
        body["gameId"], headers = "nosuchgame", {}
        r = plainhttp.post(server.http + GAME + "GetGame", json={"gameId": "nosuchgame"})
        assert (r.status_code, r.json()["code"]) == (status, code)
        return
    elif case == "bad_action":
        headers = {"authorization": f"Bearer {tokens[0]}"}
        body["action"] = {"type": "place", "cell": 99}
    r = plainhttp.post(server.http + GAME + "SubmitAction", json=body, headers=headers)
    assert r.status_code == status and r.json()["code"] == code, r.text
    assert r.json()["message"]


def test_watch_is_a_connect_server_stream_to_the_games_end(server):
    game_id, tokens = _create(server)
    for seat, cell in ((0, 4), (1, 0), (0, 3), (1, 1), (0, 5)):
        r = plainhttp.post(server.http + GAME + "SubmitAction", json={"gameId": game_id,
                       "action": {"type": "place", "cell": cell}}, headers={"authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
    req = json.dumps({"gameId": game_id, "afterVersion": 2}).encode()
    r = plainhttp.post(server.http + GAME + "WatchGame", content=_frame(req),
                   headers={"content-type": "application/connect+json"}, timeout=10)
    assert r.status_code == 200 and r.headers["content-type"] == "application/connect+json"
    frames = _frames(r.content)
    messages = [json.loads(p) for f, p in frames if f == 0]
    assert [m["version"] for m in messages] == [3, 4, 5, 6, 7]
    assert messages[-1]["event"]["type"] == "game_won" and all(m["hash"] for m in messages)
    assert frames[-1][0] == 2 and json.loads(frames[-1][1]) == {}  # end of stream, no error


def test_grpc_web_serves_the_same_stream(server):
    game_id, tokens = _create(server)
    for seat, cell in ((0, 4), (1, 0), (0, 3), (1, 1), (0, 5)):
        plainhttp.post(server.http + GAME + "SubmitAction", json={"gameId": game_id,
                   "action": {"type": "place", "cell": cell}}, headers={"authorization": f"Bearer {tokens[seat]}"})
    req = games_pb2.WatchGameRequest(game_id=game_id).SerializeToString()
    r = plainhttp.post(server.http + GAME + "WatchGame", content=_frame(req),
                   headers={"content-type": "application/grpc-web+proto", "x-grpc-web": "1"}, timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/grpc-web")
    frames = _frames(r.content)
    versions = [games_pb2.WatchGameResponse.FromString(p).version for f, p in frames if f == 0]
    assert versions == [1, 2, 3, 4, 5, 6, 7]
    flags, trailer = frames[-1]
    assert flags & 0x80 and b"grpc-status: 0" in trailer.lower()
    refused = plainhttp.post(server.http + GAME + "GetGame", content=_frame(b"\x0a\x03bad"),
                         headers={"content-type": "application/grpc-web+proto"})
    assert refused.headers.get("grpc-status") == "5" or b"grpc-status: 5" in refused.content  # NOT_FOUND


def test_a_quiet_watch_sends_keepalives(server, monkeypatch):
    import tablero.server.http.connect as connect

    monkeypatch.setattr(connect, "KEEPALIVE", 0.3)
    game_id, _ = _create(server)
    req = json.dumps({"gameId": game_id}).encode()
    body = b""
    with plainhttp.stream("POST", server.http + GAME + "WatchGame", content=_frame(req),
                      headers={"content-type": "application/connect+json"}, timeout=10) as r:
        for chunk in r.iter_bytes():
            body += chunk
            frames = _frames(body) if len(body) >= 5 else []
            if len(frames) >= 2 and frames[-1][1] and len(body) >= sum(5 + len(p) for _, p in frames):
                break
    frames = _frames(body)
    assert json.loads(frames[0][1])["version"] == 1
    assert json.loads(frames[1][1]) == {}  # the keep-alive: an empty message (version 0)


def test_a_page_on_another_origin_may_call(server):
    r = plainhttp.options(server.http + GAME + "SubmitAction", headers={
        "origin": "http://example.test", "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,connect-protocol-version"})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] in ("*", "http://example.test")
    allowed = r.headers["access-control-allow-headers"].lower()
    assert "connect-protocol-version" in allowed and "authorization" in allowed
    r = plainhttp.options(server.http + GAME + "GetGame", headers={
        "origin": "http://example.test", "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,traceparent,sentry-trace,baggage"})
    assert r.status_code == 200 and "traceparent" in r.headers["access-control-allow-headers"].lower(), r.text


def test_connect_calls_are_observed_like_the_others(server):
    plainhttp.post(server.http + GAME + "ListEngines", json={})
    metrics = scrape(server.http)  # /metrics has its own port (TABLERO_METRICS_PORT)
    assert 'tablero_rpc_requests_total{code="OK",method="ListEngines",transport="connect"}' in metrics


def test_a_watch_with_nothing_to_send_says_so_within_a_second(server):
    """A Connect stream's headers go with its first message: a watch of a quiet game (a page back
    after an outage, watching from the version it holds) gets an empty message (version 0) within
    FIRST_KEEPALIVE seconds, not after the 15 s keep-alive, so the page knows it is live."""
    import time

    game_id, _ = _create(server)
    req = json.dumps({"gameId": game_id, "afterVersion": 1}).encode()  # version 1: game_started
    started = time.monotonic()
    with plainhttp.stream("POST", server.http + GAME + "WatchGame", content=_frame(req),
                          headers={"content-type": "application/connect+json"}, timeout=10) as r:
        body = b""
        for chunk in r.iter_bytes():
            body += chunk
            if len(body) >= 5 and len(body) >= 5 + int.from_bytes(body[1:5], "big"):
                break
    waited = time.monotonic() - started
    assert json.loads(_frames(body)[0][1]) == {} and 0.5 < waited < 5, (body, waited)


class _ResettingApi:
    """The edge's watch as a store failover leaves it: one event, then a reset to version 0."""

    max_body = max_rankings_body = 1 << 20

    def body_limit(self, rpc: str) -> int:
        return self.max_body

    async def watch(self, wire, keepalive=None, rpc="WatchGame", first=None):
        async def items():
            yield WatchItem("event", {"gameId": wire["gameId"], "version": 1, "event": {"type": "game_started"},
                                      "hash": "h1"})
            yield WatchItem("reset", {"version": 0})

        return items()


async def test_a_reset_ends_the_stream_as_aborted_naming_the_version():
    app = connect_app(_ResettingApi())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        r = await asyncio.wait_for(client.post(GAME + "WatchGame", content=_frame(b'{"gameId":"g"}'),
                                               headers={"content-type": "application/connect+json"}), 10)
    frames = _frames(r.content)
    assert json.loads(frames[0][1])["version"] == 1
    end = json.loads(frames[-1][1])
    assert frames[-1][0] == 2 and end["error"]["code"] == "aborted"
    assert "resume from version 0" in end["error"]["message"]
    # The reason rides along as a google.rpc.ErrorInfo detail, as on gRPC.
    (detail,) = end["error"]["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    assert (info.reason, info.domain, dict(info.metadata)) == ("HISTORY_REWRITTEN", "tablero.v1", {"version": "0"})
