"""Slow clients: a request's headers must arrive within `header_timeout` seconds of its
first byte (408 and close otherwise), so a client trickling headers (slowloris) cannot
hold connections open; a new connection that sends nothing at all is closed after the
same time (before, it was held for good: enough of them exhaust the open-file limit).
Uvicorn times out only idle keep-alive connections; this wraps whichever HTTP protocol
uvicorn uses (h11 or httptools). The body has its own limit, applied where it is read
(`read_body`). Headers are bounded too: at most MAX_HEADER_BYTES and MAX_HEADERS (431;
h11 has its own bound).

A request refused for its slow headers is logged (one JSON line, as every request, code
CLIENT_TIMEOUT) and counted (`tablero_http_client_timeouts_total{phase="headers"}`): the
client's fault, which the SLO rules do not count as the server's.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import re
import time
from email.utils import formatdate
from typing import Any

import httptools
from tablero.server import metrics

log = logging.getLogger("tablero.http")

# The code a REST request too slow to arrive (408) is logged and counted under: the client's
# fault, unlike DEADLINE_EXCEEDED (a server-side deadline), which the SLO rules count.
CLIENT_TIMEOUT = "CLIENT_TIMEOUT"

MAX_HEADER_BYTES = 64 * 1024
MAX_URL_BYTES = 16 * 1024  # the request target (path and query): 414 beyond (RFC 9112 3)
MAX_HEADERS = 256
# Raw bytes of one header section the parsers may hold before it is complete: httptools keeps an
# unfinished header line in memory and reports it (on_header) only at its end, so without this an
# endless header line is read and buffered until the header deadline (tens of MB per connection).
# The bound counts separators too (": ", CRLF), so it leaves room above MAX_HEADER_BYTES.
MAX_HEADER_SECTION = MAX_HEADER_BYTES + 8 * MAX_HEADERS

def _refusal(status: bytes, code: str, message: str, reason: str | None = None) -> bytes:
    """A whole answer that ends the connection: JSON as every error of the API, with a Date
    (RFC 9110 6.6.1). Written by the protocol itself (no request cycle to answer it), before the
    headers are all read: whether an Origin came is not known, so the CORS header that lets a
    page on another origin read the reason is always there (the API's answers carry `*`)."""
    body = json.dumps({"error": {"code": code, "message": message, "reason": reason or code}},
                      separators=(",", ":")).encode()
    return (b"HTTP/1.1 %b\r\ncontent-type: application/json\r\nconnection: close\r\ndate: %b\r\n"
            b"access-control-allow-origin: *\r\n"
            b"content-length: %d\r\n\r\n%b" % (status, formatdate(usegmt=True).encode(), len(body), body))


def _431() -> bytes:
    return _refusal(b"431 Request Header Fields Too Large", "INVALID_ARGUMENT",
                    "request headers too large (at most 65536 bytes and 256 fields)", "HEADERS_TOO_LARGE")


class Disconnect:
    """One per connection, reachable from its requests through CONNECTION (a context
    variable): `lost` once the client's connection is gone, and `callback`, when a stream set
    one, is called then. A stream (the SSE watch) learns of a client that left without a
    task waiting on `receive()` for it."""

    __slots__ = ("lost", "callback", "requests")

    def __init__(self, requests: Any = None) -> None:
        self.lost = False
        self.callback: Any = None
        self.requests = requests  # the connection's _Requests: whether the last request is all here


# The connection of the request being handled. Set by Guard before it hands bytes on: the
# server creates a request's task from there (or from the previous request's task, for a
# pipelined one), and a task starts with a copy of the context it was created in.
CONNECTION: contextvars.ContextVar[Disconnect | None] = contextvars.ContextVar("tablero_connection", default=None)


def _414() -> bytes:
    return _refusal(b"414 URI Too Long", "INVALID_ARGUMENT", f"request target too long (at most {MAX_URL_BYTES} bytes)",
                    "URI_TOO_LONG")


def _408() -> bytes:
    return _refusal(b"408 Request Timeout", "DEADLINE_EXCEEDED", "request headers arrived too slowly", "REQUEST_TIMEOUT")


class _Requests:
    """httptools callbacks that follow where each request's headers begin and end, and
    their size (httptools' own parser, public API: one pass over bytes the server parses
    again, about a microsecond per request)."""

    __slots__ = ("in_headers", "size", "count", "refused", "http10", "parser", "begun", "upgrade", "complete",
                 "head", "url")

    def __init__(self) -> None:
        self.complete = False  # the last request begun has arrived whole (body included)
        self.parser: Any = None  # set by the guard
        self.http10 = False  # an HTTP/1.0 request was seen: the connection ends with its answer
        self.head = False  # a HEAD request was seen on this connection (its answer has no body)
        self.in_headers = False
        self.size = self.count = 0
        self.begun = 0  # requests begun on this connection
        self.upgrade = b""  # the current request's Upgrade header (lower case)
        self.url = b""  # the current request's target, as far as it has arrived (for the 408's log line)
        self.refused: bytes | None = None  # the answer of a request the parse was stopped for

    def _refuse(self, answer: bytes) -> None:
        self.refused = answer
        raise ValueError("refused")  # stops the parser

    def on_message_begin(self) -> None:
        self.in_headers, self.size, self.count = True, 0, 0
        self.complete = False
        self.begun += 1
        self.upgrade = self.url = b""

    def on_url(self, url: bytes) -> None:
        self.url += url
        self.size += len(url)  # the request line counts against the same bound
        if self.size > MAX_URL_BYTES:
            self._refuse(_414())

    def on_header(self, name: bytes, value: bytes) -> None:
        self.size += len(name) + len(value)
        self.count += 1
        if len(name) == 7 and name.lower() == b"upgrade":  # (len first: no lower() of every name)
            self.upgrade = value.strip().lower()
        if self.size > MAX_HEADER_BYTES or self.count > MAX_HEADERS:
            self._refuse(_431())

    def on_headers_complete(self) -> None:
        self.in_headers = False
        if self.parser.get_http_version() == "1.0":
            self.http10 = True
        if not self.head and self.parser.get_method() == b"HEAD":
            self.head = True

    def on_message_complete(self) -> None:
        self.complete = True  # the whole request (its body too) has arrived


# A header block that declares a body of one byte or more.
_BODY_FOLLOWS = re.compile(rb"\r\ncontent-length: *[1-9]", re.IGNORECASE)


class _Unchunked:
    """The transport as the server writes to it, with two differences. (1) An answer's status
    line and headers are held until its next write (the body, almost always written in the
    same step of the same task) and go out with it in one write: uvicorn writes them at
    `http.response.start` and the body at `http.response.body`, two system calls and two
    segments per answer otherwise. An answer that may have no body (HEAD, 204, 304, a length
    of 0, an SSE stream's opening) is written at the latest when the loop next runs its ready
    callbacks; whatever is held goes out before anything else is written or the transport
    closes, so the order of bytes never changes.
    (2) An answer to an HTTP/1.0 request goes out without chunked transfer coding, which
    HTTP/1.0 does not know (RFC 9112 6.1): uvicorn frames a streamed answer (the SSE watch) in
    chunks whatever the request's version, and such a connection ends with its answer anyway,
    which tells its end. Every other call is the transport's own."""

    __slots__ = ("_t", "_requests", "_chunked", "_started", "_held", "_loop")

    def __init__(self, transport: Any, requests: _Requests, loop: asyncio.AbstractEventLoop) -> None:
        self._t, self._requests, self._loop = transport, requests, loop
        self._chunked = self._started = False
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        if self._requests.http10:
            data = self._http10(data)
        held = self._held
        if held is not None:
            self._held = None
            data = held + data
        elif data.startswith(b"HTTP/1.1 ") and data.endswith(b"\r\n\r\n"):  # a status line and headers
            self._held = data
            if self._requests.head or not _BODY_FOLLOWS.search(data):
                # No body may follow (a HEAD's answer, 204, 304, an empty one, or a stream that
                # has not begun): out at the loop's next ready callbacks. Otherwise the body's
                # write takes it (uvicorn writes a declared length in full, or closes).
                self._loop.call_soon(self.flush)
            return
        if data:
            self._t.write(data)

    def flush(self) -> None:
        held = self._held
        if held is not None:
            self._held = None
            self._t.write(held)

    def writelines(self, lines: Any) -> None:
        self.write(b"".join(lines))

    def close(self) -> None:
        self.flush()
        self._t.close()

    def write_eof(self) -> None:
        self.flush()
        self._t.write_eof()

    def get_write_buffer_size(self) -> int:
        return self._t.get_write_buffer_size() + len(self._held or b"")

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        """The transport's own, except that no socket object is handed out, and the addresses
        are (host, port): uvicorn reads a new connection's addresses from the socket when it is
        given one (uvloop builds a temporary socket object per call: five system calls per
        connection), and from "sockname"/"peername" otherwise, which the transport already
        holds; it takes those only as pairs (an IPv6 address is a 4-tuple)."""
        if name == "socket":
            return default
        info = self._t.get_extra_info(name, default)
        if name in ("sockname", "peername") and isinstance(info, tuple) and len(info) > 2:
            return info[:2]
        return info

    def _http10(self, data: bytes) -> bytes:
        if not self._started:  # the status line and headers, written whole
            self._started = True
            if b"\r\ntransfer-encoding: chunked\r\n" in data:
                self._chunked = True
                data = data.replace(b"transfer-encoding: chunked\r\n", b"", 1)
        elif self._chunked:
            data = _unchunk(data)
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)


def _unchunk(data: bytes) -> bytes:
    """The payload of whole chunks (`<hex>\\r\\n<bytes>\\r\\n`..., the last one `0\\r\\n\\r\\n`)."""
    out, at = [], 0
    while at < len(data):
        end = data.index(b"\r\n", at)
        size = int(data[at:end], 16)
        if size == 0:
            break
        out.append(data[end + 2:end + 2 + size])
        at = end + 2 + size + 2
    return b"".join(out)


class _Guard(asyncio.Protocol):
    """An asyncio protocol for uvicorn's `http=` setting that wraps an instance of
    `protocol_cls` (uvicorn's own, built with the arguments uvicorn gives) and hands every
    call on to it, after it has (1) enforced the header deadline: a request's headers must
    arrive within `header_timeout` seconds of its first byte, and a new connection must send
    its first request's headers within that time too (408 and close otherwise); (2) bounded
    the headers (431) and the request target (414); (3) answered a malformed request with a
    JSON 400 as every error of the API. It also gives the connection's Disconnect to its
    requests (CONNECTION)."""

    inner_cls: type  # set by guarded()
    header_timeout: float

    __slots__ = ("inner", "loop", "transport", "parser", "requests", "timer", "seen", "gone", "passthrough",
                 "pending")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inner = self.inner_cls(*args, **kwargs)
        self.loop = asyncio.get_event_loop()
        self.requests = _Requests()
        self.parser = httptools.HttpRequestParser(self.requests)
        self.requests.parser = self.parser
        self.timer: asyncio.TimerHandle | None = None
        self.seen = False  # any byte yet
        self.gone = Disconnect(self.requests)
        self.passthrough = False  # after an upgrade: bytes are no longer HTTP/1.1 requests
        self.transport: Any = None  # what the server writes to (_Unchunked), which the guard writes through too
        self.pending = 0  # bytes of the current request's unfinished header section

    def connection_made(self, transport: Any) -> None:
        self.transport = _Unchunked(transport, self.requests, self.loop)
        CONNECTION.set(self.gone)
        self.inner.connection_made(self.transport)
        # A connection that never sends its first request's headers is closed after the same time.
        self.timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def data_received(self, data: bytes) -> None:
        self.seen = True
        if not self.passthrough:
            # the whole of `data` is header bytes if the same request is still in its headers after
            within, begun = self.requests.in_headers, self.requests.begun
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserUpgrade:
                if self.parser.get_method() == b"CONNECT":  # a proxy's tunnel: never served here
                    self._refuse(_400("CONNECT is not served"))
                    return
                # Only an upgrade the server makes (a WebSocket, when uvicorn has a library for it)
                # ends HTTP on this connection; any other (h2c, …) is answered as a plain request
                # and the connection's next requests keep the header deadline and bounds.
                self.passthrough = self._upgrades()
            except httptools.HttpParserError as e:  # a callback's refusal, or not HTTP/1.1
                self._refuse(self.requests.refused or _400(str(e)))
                return
            if self.requests.in_headers:
                # Count only reads that began and ended inside the header section (exact: all of
                # them is header bytes), so the read where a request began never counts a body
                # before it; what is held stays below MAX_HEADER_SECTION plus one read.
                same = within and begun == self.requests.begun
                self.pending = self.pending + len(data) if same else 0
                if self.pending > MAX_HEADER_SECTION:
                    self._refuse(_431())
                    return
                if self.timer is None:  # a request whose headers are not all here yet
                    self.timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)
            else:
                self.pending = 0
                if self.timer is not None:
                    self.timer.cancel()
                    self.timer = None
        CONNECTION.set(self.gone)
        self.inner.data_received(data)

    def _upgrades(self) -> bool:
        return (self.requests.upgrade == b"websocket"
                and getattr(self.inner, "ws_protocol_class", None) is not None)

    def _refuse(self, answer: bytes) -> None:
        if not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()

    def _headers_too_slow(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            if self.seen:
                self.transport.write(_408())
                _log_408(self.requests)
            self.transport.close()

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.inner.connection_lost(exc)
        gone = self.gone
        gone.lost = True
        if gone.callback is not None:
            gone.callback()



def _log_408(requests: _Requests) -> None:
    """The line and count of a request refused for its slow headers (no request cycle logs it)."""
    metrics.child(metrics.HTTP_CLIENT_TIMEOUTS, "headers").inc()
    fields: dict[str, Any] = {"transport": "http", "method": None, "path": None, "code": CLIENT_TIMEOUT,
                              "status": 408, "reason": "REQUEST_TIMEOUT", "timeout": "headers"}
    if requests.url:
        try:
            fields["method"] = requests.parser.get_method().decode("latin-1")
        except Exception:  # noqa: BLE001 - the request line has not arrived whole
            pass
        # the path only: a query may hold a token (EventSource's access_token)
        fields["path"] = requests.url.split(b"?", 1)[0][:256].decode("latin-1")
    log.info("request", extra={"fields": fields})


def guarded(protocol_cls: type, header_timeout: float) -> type:
    """The protocol class for uvicorn's `http=` setting: _Guard around `protocol_cls`."""
    return type(f"Guarded{protocol_cls.__name__}", (_Guard,),
                {"__slots__": (), "inner_cls": protocol_cls, "header_timeout": header_timeout})


def _400(msg: str) -> bytes:
    return _refusal(b"400 Bad Request", "INVALID_ARGUMENT", f"{msg.rstrip('.')}: not a well-formed HTTP/1.1 request")


def http_protocol(name: str, header_timeout: float) -> type:
    """The guarded protocol for uvicorn's `http=` setting, around uvicorn's own ("h11" or
    "httptools", the names its `--http` option takes)."""
    if name == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base
    else:
        from uvicorn.protocols.http.h11_impl import H11Protocol as base
    return guarded(base, header_timeout)


async def read_body(receive, limit: int, timeout: float) -> bytes:
    """The whole request body within `timeout` seconds and `limit` bytes.
    Raises TimeoutError (slow body), OverflowError (too large) or ConnectionError
    (the client went away mid-body)."""
    chunks: list[bytes] = []
    size = 0
    # A request that has arrived whole (the guard's parser saw its end: most bodies come with
    # their headers) is read without a timer. The parser is ahead of the server, so "the last
    # request begun is whole" also holds for every request before it.
    conn = CONNECTION.get()
    whole = conn is not None and conn.requests is not None and conn.requests.complete
    deadline = time.monotonic() + timeout  # not the loop's clock: get_running_loop() is a getpid()
    while True:
        if whole:
            message = await receive()
        else:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the request body arrived too slowly")
            async with asyncio.timeout(remaining):
                message = await receive()
        if message["type"] == "http.disconnect":
            raise ConnectionError("the client closed the connection before sending the whole body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise OverflowError(f"the request body exceeds {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
