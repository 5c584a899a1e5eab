"""Connect JSON writes an engine payload's numbers as REST does: a whole number is an integer
(`6`, not `6.0`; docs/api.md "Wire style"), so a client decoding the engine's `integer` fields
(kotlinx.serialization, Swift Codable, a strict JSON Schema check) reads either transport."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def url():
    with ServerThread() as s:
        yield s.http


def _types(value):
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value).__name__


def test_connect_json_numbers_match_rest(url):
    with httpx.Client(base_url=url, timeout=10) as http:
        created = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, x = created["game"]["id"], created["seats"][0]["token"]
        http.post(f"/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                  headers={"authorization": f"Bearer {x}"}).raise_for_status()
        rest = http.get(f"/v1/games/{gid}").json()
        r = http.post("/tablero.v1.GameService/GetGame", json={"gameId": gid})
        assert r.status_code == 200, r.text
        game = json.loads(r.text)["game"]
        assert game["view"] == rest["view"]
        assert _types(game["view"]) == _types(rest["view"])
        assert isinstance(game["view"]["board"][4], int)
        events = http.post("/tablero.v1.GameService/ListEvents", json={"gameId": gid}).json()["events"]
        placed = [e["event"] for e in events if e["event"]["type"] == "mark_placed"]
        assert placed and all(isinstance(e["cell"], int) and isinstance(e["seat"], int) for e in placed)
