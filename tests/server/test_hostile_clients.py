"""Issue 17, items 4, 7 and 8 against a real server: hostile input gets a clear 4xx (never
a 500), seat tokens travel in URLs only where a browser cannot send a header, and slow
clients are timed out."""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import time

import httpx
import pytest
from tablero.server.auth import TokenSigner
from tablero.server.errors import Unauthenticated

from tests import plainhttp
from tests.server.conftest import auth
from tests.server.support import ServerThread, scrape


def new_game(http, **body):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, **body}).json()
    return out["game"]["id"], [s["token"] for s in out["seats"]]


def metric(http, name: str, **labels) -> float:
    """One sample of the Prometheus exposition (0 when the series does not exist yet)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in scrape(http).splitlines():
        m = re.match(r"(\w+)\{(.*)\} (\S+)$", line)
        if m and m.group(1) == name and ",".join(sorted(m.group(2).split(","))) == want:
            return float(m.group(3))
    return 0.0


def raw(server, data: bytes, *, wait: float = 0.0, close: bool = False, timeout: float = 10) -> bytes:
    """Send `data` on a fresh connection; optionally wait or hang up before reading."""
    port = int(server.http.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        if close:
            return b""
        time.sleep(wait)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            out += chunk
        return out


# --- item 4: inputs that gave 500 --------------------------------------------------------------

@pytest.mark.parametrize("token", ["g\u00e9.0.abc", "g.\u00b2.abc", "g.0.\u00ff\u00fe", "\u00e9"])
def test_a_non_ascii_token_is_unauthenticated_not_a_crash(token):
    with pytest.raises(Unauthenticated):
        TokenSigner("s").verify(token, "g")


def test_a_non_ascii_byte_in_the_authorization_header_is_401(http):
    gid, _ = new_game(http)
    for path in (f"/v1/games/{gid}/legal-actions", f"/v1/games/{gid}"):
        r = http.get(path, headers={"Authorization": b"Bearer " + gid.encode() + b".0.\xff\xfe"})
        assert r.status_code == 401, r.text
        assert r.json()["error"]["code"] == "UNAUTHENTICATED"


def test_a_huge_last_event_id_is_ignored_not_a_500(http):
    gid, (x, o) = new_game(http)
    for token, cell in [(x, 4), (o, 0), (x, 2), (o, 1), (x, 6)]:  # X wins
        assert http.post(f"/v1/games/{gid}/actions", headers=auth(token),
                         json={"action": {"type": "place", "cell": cell}}).status_code == 200
    final = http.get(f"/v1/games/{gid}").json()["version"]
    for bad in ("9" * 5000, "1e9", "-3", "\u0663".encode()):
        r = http.get(f"/v1/games/{gid}/watch", headers={"Last-Event-ID": bad, "Accept": "text/event-stream"})
        assert r.status_code == 200, r.text
        assert re.findall(r"^id: (\d+)$", r.text, re.M) == [str(v) for v in range(1, final + 1)]
        assert "event: end" in r.text
    resumed = http.get(f"/v1/games/{gid}/watch", headers={"Last-Event-ID": "4"})
    assert re.findall(r"^id: (\d+)$", resumed.text, re.M) == [str(v) for v in range(5, final + 1)]


@pytest.mark.parametrize("body, reason", [
    (b'{"action": {"type": "place", "cell": 4}, "action": {"type": "place", "cell": 0}}', "duplicate key 'action'"),
    (b'{"action": {"type": "place", "cell": 4, "cell": 0}}', "duplicate key 'cell'"),
    (b'{"action": {"type": "place", "cell": NaN}}', "NaN is not valid JSON"),
    (b'{"action": {"type": "place", "cell": Infinity}}', "Infinity is not valid JSON"),
    (b'{"action": {"type": "place", "cell": 4' + b"0" * 5000 + b"}}", "more than 30 digits"),
    (b'{"action": ' + b'{"a": ' * 200 + b"1" + b"}" * 200 + b"}", "nests deeper than 64 levels"),
    (b'{"action": "\xff"}', "not UTF-8"),
])
def test_strict_json_refuses_with_the_reason(http, body, reason):
    gid, (x, _) = new_game(http)
    r = http.post(f"/v1/games/{gid}/actions", headers={**auth(x), "Content-Type": "application/json"}, content=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "INVALID_ARGUMENT"
    assert reason in r.json()["error"]["message"]
    assert http.get(f"/v1/games/{gid}").json()["version"] == 1  # nothing was played


def test_a_client_leaving_mid_body_is_not_an_internal_error(server, http, caplog):
    gid, (x, _) = new_game(http)
    labels = {"transport": "http", "method": "SubmitAction"}
    internal = metric(http, "tablero_rpc_requests_total", code="INTERNAL", **labels)
    cancelled = metric(http, "tablero_rpc_requests_total", code="CANCELLED", **labels)
    head = (f"POST /v1/games/{gid}/actions HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {x}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 500\r\n\r\n").encode()
    with caplog.at_level(logging.INFO):
        raw(server, head + b'{"action": {"type": "pla', close=True)
        deadline = time.monotonic() + 10
        while metric(http, "tablero_rpc_requests_total", code="CANCELLED", **labels) == cancelled:
            assert time.monotonic() < deadline, "the abandoned request was never recorded"
            time.sleep(0.05)
    assert metric(http, "tablero_rpc_requests_total", code="INTERNAL", **labels) == internal
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert http.get(f"/v1/games/{gid}").json()["version"] == 1


# --- item 7: tokens in URLs --------------------------------------------------------------------

def test_access_token_is_refused_outside_the_watch(http):
    gid, (x, _) = new_game(http)
    calls = [("GET", f"/v1/games/{gid}/legal-actions", None), ("GET", f"/v1/games/{gid}", None),
             ("GET", f"/v1/games/{gid}/events", None),
             ("POST", f"/v1/games/{gid}/actions", {"action": {"type": "place", "cell": 4}})]
    for method, path, body in calls:
        r = http.request(method, path, params={"access_token": x}, json=body)
        assert r.status_code == 400, (path, r.text)
        assert "Authorization: Bearer" in r.json()["error"]["message"]
        # With the header, the same call works.
        assert http.request(method, path, headers=auth(x), json=body).status_code == 200
    assert http.get(f"/v1/games/{gid}").json()["version"] == 2  # only the call with the header played


def test_access_token_still_opens_the_watch(http):
    gid, (x, _) = new_game(http, seats=["human", "human"])
    with http.stream("GET", f"/v1/games/{gid}/watch", params={"access_token": x}) as r:
        assert r.status_code == 200
    forged = http.get(f"/v1/games/{gid}/watch", params={"access_token": gid + ".0.forged"})
    assert forged.status_code == 401


# --- item 8: slow clients -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def impatient():
    with ServerThread(header_timeout=0.5, body_timeout=0.5) as s:
        yield s


def test_slow_headers_get_408_and_the_connection_closes(impatient):
    t0 = time.monotonic()
    out = raw(impatient, b"GET /v1/engines HTTP/1.1\r\nHost: t\r\nX-Slow: ", wait=1.0)
    assert out.startswith(b"HTTP/1.1 408"), out[:200]
    assert b"request headers arrived too slowly" in out
    assert time.monotonic() - t0 < 5


def test_headers_trickled_in_pieces_time_out_from_their_first_byte(impatient):
    port = int(impatient.http.rsplit(":", 1)[1])
    # The deadline runs from the request's first byte, not from its last piece.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /v1/engines HTTP/1.1\r\n")
        for _ in range(4):
            time.sleep(0.2)
            with contextlib.suppress(OSError):
                s.sendall(b"X-Slow: 1\r\n")
        out = s.recv(65536)
    assert out.startswith(b"HTTP/1.1 408"), out[:200]


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(impatient):
    port = int(impatient.http.rsplit(":", 1)[1])
    idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(20)]
    t0 = time.monotonic()
    for s in idle:
        assert s.recv(1024) == b""  # closed, with nothing to answer (it asked nothing)
        s.close()
    assert time.monotonic() - t0 < 5
    # a connection that asks at once is answered as ever
    assert raw(impatient, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("headers", [
    b"X-Big: " + b"a" * 200_000 + b"\r\n",
    b"".join(b"X-H%d: 1\r\n" % i for i in range(5000)),
], ids=["one-200KB-header", "5000-headers"])
def test_oversized_headers_get_431_and_the_request_never_runs(server, http, headers):
    gid, (x, _) = new_game(http)
    request = (f"POST /v1/games/{gid}/actions HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {x}\r\n"
               f"Content-Type: application/json\r\nContent-Length: 37\r\n").encode()
    out = raw(server, request + headers + b'\r\n{"action":{"type":"place","cell":4}}')
    assert out.startswith(b"HTTP/1.1 431"), out[:200]
    assert b"request headers too large" in out
    assert http.get(f"/v1/games/{gid}").json()["version"] == 1  # the move was not played


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/openapi.json", "/", "/index.html"])
def test_a_token_in_the_url_is_refused_on_every_route_but_the_watch(http, path):
    r = http.get(path, params={"access_token": "g.0.abc"})
    assert r.status_code == 400, (path, r.status_code)
    assert "accepted only by the watch" in r.json()["error"]["message"]
    assert http.get(path).status_code == 200


def test_a_slow_body_gets_408(impatient):
    gid, (x, _) = new_game(httpx.Client(base_url=impatient.http))
    head = (f"POST /v1/games/{gid}/actions HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {x}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n").encode()
    t0 = time.monotonic()
    out = raw(impatient, head + b'{"action": ', wait=1.0)
    assert out.startswith(b"HTTP/1.1 408"), out[:300]
    assert b"DEADLINE_EXCEEDED" in out and b"too slowly" in out
    assert b"connection: close" in out.lower()
    assert time.monotonic() - t0 < 5
    assert plainhttp.get(f"{impatient.http}/v1/games/{gid}").json()["version"] == 1


def test_prompt_clients_are_unaffected_by_the_timeouts(impatient):
    with httpx.Client(base_url=impatient.http) as c:
        gid, (x, o) = new_game(c)
        for token, cell in [(x, 4), (o, 0)]:
            time.sleep(0.6)  # idle keep-alive time between requests is not header time
            assert c.post(f"/v1/games/{gid}/actions", headers=auth(token),
                          json={"action": {"type": "place", "cell": cell}}).status_code == 200
