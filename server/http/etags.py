"""A gzipped answer's ETag is its own, on the answers Starlette serves (the web client's files,
HEAD requests): GZipMiddleware compresses a body and keeps its ETag, so a gzipped and an
identity answer carried one strong validator, which says they are the same bytes (RFC 9110
8.8.1). The API's answers get theirs on the fast path (server.http.fast, `gzip_etag`).

Pure ASGI, outside GZipMiddleware: an answer that leaves gzipped gets `gzip_etag(its ETag)`;
a request's If-None-Match reaches the app with the suffix taken off (the app compares its own
validators, so either coding's tag revalidates), and its 304 carries the gzip tag again when
the client sent one and takes gzip (the validator it holds and would get)."""

from __future__ import annotations

from typing import Any

from .fast import accepts_gzip, gzip_etag

_SUFFIX = b'-gzip"'


class GzipETags:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        held = False
        headers = scope.get("headers") or ()
        for k, v in headers:
            if k == b"if-none-match" and _SUFFIX in v:
                held = accepts_gzip(next((e.decode("latin-1") for k2, e in headers if k2 == b"accept-encoding"), ""))
                scope = {**scope, "headers": [(k2, v2.replace(_SUFFIX, b'"') if k2 == b"if-none-match" else v2)
                                              for k2, v2 in headers]}
                break

        async def send_tagged(message: Any) -> None:
            if message["type"] == "http.response.start":
                out = list(message.get("headers") or ())
                gzipped = (b"content-encoding", b"gzip") in out or (held and message["status"] == 304)
                if gzipped:
                    out = [(k, gzip_etag(v.decode("latin-1")).encode("latin-1")
                            if k == b"etag" and not v.endswith(_SUFFIX) else v) for k, v in out]
                    message = {**message, "headers": out}
            await send(message)

        await self.app(scope, receive, send_tagged)
