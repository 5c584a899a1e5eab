"""gRPC-Web's text mode (`application/grpc-web-text`) in front of the Connect app.

The official `grpc-web` npm client speaks text mode by default, and only text mode streams
(its binary mode has no server streaming): request and response bodies are base64 of the
gRPC-Web frames. `connectrpc` serves gRPC-Web in binary only (415 for text), so this ASGI
middleware translates, as Envoy's grpc_web filter does
(https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-WEB.md):

- request: `application/grpc-web-text[+proto]` → `application/grpc-web+proto`, the body
  base64-decoded. A client may send several base64 chunks, each padded, one after the other:
  the body is decoded 4 characters at a time, each padded run on its own; whitespace (a
  trailing newline, line breaks) is skipped. (The body is read
  whole first: gRPC-Web has no client streaming, and a bad body is refused before the app
  sees it: INVALID_ARGUMENT, or RESOURCE_EXHAUSTED beyond `max_bytes`, both as a
  trailers-only gRPC-Web answer.)
- response: content type `application/grpc-web-text+proto`; each complete gRPC-Web frame
  (5-byte header + message, or the trailer frame) is sent as its own padded base64 chunk the
  moment it is complete, so a server stream (WatchGame, its keep-alives) reaches the page
  message by message. A client decodes the stream 4 characters at a time, so padded chunks
  concatenate safely.

Only public ASGI: the wrapped app sees a plain binary gRPC-Web request.
"""

from __future__ import annotations

import binascii
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

TEXT_TYPES = (b"application/grpc-web-text", b"application/grpc-web-text+proto")
BINARY_TYPE = b"application/grpc-web+proto"
TEXT_RESPONSE_TYPE = b"application/grpc-web-text+proto"
_HEADER = 5  # a gRPC-Web frame: 1 flag byte, 4 bytes of big-endian length, then the payload


_WHITESPACE = b" \t\r\n\v\f"


def decode_text(body: bytes) -> bytes:
    """Concatenated padded base64 runs → bytes (binascii.Error when malformed). ASCII whitespace
    is no part of the base64 and is skipped: a body ending in a newline (as a client or a tool
    that writes lines sends it), or wrapped in lines, decodes."""
    body = body.translate(None, _WHITESPACE)
    if len(body) % 4:
        raise binascii.Error("base64 body length is not a multiple of 4")
    out, start = [], 0
    for end in range(4, len(body) + 1, 4):
        if body[end - 1:end] == b"=" or end == len(body):
            out.append(binascii.a2b_base64(body[start:end], strict_mode=True))
            start = end
    return b"".join(out)


def complete_frames(buffer: bytearray) -> list[bytes]:
    """Take every complete gRPC-Web frame off the front of `buffer`."""
    frames = []
    while len(buffer) >= _HEADER:
        size = _HEADER + int.from_bytes(buffer[1:_HEADER], "big")
        if len(buffer) < size:
            break
        frames.append(bytes(buffer[:size]))
        del buffer[:size]
    return frames


def _content_type(scope: Scope) -> bytes:
    for key, value in scope.get("headers") or ():
        if key.lower() == b"content-type":
            return value.split(b";", 1)[0].strip().lower()
    return b""


class GrpcWebText:
    """ASGI middleware: gRPC-Web text requests reach `app` as binary gRPC-Web; its answers
    leave as text. Everything else passes through untouched."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes  # of the decoded request

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or _content_type(scope) not in TEXT_TYPES:
            await self.app(scope, receive, send)
            return
        limit = (self.max_bytes + 2) // 3 * 4 + 4  # base64 of max_bytes, and one padded run more
        text = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            text += message.get("body", b"")
            if len(text) > limit:
                await _refuse(send, 8, f"request is larger than {self.max_bytes} bytes")  # RESOURCE_EXHAUSTED
                return
            if not message.get("more_body", False):
                break
        try:
            body = decode_text(bytes(text))
        except (binascii.Error, ValueError) as e:
            await _refuse(send, 3, f"gRPC-Web text body is not base64: {e}")  # INVALID_ARGUMENT
            return
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in (b"content-type", b"content-length")]
        headers += [(b"content-type", BINARY_TYPE), (b"content-length", str(len(body)).encode())]
        delivered = False

        async def receive_binary() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the disconnect, when it comes

        pending = bytearray()
        framed = False  # the answer is gRPC-Web (else, e.g. a 404, it passes as it is)

        async def send_text(message: Message) -> None:
            nonlocal framed
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                framed = any(k.lower() == b"content-type" and v.lower().startswith(b"application/grpc-web")
                             for k, v in headers)
                if framed:
                    headers = [(k, TEXT_RESPONSE_TYPE if k.lower() == b"content-type" else v) for k, v in headers
                               if k.lower() != b"content-length"]
                await send({**message, "headers": headers})
            elif message["type"] == "http.response.body" and framed:
                pending.extend(message.get("body", b""))
                more = message.get("more_body", False)
                chunks = [binascii.b2a_base64(f, newline=False) for f in complete_frames(pending)]
                if not more and pending:  # a truncated last frame: pass it on as it is
                    chunks.append(binascii.b2a_base64(bytes(pending), newline=False))
                    pending.clear()
                if chunks or not more:
                    await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": more})
            else:
                await send(message)

        await self.app({**scope, "headers": headers}, receive_binary, send_text)


async def _refuse(send: Send, code: int, text: str) -> None:
    """A trailers-only gRPC-Web answer: the status in the headers, no body."""
    from urllib.parse import quote

    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", TEXT_RESPONSE_TYPE), (b"grpc-status", str(code).encode()),
        (b"grpc-message", quote(text, safe=" ").encode()), (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b"", "more_body": False})
