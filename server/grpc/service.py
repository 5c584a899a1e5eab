"""gRPC transport: decode, authenticate, call the use cases, map errors to status codes."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf import json_format, struct_pb2

from server import metrics
from server.app import AppError, GameService, InvalidArgument, ResourceExhausted
from server.auth import bearer

from .gen import games_pb2, games_pb2_grpc

log = logging.getLogger("tablero.grpc")

STATUS = {
    "INVALID_ARGUMENT": grpc.StatusCode.INVALID_ARGUMENT,
    "UNAUTHENTICATED": grpc.StatusCode.UNAUTHENTICATED,
    "PERMISSION_DENIED": grpc.StatusCode.PERMISSION_DENIED,
    "NOT_FOUND": grpc.StatusCode.NOT_FOUND,
    "FAILED_PRECONDITION": grpc.StatusCode.FAILED_PRECONDITION,
    "ABORTED": grpc.StatusCode.ABORTED,
    "RESOURCE_EXHAUSTED": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "UNAVAILABLE": grpc.StatusCode.UNAVAILABLE,
    "INTERNAL": grpc.StatusCode.INTERNAL,
}


def struct_to_json(value: Any) -> Any:
    """google.protobuf.Struct numbers are doubles: give integral ones back as ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: struct_to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [struct_to_json(v) for v in value]
    return value


def _struct(msg: struct_pb2.Struct) -> dict[str, Any]:
    try:
        value = json_format.MessageToDict(msg)
    except (json_format.Error, ValueError) as e:
        raise InvalidArgument(f"not JSON: {e}") from None
    return struct_to_json(value)


def _to(message_cls, data: dict[str, Any]):
    return json_format.ParseDict(data, message_cls(), ignore_unknown_fields=True)


class Malformed:
    """What a request that does not decode as its message becomes (answered INVALID_ARGUMENT)."""

    def __init__(self, error: str) -> None:
        self.error = error


def _safe_deserializer(cls):
    def deserialize(data: bytes):
        try:
            return cls.FromString(data)
        except Exception as e:  # DecodeError, bad UTF-8 in a string field, ...
            return Malformed(str(e))

    return deserialize


def add_service(servicer, server, module) -> str:
    """Register `servicer` for the one service of generated `module`, like the generated
    add_*_to_server, but with deserializers that turn undecodable bytes into Malformed
    so the handler can answer INVALID_ARGUMENT instead of grpc's UNKNOWN."""
    [service] = module.DESCRIPTOR.services_by_name.values()
    handlers = {}
    for method in service.methods:
        request_cls = getattr(module, method.input_type.name)
        response_cls = getattr(module, method.output_type.name)
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = make(getattr(servicer, method.name),
                                     request_deserializer=_safe_deserializer(request_cls),
                                     response_serializer=response_cls.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
    return service.full_name


def _check_request(request, limit: int | None) -> None:
    if isinstance(request, Malformed):
        raise InvalidArgument(f"malformed request: {request.error}")
    if limit and request.ByteSize() > limit:
        raise ResourceExhausted(f"request is larger than {limit} bytes")


class _Call:
    """Per-call context for metrics and the access log."""

    def __init__(self, method: str, context) -> None:
        self.method, self.context = method, context
        self.fields: dict[str, Any] = {}


def _metadata(context, key: str) -> str | None:
    for k, v in context.invocation_metadata() or ():
        if k == key:
            return v
    return None


def unary(method: str) -> Callable:
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        async def handler(self, request, context):
            call = _Call(method, context)
            t0 = time.perf_counter()
            code = "OK"
            try:
                _check_request(request, getattr(self, "max_body", None))
                return await fn(self, request, context, call)
            except AppError as e:
                code = e.code
                await context.abort(STATUS.get(e.code, grpc.StatusCode.UNKNOWN), e.message)
            except (asyncio.CancelledError, grpc.aio.AbortError):
                code = code if code != "OK" else "CANCELLED"
                raise
            except Exception:
                code = "INTERNAL"
                log.exception("unhandled error in %s", method)
                await context.abort(grpc.StatusCode.INTERNAL, "internal error; it has been logged")
            finally:
                dt = time.perf_counter() - t0
                metrics.RPC_REQUESTS.labels("grpc", method, code).inc()
                metrics.RPC_LATENCY.labels("grpc", method).observe(dt)
                log.info("request", extra={"fields": {"transport": "grpc", "rpc": method, "code": code,
                                                      "duration_ms": round(dt * 1000, 2), **call.fields}})

        return handler

    return wrap


class GameServicer(games_pb2_grpc.GameServiceServicer):
    def __init__(self, games: GameService, shutting_down: asyncio.Event, max_body: int | None = None) -> None:
        self.games = games
        self.shutting_down = shutting_down
        self.max_body = max_body

    def _seat(self, context, game_id: str, call: _Call, required: bool) -> int | None:
        call.fields["game_id"] = game_id
        seat = self.games.seat_of(bearer(_metadata(context, "authorization")), game_id)
        if required and seat is None:
            from server.app import Unauthenticated

            raise Unauthenticated("this call needs a seat token: metadata authorization: Bearer <token>")
        call.fields.update(game_id=game_id, seat=seat)
        return seat

    @unary("ListEngines")
    async def ListEngines(self, request, context, call):
        return _to(games_pb2.ListEnginesResponse, await self.games.list_engines())

    @unary("CreateGame")
    async def CreateGame(self, request, context, call):
        options = _struct(request.options) if request.HasField("options") else {}
        out = await self.games.create_game(request.engine, request.players or None, options, list(request.seats))
        call.fields["game_id"] = out["game"]["id"]
        return _to(games_pb2.CreateGameResponse, out)

    @unary("JoinGame")
    async def JoinGame(self, request, context, call):
        call.fields["game_id"] = request.game_id
        out = await self.games.join_game(request.game_id)
        call.fields["seat"] = out["seat"]
        return _to(games_pb2.JoinGameResponse, out)

    @unary("GetGame")
    async def GetGame(self, request, context, call):
        seat = self._seat(context, request.game_id, call, required=False)
        version = request.version if request.HasField("version") else None
        return _to(games_pb2.Game, await self.games.get_game(request.game_id, seat, version))

    @unary("ListLegalActions")
    async def ListLegalActions(self, request, context, call):
        seat = self._seat(context, request.game_id, call, required=True)
        return _to(games_pb2.ListLegalActionsResponse, await self.games.legal_actions(request.game_id, seat))

    @unary("SubmitAction")
    async def SubmitAction(self, request, context, call):
        seat = self._seat(context, request.game_id, call, required=True)
        if not request.HasField("action"):
            raise InvalidArgument("the request needs an action")
        call.fields["request_id"] = request.request_id[:128] or None
        expected = request.expected_version if request.HasField("expected_version") else None
        out = await self.games.submit_action(
            request.game_id, seat, _struct(request.action), request.request_id or None, expected
        )
        return _to(games_pb2.Game, out)

    @unary("ListEvents")
    async def ListEvents(self, request, context, call):
        seat = self._seat(context, request.game_id, call, required=False)
        out = await self.games.list_events(request.game_id, seat, request.page_size or None, request.page_token)
        return _to(games_pb2.ListEventsResponse, out)

    async def WatchGame(self, request, context):
        call = _Call("WatchGame", context)
        code = "OK"
        t0 = time.perf_counter()
        try:
            _check_request(request, self.max_body)
            seat = self._seat(context, request.game_id, call, required=False)
            events = await self.games.watch(request.game_id, seat, request.after_version)
        except AppError as e:
            metrics.RPC_REQUESTS.labels("grpc", "WatchGame", e.code).inc()
            await context.abort(STATUS.get(e.code, grpc.StatusCode.UNKNOWN), e.message)
            return
        stop = asyncio.create_task(self.shutting_down.wait())
        nxt = None
        try:
            while True:
                nxt = asyncio.ensure_future(events.__anext__())
                done, _ = await asyncio.wait({nxt, stop}, return_when=asyncio.FIRST_COMPLETED)
                if nxt not in done:
                    nxt.cancel()
                    with contextlib.suppress(BaseException):
                        await nxt
                    code = "UNAVAILABLE"
                    await context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down; watch again")
                try:
                    item = nxt.result()
                except StopAsyncIteration:
                    break
                yield _to(games_pb2.GameEvent, item)
        except asyncio.CancelledError:
            code = "CANCELLED"
            raise
        finally:
            stop.cancel()
            # A client that cancels (or whose deadline passes) leaves the pending read
            # running: cancel it first, or the generator can't be closed and leaks.
            if nxt is not None and not nxt.done():
                nxt.cancel()
                with contextlib.suppress(BaseException):
                    await nxt
            with contextlib.suppress(BaseException):
                await events.aclose()
            metrics.RPC_REQUESTS.labels("grpc", "WatchGame", code).inc()
            log.info("request", extra={"fields": {"transport": "grpc", "rpc": "WatchGame", "code": code,
                                                  "duration_ms": round((time.perf_counter() - t0) * 1000, 2),
                                                  **call.fields}})
