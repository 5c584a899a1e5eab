"""Slow clients: a request's headers must arrive within `header_timeout` seconds of its
first byte (408 and close otherwise), so a client trickling headers (slowloris) cannot
hold connections open; a new connection that sends nothing at all is closed after the
same time (before, it was held for good: enough of them exhaust the open-file limit).
Uvicorn times out only idle keep-alive connections; this wraps whichever HTTP protocol
uvicorn uses (h11 or httptools). The body has its own limit, applied where it is read
(`read_body`). Headers are bounded too: at most MAX_HEADER_BYTES and MAX_HEADERS (431;
h11 has its own bound).
"""

from __future__ import annotations

import asyncio
import json
import time
from email.utils import formatdate
from typing import Any

from uvicorn.protocols.http.flow_control import FlowControl

MAX_HEADER_BYTES = 64 * 1024
MAX_URL_BYTES = 16 * 1024  # the request target (path and query): 414 beyond (RFC 9112 3)
MAX_HEADERS = 256

def _refusal(status: bytes, code: str, message: str, reason: str | None = None) -> bytes:
    """A whole answer that ends the connection: JSON as every error of the API, with a Date
    (RFC 9110 6.6.1). Written by the protocol itself (no request cycle to answer it)."""
    body = json.dumps({"error": {"code": code, "message": message, "reason": reason or code}},
                      separators=(",", ":")).encode()
    return (b"HTTP/1.1 %b\r\ncontent-type: application/json\r\nconnection: close\r\ndate: %b\r\n"
            b"content-length: %d\r\n\r\n%b" % (status, formatdate(usegmt=True).encode(), len(body), body))


def _431() -> bytes:
    return _refusal(b"431 Request Header Fields Too Large", "INVALID_ARGUMENT",
                    "request headers too large (at most 65536 bytes and 256 fields)", "HEADERS_TOO_LARGE")


class Disconnect:
    """In the scope of every request on the httptools protocol (key DISCONNECT): `lost` once
    the client's connection is gone, and `callback`, when a stream set one, is called then.
    A stream (the SSE watch) learns of a client that left without a task waiting on
    `receive()` for it."""

    __slots__ = ("lost", "callback")

    def __init__(self) -> None:
        self.lost = False
        self.callback: Any = None


DISCONNECT = "tablero.disconnect"


def _address(info: Any) -> tuple[str, int] | None:
    """(host, port) of a socket address as the transport gives it (IPv6: a 4-tuple)."""
    if isinstance(info, (list, tuple)) and len(info) >= 2:
        return str(info[0]), int(info[1])
    return None

def _414() -> bytes:
    return _refusal(b"414 URI Too Long", "INVALID_ARGUMENT", f"request target too long (at most {MAX_URL_BYTES} bytes)",
                    "URI_TOO_LONG")


def _408() -> bytes:
    return _refusal(b"408 Request Timeout", "DEADLINE_EXCEEDED", "request headers arrived too slowly", "REQUEST_TIMEOUT")


def guarded(protocol_cls: type, header_timeout: float) -> type:
    """A subclass of uvicorn's `protocol_cls` that enforces the header deadline."""

    httptools = hasattr(protocol_cls, "on_header")

    class Guarded(protocol_cls):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            self._hdr_cycle: Any = None
            self._seen = False  # any byte yet
            self._hdr_size = self._hdr_count = 0
            self._refused: Any = None  # the answer of a request the parser was stopped for (431, 414)
            if httptools:
                # uvicorn's own connection_made, with the addresses the transport already holds:
                # its helpers ask the socket again, seven system calls per connection.
                self.connections.add(self)
                self.transport = transport
                self.flow = FlowControl(transport)
                local = transport.get_extra_info("sockname")
                self.server = (local, None) if isinstance(local, str) else _address(local)
                self.client = _address(transport.get_extra_info("peername"))
                self.scheme = "https" if transport.get_extra_info("sslcontext") else "http"
            else:
                super().connection_made(transport)
            # A connection that never sends a byte is closed after the same time.
            self._hdr_timer: asyncio.TimerHandle | None = self.loop.call_later(header_timeout, self._headers_too_slow)

        def data_received(self, data: bytes) -> None:
            self._seen = True
            cycle = self.cycle
            idle = cycle is None or cycle.response_complete
            super().data_received(data)
            if self._hdr_timer is None:
                # Armed only when these bytes began a request whose headers are not all here
                # yet: most requests arrive whole, and need no timer at all.
                if idle and self.cycle is cycle and not self.transport.is_closing():
                    self._hdr_cycle = cycle
                    self._hdr_timer = self.loop.call_later(header_timeout, self._headers_too_slow)
            elif self.cycle is not self._hdr_cycle:
                self._hdr_timer.cancel()  # a new request cycle: its headers are complete
                self._hdr_timer = None

        def _headers_too_slow(self) -> None:
            self._hdr_timer = None
            if not self.transport.is_closing():
                if self._seen:
                    self.transport.write(_408())
                self.transport.close()

        if httptools:  # uvicorn sets no bound of its own
            def on_message_begin(self) -> None:
                self._hdr_size = self._hdr_count = 0
                super().on_message_begin()
                self.scope[DISCONNECT] = Disconnect()  # type: ignore[literal-required]

            def on_header(self, name: bytes, value: bytes) -> None:
                self._hdr_size += len(name) + len(value)
                self._hdr_count += 1
                if self._hdr_size > MAX_HEADER_BYTES or self._hdr_count > MAX_HEADERS:
                    self._refused = _431
                    raise ValueError("request headers too large")  # stops the parser: send_400_response
                super().on_header(name, value)

            def on_url(self, url: bytes) -> None:
                self._hdr_size += len(url)  # the request line counts against the same bound
                if self._hdr_size > MAX_URL_BYTES:
                    self._refused = _414
                    raise ValueError("request target too long")  # stops the parser: send_400_response
                super().on_url(url)

            def send_400_response(self, msg: str) -> None:
                # JSON, as every error of the API (uvicorn's own is text/plain).
                if self._refused is not None:
                    self.transport.write(self._refused())
                else:
                    self.transport.write(_refusal(b"400 Bad Request", "INVALID_ARGUMENT", f"{msg.rstrip('.')}: "
                                                  "not a well-formed HTTP/1.1 request"))
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._hdr_timer is not None:
                self._hdr_timer.cancel()
                self._hdr_timer = None
            cycle = self.cycle
            super().connection_lost(exc)
            gone = cycle.scope.get(DISCONNECT) if cycle is not None else None
            if gone is not None:
                gone.lost = True
                if gone.callback is not None:
                    gone.callback()

    Guarded.__name__ = f"Guarded{protocol_cls.__name__}"
    return Guarded


def http_protocol(name: str, header_timeout: float) -> type:
    """The guarded protocol class for uvicorn's `http=` setting ("h11" or "httptools")."""
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
    deadline = time.monotonic() + timeout  # not the loop's clock: get_running_loop() is a getpid()
    # uvicorn's request cycle sets its message_event once (part of) the body is there: such a
    # receive does not wait, and needs no timer (most bodies arrive with their headers).
    ready = getattr(getattr(receive, "__self__", None), "message_event", None)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the request body arrived too slowly")
        if ready is not None and ready.is_set():
            message = await receive()
        else:
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
