"""The transport edge, shared by REST and gRPC: each RPC's typed command, the seat it
needs, the use case it runs, and the errors it may answer (for the OpenAPI document).

Both transports hand over the request in its JSON form (server.api.codec) inside an
open `Call` (server.api.observe); this module does the rest the same way for both.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from redis import exceptions as rex
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.app.rankings import aggregate_rankings
from tablero.server.auth import bearer
from tablero.server.errors import AppError, InvalidArgument, RateLimited, Unauthenticated, Unavailable, outage
from tablero.server.notify.api import HANDLERS as NOTIFY_HANDLERS
from tablero.server.portal.identity import Expired, IdentityError, PortalKeys, User, looks_like_jwt
from tablero.server.store.base import Nudge, StoreError

from . import observe, watch
from .rpcs import required_strings
from .watch import WatchItem

# A backing store gone for a moment (the lobby's, the clocks' or the rate limiter's Redis
# restarting, failing over): UNAVAILABLE, which clients retry, not a 500. Other Redis errors
# (a refused command) are faults, and stay INTERNAL.
OUTAGES = (StoreError, rex.ConnectionError, rex.TimeoutError, rex.ClusterDownError, rex.TryAgainError,
            rex.MasterDownError, rex.ReadOnlyError)

Wire = dict[str, Any]
SeatNeed = Literal["none", "optional", "required"]


@dataclass(frozen=True)
class Handler:
    seat: SeatNeed
    run: Callable[[GameService, Wire, int | None], Awaitable[Any]]
    errors: tuple[str, ...]  # besides INTERNAL


_READ = ("INVALID_ARGUMENT", "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND", "RESOURCE_EXHAUSTED",
         "UNAVAILABLE")
# Reads of the log's past: versions a snapshot covers are no longer kept when
# TABLERO_TRIM_ON_SNAPSHOT is on (FAILED_PRECONDITION names where the log starts now).
_PAST = (*_READ, "FAILED_PRECONDITION")


# The calls that seat their caller: a token sent with them must be one this server can read.
_BINDS_CALLER = frozenset({"CreateGame", "JoinGame"})


def _user() -> User | None:
    return observe.current().user


# Requests take the enum names answers use (Seat.kind: SEAT_KIND_OPEN) beside the short forms.
_SEAT_KIND_NAMES = {"SEAT_KIND_HUMAN": "human", "SEAT_KIND_OPEN": "open", "SEAT_KIND_BOT": "bot"}


def _kinds(w: Wire) -> tuple[Any, ...]:
    return tuple(_SEAT_KIND_NAMES.get(k, k) if isinstance(k, str) else k for k in w.get("seats") or ())


def _specs(w: Wire) -> tuple[Any, ...]:
    return tuple({**s, "kind": _SEAT_KIND_NAMES.get(s["kind"], s["kind"])}
                 if isinstance(s, dict) and isinstance(s.get("kind"), str) else s for s in w.get("seatSpecs") or ())


def _action(w: Wire) -> Any:
    # The transports own "is an object" (a Struct: the codec, protobuf); JSON null is unset.
    action = w.get("action")
    if action is None:
        raise InvalidArgument('the request needs an "action" object')
    return action


HANDLERS: dict[str, Handler] = {
    "ListEngines": Handler("none", lambda g, w, s: g.list_engines(), ()),
    "GetEngine": Handler("none", lambda g, w, s: g.get_engine(cmd.GetEngine(w.get("name", ""))), ("NOT_FOUND",)),
    "GetEngineMessages": Handler("none", lambda g, w, s: g.get_engine_messages(cmd.GetEngineMessages(
        w.get("name", ""), w.get("lang", ""))), ("NOT_FOUND",)),
    "CreateGame": Handler("none", lambda g, w, s: g.create_game(cmd.CreateGame(
        w.get("engine", ""), w.get("players"), w.get("options") or {}, _kinds(w), _specs(w), _user(),
        w.get("onLeave", ""), w.get("clock"), w.get("rated"), request_id=w.get("requestId") or None)),
        ("INVALID_ARGUMENT", "UNAUTHENTICATED", "RESOURCE_EXHAUSTED", "UNAVAILABLE")),
    "ListGames": Handler("none", lambda g, w, s: g.list_games(cmd.ListGames(
        w.get("engine", ""), w.get("status", ""), w.get("openSeats"), bool(w.get("mine")), w.get("pageSize"),
        w.get("pageToken", ""), _user())), ("INVALID_ARGUMENT", "UNAUTHENTICATED", "RESOURCE_EXHAUSTED", "UNAVAILABLE")),
    "JoinGame": Handler("none", lambda g, w, s: g.join_game(cmd.JoinGame(w.get("gameId", ""), _user(),
                                                                            w.get("requestId") or None)),
                        ("INVALID_ARGUMENT", "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND",
                         "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED", "UNAVAILABLE")),
    "GetGame": Handler("optional", lambda g, w, s: g.get_game(cmd.GetGame(w.get("gameId", ""), s, w.get("version"))),
                       _PAST),
    "ListLegalActions": Handler("required", lambda g, w, s: g.list_legal_actions(cmd.ListLegalActions(
        w.get("gameId", ""), s, w.get("pageSize"), w.get("pageToken", ""), w.get("type", ""),
        w.get("group", ""))), _READ),
    "SubmitAction": Handler("required", lambda g, w, s: g.submit_action(cmd.SubmitAction(
        w.get("gameId", ""), s, _action(w), w.get("requestId") or None, w.get("expectedVersion"))),
        (*_READ, "FAILED_PRECONDITION", "ABORTED", "RESOURCE_EXHAUSTED")),
    "Resign": Handler("required", lambda g, w, s: g.resign(cmd.Resign(w.get("gameId", ""), s)),
                      (*_READ, "FAILED_PRECONDITION", "ABORTED")),
    "ListEvents": Handler("optional", lambda g, w, s: g.list_events(cmd.ListEvents(
        w.get("gameId", ""), s, w.get("pageSize"), w.get("pageToken", ""), w.get("afterVersion", 0))), _PAST),
    "WatchGame": Handler("optional", lambda g, w, s: g.watch_game(cmd.WatchGame(
        w.get("gameId", ""), s, w.get("afterVersion", 0), w.get("afterHash", ""))), _PAST),
    "AggregateRankings": Handler("none", lambda g, w, s: aggregate_rankings(w),
                                 ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED")),
    # Ratings and matchmaking (server/ratings, server/matchmaking; issue 33)
    "GetLeaderboard": Handler("none", lambda g, w, s: _ratings(g).leaderboard(
        w.get("engine", ""), w.get("pageSize"), w.get("pageToken", ""), w.get("aroundUserId", "")),
        ("INVALID_ARGUMENT", "NOT_FOUND", "RESOURCE_EXHAUSTED", "UNAVAILABLE")),
    "GetPlayer": Handler("none", lambda g, w, s: _ratings(g).player(w.get("userId", "")),
                         ("INVALID_ARGUMENT", "NOT_FOUND", "RESOURCE_EXHAUSTED", "UNAVAILABLE")),
    "CreateMatchTicket": Handler("none", lambda g, w, s: _matchmaking(g).create(w, _user()),
                                 ("INVALID_ARGUMENT", "UNAUTHENTICATED", "RESOURCE_EXHAUSTED", "UNAVAILABLE")),
    "GetMatchTicket": Handler("none", lambda g, w, s: _matchmaking(g).get(w.get("ticketId", ""), _user()), _READ),
    "WatchMatchTicket": Handler("none", lambda g, w, s: _matchmaking(g).watch(w.get("ticketId", ""), _user()), _READ),
    "CancelMatchTicket": Handler("none", lambda g, w, s: _matchmaking(g).cancel(w.get("ticketId", ""), _user()),
                                 (*_READ, "FAILED_PRECONDITION")),
}
# The notifications' RPCs (server/notify/api.py).
HANDLERS.update({name: Handler(*entry) for name, entry in NOTIFY_HANDLERS.items()})


def _ratings(g: GameService) -> Any:
    if g.ratings is None:
        raise Unavailable("this server keeps no ratings")
    return g.ratings


def _matchmaking(g: GameService) -> Any:
    if g.matchmaking is None:
        raise Unavailable("this server runs no matchmaking")
    return g.matchmaking


class Api:
    """What both transports call: one unary dispatch and one watch."""

    def __init__(self, games: GameService, shutting_down: asyncio.Event, *, max_body: int,
                 max_rankings_body: int, portal_keys: PortalKeys | None = None, call_limit: Any = None,
                 create_limit: Any = None) -> None:
        self.games = games
        self.shutting_down = shutting_down
        self.max_body = max_body
        self.max_rankings_body = max_rankings_body
        self.portal_keys = portal_keys or PortalKeys({})
        self.call_limit = call_limit  # server.portal.ratelimit limiters, or None
        self.create_limit = create_limit
        # CreateGame copies with one requestId from one caller, in flight here: key -> [lock, users]
        self._creating: dict[tuple[str, str], list[Any]] = {}

    def _identify(self, call: observe.Call) -> str | None:
        """Verify a portal JWT if one is sent (call.user); returns a seat token otherwise."""
        token = bearer(call.authorization) or call.token or None
        if token is None or not looks_like_jwt(token):
            return token
        try:
            call.user = self.portal_keys.verify(token)
        except IdentityError as e:
            raise Unauthenticated(f"portal JWT refused: {e}",
                                  "TOKEN_EXPIRED" if isinstance(e, Expired) else "TOKEN_INVALID") from None
        call.fields["user"] = call.user.id
        return None

    def _seat_token(self, token: str) -> bool:
        """Whether `token` is a seat token this server signed (of the game it names)."""
        try:
            self.games.signer.verify(token, token.split(".", 1)[0])
        except AppError:
            return False
        return True

    async def _limit(self, call: observe.Call, rpc: str, wire: Wire) -> None:
        subject = f"user:{call.user.id}" if call.user is not None else f"addr:{call.peer or 'unknown'}"
        # (a retry of a create that made its game or ticket creates nothing: not counted)
        creates = self.create_limit is not None and (
            (rpc == "CreateGame" and not await self.games.is_create_retry(wire, call.user))
            or (rpc == "CreateMatchTicket" and not (
                self.games.matchmaking is not None and await self.games.matchmaking.is_retry(wire, call.user))))
        for limiter, what in ((self.call_limit, "calls"), (self.create_limit if creates else None,
                                                           "game creations")):
            if limiter is None:
                continue
            try:
                wait = await limiter.take(subject)
            except Exception as e:  # the store behind the shared buckets
                raise outage("the rate limiter's store", e) from None
            if wait > 0:
                raise RateLimited(f"too many {what} from {subject.split(':', 1)[0]} {subject.split(':', 1)[1]!r} "
                                  f"(limit {limiter.rate.text}); retry in {wait:.1f} s", wait)

    async def _user_seat(self, call: observe.Call, handler: Handler, game_id: str) -> int | None:
        """The seat of a portal user (call.user) in `game_id` (the seat directory)."""
        call.fields["game_id"] = game_id
        seat = await self.games.user_seat(game_id, call.user, required=handler.seat == "required")
        call.fields["seat"] = seat
        return seat

    def body_limit(self, rpc: str) -> int:
        return self.max_rankings_body if rpc == "AggregateRankings" else self.max_body

    async def _run(self, rpc: str, wire: Wire) -> Any:
        try:
            if rpc == "CreateGame" and self.create_limit is not None and isinstance(wire.get("requestId"), str):
                return await self._create_once(wire)
            return await self._answer(rpc, wire)
        except OUTAGES as e:  # the lobby's, the clocks', the seat directory's
            raise outage("a store behind this server", e) from None

    async def _create_once(self, wire: Wire) -> Any:
        """A create with a requestId under a create rate limit: copies of it from one caller (the
        same Authorization, else address) run one after the other on this replica, so the ones
        after the first find its game and are not counted against the limit (docs/api.md)."""
        call = observe.current()
        key = (call.authorization or f"addr:{call.peer}", wire["requestId"])
        entry = self._creating.setdefault(key, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                return await self._answer("CreateGame", wire)
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self._creating[key]

    async def _answer(self, rpc: str, wire: Wire) -> Any:
        call = observe.current()
        call.rpc = rpc
        handler = HANDLERS[rpc]
        token = self._identify(call)
        if rpc in _BINDS_CALLER and token is not None and not self._seat_token(token):
            # A JWT that arrived mangled (quoted, cut short) would otherwise make an anonymous
            # game or join: a seat bound to nobody, with no "My games", notifications or rating.
            raise Unauthenticated("the token sent is neither a portal JWT nor a seat token of this server; "
                                  "send the portal JWT as Authorization: Bearer <jwt>, or no token",
                                  "TOKEN_INVALID")
        held = None
        if rpc == "JoinGame" and token is not None and wire.get("gameId"):
            # A seat token of another game would otherwise join anonymously: refused, nothing
            # changed (PermissionDenied WRONG_GAME, as on every seat call of the game). One of
            # this game: its holder is seated already, and gets that seat back (below).
            held = self.games.signer.verify_claim(token, wire["gameId"])
        elif rpc == "CreateGame" and token is not None:
            # A seat token names one seat of one game, not a player: the game would be made
            # anonymous, as if no token had been sent (no "My games", "me" seat or rating).
            raise Unauthenticated("CreateGame: the token sent is a seat token, which names one seat of one game, not a "
                                  "player: send a portal JWT (Authorization: Bearer <jwt>) to create the game as "
                                  "its user, or no token for an anonymous game", "TOKEN_INVALID")
        if self.call_limit is not None or self.create_limit is not None:
            await self._limit(call, rpc, wire)
        seat = None
        for name in required_strings(rpc):  # (REST's paths name them; a Connect or gRPC body may not)
            if not wire.get(name):
                raise InvalidArgument(f"{name} is required")
        if held is not None:
            call.fields["game_id"], call.fields["seat"] = wire["gameId"], held[0]
            return await self.games.rejoin(wire["gameId"], *held)
        if handler.seat != "none":
            if call.user is None:  # a seat token (or none): no store call unless a joined seat's claim
                call.token, call.authorization = token, None  # the seat token, however it came
                seat = call.seat(self.games.signer, wire.get("gameId", ""), required=handler.seat == "required")
                if call.claim is not None and seat is not None:  # a joined seat: its claim must still stand
                    await self.games.check_claim(wire.get("gameId", ""), seat, call.claim)
            else:
                seat = await self._user_seat(call, handler, wire.get("gameId", ""))
        if wire.get("requestId"):
            call.fields["request_id"] = str(wire["requestId"])[:128]
        if wire.get("gameId"):
            call.fields["game_id"] = wire["gameId"]
        try:
            out = await handler.run(self.games, wire, seat)
        except Unauthenticated as e:
            if token is None or e.reason != "TOKEN_MISSING":
                raise
            # A portal-only call (mine=true, a "me" seat, matchmaking, notifications) sent a seat
            # token: one was sent, the wrong kind (or one that is neither kind).
            what = ("a seat token, which names one seat of one game, not a portal user" if self._seat_token(token)
                    else "neither a portal JWT nor a seat token of this server")
            raise Unauthenticated(f"{e.message} (the token sent is {what})", "TOKEN_INVALID") from None
        # The log line names the game a create made and the seat a join took.
        if rpc == "CreateGame":
            call.fields["game_id"] = out["game"]["id"]
        elif rpc == "JoinGame":
            call.fields["seat"] = out["seat"]
        return out

    unary = _run  # a unary RPC's answer (no coroutine of its own: this runs on every request)

    async def watch(self, wire: Wire, keepalive: float | None = None, rpc: str = "WatchGame",
                    first: float | None = None) -> AsyncIterator[WatchItem]:
        """Refusals (unknown game, bad token, bad afterVersion) are raised here, before the
        first item; after that, failures arrive as an `error` item. `first`: a game's watch
        that has sent nothing after this many seconds sends a keep-alive then (server.api.watch)."""
        events = await self._run(rpc, wire)
        if rpc != "WatchGame":  # a match ticket's changes (server/matchmaking)
            return _ticket_end(watch.items(events, self.shutting_down, keepalive))
        return watch.items(events, self.shutting_down, keepalive, nudge=Nudge(), first=first)


async def _ticket_end(items: AsyncIterator[WatchItem]) -> AsyncIterator[WatchItem]:
    """A ticket's watch ends with the ticket's last status (not a game's)."""
    status = ""
    try:
        async for item in items:
            if item.kind == "event":
                status = item.data["ticket"]["status"]
            yield WatchItem("end", {"status": status}) if item.kind == "end" else item
    finally:
        await items.aclose()  # type: ignore[attr-defined]
