"""The fast path writes a unary answer in one piece and each SSE frame as one chunk, itself
(server/http/fast.py, `_cycle`): on the wire these must be what uvicorn's `send` writes —
exact lengths, answers in request order on a keep-alive connection, `connection: close`
honoured, the chunked stream well formed to its last chunk."""

from __future__ import annotations

import json
import re
import socket

from tests.server.conftest import auth


def _connect(server) -> socket.socket:
    port = int(server.http.rsplit(":", 1)[1])
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _until_closed(s: socket.socket) -> bytes:
    raw = b""
    while chunk := s.recv(65536):
        raw += chunk
    return raw


class Reader:
    """HTTP/1.1 answers read off one socket, one at a time."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buf = sock, b""

    def _more(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buf += chunk
        return bool(chunk)

    def _until(self, marker: bytes) -> bytes:
        while marker not in self.buf:
            assert self._more(), f"connection closed before {marker!r}: {self.buf[-200:]!r}"
        head, _, self.buf = self.buf.partition(marker)
        return head

    def _take(self, n: int) -> bytes:
        while len(self.buf) < n:
            assert self._more(), "connection closed mid-body"
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def answer(self) -> tuple[int, dict[str, str], bytes]:
        head = self._until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = {}
        for line in head[1:]:
            k, _, v = line.partition(":")
            assert k.lower() not in headers, f"header {k} twice"
            headers[k.lower()] = v.strip()
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            while True:
                size = int(self._until(b"\r\n"), 16)
                data = self._take(size)
                assert self._take(2) == b"\r\n", "a chunk must end with CRLF"
                if size == 0:
                    return status, headers, body
                body += data
        return status, headers, self._take(int(headers["content-length"]))

    def closed(self) -> bool:
        return self.buf == b"" and not self._more()


def _bot_game(http) -> str:
    """A game two bots play to its end on their own."""
    return http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["bot", "bot"]}).json()["game"]["id"]


def _watch(server, gid: str, version: bytes = b"1.1", extra: bytes = b"Host: t\r\n",
           *, until_closed: bool = True) -> tuple[int, dict[str, str], bytes, bool | None]:
    """A watch of `gid` read off a raw socket: (status, headers, the body unchunked, closed after).
    `until_closed=False` does not wait for the end of the connection (None): a kept-alive one
    ends only at the server's idle timeout, seconds later."""
    with _connect(server) as s:
        s.sendall(b"GET /v1/games/" + gid.encode() + b"/watch HTTP/" + version + b"\r\n" + extra + b"\r\n")
        r = Reader(s)
        status, headers, body = r.answer()
        return status, headers, body, r.closed() if until_closed else None


def test_pipelined_answers_come_whole_and_in_order_and_close_when_asked(server, http):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, token = out["game"]["id"], out["seats"][0]["token"]
    bearer = f"Authorization: Bearer {token}\r\n".encode()
    move = json.dumps({"action": {"type": "place", "cell": 4}}).encode()
    requests = (
        b"GET /v1/engines/tic-tac-toe HTTP/1.1\r\nHost: t\r\n\r\n"
        + b"GET /v1/games/" + gid.encode() + b" HTTP/1.1\r\nHost: t\r\n" + bearer + b"\r\n"
        + b"POST /v1/games/" + gid.encode() + b"/actions HTTP/1.1\r\nHost: t\r\n" + bearer
        + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%b" % (len(move), move)
        + b"GET /v1/games/nope HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    )
    with _connect(server) as s:
        s.sendall(requests)  # all four at once: the server answers them one after another
        r = Reader(s)
        status, headers, body = r.answer()
        assert status == 200 and json.loads(body)["engine"]["name"] == "tic-tac-toe"
        assert headers["content-type"] == "application/json" and "connection" not in headers
        status, _, body = r.answer()
        assert status == 200 and json.loads(body)["version"] == 1
        status, _, body = r.answer()
        assert status == 200 and json.loads(body)["view"]["board"][4] == 0
        status, headers, body = r.answer()
        assert status == 404 and json.loads(body)["error"]["code"] == "NOT_FOUND"
        assert headers["connection"] == "close"
        assert r.closed(), "the server must hang up after an answer to Connection: close"
    assert http.get(f"/v1/games/{gid}", headers=auth(token)).json()["version"] == 2


def test_an_http_1_0_request_is_answered_and_the_connection_closed(server):
    with _connect(server) as s:
        s.sendall(b"GET /v1/engines/tic-tac-toe HTTP/1.0\r\n\r\n")
        r = Reader(s)
        status, headers, body = r.answer()
        assert status == 200 and headers["connection"] == "close"
        assert json.loads(body)["engine"]["name"] == "tic-tac-toe"
        assert r.closed()


def test_a_watch_streams_well_formed_chunks_to_the_last(server, http):
    gid = _bot_game(http)
    # every chunk up to the terminating one (the connection is kept alive: not waited out)
    status, headers, body, _ = _watch(server, gid, until_closed=False)
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    frames = body.decode().split("\n\n")
    ids = [int(line[4:]) for f in frames for line in f.split("\n") if line.startswith("id: ")]
    final = http.get(f"/v1/games/{gid}").json()["version"]
    assert ids == list(range(1, final + 1))
    assert "event: tablero-end" in frames[-2] and "event: end" in frames[-3] and frames[-1] == ""


def test_a_watch_asked_to_close_says_so_and_hangs_up_after_the_end(server, http):
    status, headers, body, closed = _watch(server, _bot_game(http), extra=b"Host: t\r\nConnection: close\r\n")
    assert status == 200 and headers["connection"] == "close"
    assert headers["transfer-encoding"] == "chunked" and headers["cache-control"] == "no-cache"
    assert body.startswith(b": watching\n\n") and b"event: end" in body
    assert closed


def test_an_http_1_0_watch_gets_the_events_unchunked_and_the_end_of_the_connection(server, http):
    """HTTP/1.0 knows no chunked coding (RFC 9112 6.1): the events as they are, then close."""
    gid = _bot_game(http)
    with _connect(server) as s:
        s.sendall(b"GET /v1/games/" + gid.encode() + b"/watch HTTP/1.0\r\n\r\n")
        raw = _until_closed(s)
    head, _, body = raw.partition(b"\r\n\r\n")
    headers = head.decode("latin-1").lower()
    assert headers.startswith("http/1.1 200") and "connection: close" in headers
    assert "transfer-encoding" not in headers and "content-length" not in headers
    assert body.startswith(b": watching\n\n")
    assert body.endswith(b'event: end\ndata: {"status":"GAME_STATUS_FINISHED"}\n\n'
                         b'event: tablero-end\ndata: {"status":"GAME_STATUS_FINISHED"}\n\n')
    final = http.get(f"/v1/games/{gid}").json()["version"]
    assert [int(x) for x in re.findall(rb"^id: (\d+)$", body, re.M)] == list(range(1, final + 1))


def test_head_on_the_watch_answers_the_headers_and_frees_the_connection(server, http):
    """HEAD gets what a GET would (no body) and does not hold a stream open: a request
    pipelined behind it is answered at once, though the game runs on."""
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid = out["game"]["id"]
    with _connect(server) as s:
        s.sendall(b"HEAD /v1/games/" + gid.encode() + b"/watch HTTP/1.1\r\nHost: t\r\n\r\n"
                  b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        raw = _until_closed(s)
    first, _, rest = raw.partition(b"\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 200") and b"content-type: text/event-stream\r\n" in first.lower() + b"\r\n"
    assert rest.startswith(b"HTTP/1.1 200"), raw  # the next answer follows at once: no body, no stream
    assert http.get(f"/v1/games/{gid}").json()["status"] == "GAME_STATUS_RUNNING"
