"""Reading a REST request into its JSON form: body, path and query, checked against
the RPC's request message."""

from __future__ import annotations

import zlib
from typing import Any

from starlette.requests import Request
from tablero.server.api import codec
from tablero.server.api.rpcs import Rpc
from tablero.server.errors import InvalidArgument, ResourceExhausted

from . import strict_json
from .slow_clients import read_body


async def read_json(request: Request, limit: int, timeout: float) -> dict[str, Any]:
    """The request body as a JSON object (an empty body is {}), parsed strictly
    (server.http.strict_json), within `limit` bytes and `timeout` seconds.

    Raises InvalidArgument or ResourceExhausted; slow_clients.read_body's ConnectionError
    (the client left mid-body), TimeoutError and OverflowError reach the endpoint's
    error handling."""
    gzipped = _gzipped(request.headers.get("content-encoding"))
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and len(declared) < 20 and int(declared) > limit:
        raise ResourceExhausted(f"request body is larger than {limit} bytes", "BODY_TOO_LARGE")
    body = await read_body(request.receive, limit, timeout)
    return json_object(_gunzip(body, limit) if gzipped and body else body)  # (no body: {} either way)


def _gzipped(header: str | None) -> bool:
    """Whether the body comes gzipped (`Content-Encoding: gzip`, as a mobile HTTP client may
    send it); `identity` or none: as it is. Any other coding is refused by name, never read as
    JSON (it was: a gzipped body got "the body is not UTF-8")."""
    if not header:  # (almost every request)
        return False
    codings = [c.strip().lower() for c in header.split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if not codings:
        return False
    if codings in (["gzip"], ["x-gzip"]):
        return True
    raise InvalidArgument(f"Content-Encoding {header!r} is not supported: send the body as it is, or gzipped "
                          "(Content-Encoding: gzip)")


def _gunzip(body: bytes, limit: int) -> bytes:
    """A gzipped body, held to the same `limit` once decompressed (a small body must not
    inflate past it)."""
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(body, limit + 1)
        if len(out) <= limit and not inflate.eof:
            out += inflate.flush()
    except zlib.error as e:
        raise InvalidArgument(f"request body is not valid gzip (Content-Encoding: gzip): {e}") from None
    if len(out) > limit:
        raise ResourceExhausted(f"the request body exceeds {limit} bytes once decompressed", "BODY_TOO_LARGE")
    if not inflate.eof:
        raise InvalidArgument("request body is not valid gzip (Content-Encoding: gzip): it ends mid-stream")
    return out


_BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark


def json_object(body: bytes) -> dict[str, Any]:
    """A request body read as a JSON object: strict JSON (no duplicate keys, no 31-digit
    numbers, ...); empty is `{}`. InvalidArgument otherwise. (REST bodies; Connect JSON too.)
    A leading UTF-8 byte order mark is ignored (RFC 8259 8.1 lets a parser ignore it; Windows
    tools and some .NET clients write one)."""
    if body[:3] == _BOM:
        body = body[3:]
    if not body.strip():
        return {}
    try:
        data = strict_json.loads(body)
    except strict_json.BadJson as e:
        raise InvalidArgument(f"request body is not valid JSON: {e}") from None
    except RecursionError:
        raise InvalidArgument("request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise InvalidArgument("request body must be a JSON object")
    return data


def _check_query(request: Any, rpc: Rpc) -> None:
    """Query parameters are held to what a body is: each a field of the request (the watch
    also takes access_token, for EventSource), by its JSON or its proto name, given once."""
    qp = request.query_params
    names = [k for k, _ in qp.multi_items()] if hasattr(qp, "multi_items") else list(request.query_names)
    if not names:
        return
    known, aliases = rpc.query_names, rpc.query_aliases
    unknown = sorted({k for k in names if k not in known and k not in aliases})
    if unknown:
        expected = ", ".join(sorted(known)) or "none"
        raise InvalidArgument(f"unknown query parameter(s) {', '.join(unknown)}; expected {expected}")
    fields = [aliases.get(k, k) for k in names]
    repeated = sorted({k for k in fields if fields.count(k) > 1})
    if repeated:
        both = sorted({k for k in names if k in aliases and aliases[k] in names})
        named = f" ({', '.join(f'{k} and {aliases[k]} name the same field' for k in both)})" if both else ""
        raise InvalidArgument(f"query parameter(s) given more than once: {', '.join(repeated)}{named}")


async def decode(request: Request, rpc: Rpc, limit: int, timeout: float) -> dict[str, Any]:
    """The request of `rpc` in its JSON form, as gRPC would have it after decoding."""
    wire: dict[str, Any] = {}
    if rpc.body:
        body = await read_json(request, limit, timeout)
        codec.check(rpc.request_descriptor, body)
        wire = {k: v for k, v in body.items() if v is not None}
    for f in rpc.path_fields:
        value = request.path_params[f.json_name]
        if f.json_name in wire and wire[f.json_name] != value:
            raise InvalidArgument(f"{f.json_name} {wire[f.json_name]!r} in the body differs from {value!r} in the path")
        wire[f.json_name] = value
    _check_query(request, rpc)
    for f in rpc.query_fields:
        raw = request.query_params.get(f.json_name)
        if raw is None and f.name != f.json_name:
            raw = request.query_params.get(f.name)
        if raw not in (None, ""):
            wire[f.json_name] = codec.query_value(f, raw)
    return wire
