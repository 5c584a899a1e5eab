"""gRPC transport, sync and async. Answers are converted to the same JSON dicts REST gives."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import grpc
from google.protobuf import json_format, message, struct_pb2

from ._proto import games_pb2 as pb
from ._proto import games_pb2_grpc as pbg
from ._proto import notifications_pb2, notifications_pb2_grpc, players_pb2, players_pb2_grpc
from .errors import MalformedAction, TableroError, error_for, error_info

JSON = dict[str, Any]


def _intify(v: Any) -> Any:
    """protobuf Struct numbers are doubles: give whole numbers back as ints, as REST does. A
    Struct is a map, which keeps no order (it comes out in a different one in each process):
    its keys are sorted, so that a board drawn from it lists its parts in one order."""
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, dict):
        return {k: _intify(v[k]) for k in sorted(v)}
    if isinstance(v, list):
        return [_intify(x) for x in v]
    return v


def to_json(msg: Any) -> JSON:
    return _intify(json_format.MessageToDict(msg))


def _struct(d: JSON) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update(d)
    return s


def _legal_request(game_id: str, query: JSON | None) -> Any:
    q = query or {}
    return pb.ListLegalActionsRequest(game_id=game_id, page_size=q.get("pageSize") or 0,
                                      page_token=q.get("pageToken") or "", type=q.get("type") or "",
                                      group=q.get("group") or "")


def _portal_methods() -> dict[str, tuple[Any, type]]:
    """The notification, player and matchmaking RPCs: name -> (stub class, request class)."""
    out: dict[str, tuple[Any, type]] = {}
    for msgs, stubs in ((notifications_pb2, notifications_pb2_grpc), (players_pb2, players_pb2_grpc)):
        for service in msgs.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                out[m.name] = (getattr(stubs, service.name + "Stub"), getattr(msgs, m.input_type.name))
    return out


PORTAL_METHODS = _portal_methods()


def _portal_request(rpc: str, request: JSON) -> Any:
    """The request message from its JSON (the API's names), as REST reads a body."""
    try:
        return json_format.ParseDict(request, PORTAL_METHODS[rpc][1]())
    except json_format.ParseError as e:
        raise error_for("INVALID_ARGUMENT", f"{rpc}: {e}", reason="INVALID_ARGUMENT") from None


def _games_request(query: JSON) -> Any:
    """ListGamesRequest from REST's query (the API's JSON names)."""
    try:
        return json_format.ParseDict(query, pb.ListGamesRequest())
    except json_format.ParseError as e:
        raise error_for("INVALID_ARGUMENT", f"ListGames: {e}", reason="INVALID_ARGUMENT") from None


def _ticket_items(msg: Any) -> JSON | None:
    """A WatchMatchTicket message as REST's `{"version", "ticket"}`; None for a keep-alive (no ticket)."""
    return to_json(msg) if msg.HasField("ticket") else None


def _md(token: str | None) -> list[tuple[str, str]] | None:
    return [("authorization", f"Bearer {token}")] if token else None


def _error(e: grpc.RpcError) -> TableroError:
    code = e.code() if hasattr(e, "code") else None
    name = code.name if code is not None else "UNKNOWN"
    details = e.details() if hasattr(e, "details") else str(e)
    reason, metadata = None, {}
    trailing = e.trailing_metadata() if hasattr(e, "trailing_metadata") else None
    for key, value in trailing or ():
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            reason, metadata = error_info(value)
    if name == "CANCELLED" and reason is None:
        # Cancelled on the server's side, before any answer (this client's own cancellation raises
        # asyncio.CancelledError, not an RpcError): a stopping server drops the calls it had not
        # started (grpc's server stop). Another replica answers: retried as UNAVAILABLE, and every
        # write the SDK retries carries a requestId, so it lands once.
        return error_for("UNAVAILABLE", f"the server cancelled the call before answering ({details or name}); "
                         "it may be stopping", reason="SERVER_CANCELLED")
    return error_for(name, details or name, reason=reason, metadata=metadata)


def _game(msg: Any) -> JSON:
    # GetGame/SubmitAction answer Game today, {game: Game} once the API wraps it.
    if msg.DESCRIPTOR.name != "Game" and "game" in msg.DESCRIPTOR.fields_by_name:
        msg = msg.game
    return to_json(msg)


def _create_request(body: JSON) -> Any:
    req = pb.CreateGameRequest(engine=body["engine"], players=int(body.get("players") or 0),
                               seats=list(body.get("seats") or []))
    if body.get("options"):
        req.options.CopyFrom(_struct(body["options"]))
    # The rest as the REST body spells it (the protobuf JSON mapping: seatSpecs, onLeave, clock, rated).
    rest = {k: body[k] for k in ("seatSpecs", "onLeave", "clock", "rated", "requestId") if k in body}
    if rest:
        json_format.ParseDict(rest, req)
    return req


def _submit_request(game_id: str, body: JSON) -> Any:
    try:
        action = _struct(body["action"])
        req = pb.SubmitActionRequest(game_id=game_id, action=action, request_id=body.get("requestId") or "")
    except (ValueError, TypeError, message.Error) as e:  # no JSON value protobuf can carry (nested too deep, …)
        raise MalformedAction(f"the action cannot be sent as a google.protobuf.Struct: {e}",
                              reason="MALFORMED_ACTION") from None
    if body.get("expectedVersion") is not None:
        req.expected_version = int(body["expectedVersion"])
    return req


def _get_request(game_id: str, version: int | None) -> Any:
    req = pb.GetGameRequest(game_id=game_id)
    if version is not None:
        req.version = version
    return req


# HTTP/2 keep-alive: a ping every KEEPALIVE_TIME_MS, with or without calls in flight; a ping not
# answered within KEEPALIVE_TIMEOUT_MS fails the connection's calls with UNAVAILABLE, and watch()
# reconnects after the last version it saw. A silently dead watch is thus noticed within
# KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS (15 s). The server admits pings every 5 s or more.
KEEPALIVE_TIME_MS = 10_000
KEEPALIVE_TIMEOUT_MS = 5_000
RECONNECT_INITIAL_MS, RECONNECT_MAX_MS = 100, 1_000


def _options() -> list[tuple[str, int]]:
    return [("grpc.max_receive_message_length", 64 << 20),
            ("grpc.keepalive_time_ms", KEEPALIVE_TIME_MS),
            ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.http2.max_pings_without_data", 0),
            # what times a keep-alive ping out in current gRPC (keepalive_timeout_ms alone does not)
            ("grpc.http2.ping_timeout_ms", KEEPALIVE_TIMEOUT_MS),
            # A channel whose server is away retries its connection by itself, and fails every call
            # at once in between: with gRPC's defaults (1 s, x1.6, up to 120 s) a server back from a
            # 30 s restart was tried again only ~15 s later, past a watch's patience. The SDK's own
            # retries back off already; the channel tries at most RECONNECT_MAX_MS apart.
            ("grpc.initial_reconnect_backoff_ms", RECONNECT_INITIAL_MS),
            ("grpc.max_reconnect_backoff_ms", RECONNECT_MAX_MS)]


# A gRPC watch of a quiet game gets nothing from the server (no keep-alive messages: HTTP/2
# pings; its headers come with the first event): a call still open this long on a channel that is
# READY (connected to the server, which refuses a call at once) counts as answered.
OPEN_AFTER = 1.0


def _channel(target: str, secure: bool) -> grpc.Channel:
    opts = _options()
    return (grpc.secure_channel(target, grpc.ssl_channel_credentials(), opts) if secure
            else grpc.insecure_channel(target, opts))


def _aio_channel(target: str, secure: bool) -> grpc.aio.Channel:
    opts = _options()
    return (grpc.aio.secure_channel(target, grpc.ssl_channel_credentials(), opts) if secure
            else grpc.aio.insecure_channel(target, opts))


class GrpcTransport:
    def __init__(self, target: str, timeout: float = 30.0, secure: bool = False) -> None:
        self.target = target
        self.timeout = timeout
        self.channel = _channel(target, secure)
        self.stub = pbg.GameServiceStub(self.channel)
        self.portal_stubs = {cls: cls(self.channel) for cls, _ in PORTAL_METHODS.values()}
        # The channel's connectivity, followed from the first watch on (grpc polls it in a thread).
        self.state: grpc.ChannelConnectivity | None = None
        self._followed = False

    def _state(self, state: grpc.ChannelConnectivity) -> None:
        self.state = state

    # grpcio's thread that follows the channel's state (subscribe) asks again every 0.2 s, and it
    # dies with "Cannot monitor channel state: Channel closed!" printed on stderr if the channel
    # closes while it asks (grpc/grpc#18995): once unsubscribed, it is let end before the close.
    UNSUBSCRIBED_WAIT = 0.25

    def close(self) -> None:
        if self._followed:
            self.channel.unsubscribe(self._state)
            self._followed = False
            time.sleep(self.UNSUBSCRIBED_WAIT)
        self.channel.close()

    def _call(self, method: str, req: Any, token: str | None = None) -> Any:
        try:
            return getattr(self.stub, method)(req, metadata=_md(token), timeout=self.timeout)
        except grpc.RpcError as e:
            raise _error(e) from e

    def list_engines(self) -> list[JSON]:
        return to_json(self._call("ListEngines", pb.ListEnginesRequest())).get("engines", [])

    def get_engine(self, name: str) -> JSON:
        if hasattr(pb, "GetEngineRequest"):
            return to_json(self._call("GetEngine", pb.GetEngineRequest(name=name)))["engine"]
        for e in self.list_engines():  # protos before GetEngine
            if e["name"] == name:
                return e
        raise error_for("NOT_FOUND", f"no engine named {name!r}", reason="ENGINE_NOT_FOUND")

    def engine_messages(self, name: str, lang: str) -> JSON:
        return to_json(self._call("GetEngineMessages", pb.GetEngineMessagesRequest(name=name, lang=lang)))

    def create_game(self, body: JSON, token: str | None = None) -> JSON:
        return to_json(self._call("CreateGame", _create_request(body), token))

    def join_game(self, game_id: str, token: str | None, request_id: str | None = None) -> JSON:
        return to_json(self._call("JoinGame", pb.JoinGameRequest(game_id=game_id, request_id=request_id or ""), token))

    def get_game(self, game_id: str, token: str | None, version: int | None) -> JSON:
        return _game(self._call("GetGame", _get_request(game_id, version), token))

    def legal_actions(self, game_id: str, token: str | None, query: JSON | None = None) -> JSON:
        return to_json(self._call("ListLegalActions", _legal_request(game_id, query), token))

    def submit_action(self, game_id: str, token: str | None, body: JSON) -> JSON:
        return _game(self._call("SubmitAction", _submit_request(game_id, body), token))

    def list_events(self, game_id: str, token: str | None, page_size: int | None, page_token: str | None,
                    after_version: int = 0) -> JSON:
        req = pb.ListEventsRequest(game_id=game_id, page_size=page_size or 0, page_token=page_token or "",
                                   after_version=after_version)
        return to_json(self._call("ListEvents", req, token))

    def list_games(self, query: JSON, token: str | None) -> JSON:
        return to_json(self._call("ListGames", _games_request(query), token))

    def portal(self, rpc: str, request: JSON, token: str | None) -> JSON:
        """A call of the notification, player or matchmaking services, JSON in and out as REST's."""
        stub = self.portal_stubs[PORTAL_METHODS[rpc][0]]
        try:
            return to_json(getattr(stub, rpc)(_portal_request(rpc, request), metadata=_md(token), timeout=self.timeout))
        except grpc.RpcError as e:
            raise _error(e) from e

    def watch_ticket(self, ticket_id: str, token: str | None) -> Iterator[JSON]:
        stub = self.portal_stubs[PORTAL_METHODS["WatchMatchTicket"][0]]
        call = stub.WatchMatchTicket(_portal_request("WatchMatchTicket", {"ticketId": ticket_id}), metadata=_md(token))
        try:
            for msg in call:
                item = _ticket_items(msg)
                if item is not None:
                    yield item
        except grpc.RpcError as e:
            raise _error(e) from e
        finally:
            call.cancel()

    def watch(self, game_id: str, token: str | None, after_version: int, after_hash: str = "",
              on_open: Callable[[], None] | None = None) -> Iterator[JSON]:
        """Game events after `after_version`. `on_open` is called once the server has answered the
        stream: a first message, or the call still open after OPEN_AFTER on a READY channel."""
        call = self.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, after_version=after_version,
                                                       after_hash=after_hash),
                                   metadata=_md(token))
        timer = None
        if on_open is not None:
            if not self._followed:
                self._followed = True
                self.channel.subscribe(self._state, try_to_connect=False)

            def check() -> None:
                if call.is_active() and self.state == grpc.ChannelConnectivity.READY:
                    on_open()
            timer = threading.Timer(OPEN_AFTER, check)
            timer.daemon = True
            timer.start()
        try:
            for msg in call:
                if on_open is not None:
                    on_open()
                yield to_json(msg)
        except grpc.RpcError as e:
            raise _error(e) from e
        finally:
            if timer is not None:
                timer.cancel()
            call.cancel()


class AsyncGrpcTransport:
    def __init__(self, target: str, timeout: float = 30.0, secure: bool = False) -> None:
        self.target = target
        self.timeout = timeout
        self.channel = _aio_channel(target, secure)
        self.stub = pbg.GameServiceStub(self.channel)
        self.portal_stubs = {cls: cls(self.channel) for cls, _ in PORTAL_METHODS.values()}

    async def close(self) -> None:
        await self.channel.close()

    async def _call(self, method: str, req: Any, token: str | None = None) -> Any:
        try:
            return await getattr(self.stub, method)(req, metadata=_md(token), timeout=self.timeout)
        except grpc.RpcError as e:
            raise _error(e) from e

    async def list_engines(self) -> list[JSON]:
        return to_json(await self._call("ListEngines", pb.ListEnginesRequest())).get("engines", [])

    async def get_engine(self, name: str) -> JSON:
        if hasattr(pb, "GetEngineRequest"):
            return to_json(await self._call("GetEngine", pb.GetEngineRequest(name=name)))["engine"]
        for e in await self.list_engines():
            if e["name"] == name:
                return e
        raise error_for("NOT_FOUND", f"no engine named {name!r}", reason="ENGINE_NOT_FOUND")

    async def engine_messages(self, name: str, lang: str) -> JSON:
        return to_json(await self._call("GetEngineMessages", pb.GetEngineMessagesRequest(name=name, lang=lang)))

    async def create_game(self, body: JSON, token: str | None = None) -> JSON:
        return to_json(await self._call("CreateGame", _create_request(body), token))

    async def join_game(self, game_id: str, token: str | None, request_id: str | None = None) -> JSON:
        return to_json(await self._call("JoinGame", pb.JoinGameRequest(game_id=game_id, request_id=request_id or ""),
                                        token))

    async def get_game(self, game_id: str, token: str | None, version: int | None) -> JSON:
        return _game(await self._call("GetGame", _get_request(game_id, version), token))

    async def legal_actions(self, game_id: str, token: str | None, query: JSON | None = None) -> JSON:
        return to_json(await self._call("ListLegalActions", _legal_request(game_id, query), token))

    async def submit_action(self, game_id: str, token: str | None, body: JSON) -> JSON:
        return _game(await self._call("SubmitAction", _submit_request(game_id, body), token))

    async def list_events(self, game_id: str, token: str | None, page_size: int | None,
                          page_token: str | None, after_version: int = 0) -> JSON:
        req = pb.ListEventsRequest(game_id=game_id, page_size=page_size or 0, page_token=page_token or "",
                                   after_version=after_version)
        return to_json(await self._call("ListEvents", req, token))

    async def list_games(self, query: JSON, token: str | None) -> JSON:
        return to_json(await self._call("ListGames", _games_request(query), token))

    async def portal(self, rpc: str, request: JSON, token: str | None) -> JSON:
        """See GrpcTransport.portal."""
        stub = self.portal_stubs[PORTAL_METHODS[rpc][0]]
        try:
            return to_json(await getattr(stub, rpc)(_portal_request(rpc, request), metadata=_md(token),
                                                    timeout=self.timeout))
        except grpc.RpcError as e:
            raise _error(e) from e

    async def watch_ticket(self, ticket_id: str, token: str | None) -> AsyncIterator[JSON]:
        stub = self.portal_stubs[PORTAL_METHODS["WatchMatchTicket"][0]]
        call = stub.WatchMatchTicket(_portal_request("WatchMatchTicket", {"ticketId": ticket_id}), metadata=_md(token))
        try:
            async for msg in call:
                item = _ticket_items(msg)
                if item is not None:
                    yield item
        except grpc.RpcError as e:
            raise _error(e) from e
        finally:
            call.cancel()

    async def watch(self, game_id: str, token: str | None, after_version: int,
                    after_hash: str = "", on_open: Callable[[], None] | None = None) -> AsyncIterator[JSON]:
        """See GrpcTransport.watch."""
        call = self.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, after_version=after_version,
                                                       after_hash=after_hash),
                                   metadata=_md(token))
        timer = None
        if on_open is not None:
            def check() -> None:
                if not call.done() and self.channel.get_state() == grpc.ChannelConnectivity.READY:
                    on_open()
            timer = asyncio.get_running_loop().call_later(OPEN_AFTER, check)
        try:
            async for msg in call:
                if on_open is not None:
                    on_open()
                yield to_json(msg)
        except grpc.RpcError as e:
            raise _error(e) from e
        finally:
            if timer is not None:
                timer.cancel()
            call.cancel()
