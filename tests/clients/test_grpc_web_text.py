"""gRPC-Web's text mode (`application/grpc-web-text`: base64 bodies, the official grpc-web
client's default and its only streaming mode) on the HTTP port, against a real `tablero serve`:
unary calls, refusals with their status, a request sent as several padded base64 runs, one
ending in a newline, a malformed body, and a WatchGame whose frames arrive one by one while the game is played.
The official client itself, in Chromium, is tests/clients/test_grpc_web_browser.py."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from urllib.parse import unquote

import httpx
import pytest
from tablero.server.grpc.gen import games_pb2
from tablero.server.http.grpc_web_text import complete_frames, decode_text

from tests import plainhttp
from tests.server.support import ServerProcess

TEXT = "application/grpc-web-text"
SERVICE = "/tablero.v1.GameService/"


@pytest.fixture(scope="module")
def serve() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


def frame(message, flag: int = 0) -> bytes:
    data = message.SerializeToString()
    return bytes([flag]) + len(data).to_bytes(4, "big") + data


def text_body(message) -> bytes:
    return base64.b64encode(frame(message))


def parse(body: bytes) -> tuple[list[bytes], dict[str, str]]:
    """A text response body → (message payloads, trailers)."""
    messages, trailers = [], {}
    for f in complete_frames(bytearray(decode_text(body))):
        if f[0] & 0x80:
            for line in f[5:].decode().split("\r\n"):
                if line:
                    k, v = line.split(":", 1)
                    trailers[k.strip().lower()] = v.strip()
        else:
            messages.append(f[5:])
    return messages, trailers


def call(serve: ServerProcess, method: str, request, token: str | None = None, body: bytes | None = None):
    headers = {"content-type": TEXT, "accept": TEXT, "x-grpc-web": "1"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return plainhttp.post(serve.http + SERVICE + method, content=text_body(request) if body is None else body,
                      headers=headers, timeout=30)


def status(r: httpx.Response, trailers: dict[str, str]) -> tuple[str, str]:
    """grpc-status and grpc-message, from the trailer frame or (trailers-only) the headers."""
    code = trailers.get("grpc-status", r.headers.get("grpc-status", ""))
    return code, unquote(trailers.get("grpc-message", r.headers.get("grpc-message", "")))


def test_decoding_takes_padded_runs_and_refuses_the_rest():
    assert decode_text(base64.b64encode(b"ab") + base64.b64encode(b"cde") + base64.b64encode(b"f")) == b"abcdef"
    assert decode_text(b"") == b""
    for bad in (b"abc", b"ab!=", b"a==="):
        with pytest.raises(ValueError):  # binascii.Error is a ValueError
            decode_text(bad)


def test_unary_calls_answer_in_text(serve):
    r = call(serve, "ListEngines", games_pb2.ListEnginesRequest())
    assert r.status_code == 200 and r.headers["content-type"] == "application/grpc-web-text+proto"
    messages, trailers = parse(r.content)
    assert status(r, trailers)[0] == "0"
    engines = games_pb2.ListEnginesResponse.FromString(messages[0])
    assert "tic-tac-toe" in [e.name for e in engines.engines]
    # The binary mode is untouched.
    b = plainhttp.post(serve.http + SERVICE + "ListEngines", content=frame(games_pb2.ListEnginesRequest()),
                   headers={"content-type": "application/grpc-web+proto"})
    assert b.status_code == 200 and b.headers["content-type"].startswith("application/grpc-web+proto")


def test_a_request_in_several_padded_runs(serve):
    raw = frame(games_pb2.CreateGameRequest(engine="tic-tac-toe", seats=["human", "human"]))
    body = b"".join(base64.b64encode(raw[i:i + 7]) for i in range(0, len(raw), 7))
    assert body.count(b"=") > 1  # padding inside the body, not only at its end
    r = call(serve, "CreateGame", None, body=body)
    messages, trailers = parse(r.content)
    assert status(r, trailers)[0] == "0"
    assert games_pb2.CreateGameResponse.FromString(messages[0]).game.engine == "tic-tac-toe"


@pytest.mark.parametrize("tail", [b"\n", b"\r\n", b"  \n", b"\t"])
def test_a_request_ending_in_whitespace_or_a_newline_decodes(serve, tail):
    """A base64 body ending in a newline (as a tool writing lines sends it) or other whitespace,
    or wrapped in lines, is taken: whitespace is no part of the base64 (it was refused,
    INVALID_ARGUMENT "base64 body length is not a multiple of 4")."""
    raw = frame(games_pb2.CreateGameRequest(engine="tic-tac-toe", seats=["human", "human"]))
    encoded = base64.b64encode(raw)
    for body in (encoded + tail, b"\n".join(encoded[i:i + 8] for i in range(0, len(encoded), 8)) + tail):
        r = call(serve, "CreateGame", None, body=body)
        messages, trailers = parse(r.content)
        assert status(r, trailers) == ("0", ""), (body, r.headers)
        assert games_pb2.CreateGameResponse.FromString(messages[0]).game.engine == "tic-tac-toe"


def test_refusals_keep_their_status(serve):
    r = call(serve, "GetGame", games_pb2.GetGameRequest(game_id="no-such-game"))
    assert status(r, parse(r.content)[1])[0] == "5"  # NOT_FOUND
    bad = call(serve, "ListEngines", None, body=b"not base64!")
    assert bad.status_code == 200 and bad.headers["grpc-status"] == "3"  # INVALID_ARGUMENT
    assert "base64" in unquote(bad.headers["grpc-message"])
    huge = call(serve, "ListEngines", None, body=b"AAAA" * 3_000_000)  # 9 MB decoded: over every RPC's limit (8 MB)
    assert huge.headers["grpc-status"] == "8"  # RESOURCE_EXHAUSTED


def test_a_watch_streams_frame_by_frame_while_the_game_is_played(serve):
    r = call(serve, "CreateGame", games_pb2.CreateGameRequest(engine="tic-tac-toe", seats=["human", "human"]))
    created = games_pb2.CreateGameResponse.FromString(parse(r.content)[0][0])
    game_id, tokens = created.game.id, [s.token for s in created.seats]
    moves = [(0, 4), (1, 0), (0, 3), (1, 1), (0, 5)]
    headers = {"content-type": TEXT, "accept": TEXT, "x-grpc-web": "1"}
    versions, text = [], b""
    with plainhttp.stream("POST", serve.http + SERVICE + "WatchGame", headers=headers, timeout=30,
                      content=text_body(games_pb2.WatchGameRequest(game_id=game_id))) as stream:
        assert stream.headers["content-type"] == "application/grpc-web-text+proto"
        chunks = stream.iter_raw()
        for seat, cell in [(None, None), *moves]:
            if seat is not None:  # one move, then its event arrives on the open stream
                a = call(serve, "SubmitAction", games_pb2.SubmitActionRequest(
                    game_id=game_id, action={"type": "place", "cell": cell}), token=tokens[seat])
                assert status(a, parse(a.content)[1])[0] == "0"
            while True:
                chunk = next(chunks)
                assert len(chunk) % 4 == 0  # whole padded runs, each a frame or more
                text += chunk
                messages, _ = parse(text)
                seen = [games_pb2.WatchGameResponse.FromString(m).version for m in messages]
                if len(seen) > len(versions):
                    versions = seen
                    break
        text += b"".join(chunks)  # the game is over: the stream ends with its trailers
    messages, trailers = parse(text)
    assert trailers.get("grpc-status") == "0"
    assert [games_pb2.WatchGameResponse.FromString(m).version for m in messages] == list(range(1, 8))  # 5 moves and game_won


def test_an_unknown_method_is_not_reencoded(serve):
    r = call(serve, "NoSuchMethod", games_pb2.ListEnginesRequest())
    assert r.status_code == 404 and not r.headers.get("content-type", "").startswith("application/grpc-web")
