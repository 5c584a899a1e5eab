"""Connect JSON refuses a malformed request as REST does (docs/api.md "Connect and gRPC-Web"): the
same strict JSON and field checks (server.http.strict_json, server.api.codec.check), so the same
message and reason, never the protobuf parser's own words; only unknown fields stay ignored
(Connect's forward compatibility). A Connect call to a path no RPC has answers with a reason too."""

from __future__ import annotations

import base64

import httpx
import pytest
from google.rpc import error_details_pb2

from tests.server.support import ServerThread

GAME = "/tablero.v1.GameService/"
INTERNALS = ("unmarshal", "Failed to parse", "Couldn't parse", "bytes-like", "SubmitActionRequest.", "Message type")


@pytest.fixture(scope="module")
def http():
    with ServerThread() as s, httpx.Client(base_url=s.http, timeout=10) as client:
        yield client


def _reason(r: httpx.Response) -> str | None:
    for d in r.json().get("details") or ():
        if d["type"] == "google.rpc.ErrorInfo":
            return error_details_pb2.ErrorInfo.FromString(base64.b64decode(d["value"] + "=" * (-len(d["value"]) % 4))).reason
    return None


def _game(http: httpx.Client) -> tuple[str, str]:
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    return out["game"]["id"], out["seats"][0]["token"]


def _both(http: httpx.Client, rest_path: str, method: str, body: bytes, token: str | None = None,
          connect_extra: bytes = b"") -> tuple[dict, dict]:
    """(REST's error, Connect's) for the same JSON body (Connect's with `connect_extra` fields first)."""
    headers = {"content-type": "application/json", **({"authorization": f"Bearer {token}"} if token else {})}
    rest = http.post(rest_path, content=body, headers=headers)
    assert rest.status_code == 400, rest.text
    connect_body = b"{" + connect_extra + body[1:] if connect_extra else body
    c = http.post(GAME + method, content=connect_body, headers=headers)
    assert c.status_code == 400, c.text
    err = c.json()
    assert err["code"] == "invalid_argument" and not any(s in err["message"] for s in INTERNALS), err
    return rest.json()["error"], {**err, "reason": _reason(c)}


@pytest.mark.parametrize("body", [
    b'{"action": {"type": "place", "cell": 1}, "requestId": "a", "request_id": "b"}',  # one field, both names
    b'{"action": {"type": "place", "cell": 1}, "expectedVersion": 1.5}',
    b'{"action": {"type": "place", "cell": 1e40}}',
    b'{"action": {"type": "place", "cell": 1}, "requestId": 7}',
    b'{"action": {"type": "place", "cell": 1}, "action": {"type": "place", "cell": 2}}',  # a key twice
    b'{"action": "place"}',
])
def test_submit_action_refusals_read_as_rest(http, body):
    gid, token = _game(http)
    rest, connect = _both(http, f"/v1/games/{gid}/actions", "SubmitAction", body, token,
                          connect_extra=f'"gameId": "{gid}", '.encode())
    assert connect["message"] == rest["message"] and connect["reason"] == rest["reason"], (rest, connect)


def test_create_refusals_read_as_rest(http):
    body = b'{"engine": "riverboat", "seatSpecs": [{"kind": "human"}, {"kind": "bot", "level": 5}]}'
    rest, connect = _both(http, "/v1/games", "CreateGame", body)
    assert connect["message"] == rest["message"] == "seatSpecs[1].level must be a string"


def test_unknown_fields_are_still_ignored_and_a_range_is_named_without_internals(http):
    ok = http.post(GAME + "ListEngines", json={"someFutureField": {"x": 1}})
    assert ok.status_code == 200 and ok.json()["engines"]
    gid, token = _game(http)
    r = http.post(GAME + "SubmitAction", json={"gameId": gid, "action": {"type": "place", "cell": 1},
                                               "expectedVersion": 10**12}, headers={"authorization": f"Bearer {token}"})
    assert r.status_code == 400 and r.json()["message"].startswith("expectedVersion is out of range"), r.text
    assert _reason(r) == "INVALID_ARGUMENT"


def test_a_binary_request_that_does_not_parse_names_no_parser_internals(http):
    r = http.post(GAME + "GetGame", content=b"\xff\xff\xff", headers={"content-type": "application/proto"})
    assert r.status_code == 400
    # a binary Connect error body is JSON too (the Connect protocol)
    assert r.json()["message"] == "the request is not a GetGameRequest in proto" and _reason(r) == "INVALID_ARGUMENT"


def test_an_unknown_method_answers_with_a_reason(http):
    r = http.post(GAME + "NoSuch", json={})
    assert r.status_code == 404 and r.json()["code"] == "unimplemented" and _reason(r) == "UNKNOWN_METHOD"
    r = http.post("/tablero.v1.NoService/Get", content=b"", headers={"content-type": "application/proto"})
    assert r.status_code == 404 and _reason(r) == "UNKNOWN_METHOD"


def test_a_known_method_asked_with_another_http_method_answers_with_a_reason(http):
    """An outside pass found connectrpc's 405 without a body (no code, no reason): every RPC
    takes POST (none is marked free of side effects, so none takes Connect's GET)."""
    for r in (http.get(GAME + "GetGame", params={"encoding": "json", "message": "{}"}), http.put(GAME + "GetGame", json={})):
        assert r.status_code == 405 and r.headers["allow"] == "POST", r
        assert r.json()["code"] == "unimplemented" and _reason(r) == "METHOD_NOT_ALLOWED", r.text


@pytest.mark.parametrize("version", [10**12, 2**31, -1])
def test_rest_refuses_an_expected_version_out_of_int32_as_connect_does(http, version):
    """expectedVersion is an int32: beyond it REST says the range (400), as Connect refuses it,
    rather than a 409 "the game is at version 1, not 99999999999"."""
    gid, token = _game(http)
    r = http.post(f"/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 1}, "expectedVersion": version},
                  headers={"authorization": f"Bearer {token}"})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["reason"] == "INVALID_ARGUMENT" and "from 0 to 2147483647" in r.json()["error"]["message"]


@pytest.mark.parametrize(("rpc", "body", "field"), [
    ("GetEngine", {"name": ""}, "name"), ("GetEngineMessages", {}, "name"), ("CreateGame", {"engine": ""}, "engine"),
    ("GetGame", {"gameId": ""}, "gameId")])
def test_an_empty_required_field_is_invalid_not_a_lookup_of_nothing(http, rpc, body, field):
    """Every string field the protos mark REQUIRED is refused empty as the malformed request it is,
    the same way for every RPC (an outside pass found GetEngine {"name": ""} answered 404
    ENGINE_NOT_FOUND "no engine named ''", beside GetPlayer's "userId is required")."""
    r = http.post(GAME + rpc, json=body)
    assert r.status_code == 400 and _reason(r) == "INVALID_ARGUMENT", r.text
    assert r.json()["message"] == f"{field} is required"


def test_a_preflight_allows_the_methods_the_calls_take(http):
    """The verifying pass: a preflight allowed GET, POST and OPTIONS, then GET was 405 with
    `Allow: POST`."""
    r = http.options(GAME + "GetGame", headers={"Origin": "https://portal.example",
                                                "Access-Control-Request-Method": "POST",
                                                "Access-Control-Request-Headers": "content-type"})
    assert r.status_code == 200, r.text
    assert {m.strip() for m in r.headers["access-control-allow-methods"].split(",")} == {"POST", "OPTIONS"}


def test_an_unsupported_content_type_answers_a_connect_error_body(http):
    """connectrpc's 415 had an empty body: a Connect client (or a developer with curl) read no code,
    no message. Now it is a Connect error like the others, `Accept-Post` kept; the RPC still works
    with a content type it takes."""
    for ctype in ("text/plain", "application/xml", None, "application/connect+xml"):
        headers = {"content-type": ctype} if ctype else {}
        for rpc in ("ListEngines", "WatchGame"):
            r = http.post(GAME + rpc, content=b"{}", headers=headers)
            assert r.status_code == 415, (ctype, rpc, r.text)
            assert r.headers["content-type"] == "application/json" and "accept-post" in r.headers
            body = r.json()
            assert body["code"] == "invalid_argument" and _reason(r) == "INVALID_ARGUMENT"
            assert (repr(ctype) if ctype else "none") in body["message"], body
            assert r.headers["accept-post"] in body["message"]
    assert http.post(GAME + "ListEngines", json={}).status_code == 200
