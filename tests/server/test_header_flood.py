"""Headers that never end: a client that sends one endless header line (no CRLF, no blank line)
must get 431 once the bound is passed, not be read (and buffered by the parsers) for the whole
header timeout. Before the fix the server took ~40 MB of one header line in 2.5 s and answered
408 at the deadline; four such connections grew the server by ~440 MB."""

from __future__ import annotations

import socket
import time

import pytest

from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def patient():
    # A long header timeout: the refusal must come from the size bound, not the deadline.
    with ServerThread(header_timeout=30.0) as s:
        yield s


def _flood(server, head: bytes, *, limit: int = 8_000_000) -> tuple[bytes, int, float]:
    """Send `head`, then endless `a`s; the answer, the bytes the server took and the time."""
    port = int(server.http.rsplit(":", 1)[1])
    t0 = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(head)
        try:
            while sent < limit:
                s.sendall(b"a" * 16384)
                sent += 16384
        except OSError:
            pass  # the server closed the connection: it refused the request
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except OSError:
            pass
    return out, sent, time.monotonic() - t0


@pytest.mark.parametrize("head", [
    b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: ",  # an endless header value
    b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-",  # an endless header name
    b"GET /healthz HTTP/1.0\r\nX-Big: ",  # the same over HTTP/1.0
], ids=["value", "name", "http1.0"])
def test_an_endless_header_is_refused_with_431_at_once(patient, head):
    out, sent, took = _flood(patient, head)
    assert out.startswith(b"HTTP/1.1 431"), out[:200]
    assert b"HEADERS_TOO_LARGE" in out
    assert sent < 4_000_000, f"the server read {sent} bytes of headers before refusing"
    assert took < 10


def test_headers_just_under_the_bound_still_pass(patient):
    port = int(patient.http.rsplit(":", 1)[1])
    big = b"X-Big: " + b"a" * 60_000 + b"\r\n"
    request = b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + big + b"Connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        for i in range(0, len(request), 1000):  # in pieces, as a slow network delivers it
            s.sendall(request[i:i + 1000])
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    assert out.startswith(b"HTTP/1.1 200"), out[:200]
