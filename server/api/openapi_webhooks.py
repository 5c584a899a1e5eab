"""The OpenAPI 3.1 `webhooks` of the document: what `TABLERO_WEBHOOKS` endpoints are sent
(docs/webhooks.md), one operation per kind, so a portal generates its receiver's types from
`/openapi.json` as it does its client's. The payloads are made by `server.notify.events`; the
webhook's body is Standard Webhooks' `{"id", "type", "timestamp", "data"}`
(`server.notify.webhooks`). `tests/notify/test_webhook_schemas.py` checks real deliveries of
whole games against these schemas."""

from __future__ import annotations

from typing import Any

from tablero.server.notify.events import KINDS
from tablero.server.portal.table import REASONS

_INT = {"type": "integer", "minimum": 0}
_USER = {"type": ["string", "null"], "description": "the portal user's id (JWT sub) in that seat; null when the "
                                                   "seat has no user (an open seat, a bot, a game made without a portal)"}
_SEATS = {"type": "array", "items": {
    "type": "object", "required": ["seat", "userId"], "additionalProperties": False,
    "properties": {"seat": _INT, "userId": _USER,
                   "deadline": {"type": "number", "description": "Unix seconds: when this seat's turn clock runs "
                                                                 "out (only while a clock runs for its turn)"}}}}

# kind -> (summary, data's own fields (besides gameId and version), required among them)
_DATA: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "game.created": ("The game exists", {
        "engine": {"type": "string"}, "players": {"type": "integer", "minimum": 1},
        "seats": {"type": "array", "items": {
            "type": "object", "required": ["seat", "kind", "userId"], "additionalProperties": False,
            "properties": {"seat": _INT, "userId": _USER,
                           "kind": {"enum": ["human", "open", "bot"],
                                    "description": "the seat as created, in the words of a create's `seats` "
                                                   "(lower case, not the API's SEAT_KIND_* enum names)"}}}}},
        ["engine", "players", "seats"]),
    "game.started": ("The last open seat is taken (at creation when none is open)", {}, []),
    "seat.joined": ("An open seat is taken", {"seat": _INT, "userId": _USER}, ["seat", "userId"]),
    "turn.started": ("Seats must act that did not have to before", {
        "seats": {**_SEATS, "description": "every seat now to act"},
        "newly": {"type": "array", "items": _INT, "description": "the seats whose turn just began"}},
        ["seats", "newly"]),
    "turn.timed_out": ("A turn clock ran out", {"seat": _INT, "userId": _USER}, ["seat", "userId"]),
    "seat.left": ("A seat resigned, timed out or was abandoned", {
        "seat": _INT, "userId": _USER, "reason": {"enum": list(REASONS)},
        "then": {"enum": ["bot", "forfeit"], "description": "a bot plays the seat on, or it forfeits"}},
        ["seat", "userId", "reason", "then"]),
    "game.finished": ("The game has an outcome", {
        "outcome": {"type": "object", "description": "as GET /v1/games/{gameId} shows it"}}, ["outcome"]),
}


def payload_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of the body a webhook of `kind` is sent."""
    _, fields, required = _DATA[kind]
    data = {"type": "object", "additionalProperties": False,
            "required": ["gameId", "version", *required],
            "properties": {"gameId": {"type": "string"},
                           "version": {**_INT, "description": "the log version of the event that caused it "
                                                             "(0 for created, joined, started)"},
                           **fields}}
    return {"type": "object", "additionalProperties": False, "required": ["id", "type", "timestamp", "data"],
            "properties": {"id": {"type": "string", "description": "evt_<game>_<version>_<kind>: stable, the same "
                                                                   "as the webhook-id header on every retry"},
                           "type": {"const": kind},
                           "timestamp": {"type": "string", "format": "date-time"},
                           "data": data}}


def webhooks() -> dict[str, Any]:
    """The document's `webhooks`: one POST per kind, its body's schema, any 2xx is success."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        summary = _DATA[kind][0]
        out[kind] = {"post": {
            "operationId": "Webhook_" + kind.replace(".", "_"), "summary": summary, "tags": ["webhooks"],
            "description": "Sent to every TABLERO_WEBHOOKS endpoint that asks for this kind, signed per Standard "
                           "Webhooks (webhook-id, webhook-timestamp, webhook-signature headers; docs/webhooks.md).",
            "requestBody": {"required": True, "content": {"application/json": {"schema": payload_schema(kind)}}},
            "responses": {"2XX": {"description": "Delivered; anything else (or no answer in time) is retried"}}}}
    return out
