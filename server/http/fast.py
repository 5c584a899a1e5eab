"""The RPCs' fast path: a pure ASGI app in front of the Starlette app that answers the
REST routes of the RPCs itself — unary ones and the SSE watch — with the same answers, but
without Starlette's per-request layers (error middleware, GZip and CORS responders,
router, Request/Response objects, and for the watch StreamingResponse's task group), which
cost about a fifth of the server's time per move. Everything else (operations, the web
client, CORS preflights, HEAD, 404/405) goes on to the Starlette app.

What the middlewares did for these routes is done here, in the same way: the shared
`observe.Call` around the request (auth, log line, RPC metrics), gzip for answers of at
least GZIP_MINIMUM bytes when the client accepts it (in a worker thread from GZIP_IN_THREAD
bytes on), and the CORS header of a simple request for browsers on other origins.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import re
import stat
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, unquote

from tablero.server import fastjson
from tablero.server.api import observe
from tablero.server.api.rpcs import Rpc
from tablero.server.api.status import error_body
from tablero.server.api.watch import WatchItem
from tablero.server.http import sse
from tablero.server.http.slow_clients import CONNECTION

TOKEN_IN_URL = ("access_token in the URL is accepted only by the watch (Server-Sent Events) route; "
                "send the seat token as the header Authorization: Bearer <token>")

# Responses of at least this many bytes are gzipped when the client accepts it (not SSE);
# from GZIP_IN_THREAD bytes on, compressed in a worker thread.
GZIP_MINIMUM = 1024
GZIP_IN_THREAD = 64 * 1024
GZIP_LEVEL = 6

_JSON = (b"content-type", b"application/json")
_SSE = ((b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no"))
# A page on another origin may read Retry-After (a 429's wait) as well as the simple headers.
_CORS = ((b"access-control-allow-origin", b"*"), (b"access-control-expose-headers", b"Retry-After"),
         (b"vary", b"Origin"))
_GZIPPED = ((b"content-encoding", b"gzip"), (b"vary", b"Accept-Encoding"))
_VARY_ENCODING = (b"vary", b"Accept-Encoding")


class Incoming:
    """What a unary endpoint reads of a request (the part of Starlette's Request it uses)."""

    __slots__ = ("headers", "receive", "path_params", "query_params", "query_names")

    def __init__(self, headers: dict[str, str], receive: Any, path_params: dict[str, str],
                 query_params: dict[str, str], query_names: list[str]) -> None:
        self.headers, self.receive = headers, receive
        self.path_params, self.query_params = path_params, query_params
        self.query_names = query_names  # every name as given, repeats included


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header admits gzip (RFC 9110 12.5.3): named, or `*`, with a
    weight above 0 (`gzip;q=0` refuses it)."""
    if "gzip" not in accept_encoding and "*" not in accept_encoding:
        return False
    weights: dict[str, float] = {}
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[coding.strip()] = q
    q = weights.get("gzip", weights.get("x-gzip", weights.get("*", 0.0)))
    return q > 0


def _a_file(static: Any, path: str) -> bool:
    """Whether `path` names a file of the web client (a StaticFiles app mounted at "/",
    serving index.html for a directory)."""
    relative = path.lstrip("/")
    if relative == "" or relative.endswith("/"):
        relative += "index.html"
    with contextlib.suppress(Exception):
        _, found = static.lookup_path(relative)
        return found is not None and stat.S_ISREG(found.st_mode)
    return False


def gzip_etag(etag: str) -> str:
    """The ETag of an answer's gzipped body, from its identity body's: `"x"` → `"x-gzip"` (a
    strong validator names one sequence of bytes, RFC 9110 8.8.1; W/ kept when weak)."""
    return etag[:-1] + '-gzip"' if etag.endswith('"') else etag + "-gzip"


def _gzip(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


class FastRoutes:
    """`app`'s routes whose endpoint carries an `rpc` (the unary RPCs) are answered by
    `answer(rpc, incoming)`, those whose endpoint carries a `watch` (the SSE watch) by
    `watch(rpc, incoming)` — an answer (a refusal) or the stream's watch items;
    `close(call, method, path, status)` records each call."""

    def __init__(self, app: Any, answer: Callable[[Rpc, Incoming], Awaitable[Any]],
                 watch: Callable[[Rpc, Incoming], Awaitable[Any]],
                 close: Callable[[observe.Call, str, str, int], None],
                 mounts: tuple[tuple[str, Any], ...] = ()) -> None:
        self.app, self.answer, self.watch, self.close = app, answer, watch, close
        self.mounts = mounts  # (path prefix, ASGI app) answered before anything else (Connect)
        self.routes = app.routes
        # Per method, in the app's route order (the first full match wins, as in Starlette).
        self._table: dict[str, list[tuple[re.Pattern[str], Rpc, bool]]] = {}
        for route in app.routes:
            endpoint = getattr(route, "endpoint", None)
            rpc, streaming = getattr(endpoint, "rpc", None), False
            if rpc is None:
                rpc, streaming = getattr(endpoint, "watch", None), True
            if rpc is not None:
                for method in sorted(route.methods - {"HEAD"}):
                    self._table.setdefault(method, []).append((route.path_regex, rpc, streaming))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            path = scope["path"]
            for prefix, mounted in self.mounts:
                if path.startswith(prefix):
                    return await mounted(scope, receive, send)
            if ":" in path.rpartition("/")[2] and scope["method"] != "OPTIONS" and (verb := self._custom_verb(path)) \
                    and scope["method"] not in verb:  # (a CORS preflight goes on to the CORS answer)
                # `/tickets/x:cancel` is the POST-only custom method, not the GET of a ticket "x:cancel"
                return await self._refuse(scope, send, 405, "METHOD_NOT_ALLOWED",
                                          f"{scope['method']} is not allowed on {path}",
                                          [(b"allow", ", ".join(sorted(verb)).encode())], "METHOD_NOT_ALLOWED")
            # Matched on the path as sent, each parameter decoded after: a segment may hold an
            # encoded "/" (a portal user id "org/42" is /v1/players/org%2F42), which the decoded
            # path would split in two. (A path whose fixed part is encoded is matched decoded.)
            raw = scope.get("raw_path")
            sent = raw.decode("latin-1") if raw else path
            for candidate in (sent, path) if sent != path else (path,):
                for regex, rpc, streaming in self._table.get(scope["method"], ()):
                    m = regex.match(candidate)
                    if m is not None:
                        params = m.groupdict() if candidate is path else \
                            {k: unquote(v) for k, v in m.groupdict().items()}
                        return await self._serve(scope, receive, send, rpc, params, streaming)
            query = scope.get("query_string", b"")
            if b"access_token" in query and any(
                    k == "access_token" for k, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True)):
                # Every route but the watch refuses a token in the URL (the RPC routes say so
                # themselves): operations, the page and its files too, so no link carries one.
                return await self._refuse(scope, send, 400, "INVALID_ARGUMENT", TOKEN_IN_URL, reason="TOKEN_IN_URL")
            method = scope["method"]
            if method != "OPTIONS":  # CORS preflights: the app's CORS middleware answers them
                allowed = self._allowed(path)
                if allowed and method not in allowed:
                    return await self._refuse(scope, send, 405, "METHOD_NOT_ALLOWED", f"{method} is not allowed on {path}",
                                              [(b"allow", ", ".join(sorted(allowed)).encode())], "METHOD_NOT_ALLOWED")
                if not allowed and method not in ("GET", "HEAD"):  # neither a route nor a file
                    return await self._refuse(scope, send, 404, "NOT_FOUND", f"no route {path}")
        await self.app(scope, receive, send)

    def _custom_verb(self, path: str) -> set[str]:
        """The methods of the routes of a custom method (AIP-136, `…/{id}:cancel`) that match
        `path` (empty: none): a path segment may itself hold a colon, so such a path also
        matches the plain resource's routes, which must not answer it."""
        allowed: set[str] = set()
        for route in self.routes:
            template, methods = getattr(route, "path", ""), getattr(route, "methods", None)
            if methods and ":" in template.rpartition("/")[2] and route.path_regex.match(path):
                allowed |= methods
        return allowed

    def _allowed(self, path: str) -> set[str]:
        """The methods the app's routes (API and operations) take on `path` (empty: none of
        them is at `path`). A known path asked with another method is 405 with `Allow`, not
        the web client's 404 (RFC 9110 15.5.6); an unknown one is 404 whatever the method."""
        allowed: set[str] = set()
        for route in self.routes:
            methods = getattr(route, "methods", None)
            regex = getattr(route, "path_regex", None)
            if methods and regex is not None and regex.match(path):
                allowed |= methods
            elif hasattr(getattr(route, "app", None), "lookup_path") and _a_file(route.app, path):
                allowed |= {"GET", "HEAD"}  # one of the web client's files
        return allowed

    @staticmethod
    async def _refuse(scope: Any, send: Any, status: int, code: str, message: str,
                      extra: list[tuple[bytes, bytes]] | None = None, reason: str | None = None) -> None:
        """An error answered here (405, 404, a token in the URL): with the CORS headers when
        the request has an Origin, as every other answer, so a page on another origin reads
        the reason rather than a CORS failure."""
        body = fastjson.dumps(error_body(code, message, reason))
        cors = _CORS if any(k == b"origin" for k, _ in scope["headers"]) else ()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *(extra or ()),
            *cors]})
        await send({"type": "http.response.body", "body": body})

    async def _serve(self, scope: Any, receive: Any, send: Any, rpc: Rpc, params: dict[str, str],
                     streaming: bool) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        call = observe.Call("http", authorization=headers.get("authorization"),
                            peer=(scope.get("client") or ("",))[0] or None,
                            fields=observe.traced(headers.get("x-request-id")))
        ctx = observe.begin(call)
        status = 500
        try:
            query = scope.get("query_string", b"")
            pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True) if query else []
            incoming = Incoming(headers, receive, params, dict(pairs), [k for k, _ in pairs])
            answer = await (self.watch if streaming else self.answer)(rpc, incoming)
            if hasattr(answer, "status"):
                status = answer.status
                await self._send(send, headers, answer)
            else:
                status = 200
                await self._stream(scope, receive, send, headers, answer, not sse.event_source(incoming, rpc))
        finally:
            self.close(call, scope["method"], scope["path"], status)
            observe.end(ctx)

    async def _send(self, send: Any, headers: dict[str, str], answer: Any) -> None:
        body = answer.body
        out = [(b"content-type", answer.media_type.encode())] if body else []
        gzipped = False
        if len(body) >= GZIP_MINIMUM and answer.media_type == "application/json":
            if accepts_gzip(headers.get("accept-encoding", "")):
                body = await asyncio.to_thread(_gzip, body) if len(body) >= GZIP_IN_THREAD else _gzip(body)
                out.extend(_GZIPPED)
                gzipped = True
            else:
                out.append(_VARY_ENCODING)  # another Accept-Encoding could get it gzipped (RFC 9110 12.5.5)
        out.append((b"content-length", str(len(body)).encode()))
        for k, v in (answer.headers or {}).items():
            if gzipped and k == "ETag":
                v = gzip_etag(v)
            pair = (k.lower().encode("latin-1"), v.encode("latin-1"))
            if pair not in out:  # (a Vary the gzip step above wrote already is not repeated)
                out.append(pair)
        if "origin" in headers:
            out.extend(_CORS)
        await send({"type": "http.response.start", "status": answer.status, "headers": out})
        await send({"type": "http.response.body", "body": body})

    async def _stream(self, scope: Any, receive: Any, send: Any, headers: dict[str, str],
                      items: AsyncIterator[WatchItem], legacy: bool = True) -> None:
        """Server-Sent Events: the watch items framed as they come, until they end or the client
        leaves. A client that leaves cancels the stream at once (so a quiet watch is let go
        then, not at its next keep-alive): the protocol calls back (slow_clients.Disconnect),
        or, on a protocol without that hook, a listener waits for the disconnect."""
        out = [*_SSE, *(_CORS if "origin" in headers else ())]
        streaming = asyncio.current_task()
        assert streaming is not None
        gone = False

        def left() -> None:
            nonlocal gone
            gone = True
            streaming.cancel()

        async def listen() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            left()

        hook = CONNECTION.get()
        listener = None
        if hook is None:
            listener = asyncio.get_running_loop().create_task(listen())
        else:
            hook.callback = left
            if hook.lost:
                left()

        def detach() -> None:  # the client leaving no longer cancels the stream
            if hook is not None:
                hook.callback = None
            if listener is not None:
                listener.cancel()
        frame = sse.frame
        try:
            await send({"type": "http.response.start", "status": 200, "headers": out})
            await send({"type": "http.response.body", "body": sse.OPENING, "more_body": True})
            async for item in items:
                if item.kind in sse.ENDINGS:
                    sse.record(item)
                await send({"type": "http.response.body", "body": frame(item, legacy), "more_body": True})
            detach()
            await send({"type": "http.response.body", "body": b""})
        except asyncio.CancelledError:
            if not gone:
                raise
            streaming.uncancel()  # the client left: the stream is over, the request is not failed
        except OSError:
            pass  # the client left while a frame was being written
        finally:
            detach()
            with contextlib.suppress(Exception):
                await items.aclose()  # type: ignore[attr-defined]
