"""gRPC transport: every RPC of the protos served over the shared edge (server.api.edge).

The servicers are generated from the descriptors (one handler per method: decode →
edge → encode); each handler opens the same `Call` as the REST path (auth, metrics, the log
line) itself — a grpc.aio interceptor cost about 10 % of a call. Undecodable request bytes become INVALID_ARGUMENT
(grpc's own deserializer would answer UNKNOWN).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from tablero.server.api import codec, observe
from tablero.server.api.edge import Api
from tablero.server.api.fanout import Encoded
from tablero.server.api.rpcs import MODULES
from tablero.server.api.status import grpc_details, grpc_status, retry_after
from tablero.server.errors import Aborted, AppError, InvalidArgument, ResourceExhausted, Unavailable
from tablero.server.http.deadline import RequestDeadlines

log = logging.getLogger("tablero.grpc")


class Malformed:
    """What a request that does not decode as its message becomes."""

    def __init__(self, error: str) -> None:
        self.error = error


def _safe_deserializer(cls) -> Callable[[bytes], Any]:
    def deserialize(data: bytes):
        try:
            return cls.FromString(data)
        except Exception as e:  # DecodeError, bad UTF-8 in a string field, ...
            return Malformed(str(e))

    return deserialize


def _wire(api: Api, rpc: str, request) -> dict[str, Any]:
    if isinstance(request, Malformed):
        raise InvalidArgument(f"malformed request: {request.error}")
    limit = api.body_limit(rpc)
    if request.ByteSize() > limit:
        raise ResourceExhausted(f"request is larger than {limit} bytes", "BODY_TOO_LARGE")
    return codec.from_message(request)


# gRPC compression: the server compresses with gzip (compression level "low") for clients
# whose grpc-accept-encoding lists gzip, identity for the others (gRPC core negotiates it);
# any compressed request is accepted. Messages under COMPRESS_FROM bytes go uncompressed.
SERVER_OPTIONS = [("grpc.default_compression_level", 1)]  # GRPC_COMPRESS_LEVEL_LOW: gzip
COMPRESS_FROM = 1024


def _compress_if_big(message, context):
    if message.ByteSize() < COMPRESS_FROM:
        context.disable_next_message_compression()
    return message


async def _encode(response_cls, out: dict[str, Any], context):
    """The response message; a large one is built in a worker thread (off the event loop)."""
    if codec.is_large(out):
        return _compress_if_big(await asyncio.to_thread(codec.to_message, response_cls, out), context)
    return _compress_if_big(codec.to_message(response_cls, out), context)


def _unary(api: Api, rpc: str, response_cls, deadlines: RequestDeadlines | None = None) -> Callable:
    """`deadlines`: TABLERO_REQUEST_DEADLINE, from when the request has arrived; a client's
    shorter deadline ends the call first (grpc cancels it: DEADLINE_EXCEEDED, the client's)."""
    async def handle(request, context):
        call = _open(rpc, context)
        task = None
        if deadlines is not None:
            task = asyncio.current_task()
            deadlines.enter(task)  # type: ignore[arg-type]
        try:
            return await _encode(response_cls, await api.unary(rpc, _wire(api, rpc, request)), context)
        except BaseException as e:
            refusal = deadlines.refusal(task) if deadlines is not None and isinstance(e, asyncio.CancelledError) \
                else None
            await _failed(call, refusal or e, context)  # (a refusal: UNAVAILABLE SERVER_DEADLINE, abort raises)
            raise
        finally:
            if task is not None:
                deadlines.leave(task)  # type: ignore[union-attr]
            call.finish()

    return handle


def _stream(api: Api, rpc: str, response_cls) -> Callable:
    inner = _watch(api, rpc, response_cls)

    async def handle(request, context) -> AsyncIterator[Any]:
        call = _open(rpc, context)
        try:
            async for message in inner(request, context):
                yield message
        except BaseException as e:
            await _failed(call, e, context)
            raise
        finally:
            call.finish()

    return handle


def _watch(api: Api, rpc: str, response_cls) -> Callable:
    # One message per event and audience, however many watch it (server.api.fanout).
    message = Encoded(lambda data: codec.to_message(response_cls, data))

    async def handle(request, context) -> AsyncIterator[Any]:
        items = await api.watch(_wire(api, rpc, request), rpc=rpc)
        # The watch is accepted (a refusal was raised above): its headers go now, so a client
        # knows the stream is answered even when the game is quiet (gRPC sends no keep-alive
        # message; an SDK that lost the server ends its outage here, not at the next event).
        await context.send_initial_metadata(())
        async with contextlib.aclosing(items):  # closed at once (it holds a store watcher)
            async for item in items:
                if item.kind == "event":
                    yield _compress_if_big(message(item.data), context)
                elif item.kind == "shutdown":
                    raise Unavailable("the server is shutting down; watch again", "SHUTTING_DOWN")
                elif item.kind == "error":
                    body = item.data["error"]
                    err = AppError(body["message"], body.get("reason"), body.get("metadata"))
                    err.code = body["code"]
                    raise err
                elif item.kind == "end":
                    return
                elif item.kind == "reset":  # docs/api.md: the client re-reads from that version
                    raise Aborted(f"history rewritten; resume from version {item.data['version']}", "HISTORY_REWRITTEN",
                                  {"version": str(item.data["version"])})

    return handle


def add_services(server: grpc.aio.Server, api: Api, request_deadline: float = 0) -> list[str]:
    """Register every service of the protos; returns their full names. `request_deadline`:
    seconds a unary call may take (TABLERO_REQUEST_DEADLINE; UNAVAILABLE SERVER_DEADLINE after;
    0: none, the client's deadline alone)."""
    deadlines = RequestDeadlines(request_deadline) if request_deadline else None
    names = []
    for module in MODULES:
        for service in module.DESCRIPTOR.services_by_name.values():
            handlers = {}
            for m in service.methods:
                request_cls, response_cls = getattr(module, m.input_type.name), getattr(module, m.output_type.name)
                if m.server_streaming:
                    make, fn = grpc.unary_stream_rpc_method_handler, _stream(api, m.name, response_cls)
                else:
                    make, fn = grpc.unary_unary_rpc_method_handler, _unary(api, m.name, response_cls, deadlines)
                handlers[m.name] = make(fn, request_deserializer=_safe_deserializer(request_cls),
                                        response_serializer=response_cls.SerializeToString)
            server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
            names.append(service.full_name)
    return names


def _open(rpc: str, context) -> observe.Call:
    """The shared `Call` (auth, status mapping, metrics, one log line) of a tablero RPC, open."""
    auth = traced = None
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            auth = value
        elif key == "x-request-id":
            traced = value
    call = observe.Call("grpc", authorization=auth, rpc=rpc, peer=_address(context.peer()),
                        fields=observe.traced(traced))
    observe.begin(call)
    return call


async def _failed(call: observe.Call, e: BaseException, context) -> None:
    """A call that raised `e`: a refusal ends it with its status (context.abort raises);
    a cancellation is recorded as such; grpc's own abort goes on as it is."""
    if isinstance(e, asyncio.CancelledError):
        call.code = "CANCELLED"
    elif isinstance(e, Exception) and not isinstance(e, grpc.aio.AbortError):
        status, message, trailing = _refusal(call, e)
        # Recorded before the status goes out: a client that reads /metrics (or the log) as soon
        # as it has its answer finds the call there.
        call.finish()
        await context.abort(status, message, trailing_metadata=trailing)


def _address(peer: str | None) -> str | None:
    """ipv4:127.0.0.1:5000 / ipv6:[::1]:5000 → the address without the port."""
    if not peer:
        return None
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer


def _refusal(call: observe.Call, e: Exception) -> tuple[grpc.StatusCode, str, tuple[tuple[str, str | bytes], ...]]:
    """The status, message and trailing metadata a failed call ends with (its code set on `call`)."""
    if isinstance(e, AppError):
        call.code, call.fields["reason"] = e.code, e.reason
        if e.reason == "SHUTTING_DOWN":  # a watch served to its planned end, as SSE's `tablero-shutdown`
            call.code, call.fields["ended"] = "OK", "shutdown"  # (the client is told UNAVAILABLE: watch again)
            del call.fields["reason"]
        status = grpc_status(e)
        wait = retry_after(e)
        details = (("grpc-status-details-bin", grpc_details(status, e.message, e.reason, e.metadata)),)
        return status, e.message, ((("retry-after", wait),) if wait else ()) + details
    if isinstance(e, RecursionError):
        call.code = "INVALID_ARGUMENT"
        message = "request is nested too deeply"
        return grpc.StatusCode.INVALID_ARGUMENT, message, (
            ("grpc-status-details-bin", grpc_details(grpc.StatusCode.INVALID_ARGUMENT, message, "INVALID_ARGUMENT")),)
    call.code = "INTERNAL"
    log.exception("unhandled error in %s", call.rpc)
    message = "internal error; it has been logged"
    return grpc.StatusCode.INTERNAL, message, (
        ("grpc-status-details-bin", grpc_details(grpc.StatusCode.INTERNAL, message, "INTERNAL")),)

