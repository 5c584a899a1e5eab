"""Reading a REST request into its JSON form: body, path and query, checked against
the RPC's request message."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from server.api import codec
from server.api.rpcs import Rpc
from server.errors import InvalidArgument, ResourceExhausted


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request body as a JSON object, within the size limit (an empty body is {})."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ResourceExhausted(f"request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ResourceExhausted(f"request body is larger than {limit} bytes")
    if not body.strip():
        return {}
    try:
        data = json.loads(body, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidArgument(f"request body is not valid JSON: {e}") from None
    except RecursionError:
        raise InvalidArgument("request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise InvalidArgument("request body must be a JSON object")
    return data


async def decode(request: Request, rpc: Rpc, limit: int) -> dict[str, Any]:
    """The request of `rpc` in its JSON form, as gRPC would have it after decoding."""
    wire: dict[str, Any] = {}
    if rpc.body:
        body = await read_json(request, limit)
        codec.check(rpc.request_descriptor, body)
        wire = {k: v for k, v in body.items() if v is not None}
    for f in rpc.path_fields:
        value = request.path_params[f.json_name]
        if f.json_name in wire and wire[f.json_name] != value:
            raise InvalidArgument(f"{f.json_name} {wire[f.json_name]!r} in the body differs from {value!r} in the path")
        wire[f.json_name] = value
    for f in rpc.query_fields:
        raw = request.query_params.get(f.json_name)
        if raw not in (None, ""):
            wire[f.json_name] = codec.query_value(f, raw)
    return wire
