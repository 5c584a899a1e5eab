"""The committed generated code, the proto annotations, the OpenAPI document and the
served routes all agree; real answers match the documented schemas."""

import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from tablero.server.api.openapi import openapi_document
from tablero.server.http.app import OPS, build_app

from tests.server.conftest import auth

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_fresh():
    r = subprocess.run([sys.executable, "scripts/gen_proto.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(w.title() for w in rest)


def _annotated_paths():
    """(verb, path) of every google.api.http annotation, read from the .proto text itself."""
    out = set()
    for proto in (ROOT / "proto").rglob("*.proto"):
        for verb, path in re.findall(r'(get|post|put|patch|delete):\s*"([^"]+)"', proto.read_text()):
            out.add((verb, re.sub(r"\{(\w+)\}", lambda m: "{" + _camel(m.group(1)) + "}", path)))
    return out


def _served_routes():
    app = build_app(api=None, lifecycle=None, web=None)
    return {(m.lower(), route.path) for route in app.routes for m in route.methods - {"HEAD"}}


def test_openapi_lists_exactly_the_served_routes():
    documented = {(m, p) for p, ops in openapi_document(OPS)["paths"].items() for m in ops}
    assert _served_routes() == documented
    assert _annotated_paths() == {(m, p) for m, p in documented if p not in {o[0] for o in OPS}}


def test_one_casing_for_parameters_and_fields():
    doc = openapi_document(OPS)
    for path, ops in doc["paths"].items():
        for op in ops.values():
            names = [p["name"] for p in op.get("parameters", [])]
            assert all("_" not in n for n in names if n != "access_token"), (path, names)
            assert sorted(n for n in names if f"{{{n}}}" in path) == sorted(re.findall(r"\{(\w+)\}", path))
    payloads = {n for n in doc["components"]["schemas"] if "." in n}  # the engines' own JSON (their names)
    assert payloads
    for name, schema in doc["components"]["schemas"].items():
        if name not in payloads:
            assert all("_" not in p for p in schema.get("properties", {})), name


def test_responses_mark_always_present_fields_required():
    schemas = openapi_document()["components"]["schemas"]
    assert set(schemas["CreateGameResponse"]["required"]) == {"game", "seats"}
    assert set(schemas["SeatToken"]["required"]) == {"seat", "token"}
    assert set(schemas["ListEventsResponse"]["required"]) == {"events", "nextPageToken"}
    assert set(schemas["GameEvent"]["required"]) == {"gameId", "version", "event"}
    assert set(schemas["WatchGameResponse"]["required"]) == {"gameId", "version", "event"}
    assert {"view", "status", "toAct", "seats"} <= set(schemas["Game"]["required"])
    assert "outcome" not in schemas["Game"]["required"] and "yourSeat" not in schemas["Game"]["required"]
    assert schemas["CreateGameRequest"]["required"] == ["engine"]
    assert schemas["GameStatus"]["enum"] == ["GAME_STATUS_RUNNING", "GAME_STATUS_FINISHED"]


def test_game_payloads_are_typed_by_the_engines_schemas(http):
    from tablero import engines

    doc = openapi_document()
    schemas = doc["components"]["schemas"]
    body = schemas["SubmitActionRequestBody"]["properties"]["action"]
    assert body == {"$ref": "#/components/schemas/AnyAction"} or body["allOf"] == [{"$ref": "#/components/schemas/AnyAction"}]
    assert schemas["tic-tac-toe.Action"] == engines.get("tic-tac-toe").action_schema
    served = http.get("/v1/engines/tic-tac-toe").json()["engine"]
    assert served["actionSchema"] == schemas["tic-tac-toe.Action"]
    assert served["viewSchema"] == schemas["tic-tac-toe.View"] and served["eventSchema"] == schemas["tic-tac-toe.Event"]


def test_each_operation_lists_only_the_errors_it_can_answer():
    paths = openapi_document()["paths"]
    create = paths["/v1/games"]["post"]["responses"]
    assert not {"403", "404"} & set(create)
    assert {"401", "429"} <= set(create)  # a refused portal JWT; rate limits
    assert {"401", "403", "404", "409"} <= set(paths["/v1/games/{gameId}/actions"]["post"]["responses"])
    # Reads of the past answer 409 FAILED_PRECONDITION for versions trimmed after a snapshot.
    for path in ("/v1/games/{gameId}", "/v1/games/{gameId}/events", "/v1/games/{gameId}/watch"):
        assert "409" in paths[path]["get"]["responses"], path
    assert "409" not in paths["/v1/games/{gameId}/legal-actions"]["get"]["responses"]


def test_every_sse_control_message_has_its_schema():
    op = openapi_document()["paths"]["/v1/games/{gameId}/watch"]["get"]["responses"]["200"]
    messages = op["content"]["text/event-stream"]["x-sse-messages"]
    # The control messages under their tablero-* names, and (until v2) the former names but
    # `error`, which collided with EventSource's own error event.
    assert set(messages) == {"message", "tablero-end", "tablero-shutdown", "tablero-error", "tablero-reset",
                             "end", "shutdown", "reset"}
    for name in ("end", "shutdown", "error", "reset"):
        assert f"`event: tablero-{name}`" in op["description"], name
    reset = openapi_document()["components"]["schemas"]["WatchReset"]
    assert reset["required"] == ["version"]


def test_openapi_document_is_served_and_valid(http):
    from openapi_spec_validator import validate

    doc = http.get("/openapi.json").json()
    assert doc == openapi_document(OPS)
    validate(doc)  # OpenAPI 3.1, checked by openapi-spec-validator
    assert doc["openapi"].startswith("3.1") and doc["paths"]
    for ops in doc["paths"].values():
        for op in ops.values():
            assert op["operationId"] and "200" in op["responses"]


@pytest.fixture(scope="module")
def check():
    doc = openapi_document(OPS)
    registry = Registry().with_resource("urn:api", Resource.from_contents(doc, default_specification=DRAFT202012))

    def check(path: str, verb: str, body, status: int = 200):
        op = doc["paths"][path][verb]
        if str(status) in op["responses"] and "$ref" in op["responses"][str(status)]:
            schema = {"$ref": "urn:api#/components/schemas/Error"}
        else:
            ref = op["responses"][str(status)]["content"]["application/json"]["schema"]["$ref"]
            schema = {"$ref": "urn:api" + ref}
        jsonschema.Draft202012Validator(schema, registry=registry).validate(body)

    return check


def test_real_answers_match_the_documented_schemas(http, check):
    check("/v1/engines", "get", http.get("/v1/engines").json())
    check("/v1/engines/{name}", "get", http.get("/v1/engines/goofspiel").json())
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]})
    check("/v1/games", "post", r.json())
    gid, token = r.json()["game"]["id"], r.json()["seats"][0]["token"]
    check("/v1/games/{gameId}/join", "post", http.post(f"/v1/games/{gid}/join").json())
    check("/v1/games/{gameId}", "get", http.get(f"/v1/games/{gid}", headers=auth(token)).json())
    check("/v1/games/{gameId}/legal-actions", "get",
          http.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json())
    check("/v1/games/{gameId}/actions", "post",
          http.post(f"/v1/games/{gid}/actions", headers=auth(token), json={"action": {"type": "place", "cell": 0}}).json())
    check("/v1/games/{gameId}/events", "get", http.get(f"/v1/games/{gid}/events").json())
    bad = http.post(f"/v1/games/{gid}/actions", headers=auth(token), json={"action": {"type": "place", "cell": 0}})
    check("/v1/games/{gameId}/actions", "post", bad.json(), status=409)
    check("/v1/rankings:aggregate", "post",
          http.post("/v1/rankings:aggregate", json={"lists": [{"source": "a", "entries": ["x", "y"]}]}).json())


def test_a_log_with_the_platform_s_events_matches_the_documented_schemas(http, check):
    """A resign (tablero.seat_left, with the open seats) and a clock's timeout
    (tablero.turn_timed_out) are in the log and the watch: PlatformEvent in AnyEvent."""
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]}).json()
    gid, token = r["game"]["id"], r["seats"][0]["token"]
    http.post(f"/v1/games/{gid}/resign", headers=auth(token))
    listed = http.get(f"/v1/games/{gid}/events").json()
    assert listed["events"][-1]["event"]["type"] == "tablero.seat_left"
    check("/v1/games/{gameId}/events", "get", listed)
    timed_out = {"gameId": gid, "version": 3, "event": {"type": "tablero.turn_timed_out", "seat": 1, "then": "bot"}}
    check("/v1/games/{gameId}/events", "get", {"events": [timed_out], "nextPageToken": ""})
    with pytest.raises(jsonschema.ValidationError):  # the schema is no catch-all
        check("/v1/games/{gameId}/events", "get", {"events": [{**timed_out, "event": {"type": "tablero.nope"}}],
                                                     "nextPageToken": ""})


def test_readiness_documents_its_503():
    op = openapi_document(OPS)["paths"]["/readyz"]["get"]
    assert set(op["responses"]) == {"200", "503"}
    assert op["responses"]["503"]["content"]["application/json"]["schema"]["required"] == ["status"]
