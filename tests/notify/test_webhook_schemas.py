"""The OpenAPI document's `webhooks` (server.api.openapi_webhooks) describe what is really sent:
every delivery of real games, one of each kind, validates against its kind's schema (and a
schema that misses a field, or a payload that gains one, fails here)."""

from __future__ import annotations

import json
import time

import jsonschema
import jwt
from tablero.server.api.openapi import openapi_document
from tablero.server.notify.events import KINDS

from tests import plainhttp
from tests.notify.receiver import Receiver, endpoints_json, secret
from tests.server.support import ServerThread

KEY = "k1-" + "w" * 40


def _user(name: str) -> dict[str, str]:
    t = jwt.encode({"sub": name, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})
    return {"Authorization": f"Bearer {t}"}


def test_every_kind_delivered_validates_against_the_documents_webhooks():
    doc = openapi_document()
    assert set(doc["webhooks"]) == set(KINDS)
    with Receiver(secret()) as rec, ServerThread(webhooks_allow_private=True, portal_keys=json.dumps({"k1": KEY}),
                                                 webhooks=endpoints_json((rec.url, secret()))) as srv:
        h = srv.http
        # A clocked game that bots finish after each timeout: created, started, turns with
        # deadlines, timeouts, finished.
        plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2,
                                              "clock": {"moveSeconds": 1, "onTimeout": "bot"}}).raise_for_status()
        # A portal game: a seat joined, then left (resigned), which ends it.
        game = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["me", "open"]},
                              headers=_user("ana")).json()["game"]
        joined = plainhttp.post(f"{h}/v1/games/{game['id']}/join", json={}, headers=_user("bob")).json()
        plainhttp.post(f"{h}/v1/games/{game['id']}/resign", json={},
                       headers={"Authorization": f"Bearer {joined['token']}"}).raise_for_status()
        assert rec.wait_for(lambda acc: {d["type"] for d in acc} >= set(KINDS), 60), sorted(
            {d["type"] for d in rec.accepted})
        delivered = list(rec.accepted)
    for body in delivered:
        schema = doc["webhooks"][body["type"]]["post"]["requestBody"]["content"]["application/json"]["schema"]
        jsonschema.validate(body, schema, format_checker=jsonschema.FormatChecker())
    assert any("deadline" in s for d in delivered if d["type"] == "turn.started" for s in d["data"]["seats"])
