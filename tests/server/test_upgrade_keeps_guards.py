"""A request that asks for an Upgrade the server does not make (`h2c`, or `websocket` with no
WebSocket library) leaves the connection an HTTP/1.1 one, and its next requests keep the header
deadline (408) and bounds (431). Before, the guard stopped reading such a connection as HTTP
at the first `Upgrade:` header: the requests after it could trickle their headers for ever (held
30 s and more with a 3 s header timeout) or send megabytes of one header line. A CONNECT, never
served, is refused with the API's JSON 400 (it got uvicorn's plain-text "Invalid HTTP request")."""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def impatient():
    with ServerThread(header_timeout=0.5) as s:
        yield s


def _connect(server) -> socket.socket:
    port = int(server.http.rsplit(":", 1)[1])
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _read_all(s: socket.socket) -> bytes:
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except OSError:
        pass
    return out


UPGRADES = [b"Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
            b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n"]


def _first(s: socket.socket, upgrade: bytes) -> None:
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + upgrade + b"\r\n")
    first = b""
    while b'{"status":"ok"}' not in first:
        chunk = s.recv(65536)
        assert chunk, first
        first += chunk
    assert first.startswith(b"HTTP/1.1 200"), first[:200]  # answered as a plain request


@pytest.mark.parametrize("upgrade", UPGRADES, ids=["h2c", "websocket"])
def test_after_an_upgrade_not_made_slow_headers_still_time_out(impatient, upgrade):
    with _connect(impatient) as s:
        _first(s, upgrade)
        t0 = time.monotonic()
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        out = _read_all(s)
    assert out.startswith(b"HTTP/1.1 408"), out[:200]
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("upgrade", UPGRADES, ids=["h2c", "websocket"])
def test_after_an_upgrade_not_made_an_endless_header_gets_431(impatient, upgrade):
    with _connect(impatient) as s:
        _first(s, upgrade)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: ")
        sent = 0
        try:
            while sent < 8_000_000:
                s.sendall(b"a" * 16384)
                sent += 16384
        except OSError:
            pass
        out = _read_all(s)
    assert out.startswith(b"HTTP/1.1 431"), out[:200]
    assert sent < 4_000_000  # what the sockets buffer on loopback, not the 8 MB


def test_the_next_request_after_an_upgrade_not_made_is_answered(impatient):
    with _connect(impatient) as s:
        _first(s, UPGRADES[0])
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        out = _read_all(s)
    assert out.startswith(b"HTTP/1.1 200"), out[:200]


def test_connect_is_refused_with_a_json_400(impatient):
    with _connect(impatient) as s:
        s.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        out = _read_all(s)
    assert out.startswith(b"HTTP/1.1 400"), out[:200]
    head, _, body = out.partition(b"\r\n\r\n")
    assert b"application/json" in head.lower()
    assert json.loads(body)["error"]["code"] == "INVALID_ARGUMENT"
