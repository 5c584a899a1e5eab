"""REST/JSON transport: routes generated from the protos' google.api.http annotations,
served by Starlette, over the same edge (server.api.edge) as gRPC.

JSON follows the protobuf JSON mapping (lowerCamelCase, enums by name).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, NamedTuple

import tablero.web
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from tablero.engines.core import messages
from tablero.server import fastjson, metrics
from tablero.server.api import observe
from tablero.server.api.edge import Api
from tablero.server.api.openapi import openapi_document
from tablero.server.api.rpcs import Rpc, rpcs
from tablero.server.api.status import CODE_OF_HTTP, STATUS, error_body, http_status, retry_after
from tablero.server.api.watch import WatchItem
from tablero.server.errors import AppError, InvalidArgument, Unavailable
from tablero.server.lifecycle import Lifecycle

from . import sse, strict_json
from .body import decode
from .connect import PREFIX as CONNECT_PREFIX
from .connect import connect_app
from .deadline import RequestDeadlines
from .deadline import passed as deadline_passed
from .etags import GzipETags
from .fast import GZIP_IN_THREAD, GZIP_LEVEL, GZIP_MINIMUM, TOKEN_IN_URL, FastRoutes, accepts_gzip, gzip_etag
from .slow_clients import CLIENT_TIMEOUT

log = logging.getLogger("tablero.http")


# The browser client (clients/web, another package of this repository), served at "/" when present.
WEB = Path(tablero.web.__file__).parent  # the browser client, package data (clients/web)


class Answer(NamedTuple):
    """A REST answer before it is sent: status, JSON body (b"" for none), extra headers."""

    status: int
    body: bytes
    headers: dict[str, str] | None = None
    media_type: str = "application/json"

    def response(self) -> Response:
        return Response(self.body, status_code=self.status, headers=self.headers,
                        media_type=self.media_type if self.body else None)


def _error(code: str, message: str, status: int | None = None, headers: dict[str, str] | None = None,
           reason: str | None = None, metadata: dict[str, str] | None = None) -> Answer:
    body = error_body(code, message, reason, metadata)
    call = observe.current()
    call.code, call.fields["reason"] = code, body["error"]["reason"]  # the log line says why, too
    return Answer(status or STATUS[code][0], _dumps(body), headers)


_dumps = fastjson.dumps


async def json_body(data: Any) -> bytes:
    """A 200 answer's JSON, encoded here. Not in a worker thread, even when large: orjson (and
    the standard library's C encoder, its fallback) holds the GIL for the whole call, so a
    thread would not let the event loop run meanwhile, and telling a large answer from a
    small one (`codec.is_large`, a walk of the answer in Python) cost more than encoding it
    (a game's view: ~10 calls; an engine's schemas: ~45). gRPC builds its messages in Python,
    and there the thread helps (`server.grpc.service._encode`); compressing a large body
    releases the GIL and runs in a thread too (`server.http.fast`)."""
    return _dumps(data)


# A 401 says how to authenticate (RFC 9110 11.6.1): a seat token or a portal JWT, as a bearer.
_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="tablero"'}


def _error_headers(e: AppError) -> dict[str, str] | None:
    wait = retry_after(e)
    if wait:
        return {"Retry-After": wait}
    return _CHALLENGE if e.code == "UNAUTHENTICATED" else None


def failure(e: Exception, rpc: str) -> Answer:
    """What a request that raised `e` answers: AppError → its status; a client that left
    mid-body → nothing (499); slow or oversized bodies → their codes; anything else → 500,
    logged."""
    if isinstance(e, AppError):
        return _error(e.code, e.message, http_status(e), _error_headers(e), e.reason, e.metadata)
    if isinstance(e, ConnectionError):
        # The client went away mid-body: nobody to answer, nothing to log.
        observe.current().code = "CANCELLED"
        return Answer(499, b"")
    if isinstance(e, TimeoutError):
        # The client's fault (its body came too slowly): answered DEADLINE_EXCEEDED (408), but
        # logged and counted as CLIENT_TIMEOUT, which the SLO rules do not count as the server's
        # failure (a server-side deadline stays DEADLINE_EXCEEDED).
        answer = _error("DEADLINE_EXCEEDED", str(e) or "the request body arrived too slowly",
                        headers={"Connection": "close"})
        observe.current().code = CLIENT_TIMEOUT
        metrics.child(metrics.HTTP_CLIENT_TIMEOUTS, "body").inc()
        return answer
    if isinstance(e, OverflowError):
        return _error("RESOURCE_EXHAUSTED", str(e), headers={"Connection": "close"}, reason="BODY_TOO_LARGE")
    if isinstance(e, RecursionError):
        return _error("INVALID_ARGUMENT", "request is nested too deeply")
    log.exception("unhandled error in %s", rpc)
    return _error("INTERNAL", "internal error; it has been logged")




async def answer_unary(api: Api, rpc: Rpc, request: Any, body_timeout: float,
                       deadlines: RequestDeadlines | None = None) -> Answer:
    """One unary RPC over REST. `request` has `headers`, `receive`, `path_params` and
    `query_params` (a Starlette Request, or the fast path's `server.http.fast.Incoming`).
    `deadlines`: TABLERO_REQUEST_DEADLINE, from when the body has arrived (its own time is
    the client's, bounded by `body_timeout`)."""
    task = None
    try:
        observe.current().rpc = rpc.name
        if "access_token" in request.query_params:
            raise InvalidArgument(TOKEN_IN_URL, "TOKEN_IN_URL")
        wire = await decode(request, rpc, api.body_limit(rpc.name), body_timeout)
        if deadlines is not None:
            task = asyncio.current_task()
            deadlines.enter(task)  # type: ignore[arg-type]
        negotiated = rpc.name == "GetEngineMessages" and not wire.get("lang")
        if negotiated:  # no `lang`: the language the Accept-Language header wants most (docs/api.md)
            wire = {**wire, "lang": messages.from_accept_language(request.headers.get("accept-language"))}
        out = await api.unary(rpc.name, wire)
        # `response_body` in the annotation: REST answers that one field (e.g. the bare Game).
        field = rpc.response_field
        if rpc.name in CACHED:
            return cached_answer(request, out, vary_language=negotiated)
        return Answer(200, await json_body(out[field.json_name] if field is not None else out))
    except asyncio.CancelledError:
        # uvicorn cancels what still runs when TABLERO_SHUTDOWN_GRACE is over: the stop the
        # operator asked for, not a server fault (it was a 500 with a traceback, counted INTERNAL).
        # Answered UNAVAILABLE, which clients retry elsewhere (with its requestId: at most once).
        current = asyncio.current_task()
        if current is not None:
            current.uncancel()
        if deadlines is not None and current is not None and deadlines.expired(current):
            return failure(deadline_passed(deadlines.seconds), rpc.name)
        return failure(Unavailable("the server stopped before this call was done; retry (an action retried with "
                                   "the same requestId is applied at most once)", "SHUTTING_DOWN"), rpc.name)
    except Exception as e:
        return failure(e, rpc.name)
    finally:
        if task is not None:
            deadlines.leave(task)  # type: ignore[union-attr]


# Answers that change only with a deployment (the message catalogs): an ETag (the answer's
# `etag`); a request whose If-None-Match names the ETag gets 304. Kept by caches but asked
# again each time (no-cache: a 304 costs a round trip and no body): with a lifetime, a page
# served new JavaScript after an upgrade read the old texts for up to that long, and showed
# raw keys for texts the old catalog did not have.
CACHED = frozenset({"GetEngineMessages"})
CACHE_CONTROL = "public, no-cache"


def cached_answer(request: Any, out: dict[str, Any], vary_language: bool = False) -> Answer:
    """The answer with its ETag, or 304 when If-None-Match names it. The gzipped answer has a
    validator of its own (`gzip_etag`, written by the fast path as it compresses): a strong ETag
    says two answers are the same bytes, which a gzipped and an identity body are not. Either
    validator revalidates (the texts are the same), and the 304 carries the one this request's
    200 would have carried (RFC 9110 15.4.5). `vary_language`: the language came from the
    Accept-Language header (no `lang` asked), so a cache keeps an answer per that header."""
    etag = str(out.get("etag") or "")
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL,
               "Vary": "Accept-Encoding, Accept-Language" if vary_language else "Accept-Encoding"}
    body = _dumps(out)
    if etag:
        asked = {t.strip().removeprefix("W/") for t in str(request.headers.get("if-none-match") or "").split(",")}
        if etag in asked or gzip_etag(etag) in asked or "*" in asked:
            if len(body) >= GZIP_MINIMUM and accepts_gzip(request.headers.get("accept-encoding") or ""):
                headers["ETag"] = gzip_etag(etag)
            return Answer(304, b"", headers)
    return Answer(200, body, headers)


def _unary(api: Api, rpc: Rpc, body_timeout: float, deadlines: RequestDeadlines | None) -> Callable:
    async def endpoint(request: Request) -> Response:
        return (await answer_unary(api, rpc, request, body_timeout, deadlines)).response()

    endpoint.__name__ = rpc.name
    endpoint.rpc = rpc  # type: ignore[attr-defined]  # the fast path serves it (server.http.fast)
    return endpoint


SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
# What the fast path sends (server.http.fast._SSE): no charset parameter.
_SSE_HEAD = {"Content-Type": "text/event-stream", **SSE_HEADERS}


async def _nothing() -> AsyncIterator[bytes]:
    return
    yield b""  # an async generator that yields nothing


async def answer_watch(api: Api, rpc: Rpc, request: Any, keepalive: float,
                       body_timeout: float) -> Answer | AsyncIterator[WatchItem]:
    """The watch over REST: a refusal (an Answer), or the watch items (`sse.stream` frames
    them; the fast path, server.http.fast, frames them itself)."""
    try:
        call = observe.current()
        call.rpc = rpc.name
        # EventSource cannot set headers: this is the one route that takes the token in the URL.
        call.token = request.query_params.get("access_token") or None
        wire = await decode(request, rpc, api.body_limit(rpc.name), body_timeout)
        last_id = strict_json.last_event_id(request.headers.get("last-event-id"))
        # A reconnecting EventSource resumes after the later of its Last-Event-ID and the URL's
        # afterVersion (the page it was opened from may be older than what it has received).
        from_header = last_id is not None and last_id > wire.get("afterVersion", 0)
        if from_header:
            wire["afterVersion"] = last_id
            wire.pop("afterHash", None)  # it names the URL's version, not the header's
        try:
            items = await api.watch(wire, keepalive, rpc.name)
        except InvalidArgument as e:
            if from_header and e.message.startswith("afterVersion"):
                raise InvalidArgument("Last-Event-ID" + e.message.removeprefix("afterVersion")) from None
            raise
    except AppError as e:
        if sse.event_source(request, rpc):
            # An EventSource shows a page nothing of a refused answer (neither status nor body):
            # a 200 stream of one `tablero-error` message, which it can read, and no retry.
            observe.current().code, observe.current().fields["reason"] = e.code, e.reason
            return Answer(200, sse.refusal(e), SSE_HEADERS, "text/event-stream")
        if "text/event-stream" not in request.headers.get("accept", ""):
            return failure(e, rpc.name)
        # An SSE client: the status says it, and the body says why in SSE.
        observe.current().code, observe.current().fields["reason"] = e.code, e.reason
        return Answer(http_status(e), sse.refusal(e), _error_headers(e), "text/event-stream")
    except Exception as e:
        return failure(e, rpc.name)
    return items


def _watch(api: Api, rpc: Rpc, keepalive: float, body_timeout: float) -> Callable:
    async def endpoint(request: Request) -> Response:
        out = await answer_watch(api, rpc, request, keepalive, body_timeout)
        if isinstance(out, Answer):
            return out.response()
        if request.method == "HEAD":
            # The headers a GET would get, and no stream: nothing reads one (RFC 9110 9.3.2),
            # and it would run until the game ends.
            with contextlib.suppress(Exception):
                await out.aclose()  # type: ignore[attr-defined]
            return StreamingResponse(_nothing(), headers=_SSE_HEAD)
        return StreamingResponse(sse.stream(out, legacy=not sse.event_source(request, rpc)), headers=_SSE_HEAD)

    endpoint.__name__ = rpc.name
    endpoint.watch = rpc  # type: ignore[attr-defined]  # the fast path serves it (server.http.fast)
    return endpoint


def api_routes(api: Api, keepalive: float, body_timeout: float,
               deadlines: RequestDeadlines | None = None) -> list[Route]:
    """One route per annotated RPC, in the order of the protos."""
    return [Route(r.path, _watch(api, r, keepalive, body_timeout) if r.streaming
                  else _unary(api, r, body_timeout, deadlines), methods=[r.verb.upper()]) for r in rpcs()]


class WebFiles(StaticFiles):
    """The web client's folder as its files: the page and its assets, not what else the folder
    holds (its README, the package's __init__.py), which answer 404 like any unknown path."""

    SERVED = frozenset({".html", ".js", ".mjs", ".css", ".svg", ".png", ".ico", ".webp", ".woff2", ".json",
                        ".webmanifest", ".map"})

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        full, found = super().lookup_path(path)
        if found is not None and stat.S_ISREG(found.st_mode) and os.path.splitext(full)[1].lower() not in self.SERVED:
            return "", None
        return full, found


# --- operations: not RPCs ---------------------------------------------------------------------
# (path, operationId, summary, media type): the routes and their OpenAPI entries.
OPS = [
    ("/healthz", "Healthz", "Liveness: the process runs", "application/json"),
    ("/readyz", "Readyz", "Readiness: the event store answers and the server is not stopping (else 503)",
     "application/json"),
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

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document(OPS))

    # /metrics is not here: it has its own port (server/metrics_server.py, TABLERO_METRICS_PORT).
    handlers = {"Healthz": healthz, "Readyz": readyz, "OpenApi": openapi}
    return [Route(path, handlers[op_id], methods=["GET"]) for path, op_id, _, _ in OPS]


async def _http_error(request: Request, exc: HTTPException) -> Response:
    code = CODE_OF_HTTP.get(exc.status_code, "INVALID_ARGUMENT" if exc.status_code < 500 else "INTERNAL")
    msg = {404: f"no route {request.url.path}", 405: f"{request.method} is not allowed on {request.url.path}"}
    observe.current().code = code
    reason = {405: "METHOD_NOT_ALLOWED", 404: "ROUTE_NOT_FOUND", 415: "INVALID_ARGUMENT"}.get(exc.status_code)
    return JSONResponse(error_body(code, msg.get(exc.status_code, str(exc.detail)), reason),
                        status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return JSONResponse(error_body("INTERNAL", "internal error; it has been logged"), status_code=500)


def close_call(call: observe.Call, method: str, path: str, status: int) -> None:
    """The call's code from the answer's status (unless the handler named it), then its log
    line and metrics."""
    if status < 400:
        call.code = call.failed or "OK"  # an SSE watch that ended with an error item counts as that
    elif call.code == "OK":
        call.code = CODE_OF_HTTP.get(status, "UNKNOWN")
    call.finish(method=method, path=path, status=status)


class Observe:
    """Pure ASGI middleware: opens the shared `Call` (auth + one log line + RPC metrics)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        call = observe.Call("http", authorization=headers.get("authorization"),
                            peer=(scope.get("client") or ("",))[0] or None,
                            fields=observe.traced(headers.get("x-request-id")))
        status = {"code": 500}

        async def send_wrapper(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        ctx = observe.begin(call)
        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            close_call(call, scope["method"], scope["path"], status["code"])
            observe.end(ctx)


def build_app(api: Api, lifecycle: Lifecycle, *, keepalive: float = 15.0, web: Path | None = WEB,
              body_timeout: float = 30.0, request_deadline: float = 0) -> Starlette:
    """`body_timeout`: seconds a request body may take to arrive (408 after); `request_deadline`:
    seconds a unary call may take after it (503 SERVER_DEADLINE after; 0: none), REST's and
    Connect's (gRPC's: server.grpc.service)."""
    deadlines = RequestDeadlines(request_deadline) if request_deadline else None
    routes: list[BaseRoute] = [*api_routes(api, keepalive, body_timeout, deadlines), *ops_routes(lifecycle)]
    if web is not None and web.is_dir():
        # After the API: "/" serves index.html; an unknown path is still a JSON 404.
        routes.append(Mount("/", app=WebFiles(directory=web, html=True), name="web"))
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(Observe),
            Middleware(GzipETags),  # a gzipped answer's ETag is its own (server.http.etags)
            # text/event-stream is excluded by default: SSE is never buffered for compression.
            Middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL,
                       thread_minimum_size=GZIP_IN_THREAD),
            # Any request header a page asks for (allow_headers "*" answers the preflight with
            # the headers it names): tracing (traceparent, sentry-trace, baggage) and request ids
            # added by a page's fetch instrumentation must not fail the call.
            Middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST", "OPTIONS"],
                       allow_headers=["*"], expose_headers=["Retry-After"], max_age=600),
        ],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )
    app.router.redirect_slashes = False  # an API: "/v1/games/" is an unknown route, not a redirect
    # The RPCs skip Starlette's per-request layers (same answers, see server.http.fast).
    return FastRoutes(app, lambda rpc, incoming: answer_unary(api, rpc, incoming, body_timeout, deadlines),
                      lambda rpc, incoming: answer_watch(api, rpc, incoming, keepalive, body_timeout), close_call,
                      # Connect and gRPC-Web at the RPCs' own paths (server.http.connect).
                      mounts=((CONNECT_PREFIX, connect_app(api, deadlines)),) if api is not None else ())

