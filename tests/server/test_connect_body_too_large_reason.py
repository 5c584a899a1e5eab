"""Refusals over Connect that the transport itself makes carry the documented reason too
(docs/api.md "Error reasons"): BODY_TOO_LARGE is the body-size limit's, not the
RESOURCE_EXHAUSTED fallback."""

from __future__ import annotations

import base64

import httpx
import pytest
from google.rpc import error_details_pb2

from tests import plainhttp
from tests.server.support import ServerThread

GAME = "/tablero.v1.GameService/"


@pytest.fixture(scope="module")
def url():
    with ServerThread() as s:
        yield s.http


def _reason(r: httpx.Response) -> str | None:
    for d in r.json().get("details") or ():
        if d["type"] == "google.rpc.ErrorInfo":
            raw = base64.b64decode(d["value"] + "=" * (-len(d["value"]) % 4))
            return error_details_pb2.ErrorInfo.FromString(raw).reason
    return None


def test_a_body_over_the_limit_is_body_too_large(url):
    body = {"engine": "tic-tac-toe", "options": {"pad": "a" * 300_000}}
    r = plainhttp.post(url + GAME + "CreateGame", json=body, timeout=10)
    assert r.status_code == 429, r.text  # Connect's status for resource_exhausted
    assert r.json()["code"] == "resource_exhausted"
    assert _reason(r) == "BODY_TOO_LARGE"


def test_the_limit_is_on_the_body_as_sent_not_the_message_it_parses_to(url):
    """5 MB of JSON whitespace around a small CreateGame: REST refuses it by its size (413), and
    so must Connect (the message it parses to is small; the body was read and parsed whole)."""
    body = b" " * 5_000_000 + b'{"engine": "tic-tac-toe", "players": 2}'
    r = plainhttp.post(url + GAME + "CreateGame", content=body, headers={"content-type": "application/json"},
                       timeout=30)
    assert r.status_code == 429, r.text
    assert _reason(r) == "BODY_TOO_LARGE"
    assert "262144" in r.json()["message"]
    rest = plainhttp.post(url + "/v1/games", content=body, headers={"content-type": "application/json"}, timeout=30)
    assert rest.status_code == 413
    # Just under the limit, the same padding is read as before.
    fits = b" " * 200_000 + b'{"engine": "tic-tac-toe", "players": 2}'
    r = plainhttp.post(url + GAME + "CreateGame", content=fits, headers={"content-type": "application/json"},
                       timeout=30)
    assert r.status_code == 200, r.text
