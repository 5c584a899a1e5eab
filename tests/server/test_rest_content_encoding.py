"""REST request bodies and Content-Encoding, against a real server (an outside pass: a mobile
HTTP client that gzips its request bodies got 400 "the body is not UTF-8", and a body sent with a
coding the server does not know was read as plain JSON).

A gzipped body (`Content-Encoding: gzip`) is read decompressed, held to TABLERO_MAX_BODY once
decompressed; any other coding is refused by name, as Connect refuses one it does not take."""

from __future__ import annotations

import gzip

import httpx
import pytest

from tests.server.support import ServerThread

LIMIT = 16 * 1024


@pytest.fixture(scope="module")
def http():
    with ServerThread(max_body=LIMIT) as s, httpx.Client(base_url=s.http, timeout=10) as c:
        yield c


def post(http, body: bytes, coding: str | None, path: str = "/v1/games", **headers: str) -> httpx.Response:
    if coding is not None:
        headers["Content-Encoding"] = coding
    return http.post(path, content=body, headers={"Content-Type": "application/json", **headers})


CREATE = b'{"engine": "tic-tac-toe", "players": 2}'


@pytest.mark.parametrize("coding", ["gzip", "GZIP", "x-gzip", "gzip, identity"])
def test_a_gzipped_body_is_read_decompressed(http, coding):
    r = post(http, gzip.compress(CREATE), coding)
    assert r.status_code == 200, r.text
    g = r.json()
    x = g["seats"][0]["token"]
    # ... and a move in a gzipped body too (a route of the fast path)
    move = gzip.compress(b'{"action": {"type": "place", "cell": 4}, "requestId": "gz-1"}')
    r = post(http, move, "gzip", f"/v1/games/{g['game']['id']}/actions", Authorization=f"Bearer {x}")
    assert r.status_code == 200 and r.json()["version"] == 2, r.text


def test_identity_and_no_coding_are_the_body_as_it_is(http):
    assert post(http, CREATE, None).status_code == 200
    assert post(http, CREATE, "identity").status_code == 200
    g = post(http, b'{"engine": "tic-tac-toe", "seats": ["human", "open"]}', None).json()
    r = post(http, b"", "gzip", f"/v1/games/{g['game']['id']}/join")  # no body at all: {}, as without the header
    assert r.status_code == 200 and r.json()["seat"] == 1, r.text


@pytest.mark.parametrize("coding", ["br", "deflate", "gzip, br", "zstd"])
def test_a_coding_the_server_does_not_take_is_refused_by_name(http, coding):
    r = post(http, CREATE, coding)  # (plain JSON: it used to be read as if no coding were named)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "INVALID_ARGUMENT" and err["reason"] == "INVALID_ARGUMENT"
    assert "Content-Encoding" in err["message"] and coding in err["message"]


def test_a_body_that_is_not_gzip_says_so(http):
    for body in (CREATE, gzip.compress(CREATE)[:-12]):  # not gzip at all; cut off mid-stream
        r = post(http, body, "gzip")
        assert r.status_code == 400, r.text
        assert "not valid gzip" in r.json()["error"]["message"]


def test_a_small_gzipped_body_may_not_inflate_past_the_limit(http):
    big = b'{"engine": "tic-tac-toe", "players": 2, "requestId": "' + b"a" * (LIMIT * 4) + b'"}'
    small = gzip.compress(big)
    assert len(small) < LIMIT
    r = post(http, small, "gzip")
    assert r.status_code == 413, r.text
    assert r.json()["error"]["reason"] == "BODY_TOO_LARGE"
