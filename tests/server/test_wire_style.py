"""One style on the wire (issue 31, docs/api.md "Wire style"):
- names: lowerCamelCase for every field the platform defines (the protobuf JSON mapping of
  every message, the platform's events and its keys in `outcome`); snake_case for every field
  an engine defines (options, actions, views, events, outcome details), checked by walking each
  engine's published schemas (`GET /v1/engines/{name}`) and real answers; a one-word name is
  both; no name is in neither style;
- requests take the enum names answers use (`SEAT_KIND_OPEN`) beside the short forms;
- times: an RFC 3339 / google.protobuf.Timestamp field beside each float-seconds one."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from tablero.server.api.openapi import openapi_document
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.portal.table import EVENT_SCHEMAS

from tests.server.conftest import auth
from tests.server.support import ServerThread

CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*$")
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
CAMEL_HUMP = re.compile(r"[a-z0-9][A-Z]")
# The platform's keys in a game's outcome, beside the engine's (winners, scores, details are
# the engines' own, one word each).
PLATFORM_OUTCOME = {"endedBy", "forfeited", "abandoned"}


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


def names(schema: Any) -> Iterator[str]:
    """Every property name a JSON Schema declares (properties and required, at any depth)."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                yield from value
            if key == "required" and isinstance(value, list):
                yield from (v for v in value if isinstance(v, str))
            yield from names(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from names(item)


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys(v)
    elif isinstance(value, list):
        for item in value:
            yield from keys(item)


def test_every_engine_schema_names_its_fields_in_snake_case(server):
    http = httpx.Client(base_url=server.http, timeout=10)
    listed = [e["name"] for e in http.get("/v1/engines").json()["engines"]]
    assert len(listed) >= 6
    for name in listed:
        engine = http.get(f"/v1/engines/{name}").json()["engine"]
        assert set(engine) >= {"optionsSchema", "actionSchema", "viewSchema", "eventSchema"}
        found = {n for f in ("optionsSchema", "actionSchema", "viewSchema", "eventSchema") for n in names(engine[f])}
        assert found, name
        bad = sorted(n for n in found if not SNAKE.match(n))
        assert not bad, f"{name}: engine fields not in snake_case: {bad}"


def test_every_platform_field_is_lower_camel_case():
    doc = openapi_document()
    schemas = doc["components"]["schemas"]
    engine_payloads = {k for k in schemas if "." in k or k.startswith("Any")}  # <engine>.Action, AnyView, ...
    platform = {k: v for k, v in schemas.items() if k not in engine_payloads and k != "PlatformEvent"}
    assert {"Game", "GameSummary", "SeatDeadline", "Error", "WatchEnd"} <= set(platform)
    bad = sorted(f"{k}.{n}" for k, v in platform.items() for n in names(v) if not CAMEL.match(n))
    assert not bad, f"platform fields not in lowerCamelCase: {bad}"
    bad = sorted(n for s in EVENT_SCHEMAS.values() for n in names(s) if not CAMEL.match(n))
    assert not bad, f"platform event fields not in lowerCamelCase: {bad}"
    # The rule is stated where clients read the contract.
    assert "lowerCamelCase" in doc["info"]["description"] and "snake_case" in doc["info"]["description"]


def test_real_answers_follow_the_rule_engine_payloads_included(server):
    http = httpx.Client(base_url=server.http, timeout=10)
    for engine in [e["name"] for e in http.get("/v1/engines").json()["engines"]]:
        out = http.post("/v1/games", json={"engine": engine, "seats": ["human", "bot"] if engine != "tic-tac-toe"
                                           else ["SEAT_KIND_HUMAN", "SEAT_KIND_BOT"]})
        if out.status_code == 400:  # an engine whose smallest table is not two seats
            out = http.post("/v1/games", json={"engine": engine})
        assert out.status_code == 200, out.text
        created = out.json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        game = http.get(f"/v1/games/{gid}", headers=auth(token)).json()
        legal = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json()
        events = http.get(f"/v1/games/{gid}/events", headers=auth(token)).json()
        http.post(f"/v1/games/{gid}/resign", headers=auth(token), json={}).raise_for_status()
        ended = http.get(f"/v1/games/{gid}").json()
        platform = [*_platform_keys(game), *_platform_keys(legal, payloads=("actions",)),
                    *_platform_keys(events, payloads=("events",))]
        assert all(CAMEL.match(k) for k in platform), (engine, sorted(k for k in platform if not CAMEL.match(k)))
        engine_keys = [*keys(game["view"]), *keys(legal["actions"]), *(k for e in events["events"] for k in keys(e["event"]))]
        # Keys of maps keyed by ids (a card's number, Riverboat's "crop-beet") are data, not names
        # (the schemas, walked above, declare such maps with additionalProperties): no key of an
        # engine payload is camelCase, and every declared name is snake_case (above).
        bad = sorted({k for k in engine_keys if CAMEL_HUMP.search(k)})
        assert not bad, (engine, bad)
        assert any(SNAKE.match(k) and "_" in k for k in engine_keys) or engine in ("tic-tac-toe", "goofspiel")
        outcome = ended["outcome"]
        assert all(SNAKE.match(k) or k in PLATFORM_OUTCOME for k in keys(outcome)), (engine, outcome)
        assert ended["status"] == "GAME_STATUS_FINISHED"


def _platform_keys(answer: dict, payloads: tuple[str, ...] = ()) -> Iterator[str]:
    """The keys of an answer outside its engine payloads (view, outcome, actions, events' event)."""
    for k, v in answer.items():
        yield k
        if k in ("view", "outcome") or k in payloads and k == "actions":
            continue
        if k == "events":
            for e in v:
                yield from (ek for ek in e if ek != "event")
            continue
        if isinstance(v, dict):
            yield from _platform_keys(v)
        elif isinstance(v, list):
            for item in v:
                if isinstance(item, dict):
                    yield from _platform_keys(item)


def test_requests_take_the_enum_names_answers_use(server):
    http = httpx.Client(base_url=server.http, timeout=10)
    by_name = http.post("/v1/games", json={"engine": "tic-tac-toe", "seats": ["SEAT_KIND_HUMAN", "SEAT_KIND_OPEN"]})
    by_short = http.post("/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]})
    specs = http.post("/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [{"kind": "SEAT_KIND_BOT"},
                                                                                {"kind": "SEAT_KIND_OPEN"}]})
    assert by_name.status_code == by_short.status_code == specs.status_code == 200, by_name.text + specs.text
    kinds = [[s["kind"] for s in r.json()["game"]["seats"]] for r in (by_name, by_short, specs)]
    assert kinds == [["SEAT_KIND_HUMAN", "SEAT_KIND_OPEN"]] * 2 + [["SEAT_KIND_BOT", "SEAT_KIND_OPEN"]]
    # The lobby's status filter takes the same names its answers carry.
    listed = http.get("/v1/games", params={"status": "GAME_STATUS_RUNNING"}).json()["games"]
    assert listed and {g["status"] for g in listed} == {"GAME_STATUS_RUNNING"}
    bad = http.post("/v1/games", json={"engine": "tic-tac-toe", "seats": ["SEAT_KIND_ROBOT", "human"]})
    assert bad.status_code == 400 and "SEAT_KIND_ROBOT" in bad.json()["error"]["message"]


def _rfc3339(text: str) -> float:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", text), text
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_times_come_as_rfc3339_timestamps_beside_the_float_seconds(server):
    http = httpx.Client(base_url=server.http, timeout=10)
    created = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2,
                                           "clock": {"moveSeconds": 60}}).json()
    gid, token = created["game"]["id"], created["seats"][0]["token"]
    [deadline] = http.get(f"/v1/games/{gid}", headers=auth(token)).json()["deadlines"]
    assert abs(_rfc3339(deadline["deadlineTime"]) - deadline["deadline"]) < 0.001
    [summary] = [g for g in http.get("/v1/games").json()["games"] if g["id"] == gid]
    assert abs(_rfc3339(summary["createTimestamp"]) - summary["createTime"]) < 0.001
    # gRPC: google.protobuf.Timestamp fields with the same instants.
    with grpc.insecure_channel(server.grpc) as channel:
        stub = pbg.GameServiceStub(channel)
        game = stub.GetGame(pb.GetGameRequest(game_id=gid), metadata=(("authorization", f"Bearer {token}"),)).game
        listed = [g for g in stub.ListGames(pb.ListGamesRequest()).games if g.id == gid][0]
    assert abs(game.deadlines[0].deadline_time.ToMilliseconds() / 1000 - deadline["deadline"]) < 0.001
    assert abs(listed.create_timestamp.ToMilliseconds() / 1000 - summary["createTime"]) < 0.001


def test_every_64_bit_integer_is_named_where_the_wire_style_says_it_is_a_string():
    """proto3 JSON writes int64 as a string: `Notification.version` is "7" while its `data.version`
    (a Struct) is 7. docs/api.md "Wire style" names every such field, so an integrator is not
    surprised by the one string-typed version of the API (the field itself stays as released)."""
    from google.protobuf.descriptor import FieldDescriptor
    from tablero.server.grpc.gen import notifications_pb2, players_pb2, rankings_pb2

    wide = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64,
            FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64}
    fields = [f"`{m.name}.{f.json_name}`" for mod in (pb, notifications_pb2, players_pb2, rankings_pb2)
              for m in mod.DESCRIPTOR.message_types_by_name.values() for f in m.fields if f.type in wide]
    assert "`Notification.version`" in fields
    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    style = doc.split("## Wire style", 1)[1].split("\n## ", 1)[0]
    paragraph = style.split("**64-bit integers are strings in JSON.**", 1)[1].split("\n\n", 1)[0]
    assert not [f for f in fields if f not in paragraph], paragraph
    assert '"version": "7"' in paragraph and "`data.version`" in paragraph


def test_every_time_in_float_seconds_has_a_timestamp_beside_it_and_is_documented():
    """Codegen for mobile apps types google.protobuf.Timestamp as a date: each instant the API
    gives as float seconds (a `double` named `*_time`, `deadline` or `timestamp`) has a Timestamp
    field in the same message, and docs/api.md's "Times" paragraph names the pair (an integrator's
    pass found MatchTicket, Notification and RecentGame with floats only)."""
    from google.protobuf.descriptor import FieldDescriptor
    from tablero.server.grpc.gen import notifications_pb2, players_pb2, rankings_pb2

    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    times = doc.split("**Times**", 1)[1].split("\n\n", 1)[0]
    # A browser's PushSubscription as its toJSON() gives it (W3C Push API: milliseconds, or null): a
    # request the page sends as it is, not a time the API gives.
    browsers = {"PushSubscription.expiration_time"}
    lonely, undocumented = [], []
    for mod in (pb, notifications_pb2, players_pb2, rankings_pb2):
        for m in mod.DESCRIPTOR.message_types_by_name.values():
            stamps = [f for f in m.fields if f.message_type is not None
                      and f.message_type.full_name == "google.protobuf.Timestamp"]
            for f in m.fields:
                if (f.type == FieldDescriptor.TYPE_DOUBLE and re.search(r"(_time|^deadline|^timestamp)$", f.name)
                        and f"{m.name}.{f.name}" not in browsers):
                    if not stamps:
                        lonely.append(f"{m.name}.{f.name}")
                    if f"`{f.json_name}`" not in times and f"{m.name}.{f.json_name}" not in times:
                        undocumented.append(f"{m.name}.{f.json_name}")
    assert not lonely and not undocumented, (lonely, undocumented)
