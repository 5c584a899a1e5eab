"""Connect JSON refuses an enum name it does not know, as REST does (a typo in ListGames'
`status` must not silently drop the filter and answer every game; docs/api.md "Wire style":
requests take the enum names), while unknown fields stay ignored (Connect's forward compatibility)."""

from __future__ import annotations

import base64

import httpx
import pytest
from google.rpc import error_details_pb2

from tests.server.support import ServerThread


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


def test_an_unknown_status_name_is_refused_not_ignored(url):
    with httpx.Client(base_url=url, timeout=10) as http:
        http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).raise_for_status()
        assert http.get("/v1/games", params={"status": "finished"}).status_code == 400  # REST
        r = http.post("/tablero.v1.GameService/ListGames", json={"status": "finished"})
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "invalid_argument"
        assert _reason(r) == "INVALID_ARGUMENT"
        assert "finished" in r.json()["message"]
        ok = http.post("/tablero.v1.GameService/ListGames", json={"status": "GAME_STATUS_FINISHED"})
        assert ok.status_code == 200 and ok.json().get("games", []) == []
        running = http.post("/tablero.v1.GameService/ListGames",
                            json={"status": "GAME_STATUS_RUNNING", "someFutureField": 1})
        assert running.status_code == 200 and len(running.json()["games"]) == 1
