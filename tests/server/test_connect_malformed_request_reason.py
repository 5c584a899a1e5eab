"""Refusals over Connect that the transport itself makes carry the documented reason too
(docs/api.md "Error reasons": every refusal carries one): a request that does not decode
is INVALID_ARGUMENT with the reason INVALID_ARGUMENT, as over REST and gRPC."""

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


@pytest.mark.parametrize("body", [b'{"gameId": 5}', b"{not json", b'{"gameId": "a", "gameId": "b"}'])
def test_a_request_that_does_not_decode_is_invalid_argument_with_its_reason(url, body):
    r = plainhttp.post(url + GAME + "GetGame", content=body, headers={"content-type": "application/json"}, timeout=10)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "invalid_argument"
    assert _reason(r) == "INVALID_ARGUMENT"


def test_a_binary_request_that_does_not_decode_is_invalid_argument_with_its_reason(url):
    r = plainhttp.post(url + GAME + "GetGame", content=b"\xff\xff\xff", headers={"content-type": "application/proto"},
                   timeout=10)
    assert r.status_code == 400, r.text
    assert _reason(r) == "INVALID_ARGUMENT"


@pytest.mark.parametrize("rpc", ["GetGame", "SubmitAction", "ListLegalActions", "ListEvents", "Resign", "JoinGame"])
def test_a_call_about_a_game_without_its_id_says_the_id_is_required(url, rpc):
    """Connect bodies may leave gameId out (REST's paths cannot): that is the malformed request
    it is, whatever token comes with it (not a seat token "of another game", nor "no game ''")."""
    created = plainhttp.post(url + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}, timeout=10).json()
    token = created["seats"][0]["token"]
    for headers in ({}, {"authorization": f"Bearer {token}"}):
        r = plainhttp.post(url + GAME + rpc, json={"action": {"type": "place", "cell": 4}} if rpc == "SubmitAction"
                           else {}, headers=headers, timeout=10)
        assert r.status_code == 400, (rpc, headers, r.text)
        assert r.json()["code"] == "invalid_argument"
        assert r.json()["message"] == "gameId is required"
        assert _reason(r) == "INVALID_ARGUMENT"
