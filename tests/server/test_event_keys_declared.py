"""Every key of every event a client is sent is declared in its engine's published event schema
(`GET /v1/engines/{name}` `eventSchema`, from which the TypeScript SDK's types and a mobile
client's quicktype types are generated): the keys the core stamps on the first event (`engine`,
`engine_version`, `seats`, `options`) and a seat's own `private` part (its Goofspiel bid, its
Phoenicia starting hand) included, over the log (ListEvents) and the live watch (SSE), as a
spectator and as each seat.

Found by an outside frontend pass: the schemas left event objects open and declared neither, so
`ev.event.private` was no field of the generated `GoofspielBidPlacedEvent` (a strict TypeScript
client could not read its own bid from the log) and quicktype's Kotlin/Swift types dropped it.
Each event type is now closed (`additionalProperties: false`), so the engine kit's schema check
fails on a key an engine emits without declaring it.

Views alike: each engine's view of a new game (a seat's and a spectator's) has no key its
`viewSchema` does not declare where the schema lists an object's properties (Phoenicia's cards on
display carried `set`, `ab`, `tile`, `treasury`, `improves`, `discounts`, ... which the browser
and the terminal show, none of them declared)."""

from __future__ import annotations

import json

import httpx
import jsonschema
import pytest
from tablero.engines.core import registry

from tests.server.conftest import auth


def _types(http: httpx.Client, engine: str) -> dict[str, dict]:
    schema = http.get(f"/v1/engines/{engine}").json()["engine"]["eventSchema"]
    return {alt["properties"]["type"]["const"]: alt for alt in schema["oneOf"]}


def _watched(http: httpx.Client, gid: str, token: str | None) -> list[dict]:
    """The events of a finished game as its SSE watch sends them to `token`'s seat."""
    params = {"access_token": token} if token else {}
    out = []
    with http.stream("GET", f"/v1/games/{gid}/watch", params=params) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data: ") and '"event"' in line:
                out.append(json.loads(line[len("data: "):])["event"])
            if line.startswith("event: tablero-end"):
                break
    return out


def _check(types: dict[str, dict], events: list[dict], who: str) -> set[str]:
    """Every key of every event is a declared property of its type (and the event fits the
    type's schema); answers the keys seen."""
    seen: set[str] = set()
    for e in events:
        declared = set(types[e["type"]]["properties"])
        undeclared = set(e) - declared
        assert not undeclared, f"{who}: {e['type']} carries undeclared {sorted(undeclared)} (declared {sorted(declared)})"
        jsonschema.validate(e, types[e["type"]])
        seen |= set(e)
    return seen


def test_goofspiel_events_seen_by_each_seat_are_declared(server, http):
    g = http.post("/v1/games", json={"engine": "goofspiel", "players": 2, "options": {"cards": 3}}).json()
    gid, tokens = g["game"]["id"], [s["token"] for s in g["seats"]]
    while True:
        game = http.get(f"/v1/games/{gid}").json()
        if game["status"] == "GAME_STATUS_FINISHED":
            break
        for seat in game["toAct"]:
            legal = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json()["actions"]
            r = http.post(f"/v1/games/{gid}/actions", json={"action": legal[0]}, headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text
    types = _types(http, "goofspiel")
    for who, token in (("spectator", None), ("seat 0", tokens[0]), ("seat 1", tokens[1])):
        headers = auth(token) if token else {}
        listed = http.get(f"/v1/games/{gid}/events", headers=headers).json()["events"]
        keys = _check(types, [e["event"] for e in listed], f"{who}, listed")
        keys |= _check(types, _watched(http, gid, token), f"{who}, watched")
        assert {"engine", "engine_version", "seats", "options"} <= keys
        assert ("private" in keys) == (token is not None), who  # a seat sees its own bids


def test_a_phoenicia_starting_hand_is_declared(server, http):
    g = http.post("/v1/games", json={"engine": "phoenicia", "players": 2}).json()
    gid, token = g["game"]["id"], g["seats"][0]["token"]
    first = http.get(f"/v1/games/{gid}/events", params={"pageSize": 1}, headers=auth(token)).json()["events"][0]
    assert set(first["event"]["private"]) == {"0"}
    _check(_types(http, "phoenicia"), [first["event"]], "seat 0")


def _undeclared(schema: dict, value, where: str = "") -> list[str]:
    """Keys of `value` that `schema` does not declare, where it lists an object's properties and
    types no others (a `oneOf`/`anyOf` is followed into the branch the value fits)."""
    for key in ("oneOf", "anyOf"):
        for alt in schema.get(key, ()):
            if jsonschema.Draft202012Validator(alt).is_valid(value):
                return _undeclared(alt, value, where)
    out = []
    if isinstance(value, dict):
        props, extra = schema.get("properties", {}), schema.get("additionalProperties")
        for k, v in value.items():
            if k in props:
                out += _undeclared(props[k], v, f"{where}.{k}")
            elif isinstance(extra, dict):
                out += _undeclared(extra, v, f"{where}.{k}")
            elif props and not schema.get("patternProperties"):
                out.append(f"{where}.{k}")
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for v in value:
            out += _undeclared(schema["items"], v, f"{where}[]")
    return sorted(set(out))


@pytest.mark.parametrize("name", registry.names())
def test_a_new_games_views_declare_every_key(server, http, name):
    g = http.post("/v1/games", json={"engine": name, "players": max(2, registry.get(name).min_seats)}).json()
    gid, token = g["game"]["id"], g["seats"][0]["token"]
    schema = http.get(f"/v1/engines/{name}").json()["engine"]["viewSchema"]
    for who, headers in (("spectator", {}), ("seat 0", auth(token))):
        view = http.get(f"/v1/games/{gid}", headers=headers).json()["view"]
        jsonschema.validate(view, schema)
        assert not _undeclared(schema, view), f"{name}, {who}: undeclared {_undeclared(schema, view)}"


@pytest.mark.parametrize("name", registry.names())
def test_every_event_type_is_closed(name):
    """So that the kit's check of real events (engines/core/testkit.check_schemas) catches a key
    an engine emits without declaring it."""
    for alt in registry.get(name).event_schema["oneOf"]:
        assert alt.get("additionalProperties") is False, f"{name}: {alt['title']} is open"
