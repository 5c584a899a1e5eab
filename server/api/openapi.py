"""The OpenAPI 3.1 document, generated from the protos' descriptors, comments and
google.api.http annotations (server.api.rpcs), the edge's table of seats and errors
(server.api.edge) and the status table (server.api.status). Nothing here names a path,
a parameter or a field: add an RPC to the proto and it appears.

Casing: JSON field names and path parameters are lowerCamelCase (the protobuf JSON
mapping). `required`: in responses, every field that is always present (proto3
fields without presence, and message fields marked REQUIRED); in requests, the
fields marked REQUIRED.
"""

from __future__ import annotations

import functools
from typing import Any

from google.api import field_behavior_pb2
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from tablero.server.app.replies import engine_reply
from tablero.server.errors import REASONS
from tablero.server.portal import table

from tablero import engines

from .edge import HANDLERS
from .openapi_webhooks import webhooks
from .rpcs import Rpc, comments, rpcs
from .status import STATUS

_SCALARS = {
    FieldDescriptor.TYPE_INT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_INT64: {"type": "string", "format": "int64"},
    FieldDescriptor.TYPE_UINT32: {"type": "integer", "format": "int32", "minimum": 0},
    FieldDescriptor.TYPE_DOUBLE: {"type": "number"},
    FieldDescriptor.TYPE_FLOAT: {"type": "number"},
    FieldDescriptor.TYPE_BOOL: {"type": "boolean"},
    FieldDescriptor.TYPE_STRING: {"type": "string"},
}
_WELL_KNOWN = {
    "google.protobuf.Struct": {"type": "object", "additionalProperties": True},
    "google.protobuf.Value": {},
    "google.protobuf.ListValue": {"type": "array"},
    "google.protobuf.Timestamp": {"type": "string", "format": "date-time",
                                  "description": "RFC 3339 in UTC, e.g. 2026-12-05T13:10:00.250Z"},
}
_ERROR_DESCRIPTIONS = {
    "INVALID_ARGUMENT": "malformed request (REST: also a seat token in the URL anywhere but the watch)",
    "DEADLINE_EXCEEDED": "the request body arrived too slowly (TABLERO_BODY_TIMEOUT)",
    "UNAUTHENTICATED": "a missing, malformed or foreign seat token, or a refused portal JWT (expired, unknown "
                       "key, bad signature: any call that sends a JWT has it verified, public reads too)",
    "PERMISSION_DENIED": "the token opens a seat of another game",
    "NOT_FOUND": "unknown game or engine",
    "FAILED_PRECONDITION": "against the rules of the game, or no open seat left; for reads of the past, "
                           "versions no longer kept (trimmed after a snapshot: the message names where the "
                           "log starts now)",
    "ABORTED": "stale expectedVersion, or the game changed too often; retry",
    "RESOURCE_EXHAUSTED": "request body over the size limit",
    "INTERNAL": "a server fault, logged with its traceback",
    "UNAVAILABLE": "the event store is unreachable, or the call did not finish within TABLERO_REQUEST_DEADLINE "
                   "(SERVER_DEADLINE: a write's outcome is unknown; retry with the same requestId)",
}

SSE_DESCRIPTION = (
    "Server-Sent Events. Each game event is a default message (no `event:` line, so "
    "`EventSource.onmessage` gets it): `id: <version>` and `data: <WatchGameResponse JSON>`; the "
    "event's type is inside, at `event.type`. Control messages are named `tablero-*` (none collides "
    "with EventSource's own `open`, `message` and `error`): `event: tablero-end` with "
    "`data: {\"status\":\"GAME_STATUS_FINISHED\"}` after the last event of a finished game, then the "
    "stream closes; `event: tablero-shutdown` with `data: {}` when the server stops (reconnect with "
    "Last-Event-ID); `event: tablero-error` with `data: <Error JSON>` (code, message, reason) when the "
    "stream fails after it started; `event: tablero-reset` with `id: <N>` and `data: {\"version\": N}` "
    "when the store's history was rewritten under the watcher (every event after version N it was sent "
    "is void; the stream goes on with N+1). Until v2, `tablero-end`, `tablero-shutdown` and "
    "`tablero-reset` each come right after a copy under the former name (`end`, `shutdown`, `reset`; "
    "not with `eventSource=true`): a client of the former names acts on its copy first; the former "
    "`event: error` is gone. "
    "A comment line `: keepalive` comes every 15 s. A watch refused before it starts (unknown game, "
    "bad token, afterVersion beyond the log) answers its HTTP status (400/401/403/404/503) with the "
    "error as JSON, or as one `event: tablero-error` message when the request accepts "
    "text/event-stream; with `eventSource=true` it answers 200 and that one message (an EventSource "
    "page can read its reason), then closes."
)


# Struct fields that carry a game payload: typed by the engines' published JSON Schemas
# (GET /v1/engines/{name}), gathered here as Any<Kind> = anyOf over the engines.
_PAYLOADS = {
    "tablero.v1.SubmitActionRequest.action": "Action",
    "tablero.v1.ListLegalActionsResponse.actions": "Action",
    "tablero.v1.Game.view": "View",
    "tablero.v1.GameEvent.event": "Event",
    "tablero.v1.WatchGameResponse.event": "Event",
    "tablero.v1.Game.outcome": "Outcome",
}


def _payload_schemas() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("Action", "View", "Event", "Outcome"):
        refs = []
        for name in engines.names():
            out[f"{name}.{kind}"] = engine_reply(engines.get(name))[f"{kind.lower()}Schema"]
            refs.append(_ref(f"{name}.{kind}"))
        description = f"a game {kind.lower()} of one of the engines (each engine's {kind.lower()}Schema)"
        if kind == "Event":  # the platform's own events (tablero.*) are in every game's log too
            out["PlatformEvent"] = {"anyOf": list(table.EVENT_SCHEMAS.values()),
                                    "description": "an event of the platform, not of the engine (tablero.*)"}
            refs.append(_ref("PlatformEvent"))
            description += ", or of the platform (PlatformEvent)"
        out[f"Any{kind}"] = {"anyOf": refs, "description": description}
    return out


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _describe(schema: dict[str, Any], full_name: str) -> dict[str, Any]:
    text = comments().get(full_name)
    return {**schema, "description": text} if text else schema


def _required_by_annotation(f: FieldDescriptor) -> bool:
    return field_behavior_pb2.REQUIRED in f.GetOptions().Extensions[field_behavior_pb2.field_behavior]


class _Schemas:
    """Component schemas of the messages and enums reachable from the RPCs."""

    def __init__(self) -> None:
        self.out: dict[str, Any] = {}

    def enum(self, e: EnumDescriptor) -> dict[str, str]:
        if e.name not in self.out:
            values = [v.name for v in e.values if v.number != 0]  # *_UNSPECIFIED is never sent
            self.out[e.name] = _describe({"type": "string", "enum": values}, e.full_name)
        return _ref(e.name)

    def field(self, f: FieldDescriptor, output: bool) -> dict[str, Any]:
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            value = self.field(f.message_type.fields_by_name["value"], output)
            return _describe({"type": "object", "additionalProperties": value}, f.full_name)
        if f.type == FieldDescriptor.TYPE_ENUM:
            one = self.enum(f.enum_type)
        elif f.full_name in _PAYLOADS:
            one = _ref("Any" + _PAYLOADS[f.full_name])
        elif f.type == FieldDescriptor.TYPE_MESSAGE:
            one = _WELL_KNOWN.get(f.message_type.full_name) or self.message(f.message_type, output)
        else:
            one = dict(_SCALARS[f.type])
        if f.is_repeated:
            return _describe({"type": "array", "items": one}, f.full_name)
        if "$ref" in one:  # a description beside $ref is ignored by some tools: wrap it
            text = comments().get(f.full_name)
            return {"allOf": [one], "description": text} if text else one
        return _describe(one, f.full_name)

    def message(self, m: Descriptor, output: bool, skip: frozenset[str] = frozenset(),
                name: str | None = None) -> dict[str, str]:
        name = name or m.name
        if name in self.out:
            return _ref(name)
        self.out[name] = {}  # recursion guard
        props, required = {}, []
        for f in m.fields:
            if f.name in skip:
                continue
            props[f.json_name] = self.field(f, output)
            always = not f.has_presence or (f.message_type is not None and _required_by_annotation(f))
            if (output and always) or (not output and _required_by_annotation(f)):
                required.append(f.json_name)
        schema: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            schema["required"] = required
        if not output:
            schema["additionalProperties"] = False
        self.out[name] = _describe(schema, m.full_name)
        return _ref(name)


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}

TICKET_SSE_DESCRIPTION = (
    "Server-Sent Events of one match ticket. Each change is a default message: `id: <the ticket's "
    "version>` and `data: <WatchMatchTicketResponse JSON>` (`version`, `ticket`); the first is the "
    "ticket as it is now. Once it is matched, cancelled or expired, `event: tablero-end` with "
    "`data: {\"status\": \"MATCH_TICKET_STATUS_MATCHED\"}` (its last status), then the stream closes "
    "(a long `retry:` keeps EventSource from reconnecting). `event: tablero-shutdown` with `data: {}` "
    "when the server stops (reconnect: the stream starts again with the ticket as it is then); "
    "`event: tablero-error` with `data: <Error JSON>` when the stream fails after it started. Until "
    "v2, `tablero-end` and `tablero-shutdown` each come right after a copy under the former name "
    "(`end`, `shutdown`). A comment line `: keepalive` comes every 15 s. A watch refused before it "
    "starts (no JWT, another user's ticket, an unknown ticket) answers its HTTP status "
    "(401/403/404) with the error as JSON, or as one `event: tablero-error` message when the request "
    "accepts text/event-stream. `eventSource=true` is the game watch's alone (refused here)."
)


def _operation(rpc: Rpc, schemas: _Schemas) -> dict[str, Any]:
    handler = HANDLERS[rpc.name]
    service = rpc.service.rsplit(".", 1)[1]
    op: dict[str, Any] = {
        "operationId": rpc.name,
        "summary": comments().get(f"{rpc.service}.{rpc.name}", rpc.name),
        "tags": [service],
        "security": {"none": [{}, {"portalJwt": []}], "optional": [{}, {"seatToken": []}, {"portalJwt": []}],
                     "required": [{"seatToken": []}, {"portalJwt": []}]}[handler.seat],
    }
    params = [{"name": f.json_name, "in": "path", "required": True,
               "schema": schemas.field(f, output=False)} for f in rpc.path_fields]
    params += [{"name": f.json_name, "in": "query", "required": False, "schema": schemas.field(f, output=False)}
               for f in rpc.query_fields]
    ticket = rpc.name == "WatchMatchTicket"  # a match ticket's changes, not a game's events
    if rpc.streaming and ticket:
        params += [{"name": "access_token", "in": "query", "required": False, "schema": {"type": "string"},
                    "description": "the ticket owner's portal JWT, for clients that cannot set headers "
                                   "(EventSource)"}]
    elif rpc.streaming:
        params += [{"name": "access_token", "in": "query", "required": False, "schema": {"type": "string"},
                    "description": "a seat token, for clients that cannot set headers (EventSource)"},
                   {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"},
                    "description": "resume after this version (sent by EventSource when it reconnects)"}]
    if params:
        op["parameters"] = params
    if rpc.body:
        skip = frozenset(f.name for f in rpc.path_fields)
        body_name = rpc.request_descriptor.name if not skip else f"{rpc.request_descriptor.name}Body"
        ref = schemas.message(rpc.request_descriptor, output=False, skip=skip, name=body_name)
        op["requestBody"] = {"required": "required" in schemas.out[body_name],
                             "content": {"application/json": {"schema": ref}}}
    if rpc.streaming and ticket:
        ok = {"description": TICKET_SSE_DESCRIPTION, "content": {"text/event-stream": {
            "schema": {"type": "string"}, "x-sse-messages": {
                "message": schemas.message(rpc.response.DESCRIPTOR, output=True),
                "tablero-end": _ref("TicketWatchEnd"), "tablero-shutdown": _ref("WatchShutdown"),
                "tablero-error": _ref("Error"), "end": _ref("TicketWatchEnd"), "shutdown": _ref("WatchShutdown")}}}}
    elif rpc.streaming:
        ok = {"description": SSE_DESCRIPTION, "content": {"text/event-stream": {
            "schema": {"type": "string"}, "x-sse-messages": {
                "message": schemas.message(rpc.response.DESCRIPTOR, output=True),
                "tablero-end": _ref("WatchEnd"), "tablero-shutdown": _ref("WatchShutdown"),
                "tablero-error": _ref("Error"), "tablero-reset": _ref("WatchReset"),
                "end": _ref("WatchEnd"), "shutdown": _ref("WatchShutdown"), "reset": _ref("WatchReset")}}}}
    elif rpc.response_field is not None:  # response_body: REST answers that one field
        f = rpc.response_field
        one = schemas.message(f.message_type, output=True) if f.message_type else schemas.field(f, output=True)
        ok = _json(one, comments().get(f.full_name, "OK"))
    else:
        ok = _json(schemas.message(rpc.response.DESCRIPTOR, output=True))
    op["responses"] = {"200": ok}
    # Over REST every operation may answer 400 (e.g. access_token in the URL of a unary
    # call), 401 (a portal JWT sent with any call is verified: an expired one is refused, also
    # on public reads), and one with a body 408 (the body arrived too slowly).
    # A unary call past TABLERO_REQUEST_DEADLINE: 503 (SERVER_DEADLINE).
    rest = {"INVALID_ARGUMENT", "UNAUTHENTICATED", "INTERNAL", *(("DEADLINE_EXCEEDED",) if rpc.body else ()),
            *(("UNAVAILABLE",) if not rpc.streaming else ())}
    for code in sorted({*handler.errors, *rest}, key=lambda c: STATUS[c][0]):
        status = str(STATUS[code][0])
        op["responses"].setdefault(status, {"$ref": f"#/components/responses/{status}"})
    # Every call counts against TABLERO_RATE_LIMIT (and creations TABLERO_CREATE_RATE_LIMIT).
    op["responses"]["429"] = {"$ref": "#/components/responses/429"}
    return op


def _controls(schemas: _Schemas) -> dict[str, Any]:
    game_status = schemas.out.get("GameStatus") and _ref("GameStatus")
    return {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["code", "message", "reason"], "properties": {
                "code": {"type": "string", "enum": list(STATUS)}, "message": {"type": "string"},
                "reason": {"type": "string", "enum": list(REASONS), "description": "what happened, for a program "
                           "to act on (stable; docs/api.md lists when each is sent): " + "; ".join(
                               f"{r}: {why}" for r, (_, why) in REASONS.items())},
                "metadata": {"type": "object", "additionalProperties": {"type": "string"},
                             "description": "details of some reasons, e.g. STALE_VERSION: version, "
                                            "RATE_LIMITED: retryAfter"}}}}},
        "WatchEnd": {"type": "object", "required": ["status"], "properties": {"status": game_status},
                     "description": "data of the SSE `tablero-end` message"},
        "TicketWatchEnd": {"type": "object", "required": ["status"],
                           "properties": {"status": schemas.out.get("MatchTicketStatus") and _ref("MatchTicketStatus")},
                           "description": "data of a match ticket watch's `tablero-end` message: the ticket's "
                                          "last status"},
        "WatchShutdown": {"type": "object", "additionalProperties": False,
                          "description": "data of the SSE `tablero-shutdown` message"},
        "WatchReset": {"type": "object", "required": ["version"], "additionalProperties": False,
                       "properties": {"version": {"type": "integer", "minimum": 0}},
                       "description": "data of the SSE `tablero-reset` message: the version the client's history "
                                      "and the store's agree up to"},
    }


def _error_responses(codes: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for code in sorted(codes, key=lambda c: STATUS[c][0]):
        status = str(STATUS[code][0])
        same = [c for c in codes if STATUS[c][0] == STATUS[code][0]]
        desc = "; ".join(f"{_ERROR_DESCRIPTIONS[c]} ({c})" for c in sorted(same))
        out[status] = _json(_ref("Error"), desc)
    out["429"] = {**_json(_ref("Error"), "over a rate limit, or over the open games per user (RESOURCE_EXHAUSTED)"),
                  "headers": {"Retry-After": {"description": "seconds to wait (rate limits)",
                                              "schema": {"type": "integer"}}}}
    return out


@functools.cache
def _api_document() -> dict[str, Any]:
    schemas = _Schemas()
    paths: dict[str, dict[str, Any]] = {}
    for rpc in rpcs():
        paths.setdefault(rpc.path, {})[rpc.verb] = _operation(rpc, schemas)
    codes = {c for h in HANDLERS.values() for c in h.errors} | {"INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "INTERNAL"}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tablero API", "version": "v1",
                 "description": "Turn-based board games over REST/JSON: the same RPCs as gRPC tablero.v1, "
                                "generated from its protos. Game payloads (actions, views, events) are "
                                "described per engine by GET /v1/engines/{name} (actionSchema, viewSchema, "
                                "eventSchema: JSON Schema 2020-12). Names: every field the platform defines "
                                "is lowerCamelCase (the protobuf JSON mapping; also the platform's events and "
                                "its keys in `outcome`, e.g. endedBy); every field an engine defines (options, "
                                "actions, views, events, outcome details) is snake_case, as stored in the "
                                "games' logs. Enums are sent as their full names (SEAT_KIND_OPEN), which "
                                "requests take too. Times: RFC 3339 strings (google.protobuf.Timestamp) "
                                "beside the float seconds since the epoch of v1. Errors: `error.reason` "
                                "(the Error schema's enum; gRPC: google.rpc.ErrorInfo)."},
        "paths": paths,
        "webhooks": webhooks(),
        "components": {
            "schemas": {**schemas.out, **_controls(schemas), **_payload_schemas()},
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                              "description": "a seat token from CreateGame or JoinGame"},
                                "portalJwt": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                                              "description": "a JWT signed by the portal (TABLERO_PORTAL_KEYS) "
                                                             "for its user: sub, exp, optional name, kid header"}},
            "responses": _error_responses(codes),
        },
    }


def openapi_document(ops: list[tuple[str, str, str, str]] = ()) -> dict[str, Any]:
    """The document; `ops` adds the operational routes as (path, operationId, summary, media type)."""
    doc = dict(_api_document())
    paths = dict(doc["paths"])
    for path, op_id, summary, media in ops:
        responses: dict[str, Any] = {"200": {"description": "OK", "content": {media: {"schema": {}}}}}
        if op_id == "Readyz":  # not ready: 503 with why, {"status": "..."}
            responses["503"] = {"description": "Not ready (the store is unreachable, or the server is stopping)",
                                "content": {media: {"schema": {"type": "object", "properties": {
                                    "status": {"type": "string"}}, "required": ["status"]}}}}
        paths[path] = {"get": {"operationId": op_id, "summary": summary, "tags": ["operations"], "security": [],
                               "responses": responses}}
    doc["paths"] = paths
    return doc
