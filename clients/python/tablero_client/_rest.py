"""REST/JSON transport (httpx), sync and async. Answers are returned as the API's JSON dicts."""

from __future__ import annotations

import contextlib
import json
import re
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any
from urllib.parse import quote

import httpx

from .errors import BY_HTTP_STATUS, NotFound, TableroError, Unavailable, error_for

JSON = dict[str, Any]
CONTROL_EVENTS = {"end", "shutdown", "error", "tablero-end", "tablero-shutdown", "tablero-error"}
# httpcore writes a request's headers and body in separate send()s: without TCP_NODELAY, Nagle's
# algorithm holds the body until the server's delayed ACK (~40 ms on Linux) for every POST.
SOCKET_OPTIONS = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


class StreamEnd(Exception):
    """The server said the stream is over for good (`event: end`): the game is finished."""


def _headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _check(r: httpx.Response) -> JSON:
    if r.status_code == 200:
        try:
            return r.json()
        except ValueError as e:
            raise TableroError(f"undecodable answer from {r.request.url}: {e}", http_status=r.status_code) from e
    raise _error(r.status_code, r.text)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _metadata(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


# The SSE control messages, by their names now (`tablero-end`, ...) and before (`end`, ...).
def _control(event: str | None) -> str | None:
    return event.removeprefix("tablero-") if event else event


def _sse_error_data(text: str) -> str | None:
    """The data of a `tablero-error` (older servers: `error`) message when `text` is a
    text/event-stream body (a watch refused with a 4xx answers its error as one SSE message),
    else None."""
    parser = SSEParser()
    for line in [*text.splitlines(), ""]:
        msg = parser.feed(line)
        if msg is not None and _control(msg[0]) == "error":
            return msg[2]
    return None


def _error(status: int, text: str) -> TableroError:
    try:
        data = _sse_error_data(text) if text.lstrip().startswith(("event:", "data:", ":", "retry:", "id:")) else None
        err = json.loads(data if data is not None else text)["error"]
        return error_for(str(err.get("code", "UNKNOWN")), str(err.get("message", "")), status,
                         _str(err.get("reason")), _metadata(err.get("metadata")))
    except (ValueError, KeyError, TypeError, AttributeError):
        code = BY_HTTP_STATUS.get(status, "INTERNAL" if status >= 500 else "UNKNOWN")
        return error_for(code, f"HTTP {status}: {text[:200]}", status)


# The server sends an SSE keep-alive comment every 15 s: a watch stream silent for longer than
# this is dead without saying so (a dropped connection, a peer that slept). Its read fails then
# (Unavailable), and Client.watch reconnects after the last version it saw.
WATCH_SILENCE = 45.0


def _transport_error(e: httpx.HTTPError) -> TableroError:
    return Unavailable(f"{type(e).__name__}: {e}")


class SSEParser:
    """Feeds lines of a text/event-stream; yields (event name or None, id, data) per message."""

    def __init__(self) -> None:
        self.event: str | None = None
        self.id: str | None = None
        self.data: list[str] = []

    def feed(self, line: str) -> tuple[str | None, str | None, str] | None:
        if line == "":
            if not self.data and self.event is None:
                return None
            msg = (self.event, self.id, "\n".join(self.data))
            self.event, self.data = None, []
            return msg
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        elif name == "id":
            self.id = value
        return None


def sse_item(event: str | None, data: str) -> JSON | None:
    """A game event dict from an SSE message, None for keep-alive-like messages; raises on control messages.

    Game events are default messages (`data: {"gameId", "version", "event"}`); older servers named
    them `event: <type>`, so any message whose data carries a version and an event is a game event.
    """
    try:
        payload = json.loads(data) if data else {}
    except ValueError:
        payload = {}
    if isinstance(payload, dict) and "version" in payload and isinstance(payload.get("event"), dict):
        return payload
    event = _control(event)
    if event == "end":
        raise StreamEnd()
    if event == "reset":  # the log lost events this watch was sent: as gRPC says it
        version = payload.get("version", 0) if isinstance(payload, dict) else 0
        raise error_for("ABORTED", f"history rewritten; resume from version {version}", reason="HISTORY_REWRITTEN",
                        metadata={"version": str(version)})
    if event == "shutdown":
        raise Unavailable("the server is shutting down", reason="SHUTTING_DOWN")
    if event == "error":
        err = (payload or {}).get("error") or {}
        raise error_for(str(err.get("code", "UNKNOWN")), str(err.get("message", "")), reason=_str(err.get("reason")),
                        metadata=_metadata(err.get("metadata")))
    return None


def ticket_item(event: str | None, data: str) -> JSON | None:
    """A WatchMatchTicket message's `{"version", "ticket"}`, None for any other message; raises
    StreamEnd at its end (the ticket matched, cancelled or expired) and the error of an error
    message, as sse_item does for a game's watch."""
    sse_item(event, data)
    try:
        payload = json.loads(data) if data else {}
    except ValueError:
        return None
    return payload if isinstance(payload, dict) and isinstance(payload.get("ticket"), dict) else None


# The portal services' routes, as their google.api.http annotations give them: RPC -> (HTTP method,
# path). A `{field}` of the path is taken out of the request; a GET sends the other fields as its
# query, a POST as its body. (tests/clients/test_sdk_portal.py checks them against the protos.)
PORTAL_ROUTES: dict[str, tuple[str, str]] = {
    "ListNotifications": ("GET", "/v1/notifications"),
    "MarkNotificationsRead": ("POST", "/v1/notifications:markRead"),
    "GetPushKey": ("GET", "/v1/push/key"),
    "RegisterPushSubscription": ("POST", "/v1/push/subscriptions"),
    "DeletePushSubscription": ("POST", "/v1/push/subscriptions:delete"),
    "SetPushLive": ("POST", "/v1/push/live"),
    "GetLeaderboard": ("GET", "/v1/leaderboards/{engine}"),
    "GetPlayer": ("GET", "/v1/players/{userId}"),
    "CreateMatchTicket": ("POST", "/v1/matchmaking/tickets"),
    "GetMatchTicket": ("GET", "/v1/matchmaking/tickets/{ticketId}"),
    "CancelMatchTicket": ("POST", "/v1/matchmaking/tickets/{ticketId}:cancel"),
    "WatchMatchTicket": ("GET", "/v1/matchmaking/tickets/{ticketId}/watch"),
}


def _segment(value: str) -> str:
    """One path segment. A user id "." or ".." is spelt with %2E: as it is, the HTTP client removes
    it as a dot-segment (RFC 3986 5.2.4), and the call goes to another route."""
    return quote(value, safe="") if value not in (".", "..") else value.replace(".", "%2E")


def portal_request(rpc: str, request: JSON) -> tuple[str, str, JSON | None, JSON | None]:
    """(method, path, body, query) of a portal RPC's request (JSON names, as the API's)."""
    method, template = PORTAL_ROUTES[rpc]
    rest = dict(request)
    path = re.sub(r"\{(\w+)\}", lambda m: _segment(str(rest.pop(m.group(1), ""))), template)
    if method != "GET":
        return method, path, rest, None
    query = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in rest.items() if v not in (None, "", 0, False)}
    return method, path, None, query or None


def _watch_params(after_version: int, after_hash: str) -> JSON:
    return {"afterVersion": after_version, **({"afterHash": after_hash} if after_hash else {})}


class RestTransport:
    def __init__(self, url: str, timeout: float = 30.0, http: httpx.Client | None = None) -> None:
        self.url = url.rstrip("/")
        self.http = http or httpx.Client(base_url=self.url, timeout=timeout,
                                         transport=httpx.HTTPTransport(socket_options=SOCKET_OPTIONS))

    def close(self) -> None:
        self.http.close()

    def _call(self, method: str, path: str, token: str | None = None, body: JSON | None = None,
              params: JSON | None = None) -> JSON:
        try:
            r = self.http.request(method, path, headers=_headers(token), json=body, params=params)
        except httpx.HTTPError as e:
            raise _transport_error(e) from e
        return _check(r)

    def list_engines(self) -> list[JSON]:
        return self._call("GET", "/v1/engines")["engines"]

    def get_engine(self, name: str) -> JSON:
        try:
            return self._call("GET", f"/v1/engines/{quote(name, safe='')}")["engine"]
        except NotFound:
            for e in self.list_engines():  # servers before GetEngine
                if e["name"] == name:
                    return e
            raise

    def engine_messages(self, name: str, lang: str) -> JSON:
        return self._call("GET", f"/v1/engines/{quote(name, safe='')}/messages?lang={quote(lang, safe='')}")

    def create_game(self, body: JSON, token: str | None = None) -> JSON:
        return self._call("POST", "/v1/games", token, body=body)

    def join_game(self, game_id: str, token: str | None, request_id: str | None = None) -> JSON:
        return self._call("POST", f"/v1/games/{quote(game_id, safe='')}/join", token, body=_join_body(request_id))

    def get_game(self, game_id: str, token: str | None, version: int | None) -> JSON:
        params = {"version": version} if version is not None else None
        return self._call("GET", f"/v1/games/{quote(game_id, safe='')}", token, params=params)

    def legal_actions(self, game_id: str, token: str | None, query: JSON | None = None) -> JSON:
        return self._call("GET", f"/v1/games/{quote(game_id, safe='')}/legal-actions", token, params=query or None)

    def submit_action(self, game_id: str, token: str | None, body: JSON) -> JSON:
        return self._call("POST", f"/v1/games/{quote(game_id, safe='')}/actions", token, body=body)

    def list_events(self, game_id: str, token: str | None, page_size: int | None, page_token: str | None,
                    after_version: int = 0) -> JSON:
        params: JSON = {}
        if page_size:
            params["pageSize"] = page_size
        if page_token:
            params["pageToken"] = page_token
        if after_version:
            params["afterVersion"] = after_version
        return self._call("GET", f"/v1/games/{quote(game_id, safe='')}/events", token, params=params)

    def list_games(self, query: JSON, token: str | None) -> JSON:
        return self._call("GET", "/v1/games", token, params=query or None)

    def portal(self, rpc: str, request: JSON, token: str | None) -> JSON:
        """A call of the notification, player or matchmaking services (PORTAL_ROUTES)."""
        method, path, body, query = portal_request(rpc, request)
        return self._call(method, path, token, body=body, params=query)

    def watch_ticket(self, ticket_id: str, token: str | None) -> Iterator[JSON]:
        """The ticket's `{"version", "ticket"}` at each change; returns once it changes no more."""
        _, path, _, _ = portal_request("WatchMatchTicket", {"ticketId": ticket_id})
        yield from self._sse(path, token, None, ticket_item, "the ticket changed for the last time")

    def _sse(self, path: str, token: str | None, params: JSON | None, item: Any, until: str,
             on_open: Callable[[], None] | None = None) -> Iterator[JSON]:
        """The items `item(event, data)` makes of an SSE stream's messages, until StreamEnd;
        raises Unavailable when the stream breaks or closes before then (`until`). `on_open` is
        called once the server has answered the stream (200: it sends its headers at once)."""
        headers = {**_headers(token), "Accept": "text/event-stream"}
        try:
            with self.http.stream("GET", path, headers=headers, params=params,
                                  timeout=httpx.Timeout(self.http.timeout.connect, read=WATCH_SILENCE)) as r:
                if r.status_code != 200:
                    r.read()
                    raise _error(r.status_code, r.text)
                if on_open is not None:
                    on_open()
                parser = SSEParser()
                for line in r.iter_lines():
                    msg = parser.feed(line)
                    if msg is None:
                        continue
                    try:
                        out = item(msg[0], msg[2])
                    except StreamEnd:
                        return
                    if out is not None:
                        yield out
        except httpx.HTTPError as e:
            raise _transport_error(e) from e
        raise Unavailable(f"the watch stream closed before {until}")

    def watch(self, game_id: str, token: str | None, after_version: int, after_hash: str = "",
              on_open: Callable[[], None] | None = None) -> Iterator[JSON]:
        """Game events after `after_version`; returns when the game is over; raises when the stream
        breaks. `on_open`: called once the server has answered the stream."""
        path = f"/v1/games/{quote(game_id, safe='')}/watch"
        yield from self._sse(path, token, _watch_params(after_version, after_hash), sse_item, "the game ended",
                             on_open)


class AsyncRestTransport:
    def __init__(self, url: str, timeout: float = 30.0, http: httpx.AsyncClient | None = None,
                 max_connections: int | None = 100) -> None:
        self.url = url.rstrip("/")
        limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
        self.http = http or httpx.AsyncClient(
            base_url=self.url, timeout=timeout,
            transport=httpx.AsyncHTTPTransport(socket_options=SOCKET_OPTIONS, limits=limits))

    async def close(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, token: str | None = None, body: JSON | None = None,
                    params: JSON | None = None) -> JSON:
        try:
            r = await self.http.request(method, path, headers=_headers(token), json=body, params=params)
        except httpx.HTTPError as e:
            raise _transport_error(e) from e
        return _check(r)

    async def list_engines(self) -> list[JSON]:
        return (await self._call("GET", "/v1/engines"))["engines"]

    async def get_engine(self, name: str) -> JSON:
        try:
            return (await self._call("GET", f"/v1/engines/{quote(name, safe='')}"))["engine"]
        except NotFound:
            for e in await self.list_engines():
                if e["name"] == name:
                    return e
            raise

    async def engine_messages(self, name: str, lang: str) -> JSON:
        return await self._call("GET", f"/v1/engines/{quote(name, safe='')}/messages?lang={quote(lang, safe='')}")

    async def create_game(self, body: JSON, token: str | None = None) -> JSON:
        return await self._call("POST", "/v1/games", token, body=body)

    async def join_game(self, game_id: str, token: str | None, request_id: str | None = None) -> JSON:
        return await self._call("POST", f"/v1/games/{quote(game_id, safe='')}/join", token, body=_join_body(request_id))

    async def get_game(self, game_id: str, token: str | None, version: int | None) -> JSON:
        params = {"version": version} if version is not None else None
        return await self._call("GET", f"/v1/games/{quote(game_id, safe='')}", token, params=params)

    async def legal_actions(self, game_id: str, token: str | None, query: JSON | None = None) -> JSON:
        return await self._call("GET", f"/v1/games/{quote(game_id, safe='')}/legal-actions", token,
                                params=query or None)

    async def submit_action(self, game_id: str, token: str | None, body: JSON) -> JSON:
        return await self._call("POST", f"/v1/games/{quote(game_id, safe='')}/actions", token, body=body)

    async def list_events(self, game_id: str, token: str | None, page_size: int | None,
                          page_token: str | None, after_version: int = 0) -> JSON:
        params: JSON = {}
        if page_size:
            params["pageSize"] = page_size
        if page_token:
            params["pageToken"] = page_token
        if after_version:
            params["afterVersion"] = after_version
        return await self._call("GET", f"/v1/games/{quote(game_id, safe='')}/events", token, params=params)

    async def list_games(self, query: JSON, token: str | None) -> JSON:
        return await self._call("GET", "/v1/games", token, params=query or None)

    async def portal(self, rpc: str, request: JSON, token: str | None) -> JSON:
        """See RestTransport.portal."""
        method, path, body, query = portal_request(rpc, request)
        return await self._call(method, path, token, body=body, params=query)

    async def watch_ticket(self, ticket_id: str, token: str | None) -> AsyncIterator[JSON]:
        """See RestTransport.watch_ticket."""
        _, path, _, _ = portal_request("WatchMatchTicket", {"ticketId": ticket_id})
        async with contextlib.aclosing(self._sse(path, token, None, ticket_item,
                                                 "the ticket changed for the last time")) as items:
            async for out in items:
                yield out

    async def watch(self, game_id: str, token: str | None, after_version: int,
                    after_hash: str = "", on_open: Callable[[], None] | None = None) -> AsyncIterator[JSON]:
        """See RestTransport.watch."""
        path = f"/v1/games/{quote(game_id, safe='')}/watch"
        params = _watch_params(after_version, after_hash)
        async with contextlib.aclosing(self._sse(path, token, params, sse_item, "the game ended",
                                                 on_open)) as items:
            async for out in items:
                yield out

    async def _sse(self, path: str, token: str | None, params: JSON | None, item: Any,
                   until: str, on_open: Callable[[], None] | None = None) -> AsyncIterator[JSON]:
        """See RestTransport._sse."""
        headers = {**_headers(token), "Accept": "text/event-stream"}
        try:
            async with self.http.stream("GET", path, headers=headers, params=params,
                                        timeout=httpx.Timeout(self.http.timeout.connect, read=WATCH_SILENCE)) as r:
                if r.status_code != 200:
                    await r.aread()
                    raise _error(r.status_code, r.text)
                if on_open is not None:
                    on_open()
                parser = SSEParser()
                async for line in r.aiter_lines():
                    msg = parser.feed(line)
                    if msg is None:
                        continue
                    try:
                        out = item(msg[0], msg[2])
                    except StreamEnd:
                        return
                    if out is not None:
                        yield out
        except httpx.HTTPError as e:
            raise _transport_error(e) from e
        raise Unavailable(f"the watch stream closed before {until}")


def _join_body(request_id: str | None) -> JSON:
    return {"requestId": request_id} if request_id else {}
