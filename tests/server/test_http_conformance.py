"""HTTP as clients and proxies read it (an outside pass against RFC 9110/9112): 405 with
`Allow` for a known path asked with another method and 404 for an unknown one, whatever
the method; gzip only when Accept-Encoding admits it; a 401 that says how to
authenticate; the protocol's own refusals (408, 414, 431, 400) in JSON with a Date."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.server.support import ServerThread
from tests.server.test_hostile_clients import raw


@pytest.fixture(scope="module")
def served():
    with ServerThread(header_timeout=0.5, body_timeout=0.5) as s:
        yield s


@pytest.fixture
def http(served):
    with httpx.Client(base_url=served.http, timeout=10) as c:
        yield c


def _game(http) -> str:
    return http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()["game"]["id"]


@pytest.mark.parametrize("method, path, allow", [
    ("GET", "/v1/games/{gid}/actions", "POST"),
    ("PUT", "/v1/games/{gid}", "GET, HEAD"),
    ("DELETE", "/healthz", "GET, HEAD"),
    ("POST", "/index.html", "GET, HEAD"),  # a file of the web client
    ("PUT", "/", "GET, HEAD"),
    # a custom method's path (AIP-136) is not the plain resource's: not the GET of a ticket "t1:cancel"
    ("GET", "/v1/matchmaking/tickets/t1:cancel", "POST"),
    ("DELETE", "/v1/rankings:aggregate", "POST"),
])
def test_a_known_path_asked_with_another_method_is_405_with_allow(http, method, path, allow):
    r = http.request(method, path.format(gid=_game(http)))
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == allow
    assert r.json()["error"]["code"] == "METHOD_NOT_ALLOWED"


@pytest.mark.parametrize("method, path", [(m, p) for m in ("GET", "POST", "PATCH", "DELETE")
                                          for p in ("/v1/nope", "/js/nope.js")])
def test_an_unknown_path_is_404_whatever_the_method(http, method, path):
    r = http.request(method, path)
    assert r.status_code == 404 and r.json()["error"]["code"] == "NOT_FOUND", (method, r.status_code, r.text)


@pytest.mark.parametrize("path", ["/v1/games", "/v1/rankings:aggregate", "/v1/matchmaking/tickets/t1:cancel"])
def test_a_cors_preflight_still_reaches_the_cors_answer(http, path):
    r = http.options(path, headers={"Origin": "https://portal.example", "Access-Control-Request-Method": "POST"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] in ("*", "https://portal.example")


@pytest.mark.parametrize("accept, zipped", [
    ("gzip", True), ("deflate, gzip;q=0.5", True), ("*", True),
    ("gzip;q=0", False), ("*;q=0", False), ("identity", False), ("br", False),
])
def test_gzip_only_when_accept_encoding_admits_it(http, accept, zipped):
    r = http.get("/v1/engines", headers={"Accept-Encoding": accept})
    wire = r.headers.get("content-encoding")
    assert (wire == "gzip") == zipped, (accept, dict(r.headers))
    assert "Accept-Encoding" in r.headers.get_list("vary")  # big enough to be gzipped: says it varies
    assert r.json()["engines"]  # httpx undoes the gzip itself


def test_a_401_says_how_to_authenticate(http):
    r = http.get(f"/v1/games/{_game(http)}/legal-actions")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
    assert r.json()["error"]["code"] == "UNAUTHENTICATED"


def _status_headers_body(answer: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    return lines[0], {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}, body


def test_the_protocols_own_refusals_are_json_with_a_date(served):
    import json

    t0 = time.monotonic()
    slow = raw(served, b"GET /healthz HTTP/1.1\r\nHost: t\r\n")  # the headers never end: 408
    assert time.monotonic() - t0 < 4
    too_long = raw(served, b"GET /healthz?x=" + b"a" * 20000 + b" HTTP/1.1\r\nHost: t\r\n\r\n")
    too_many = raw(served, b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + b"".join(
        b"x-h%d: v\r\n" % i for i in range(300)) + b"\r\n")
    garbage = raw(served, b"GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")
    for answer, status, code in ((slow, "408", "DEADLINE_EXCEEDED"), (too_long, "414", "INVALID_ARGUMENT"),
                                 (too_many, "431", "INVALID_ARGUMENT"), (garbage, "400", "INVALID_ARGUMENT")):
        line, headers, body = _status_headers_body(answer)
        assert line.startswith(f"HTTP/1.1 {status}"), answer[:200]
        assert headers["content-type"] == "application/json" and headers["connection"] == "close"
        assert headers["date"].endswith("GMT") and int(headers["content-length"]) == len(body)
        assert json.loads(body)["error"]["code"] == code


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/v1/games/{gid}/actions", 405), ("PUT", "/", 405), ("POST", "/v1/nope", 404),
    ("GET", "/v1/games/{gid}?access_token=x", 400)])
def test_the_errors_answered_before_the_app_carry_cors_for_a_page_on_another_origin(http, method, path, status):
    """A browser shows a page on another origin the reason of an error only with the CORS header."""
    origin = {"Origin": "https://portal.example"}
    r = http.request(method, path.format(gid=_game(http)), headers=origin)
    assert r.status_code == status, r.text
    assert r.headers.get("access-control-allow-origin") == "*", r.headers
    assert "access-control-allow-origin" not in http.request(method, path.format(gid=_game(http))).headers


def test_the_protocols_own_refusals_carry_cors_too(served):
    too_many = raw(served, b"GET /healthz HTTP/1.1\r\nHost: t\r\nOrigin: https://portal.example\r\n" + b"".join(
        b"x-h%d: v\r\n" % i for i in range(300)) + b"\r\n")
    line, headers, _ = _status_headers_body(too_many)
    assert line.startswith("HTTP/1.1 431") and headers.get("access-control-allow-origin") == "*", too_many[:300]
