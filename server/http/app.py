"""REST/JSON transport: routes generated from the protos' google.api.http annotations,
served by Starlette, over the same edge (server.api.edge) as gRPC.

JSON follows the protobuf JSON mapping (lowerCamelCase, enums by name).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from server import metrics
from server.api import observe
from server.api.edge import Api
from server.api.openapi import openapi_document
from server.api.rpcs import Rpc, rpcs
from server.api.status import CODE_OF_HTTP, STATUS, error_body, http_status, retry_after
from server.errors import AppError
from server.lifecycle import Lifecycle

from . import sse
from .body import decode

log = logging.getLogger("tablero.http")

# The browser client (clients/web, another package of this repository), served at "/" when present.
WEB = Path(__file__).resolve().parents[2] / "clients" / "web"


def _error(code: str, message: str, status: int | None = None, headers: dict[str, str] | None = None) -> JSONResponse:
    observe.current().code = code
    return JSONResponse(error_body(code, message), status_code=status or STATUS[code][0], headers=headers)


def _app_error(e: AppError) -> JSONResponse:
    wait = retry_after(e)
    return _error(e.code, e.message, http_status(e), {"Retry-After": wait} if wait else None)


def _answering_errors(fn: Callable[[Request], Awaitable[Response]], rpc: str) -> Callable:
    """AppError → its status; anything else → 500, logged. Answered here, inside the CORS
    middleware, so browsers can read the error too."""

    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except AppError as e:
            return _app_error(e)
        except RecursionError:
            return _error("INVALID_ARGUMENT", "request is nested too deeply")
        except Exception:
            log.exception("unhandled error in %s", rpc)
            return _error("INTERNAL", "internal error; it has been logged")

    endpoint.__name__ = rpc
    return endpoint


def _unary(api: Api, rpc: Rpc) -> Callable:
    async def endpoint(request: Request) -> Response:
        observe.current().rpc = rpc.name
        wire = await decode(request, rpc, api.body_limit(rpc.name))
        return JSONResponse(await api.unary(rpc.name, wire))

    return _answering_errors(endpoint, rpc.name)


def _watch(api: Api, rpc: Rpc, keepalive: float) -> Callable:
    async def endpoint(request: Request) -> Response:
        observe.current().rpc = rpc.name
        try:
            wire = await decode(request, rpc, api.body_limit(rpc.name))
            last_id = request.headers.get("last-event-id", "")
            if last_id.isdigit():
                wire["afterVersion"] = max(wire.get("afterVersion", 0), int(last_id))
            items = await api.watch(wire, keepalive)
        except AppError as e:
            if "text/event-stream" not in request.headers.get("accept", ""):
                raise
            # An EventSource: the status says it, and the body says why in SSE.
            observe.current().code = e.code
            return Response(sse.refusal(e.code, e.message), status_code=STATUS[e.code][0],
                            media_type="text/event-stream")
        return StreamingResponse(sse.stream(items), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return _answering_errors(endpoint, rpc.name)


def api_routes(api: Api, keepalive: float) -> list[Route]:
    """One route per annotated RPC, in the order of the protos."""
    return [Route(r.path, _watch(api, r, keepalive) if r.streaming else _unary(api, r), methods=[r.verb.upper()])
            for r in rpcs()]


# --- operations: not RPCs ---------------------------------------------------------------------
# (path, operationId, summary, media type): the routes and their OpenAPI entries.
OPS = [
    ("/healthz", "Healthz", "Liveness: the process runs", "application/json"),
    ("/readyz", "Readyz", "Readiness: the event store answers and the server is not stopping (else 503)",
     "application/json"),
    ("/metrics", "Metrics", "Prometheus metrics", "text/plain"),
    ("/openapi.json", "OpenApi", "This document", "application/json"),
]


def ops_routes(lifecycle: Lifecycle) -> list[Route]:
    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        why = await lifecycle.not_ready()
        if why is not None:
            return JSONResponse({"status": why}, status_code=503)
        return JSONResponse({"status": "ok"})

    async def metrics_endpoint(request: Request) -> Response:
        body, ctype = metrics.exposition()
        return Response(body, media_type=ctype)

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document(OPS))

    handlers = {"Healthz": healthz, "Readyz": readyz, "Metrics": metrics_endpoint, "OpenApi": openapi}
    return [Route(path, handlers[op_id], methods=["GET"]) for path, op_id, _, _ in OPS]


async def _http_error(request: Request, exc: HTTPException) -> Response:
    code = CODE_OF_HTTP.get(exc.status_code, "INVALID_ARGUMENT" if exc.status_code < 500 else "INTERNAL")
    msg = {404: f"no route {request.url.path}", 405: f"{request.method} is not allowed on {request.url.path}"}
    observe.current().code = code
    return JSONResponse(error_body(code, msg.get(exc.status_code, str(exc.detail))), status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return JSONResponse(error_body("INTERNAL", "internal error; it has been logged"), status_code=500)


class Observe:
    """Pure ASGI middleware: opens the shared `Call` (auth + one log line + RPC metrics)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        token = None
        if b"access_token=" in scope.get("query_string", b""):
            token = (parse_qs(scope["query_string"].decode("latin-1")).get("access_token") or [None])[0]
        call = observe.Call("http", authorization=headers.get("authorization"), token=token or None,
                            peer=(scope.get("client") or ("",))[0] or None)
        status = {"code": 500}

        async def send_wrapper(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        ctx = observe.begin(call)
        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            if status["code"] < 400:
                call.code = "OK"
            elif call.code == "OK":
                call.code = CODE_OF_HTTP.get(status["code"], "UNKNOWN")
            call.finish(method=scope["method"], path=scope["path"], status=status["code"])
            observe.end(ctx)


def build_app(api: Api, lifecycle: Lifecycle, *, keepalive: float = 15.0, web: Path | None = WEB) -> Starlette:
    routes: list[BaseRoute] = [*api_routes(api, keepalive), *ops_routes(lifecycle)]
    if web is not None and web.is_dir():
        # After the API: "/" serves index.html; an unknown path is still a JSON 404.
        routes.append(Mount("/", app=StaticFiles(directory=web, html=True), name="web"))
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(Observe),
            Middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST", "OPTIONS"],
                       allow_headers=["Authorization", "Content-Type", "Last-Event-ID"], max_age=600),
        ],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )
    app.router.redirect_slashes = False  # an API: "/v1/games/" is an unknown route, not a redirect
    return app

