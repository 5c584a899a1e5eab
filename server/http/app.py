"""REST/JSON transport: the same use cases as gRPC, served by Starlette.

Paths mirror the google.api.http annotations of proto/tablero/v1/games.proto;
JSON field names follow the protobuf JSON mapping (lowerCamelCase).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.staticfiles import StaticFiles

from server import metrics
from server.app import InvalidArgument, Unauthenticated
from server.auth import bearer

from .common import ERROR_NAMES, HttpState, error_response, read_json, rpc, st
from .openapi import openapi_document
from .rankings import ROUTES as ranking_routes

log = logging.getLogger("tablero.http")
WEB_ROOT = Path(__file__).resolve().parents[2] / "clients" / "web"  # the browser client, served at /

def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise InvalidArgument(f"query parameter {name} must be an integer") from None


def _seat(request: Request, game_id: str, required: bool) -> int | None:
    token = bearer(request.headers.get("authorization")) or request.query_params.get("access_token") or None
    seat = st(request).games.seat_of(token, game_id)
    if seat is not None:
        request.scope["state"]["seat"] = seat
    if required and seat is None:
        raise Unauthenticated("this call needs a seat token: Authorization: Bearer <token>")
    return seat


# --- handlers ------------------------------------------------------------------------
@rpc("ListEngines")
async def list_engines(request: Request) -> Response:
    return JSONResponse(await st(request).games.list_engines())


@rpc("CreateGame")
async def create_game(request: Request) -> Response:
    body = await read_json(request, {"engine", "players", "options", "seats"})
    out = await st(request).games.create_game(
        body.get("engine"), body.get("players"), body.get("options"), body.get("seats")
    )
    request.scope["state"]["game_id"] = out["game"]["id"]
    return JSONResponse(out, status_code=200)


def _same_game(body: dict, gid: str) -> None:
    if "gameId" in body and body["gameId"] != gid:
        raise InvalidArgument(f"gameId {body['gameId']!r} in the body differs from {gid!r} in the path")


@rpc("JoinGame")
async def join_game(request: Request) -> Response:
    gid = _game_id(request)
    _same_game(await read_json(request, {"gameId"}), gid)
    return JSONResponse(await st(request).games.join_game(gid))


@rpc("GetGame")
async def get_game(request: Request) -> Response:
    gid = _game_id(request)
    seat = _seat(request, gid, required=False)
    return JSONResponse(await st(request).games.get_game(gid, seat, _int_param(request, "version")))


@rpc("ListLegalActions")
async def legal_actions(request: Request) -> Response:
    gid = _game_id(request)
    seat = _seat(request, gid, required=True)
    return JSONResponse(await st(request).games.legal_actions(gid, seat))


@rpc("SubmitAction")
async def submit_action(request: Request) -> Response:
    gid = _game_id(request)
    seat = _seat(request, gid, required=True)
    body = await read_json(request, {"action", "requestId", "expectedVersion", "gameId"})
    _same_game(body, gid)
    if "action" not in body:
        raise InvalidArgument('the body needs an "action" object')
    request.scope["state"]["request_id"] = body.get("requestId")
    out = await st(request).games.submit_action(
        gid, seat, body["action"], body.get("requestId"), body.get("expectedVersion")
    )
    return JSONResponse(out)


@rpc("ListEvents")
async def list_events(request: Request) -> Response:
    gid = _game_id(request)
    seat = _seat(request, gid, required=False)
    out = await st(request).games.list_events(
        gid, seat, _int_param(request, "pageSize"), request.query_params.get("pageToken")
    )
    return JSONResponse(out)


@rpc("WatchGame")
async def watch_game(request: Request) -> Response:
    gid = _game_id(request)
    seat = _seat(request, gid, required=False)
    after = _int_param(request, "afterVersion") or 0
    last_id = request.headers.get("last-event-id", "")
    if last_id.isdigit():
        after = max(after, int(last_id))
    state = st(request)
    events = await state.games.watch(gid, seat, after)
    return StreamingResponse(
        _sse(events, state),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


_END = object()


async def _sse(events, state: HttpState):
    """Pump the watch iterator through a queue so keep-alives and shutdown interleave."""
    queue: asyncio.Queue = asyncio.Queue(maxsize=256)

    async def pump() -> None:
        try:
            async for item in events:
                await queue.put(item)
            await queue.put(_END)
        finally:
            await queue.put(None)

    task = asyncio.create_task(pump())
    stop = asyncio.create_task(state.shutting_down.wait())
    try:
        yield b": watching\n\n"
        while True:
            get = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({get, stop}, timeout=state.keepalive, return_when=asyncio.FIRST_COMPLETED)
            if get not in done:
                get.cancel()
                if stop in done:
                    yield b"event: shutdown\ndata: {}\n\n"
                    return
                yield b": keepalive\n\n"
                continue
            item = get.result()
            if item is None:
                return
            if item is _END:
                # The game is over and every event was sent: tell EventSource clients to stop.
                yield b'retry: 3600000\nevent: end\ndata: {"status":"FINISHED"}\n\n'
                return
            data = json.dumps(item, separators=(",", ":"))
            yield f"id: {item['version']}\nevent: {item['event'].get('type', 'event')}\ndata: {data}\n\n".encode()
    finally:
        stop.cancel()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        with contextlib.suppress(Exception):
            await events.aclose()


def _game_id(request: Request) -> str:
    gid = request.path_params["game_id"]
    request.scope["state"]["game_id"] = gid
    return gid


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    state = st(request)
    if state.shutting_down.is_set():
        return JSONResponse({"status": "shutting down"}, status_code=503)
    try:
        await asyncio.wait_for(state.games.store.ping(), 2.0)
    except Exception as e:  # any failure means not ready
        return JSONResponse({"status": "store unreachable", "detail": str(e)}, status_code=503)
    return JSONResponse({"status": "ok"})


async def metrics_endpoint(request: Request) -> Response:
    body, ctype = metrics.exposition()
    return Response(body, media_type=ctype)


async def openapi(request: Request) -> Response:
    return JSONResponse(openapi_document())


async def _http_error(request: Request, exc: HTTPException) -> Response:
    code = ERROR_NAMES.get(exc.status_code, "UNKNOWN")
    msg = {404: f"no route {request.url.path}", 405: f"{request.method} is not allowed on {request.url.path}"}
    return error_response(exc.status_code, code, msg.get(exc.status_code, str(exc.detail)))


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, "INTERNAL", "internal error; it has been logged")


class AccessLog:
    """Pure ASGI middleware: one JSON log line and the RPC metrics per request."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        status = {"code": 500}
        scope.setdefault("state", {})

        async def send_wrapper(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            dt = time.perf_counter() - t0
            st = scope.get("state", {})
            rpc = st.get("rpc")
            code = st.get("error_code") or ERROR_NAMES.get(status["code"], "OK" if status["code"] < 400 else "UNKNOWN")
            if status["code"] < 400:
                code = "OK"
            if rpc:
                metrics.RPC_REQUESTS.labels("http", rpc, code).inc()
                metrics.RPC_LATENCY.labels("http", rpc).observe(dt)
            # One line per request, probes and scrapes included.
            log.info("request", extra={"fields": {
                "transport": "http", "method": scope["method"], "path": scope["path"], "rpc": rpc,
                "status": status["code"], "code": code, "game_id": st.get("game_id"), "seat": st.get("seat"),
                "request_id": st.get("request_id"), "duration_ms": round(dt * 1000, 2),
            }})


def _web_client(not_found):
    static = StaticFiles(directory=WEB_ROOT, html=True)

    async def serve(scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            return await static(scope, receive, send)
        return await not_found(scope, receive, send)

    return serve


def build_app(state: HttpState) -> Starlette:
    routes = [
        Route("/v1/engines", list_engines, methods=["GET"]),
        Route("/v1/games", create_game, methods=["POST"]),
        Route("/v1/games/{game_id}/join", join_game, methods=["POST"]),
        Route("/v1/games/{game_id}", get_game, methods=["GET"]),
        Route("/v1/games/{game_id}/legal-actions", legal_actions, methods=["GET"]),
        Route("/v1/games/{game_id}/actions", submit_action, methods=["POST"]),
        Route("/v1/games/{game_id}/events", list_events, methods=["GET"]),
        Route("/v1/games/{game_id}/watch", watch_game, methods=["GET"]),
        *ranking_routes,
        Route("/openapi.json", openapi, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_endpoint, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(AccessLog),
            Middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST", "OPTIONS"],
                       allow_headers=["Authorization", "Content-Type", "Last-Event-ID"], max_age=600),
        ],
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )
    if WEB_ROOT.is_dir():  # GETs no API route matched: the browser client's files
        app.router.default = _web_client(app.router.default)
    app.router.redirect_slashes = False  # an API: "/v1/games/" is an unknown route, not a redirect
    app.state.tablero = state
    return app
