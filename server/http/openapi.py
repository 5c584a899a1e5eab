"""The OpenAPI 3.1 document served at /openapi.json (kept in step with app.py by tests)."""

from __future__ import annotations

from typing import Any

from .rankings import ranking_paths, ranking_schemas

_OBJ = {"type": "object", "additionalProperties": True}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERRORS = {
    "400": {"$ref": "#/components/responses/InvalidArgument"},
    "500": {"$ref": "#/components/responses/Internal"},
    "503": {"$ref": "#/components/responses/Unavailable"},
    "401": {"$ref": "#/components/responses/Unauthenticated"},
    "403": {"$ref": "#/components/responses/PermissionDenied"},
    "404": {"$ref": "#/components/responses/NotFound"},
    "409": {"$ref": "#/components/responses/Conflict"},
    "413": {"$ref": "#/components/responses/TooLarge"},
}

_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_BEARER = [{"seatToken": []}]


def _op(op_id: str, summary: str, ok: dict[str, Any], *, params=None, body=None, security=None,
        tags=("games",), errors=_ERRORS) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": op_id, "summary": summary, "tags": list(tags),
                          "responses": {"200": ok, **errors}}
    if params:
        op["parameters"] = params
    if body:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if security is not None:
        op["security"] = security
    return op


def _schemas() -> dict[str, Any]:
    return {
        "Error": {
            "type": "object", "required": ["error"],
            "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {
                "code": {"type": "string", "enum": ["INVALID_ARGUMENT", "UNAUTHENTICATED", "PERMISSION_DENIED",
                                                     "NOT_FOUND", "FAILED_PRECONDITION", "ABORTED",
                                                     "RESOURCE_EXHAUSTED", "METHOD_NOT_ALLOWED", "UNAVAILABLE",
                                                     "INTERNAL"]},
                "message": {"type": "string"}}}},
        },
        "Engine": {"type": "object", "properties": {
            "name": {"type": "string"}, "title": {"type": "string"}, "minSeats": {"type": "integer"},
            "maxSeats": {"type": "integer"}, "optionsSchema": _OBJ, "version": {"type": "integer"}}},
        "Seat": {"type": "object", "properties": {
            "seat": {"type": "integer"}, "kind": {"type": "string", "enum": ["human", "open", "bot"]},
            "claimed": {"type": "boolean"}}},
        "Game": {"type": "object", "required": ["id", "engine", "version", "toAct", "view"], "properties": {
            "id": {"type": "string"}, "name": {"type": "string", "description": "games/{id}"},
            "engine": {"type": "string"}, "engineVersion": {"type": "integer"},
            "version": {"type": "integer", "description": "number of events in the log"},
            "players": {"type": "integer"}, "seats": {"type": "array", "items": _ref("Seat")},
            "toAct": {"type": "array", "items": {"type": "integer"}},
            "view": {**_OBJ, "description": "the state as the caller's seat may see it"},
            "outcome": {**_OBJ, "description": "scores, winners, details; present once the game is over"},
            "status": {"type": "string", "enum": ["RUNNING", "FINISHED"]},
            "yourSeat": {"type": "integer"}}},
        "SeatToken": {"type": "object", "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}}},
        "GameEvent": {"type": "object", "properties": {
            "gameId": {"type": "string"}, "version": {"type": "integer"}, "event": _OBJ}},
    }


def openapi_document() -> dict[str, Any]:
    paths: dict[str, Any] = {
        "/v1/engines": {"get": _op("ListEngines", "Engines the server runs", _json(
            {"type": "object", "properties": {"engines": {"type": "array", "items": _ref("Engine")}}}),
            tags=("engines",), security=[], errors={"500": _ERRORS["500"]})},
        "/v1/games": {"post": _op("CreateGame", "Create a game; returns a token per human seat", _json(
            {"type": "object", "properties": {"game": _ref("Game"),
                                              "seats": {"type": "array", "items": _ref("SeatToken")}}}),
            body={"type": "object", "required": ["engine"], "additionalProperties": False, "properties": {
                "engine": {"type": "string", "examples": ["tic-tac-toe"]},
                "players": {"type": "integer"}, "options": _OBJ,
                "seats": {"type": "array", "items": {"type": "string", "enum": ["human", "open", "bot"]},
                          "description": "seat kinds, one per seat (default: all human)"}}},
            security=[])},
        "/v1/games/{game_id}/join": {"post": _op("JoinGame", "Claim an open seat", _json(
            {"type": "object", "properties": {"gameId": {"type": "string"}, "seat": {"type": "integer"},
                                              "token": {"type": "string"}}}), params=[_GAME_ID], security=[])},
        "/v1/games/{game_id}": {"get": _op("GetGame", "The game as the caller sees it", _json(_ref("Game")),
            params=[_GAME_ID, {"name": "version", "in": "query", "required": False,
                               "schema": {"type": "integer", "minimum": 1}, "description": "a past version"}],
            security=[{}, {"seatToken": []}])},
        "/v1/games/{game_id}/legal-actions": {"get": _op("ListLegalActions", "Legal actions of the caller's seat",
            _json({"type": "object", "properties": {"actions": {"type": "array", "items": _OBJ},
                                                    "version": {"type": "integer"}, "seat": {"type": "integer"}}}),
            params=[_GAME_ID], security=_BEARER)},
        "/v1/games/{game_id}/actions": {"post": _op("SubmitAction", "Submit an action", _json(_ref("Game")),
            params=[_GAME_ID], security=_BEARER,
            body={"type": "object", "required": ["action"], "additionalProperties": False, "properties": {
                "action": {**_OBJ, "required": ["type"]},
                "requestId": {"type": "string", "maxLength": 128,
                              "description": "a retry with the same id appends nothing and returns the first answer"},
                "expectedVersion": {"type": "integer", "description": "refused with ABORTED/409 when stale"},
                "gameId": {"type": "string"}}})},
        "/v1/games/{game_id}/events": {"get": _op("ListEvents", "The event log, paged and redacted for the caller",
            _json({"type": "object", "properties": {"events": {"type": "array", "items": _ref("GameEvent")},
                                                    "nextPageToken": {"type": "string"}}}),
            params=[_GAME_ID, {"name": "pageSize", "in": "query", "description": "0 or absent: 100",
                               "schema": {"type": "integer", "minimum": 0, "maximum": 1000}},
                    {"name": "pageToken", "in": "query", "schema": {"type": "string"}}],
            security=[{}, {"seatToken": []}])},
        "/v1/games/{game_id}/watch": {"get": _op("WatchGame", "Server-Sent Events: one per new event, redacted",
            {"description": "an event stream. Each game event is a message with `id:` its version, `event:` the "
                            "event's type and `data:` a GameEvent (JSON). A comment line `: keepalive` comes every "
                            "15 s. When the game is over and its last event was sent: `event: end` with "
                            "`data: {\"status\":\"FINISHED\"}`, then the stream closes. On server shutdown: "
                            "`event: shutdown`; reconnect with Last-Event-ID.",
             "content": {"text/event-stream": {"schema": {"type": "string"}}}},
            params=[_GAME_ID, {"name": "afterVersion", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "access_token", "in": "query", "schema": {"type": "string"},
                     "description": "seat token for clients that cannot set headers (EventSource)"},
                    {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string"}}],
            security=[{}, {"seatToken": []}])},
        **ranking_paths(),
        "/healthz": {"get": {"operationId": "Healthz", "summary": "Liveness", "tags": ["operations"],
                             "security": [], "responses": {"200": _json({"type": "object"})}}},
        "/readyz": {"get": {"operationId": "Readyz", "summary": "Readiness: the event store answers",
                            "tags": ["operations"], "security": [],
                            "responses": {"200": _json({"type": "object"}),
                                          "503": _json({"type": "object"}, "not ready")}}},
        "/metrics": {"get": {"operationId": "Metrics", "summary": "Prometheus metrics", "tags": ["operations"],
                             "security": [], "responses": {"200": {"description": "text exposition format",
                                                                   "content": {"text/plain": {"schema":
                                                                                              {"type": "string"}}}}}}},
        "/openapi.json": {"get": {"operationId": "OpenApi", "summary": "This document", "tags": ["operations"],
                                  "security": [], "responses": {"200": _json({"type": "object"})}}},
    }

    def _err(desc: str) -> dict[str, Any]:
        return {"description": desc, "content": {"application/json": {"schema": _ref("Error")}}}

    return {
        "openapi": "3.1.0",
        "info": {"title": "Tablero API", "version": "v1",
                 "description": "Turn-based board games over REST/JSON (same use cases as gRPC tablero.v1)."},
        "paths": paths,
        "components": {
            "schemas": {**_schemas(), **ranking_schemas()},
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                              "description": "a seat token from CreateGame or JoinGame"}},
            "responses": {
                "InvalidArgument": _err("malformed request (INVALID_ARGUMENT)"),
                "Unauthenticated": _err("missing or invalid seat token (UNAUTHENTICATED)"),
                "PermissionDenied": _err("the token opens another game (PERMISSION_DENIED)"),
                "NotFound": _err("unknown game or route (NOT_FOUND)"),
                "Conflict": _err("against the rules (FAILED_PRECONDITION) or stale expectedVersion (ABORTED)"),
                "TooLarge": _err("request body over the size limit (RESOURCE_EXHAUSTED)"),
                "Internal": _err("a server fault, logged with its traceback (INTERNAL)"),
                "Unavailable": _err("the event store is unreachable (UNAVAILABLE)"),
            },
        },
    }
