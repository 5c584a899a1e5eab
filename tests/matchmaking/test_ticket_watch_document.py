"""The OpenAPI document describes a match ticket's watch as it is sent: the ticket's changes and
an end with the ticket's last status. It described the game watch's (game events, an end with
`GAME_STATUS_FINISHED` as a GameStatus, `tablero-reset`, a seat token in `access_token`), so a
client generated from it rejected the `tablero-end` of every ticket watch."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import httpx
import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests import plainhttp
from tests.ratings.support import KEYS, bearer
from tests.server.support import ServerProcess


@pytest.fixture(scope="module")
def portal() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


def _frames(text: str) -> list[tuple[str, dict]]:
    out = []
    for block in text.split("\n\n"):
        lines = [ln for ln in block.splitlines() if not ln.startswith(":")]
        data = [ln[6:] for ln in lines if ln.startswith("data: ")]
        if data:
            name = next((ln[7:] for ln in lines if ln.startswith("event: ")), "message")
            out.append((name, json.loads("\n".join(data))))
    return out


def test_a_ticket_watch_matches_its_documented_messages(portal):
    doc = plainhttp.get(portal.http + "/openapi.json").json()
    op = doc["paths"]["/v1/matchmaking/tickets/{ticketId}/watch"]["get"]
    ok = op["responses"]["200"]
    assert "GAME_STATUS" not in ok["description"] and "MATCH_TICKET_STATUS" in ok["description"]
    messages = ok["content"]["text/event-stream"]["x-sse-messages"]
    assert "tablero-reset" not in messages  # a ticket's history is never rewritten
    [token_param] = [p for p in op["parameters"] if p["name"] == "access_token"]
    assert "JWT" in token_param["description"]
    registry = Registry().with_resource("urn:api", Resource.from_contents(doc, default_specification=DRAFT202012))

    ann = bearer("ann-watch")
    ticket = httpx.post(portal.http + "/v1/matchmaking/tickets", json={"engine": "goofspiel"}, headers=ann).json()["ticket"]
    url = f"{portal.http}/v1/matchmaking/tickets/{ticket['id']}"
    threading.Timer(0.5, lambda: httpx.post(url + ":cancel", json={}, headers=ann)).start()
    text = httpx.get(url + "/watch", headers=ann, timeout=30).text
    frames = _frames(text)
    assert [n for n, _ in frames] == ["message", "message", "end", "tablero-end"], text
    assert frames[-1][1] == {"status": "MATCH_TICKET_STATUS_CANCELLED"}
    for name, data in frames:
        schema = messages[name]
        if "$ref" in schema:
            schema = {"$ref": "urn:api" + schema["$ref"]}
        jsonschema.Draft202012Validator(schema, registry=registry).validate(data)
