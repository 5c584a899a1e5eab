"""Connect and gRPC-Web for browsers: every RPC of the protos on the HTTP port at its
standard path (`/tablero.v1.GameService/SubmitAction`), WatchGame and WatchMatchTicket as server
streams.

The protocol is the `connectrpc` package's ASGI application (Connect with JSON or binary
protobuf, and gRPC-Web; gRPC itself stays on the gRPC port), with gRPC-Web's text mode
(`application/grpc-web-text`, base64 bodies: the official grpc-web client's default) translated
in front of it by `grpc_web_text.GrpcWebText`. Each endpoint is a thin
translation onto the shared edge (server.api.edge), as the gRPC servicers are: the request
message → its JSON form (server.api.codec) → `Api.unary` / `Api.watch` inside an open
`observe.Call` (auth, rate limits, log line, metrics) → the response message. Refusals
become Connect errors with the same codes as gRPC; an error's `reason` (when it has one)
rides along as a `google.rpc.ErrorInfo` detail. A watch ends as the gRPC one does: at the
game's end (OK), `ABORTED` "history rewritten; resume from version N" on a reset,
`UNAVAILABLE` when the server shuts down; after KEEPALIVE quiet seconds it sends an empty
message (version 0) as a keep-alive, and the first one after FIRST_KEEPALIVE seconds when the
stream has sent nothing yet (so a client knows its watch is answered).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import descriptor_pb2, json_format
from google.rpc import error_details_pb2
from protobuf.wkt import Any as AnyMessage
from starlette.middleware.cors import CORSMiddleware
from tablero.server.api import codec, observe
from tablero.server.api.edge import Api
from tablero.server.api.fanout import Encoded
from tablero.server.api.rpcs import MODULES
from tablero.server.errors import Aborted, AppError, InvalidArgument, ResourceExhausted, Unavailable

from .body import json_object
from .deadline import RequestDeadlines
from .grpc_web_text import GrpcWebText

log = logging.getLogger("tablero.connect")

PREFIX = "/tablero."  # the paths this app answers (every service of the protos)
ERROR_DOMAIN = "tablero.v1"  # google.rpc.ErrorInfo.domain, as on gRPC

# What a page on another origin may send and read: any header it asks for (the Connect and
# gRPC-Web ones, and whatever its fetch instrumentation adds: traceparent, sentry-trace, baggage).
_ALLOW_HEADERS = ["*"]
_EXPOSE_HEADERS = ["Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin", "Retry-After"]

_IDEMPOTENCY = {
    descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS: IdempotencyLevel.NO_SIDE_EFFECTS,
    descriptor_pb2.MethodOptions.IDEMPOTENT: IdempotencyLevel.IDEMPOTENT,
}


def _code(name: str) -> Code:
    """Our error code (gRPC's name, e.g. FAILED_PRECONDITION) → Connect's."""
    try:
        return Code(name.lower())
    except ValueError:
        return Code.UNKNOWN


def connect_error(e: AppError) -> ConnectError:
    """The Connect error of a refusal: our code, the message and, when the error names a
    reason (server.errors), a google.rpc.ErrorInfo detail with it and its metadata."""
    details = []
    reason = getattr(e, "reason", None)
    if reason:
        metadata = {str(k): str(v) for k, v in (getattr(e, "metadata", None) or {}).items()}
        info = error_details_pb2.ErrorInfo(reason=str(reason), domain=ERROR_DOMAIN, metadata=metadata)
        details.append(ErrorDetail(AnyMessage(type_url="type.googleapis.com/google.rpc.ErrorInfo",
                                              value=info.SerializeToString())))
    return ConnectError(_code(e.code), e.message, details)


@contextlib.asynccontextmanager
async def _observed(rpc: str, ctx: Any) -> AsyncIterator[observe.Call]:
    """The shared `Call` around one RPC (as the gRPC interceptor opens it); every failure
    leaves as a ConnectError with our code."""
    headers = ctx.request_headers
    peer = (ctx.client_address or "").rsplit(":", 1)[0] or None
    call = observe.Call("connect", authorization=headers.get("authorization"), rpc=rpc, peer=peer,
                        fields=observe.traced(headers.get("x-request-id")))
    token = observe.begin(call)
    try:
        yield call
    except asyncio.CancelledError:
        call.code = "CANCELLED"
        raise
    except AppError as e:
        call.code, call.fields["reason"] = e.code, e.reason
        if e.reason == "SHUTTING_DOWN":  # a watch served to its planned end, as gRPC's and SSE's
            call.code, call.fields["ended"] = "OK", "shutdown"  # (the client is told UNAVAILABLE: watch again)
            del call.fields["reason"]
        wait = getattr(e, "retry_after", None)
        if wait is not None:
            ctx.response_headers["retry-after"] = str(max(1, int(-(-wait // 1))))
        raise connect_error(e) from None
    except RecursionError:
        call.code = "INVALID_ARGUMENT"
        raise connect_error(InvalidArgument("request is nested too deeply")) from None
    except Exception:
        call.code = "INTERNAL"
        log.exception("unhandled error in %s", rpc)
        raise connect_error(AppError("internal error; it has been logged")) from None
    finally:
        call.finish()
        observe.end(token)


def _wire(api: Api, rpc: str, request: Any) -> dict[str, Any]:
    limit = api.body_limit(rpc)
    if request.ByteSize() > limit:
        raise ResourceExhausted(f"request is larger than {limit} bytes", "BODY_TOO_LARGE")
    return codec.from_message(request)


def _unary(api: Api, rpc: str, response_cls: type, deadlines: RequestDeadlines | None = None) -> Any:
    """`deadlines`: TABLERO_REQUEST_DEADLINE, from when the request has been read, whether the
    call sent `Connect-Timeout-Ms` or not (connectrpc's timeout, a shorter one, ends it first)."""
    async def handle(request: Any, ctx: Any) -> Any:
        async with _observed(rpc, ctx):
            task = None
            if deadlines is not None:
                task = asyncio.current_task()
                deadlines.enter(task)  # type: ignore[arg-type]
            try:
                out = await api.unary(rpc, _wire(api, rpc, request))
                if codec.is_large(out):
                    return await asyncio.to_thread(codec.to_message, response_cls, out)
                return codec.to_message(response_cls, out)
            except asyncio.CancelledError:
                refusal = deadlines.refusal(task) if deadlines is not None else None
                if refusal is None:
                    raise
                raise refusal from None  # (_observed makes it the Connect error, its reason a detail)
            finally:
                if task is not None:
                    deadlines.leave(task)  # type: ignore[union-attr]

    return handle


# A browser's fetch() stream cannot see HTTP/2 pings or TCP keep-alives: after this many quiet
# seconds the watch sends an empty message (version 0, no event), so a page can tell a quiet
# game from a dead connection (a laptop that slept, a proxy that dropped it).
KEEPALIVE = 15.0
# A Connect stream's headers go with its first message (connectrpc), so a client learns that its
# watch is answered only from a message: a watch with nothing to send (a quiet game, a client
# back after an outage) sends its first keep-alive after this many seconds, not KEEPALIVE.
FIRST_KEEPALIVE = 1.0


def _stream(api: Api, rpc: str, response_cls: type) -> Any:
    # One message per event and audience, however many watch it (server.api.fanout).
    message = Encoded(lambda data: codec.to_message(response_cls, data))

    async def handle(request: Any, ctx: Any) -> AsyncIterator[Any]:
        async with _observed(rpc, ctx):
            items = await api.watch(_wire(api, rpc, request), keepalive=KEEPALIVE, rpc=rpc,
                                    first=min(FIRST_KEEPALIVE, KEEPALIVE))
            async with contextlib.aclosing(items):  # closed at once (it holds a store watcher)
                async for item in items:
                    if item.kind == "event":
                        yield message(item.data)
                    elif item.kind == "keepalive":
                        yield response_cls()
                    elif item.kind == "end":
                        return
                    else:
                        raise _stream_end(item)

    return handle


def _with_reason(err: AppError, reason: str | None, metadata: dict[str, str] | None = None) -> AppError:
    if reason:
        err.reason = reason  # type: ignore[attr-defined]
    if metadata:
        err.metadata = metadata  # type: ignore[attr-defined]
    return err


def _stream_end(item: Any) -> AppError:
    """A watch item that ends the stream with an error (the same as on gRPC)."""
    if item.kind == "shutdown":
        return _with_reason(Unavailable("the server is shutting down; watch again"), "SHUTTING_DOWN")
    if item.kind == "reset":  # docs/api.md: the client re-reads from that version
        version = item.data["version"]
        return _with_reason(Aborted(f"history rewritten; resume from version {version}"), "HISTORY_REWRITTEN",
                            {"version": str(version)})
    body = item.data["error"]
    err = AppError(body["message"])
    err.code = body["code"]
    return _with_reason(err, body.get("reason"), body.get("metadata"))


def endpoints(api: Api, deadlines: RequestDeadlines | None = None) -> dict[str, Endpoint]:
    """Every method of the protos' services, by its path."""
    out: dict[str, Endpoint] = {}
    for module in MODULES:
        for service in module.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                request_cls, response_cls = getattr(module, m.input_type.name), getattr(module, m.output_type.name)
                streaming = m.server_streaming
                info = MethodInfo(name=m.name, service_name=service.full_name, input=request_cls,
                                  output=response_cls,
                                  idempotency_level=_IDEMPOTENCY.get(m.GetOptions().idempotency_level,
                                                                     IdempotencyLevel.UNKNOWN),
                                  stream_type=StreamType.SERVER_STREAM if streaming else StreamType.UNARY)
                path = f"/{service.full_name}/{m.name}"
                if streaming:
                    out[path] = Endpoint.server_stream(info, _stream(api, m.name, response_cls))
                else:
                    out[path] = Endpoint.unary(info, _unary(api, m.name, response_cls, deadlines))
    return out


class _CompactJson:
    """Connect's JSON codec without the pretty-printing (google.protobuf's default indent)."""

    def __init__(self) -> None:
        self._decoder = google_protobuf_json_codec()

    def name(self) -> str:
        return "json"

    def encode(self, message: Any) -> bytes:
        # Struct numbers are doubles: whole ones are written as integers, as REST writes them.
        return json.dumps(codec.struct_to_json(json_format.MessageToDict(message))).encode()

    def decode(self, data: bytes | bytearray, message_class: type) -> Any:
        """The request read as REST reads a body (server.http.body): strict JSON (no
        duplicate keys, no 31-digit numbers, ...), then the message's field names and JSON
        types (server.api.codec.check: a field given by both its names, a wrong type, an enum
        name it does not know), so a refusal says what REST says; but unknown fields are
        ignored (Connect's forward compatibility). Only then the protobuf message."""
        body = json_object(bytes(data))
        if not body:
            return message_class()
        codec.check(message_class.DESCRIPTOR, body, ignore_unknown=True)
        try:
            return json_format.ParseDict(body, message_class(), ignore_unknown_fields=True)
        except json_format.ParseError as e:  # what the JSON types allow and the fields do not: a range
            raise InvalidArgument(_parse_error(e)) from None


class _Reasoned:
    """A codec whose decoding failures are INVALID_ARGUMENT with their reason (ErrorInfo), as
    every other refusal (connectrpc's own would carry no detail). A request over its RPC's
    body limit (TABLERO_MAX_BODY, as on REST) is refused by its size as sent, before it is
    read: connectrpc's own read limit is the largest RPC's, and the message's size once parsed
    would let 5 MB of JSON whitespace through to a 256-KB method."""

    def __init__(self, codec: Any, limits: Mapping[type, int]) -> None:
        self._codec = codec
        self._limits = limits

    def name(self) -> str:
        return self._codec.name()

    def encode(self, message: Any) -> bytes:
        return self._codec.encode(message)

    def decode(self, data: bytes | bytearray, message_class: type) -> Any:
        limit = self._limits.get(message_class)
        if limit is not None and len(data) > limit:
            raise connect_error(ResourceExhausted(f"request is larger than {limit} bytes", "BODY_TOO_LARGE"))
        try:
            return self._codec.decode(data, message_class)
        except AppError as e:
            raise connect_error(e) from None
        except RecursionError:
            raise connect_error(InvalidArgument("request is nested too deeply")) from None
        except Exception:  # the protobuf parser's own words name its internals: not sent
            raise connect_error(InvalidArgument(
                f"the request is not a {message_class.DESCRIPTOR.name} in {self.name()}")) from None


_FIELD = re.compile(r"Failed to parse (\w+) field")


def _parse_error(e: Exception) -> str:
    """A readable refusal for a protobuf JSON parse error after codec.check passed: the
    innermost field it names, and that its value is out of the field's range."""
    fields = _FIELD.findall(str(e))
    where = ".".join(fields) if fields else "a field"
    return f"{where} is out of range for its type (int32: -2147483648 to 2147483647)"


class _Application(ConnectASGIApplication):
    path = PREFIX


def connect_app(api: Api, deadlines: RequestDeadlines | None = None) -> Any:
    """The ASGI app for PREFIX paths: Connect (JSON and binary) and gRPC-Web (binary, and text
    through GrpcWebText), with CORS. `deadlines`: the unary calls' (TABLERO_REQUEST_DEADLINE)."""
    table = endpoints(api, deadlines)

    def resolve(_: Any) -> Mapping[str, Endpoint]:
        return table

    read_max = max(api.max_body, api.max_rankings_body)
    limits = {e.method.input: api.body_limit(e.method.name) for e in table.values()}
    app = _Application(service=object(), endpoints=resolve, read_max_bytes=read_max,
                       codecs=[_Reasoned(google_protobuf_binary_codec(), limits), _Reasoned(_CompactJson(), limits)])
    # gRPC-Web's text mode (the official grpc-web client's default, its only streaming mode)
    # in front: connectrpc speaks gRPC-Web in binary only.
    gettable = {path for path, e in table.items() if e.method.idempotency_level == IdempotencyLevel.NO_SIDE_EFFECTS
                and e.method.stream_type == StreamType.UNARY}
    # A preflight allows what the calls take: POST, and GET only while some RPC takes Connect's GET.
    return CORSMiddleware(_UnknownMethod(GrpcWebText(app, max_bytes=read_max), set(table), gettable),
                          allow_origins=["*"],
                          allow_methods=[*(["GET"] if gettable else []), "POST", "OPTIONS"], allow_headers=_ALLOW_HEADERS,
                          expose_headers=_EXPOSE_HEADERS, max_age=600)


class _UnknownMethod:
    """A Connect call to a path no RPC has: 404 with a Connect error body naming the reason
    (UNKNOWN_METHOD), where connectrpc's answer has no body; and one with an HTTP method the RPC
    does not take (POST, or GET for an RPC without side effects): 405 with `Allow` and a body
    naming METHOD_NOT_ALLOWED, where connectrpc's 405 has no body. gRPC-Web calls keep
    connectrpc's answers (a gRPC-Web client reads a missing grpc-status as UNIMPLEMENTED from
    the status)."""

    def __init__(self, app: Any, known: set[str], gettable: set[str]) -> None:
        self.app, self.known, self.gettable = app, known, gettable

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        if path in self.known and (method == "POST" or (method == "GET" and path in self.gettable)):
            head = dict(scope.get("headers") or ())
            version = head.get(b"connect-protocol-version")
            if (version is not None and version != b"1" and method == "POST"
                    and not head.get(b"content-type", b"").lower().startswith(b"application/grpc")):
                # connectrpc's refusal of another protocol version names no reason.
                await _connect_refusal(send, 400, "INVALID_ARGUMENT", "connect-protocol-version must be '1': got "
                                       f"{version.decode('latin-1')[:40]!r}", code="invalid_argument")
                return
            ctype = head.get(b"content-type", b"").decode("latin-1")
            await self.app(scope, receive, send if ctype.lower().startswith("application/grpc")
                           else _MediaTypeRefusal(send, path, ctype))
            return
        if path not in self.known and method not in ("POST", "GET"):
            await self.app(scope, receive, send)
            return
        ctype = dict(scope.get("headers") or ()).get(b"content-type", b"").decode("latin-1").lower()
        if ctype.startswith("application/grpc"):
            await self.app(scope, receive, send)
            return
        if path in self.known:
            allow = "GET, POST" if path in self.gettable else "POST"
            await _connect_refusal(send, 405, "METHOD_NOT_ALLOWED",
                                   f"{path[:200]} takes {allow}, not {method}", [(b"allow", allow.encode())])
        else:
            await _connect_refusal(send, 404, "UNKNOWN_METHOD",
                                   f"no method {path[:200]!r}: a path is /tablero.v1.<Service>/<Method>")


class _MediaTypeRefusal:
    """`send` for a Connect call: connectrpc's 415 (a content type it does not take) has no body;
    this one gives it a Connect error (invalid_argument, reason INVALID_ARGUMENT as REST's 415)
    naming the content type and the ones taken (connectrpc's `Accept-Post` is kept)."""

    def __init__(self, send: Any, path: str, ctype: str) -> None:
        self.send, self.path, self.ctype, self.refused = send, path, ctype, False

    async def __call__(self, message: Any) -> None:
        if message["type"] == "http.response.start" and message["status"] == 415:
            self.refused = True
            accept = dict(message.get("headers") or ()).get(b"accept-post", b"application/json, application/proto")
            got = repr(self.ctype[:80]) if self.ctype else "none"
            await _connect_refusal(self.send, 415, "INVALID_ARGUMENT",
                                   f"{self.path[:200]} takes content-type {accept.decode('latin-1')} (Connect) or "
                                   f"application/grpc-web+proto, not {got}",
                                   [(b"accept-post", accept)], code="invalid_argument")
        elif not self.refused:
            await self.send(message)


async def _connect_refusal(send: Any, status: int, reason: str, message: str,
                           headers: Sequence[tuple[bytes, bytes]] = (), code: str = "unimplemented") -> None:
    """A Connect error (code unimplemented unless told) with a google.rpc.ErrorInfo naming `reason`."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=ERROR_DOMAIN)
    body = json.dumps({"code": code, "message": message,
                       "details": [{"type": "google.rpc.ErrorInfo",
                                    "value": base64.b64encode(info.SerializeToString()).decode().rstrip("=")}]})
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body.encode()})
