"""Pieces every HTTP handler shares: state, RPC wrapper, JSON body reading, errors."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.app import AppError, GameService, InvalidArgument, ResourceExhausted

ERROR_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
               405: "METHOD_NOT_ALLOWED", 409: "FAILED_PRECONDITION", 413: "RESOURCE_EXHAUSTED",
               415: "INVALID_ARGUMENT", 500: "INTERNAL", 503: "UNAVAILABLE"}


log = logging.getLogger("tablero.http")


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class HttpState:
    """What the HTTP handlers share: the use cases, limits, readiness and shutdown."""

    def __init__(self, games: GameService, *, max_body: int, max_rankings_body: int = 8 * 1024 * 1024,
                 keepalive: float = 15.0) -> None:
        self.games = games
        self.max_body = max_body
        self.max_rankings_body = max_rankings_body
        self.keepalive = keepalive
        self.shutting_down = asyncio.Event()


def rpc(name: str) -> Callable:
    """Mark a handler with its RPC name (for metrics and logs) and map AppError."""

    def wrap(fn: Callable) -> Callable:
        async def handler(request: Request) -> Response:
            request.scope.setdefault("state", {})["rpc"] = name
            try:
                return await fn(request)
            except AppError as e:
                request.scope["state"]["error_code"] = e.code
                return error_response(e.http_status, e.code, e.message)
            except RecursionError:
                request.scope["state"]["error_code"] = "INVALID_ARGUMENT"
                return error_response(400, "INVALID_ARGUMENT", "request is nested too deeply")
            except Exception:
                # Answered here, inside the CORS middleware, so browsers can read the error too.
                log.exception("unhandled error in %s", name)
                request.scope["state"]["error_code"] = "INTERNAL"
                return error_response(500, "INTERNAL", "internal error; it has been logged")

        handler.__name__ = fn.__name__
        return handler

    return wrap


def st(request: Request) -> HttpState:
    return request.app.state.tablero


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


async def read_json(request: Request, allowed: set[str] | None = None, limit: int | None = None) -> dict[str, Any]:
    """The request body as a JSON object, within the size limit, with only `allowed` keys."""
    limit = limit or st(request).max_body
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ResourceExhausted(f"request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ResourceExhausted(f"request body is larger than {limit} bytes")
    if not body.strip():
        data: Any = {}
    else:
        try:
            data = json.loads(body, parse_constant=_reject_constant)
        except (ValueError, UnicodeDecodeError) as e:
            raise InvalidArgument(f"request body is not valid JSON: {e}") from None
        except RecursionError:
            raise InvalidArgument("request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise InvalidArgument("request body must be a JSON object")
    if allowed is not None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise InvalidArgument(f"unknown field(s) {', '.join(unknown)}; expected {', '.join(sorted(allowed))}")
    return data


