"""REST route of the RankingService: POST /v1/rankings:aggregate."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from server.app import InvalidArgument

from .common import read_json, rpc, st


@rpc("AggregateRankings")
async def aggregate_rankings(request: Request) -> Response:
    from rankings import RankingError, aggregate

    body = await read_json(request, limit=st(request).max_rankings_body)
    try:
        # In a worker thread: a large aggregation must not stall the game traffic on this loop.
        return JSONResponse(await asyncio.to_thread(aggregate, body))
    except RankingError as e:
        raise InvalidArgument(str(e)) from None


ROUTES = [Route("/v1/rankings:aggregate", aggregate_rankings, methods=["POST"])]


def ranking_paths() -> dict[str, Any]:
    return {"/v1/rankings:aggregate": {"post": {
        "operationId": "AggregateRankings",
        "summary": "Merge many ranked (or unranked) game lists into one ranking",
        "tags": ["rankings"], "security": [],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/AggregateRankingsRequest"}}}},
        "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/AggregateRankingsResponse"}}}},
            "400": {"$ref": "#/components/responses/InvalidArgument"},
            "413": {"$ref": "#/components/responses/TooLarge"},
        },
    }}}


def ranking_schemas() -> dict[str, Any]:
    return {
        "RankingList": {"type": "object", "required": ["source", "entries"], "additionalProperties": False,
                       "properties": {"source": {"type": "string"}, "title": {"type": "string"},
                                      "ranked": {"type": "boolean", "default": True},
                                      "entries": {"type": "array", "items": {"type": "string"}}}},
        "AggregateRankingsRequest": {"type": "object", "required": ["lists"], "additionalProperties": False,
                                     "properties": {
                                         "lists": {"type": "array", "items": {"$ref": "#/components/schemas/RankingList"}},
                                         "aliases": {"type": "object", "additionalProperties": {"type": "string"}},
                                         "scheme": {"$ref": "#/components/schemas/Scheme"}}},
        "Scheme": {"type": "object", "additionalProperties": False, "properties": {
            "positionPoints": {"type": "array", "items": {"type": "number"},
                               "description": "points of positions 1, 2, ... (default: the post's table)"},
            "topBonus": {"type": "number", "default": 10}, "repetitionBonus": {"type": "number", "default": 1},
            "unranked": {"type": "string", "enum": ["mean", "zero"], "default": "mean"}}},
        "RankedGame": {"type": "object", "properties": {
            "rank": {"type": "integer"}, "title": {"type": "string"}, "points": {"type": "number"},
            "positionPoints": {"type": "number"}, "topBonus": {"type": "number"},
            "repetitionBonus": {"type": "number"}, "appearances": {"type": "integer"},
            "positions": {"type": "object", "additionalProperties": {"type": "integer"}}}},
        "AggregateRankingsResponse": {"type": "object", "properties": {
            "ranking": {"type": "array", "items": {"$ref": "#/components/schemas/RankedGame"}},
            "totals": {"type": "object", "properties": {"lists": {"type": "integer"}, "sources": {"type": "integer"},
                                                        "games": {"type": "integer"}}}}},
    }
