"""`Client` (sync) and `AsyncClient`: one typed surface over gRPC or REST.

    from tablero_client import Client
    with Client(rest="http://127.0.0.1:8080") as c:        # or Client(grpc="127.0.0.1:50051")
        created = c.create("tic-tac-toe", players=2)
        x = created.seat(0)                                 # a seat handle: game id + its token
        x.act({"type": "place", "cell": 4})
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._rest import AsyncRestTransport, RestTransport
from .errors import Aborted, InvalidArgument, MalformedAction, TableroError, Unavailable
from .models import JSON, Created, Engine, Event, Game, GamePage, GameSummary, Joined, LegalActions, status_name
from .portal import AsyncMatchmaking, AsyncNotifications, AsyncPlayers, Matchmaking, Notifications, Players

if TYPE_CHECKING:  # gRPC (grpcio and the generated code) is imported when a client asks for it:
    # a REST client, and every `tablero-client` command over REST, starts without it
    from ._grpc import AsyncGrpcTransport, GrpcTransport


def _grpc_module():  # type: ignore[no-untyped-def]
    from . import _grpc

    return _grpc


def _is_grpc(transport: object) -> bool:
    grpc = sys.modules.get(f"{__package__}._grpc")  # not imported: no gRPC transport exists
    return grpc is not None and isinstance(transport, grpc.AsyncGrpcTransport)

__all__ = ["AsyncClient", "AsyncSeat", "Client", "Seat"]

SEAT_KIND_ALIASES = {"human": "human", "open": "open", "bot": "bot", "me": "me",
                     "SEAT_KIND_HUMAN": "human", "SEAT_KIND_OPEN": "open", "SEAT_KIND_BOT": "bot"}
# A bot seat's level, as "bot:<level>" (plain "bot" is easy, but names no level).
BOT_LEVELS = ("easy", "medium", "hard")


def seat_kind(k: str) -> str:
    """The wire form of a seat kind: human, open, me, bot, or bot:medium / bot:hard. Spelled as
    the server takes them (lower case; the enum names SEAT_KIND_*; a level only after plain
    "bot"), and refused as it refuses them (InvalidArgument), before any request."""
    kind, colon, level = k.partition(":")
    base = SEAT_KIND_ALIASES.get(kind)
    if base is None:
        raise InvalidArgument(f"unknown seat kind {k!r}: use human, open, me or bot (bot:easy, bot:medium, bot:hard)",
                              reason="INVALID_ARGUMENT")
    if colon and (kind != "bot" or level not in BOT_LEVELS):
        raise InvalidArgument(f"seat kind {k!r}: a level goes after plain \"bot\" and is one of "
                              f"{', '.join(BOT_LEVELS)} (\"bot\" alone is easy)", reason="INVALID_ARGUMENT")
    # The level as given, "easy" too: the server then names it (Seat.botLevel), as for REST and TS.
    return f"bot:{level}" if level else base


def _camel(d: Mapping[str, Any]) -> JSON:
    """A request object's keys in the API's lowerCamelCase (user_id -> userId; userId stays)."""
    return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): v for k, v in d.items()}


def _create_body(engine: str, players: int | None, options: JSON | None, seats: Sequence[str] | None,
                 seat_specs: Sequence[Mapping[str, Any]] | None = None, on_leave: str | None = None,
                 clock: Mapping[str, Any] | None = None, rated: bool | None = None,
                 request_id: str | None = None) -> JSON:
    body: JSON = {"engine": engine, "requestId": request_id or uuid.uuid4().hex}
    if players is not None:
        body["players"] = players
    if options:
        body["options"] = options
    if seats is not None:
        kinds = [seat_kind(k) for k in seats]
        body["seats"] = kinds
        body.setdefault("players", len(kinds))
    if seat_specs is not None:
        body["seatSpecs"] = [_camel(s) for s in seat_specs]
        body.setdefault("players", len(seat_specs))
    if on_leave is not None:
        body["onLeave"] = on_leave
    if clock is not None:
        body["clock"] = _camel(clock)
    if rated is not None:
        body["rated"] = rated
    return body


def _legal_query(page_size: int | None, page_token: str | None, type: str | None, group: str | None) -> JSON:
    """ListLegalActions' query (REST parameter names; the gRPC transport maps them)."""
    query = {"pageSize": page_size, "pageToken": page_token, "type": type, "group": group}
    return {k: v for k, v in query.items() if v}


# The lobby's status filters, as the server takes them (server/app/lobby.py).
GAME_STATUSES = ("GAME_STATUS_RUNNING", "GAME_STATUS_FINISHED")
NO_STATUS = "GAME_STATUS_UNSPECIFIED"  # the enum's zero: no filter, as on every transport


def lobby_status(status: Any) -> str | None:
    """ListGames' `status` filter on the wire: "running", "finished" (any case) or their enum names
    GAME_STATUS_*; "unspecified" / GAME_STATUS_UNSPECIFIED is no filter (None), as the server takes
    it on every transport (a proto3 enum's zero is its unset value); anything else is refused here,
    before any request, as the server refuses it (InvalidArgument naming the values), so both
    transports say the same: over gRPC the protobuf parser would refuse it in its own words."""
    name = status_name(status) if isinstance(status, str) else None
    if name == NO_STATUS:
        return None
    if name not in GAME_STATUSES:
        raise InvalidArgument(f'status must be GAME_STATUS_RUNNING or GAME_STATUS_FINISHED ("running" or '
                              f'"finished"), or GAME_STATUS_UNSPECIFIED for every game, not {status!r}',
                              reason="INVALID_ARGUMENT")
    return name


def _games_query(engine: str | None, status: str | None, open_seats: bool | None, mine: bool,
                 page_size: int | None, page_token: str | None) -> JSON:
    """ListGames' query (REST parameter names; the gRPC transport maps them). `status`: "running",
    "finished" or GAME_STATUS_* (lobby_status)."""
    query: JSON = {"engine": engine, "status": lobby_status(status) if status else None, "openSeats": open_seats,
                   "mine": mine or None, "pageSize": page_size, "pageToken": page_token}
    return {k: v for k, v in query.items() if v is not None and v != ""}


def _submit_body(action: JSON, request_id: str, expected_version: int | None) -> JSON:
    if not isinstance(action, dict) or "type" not in action:
        raise MalformedAction('an action is a dict with a "type", e.g. {"type": "place", "cell": 4}',
                              reason="MALFORMED_ACTION")
    body: JSON = {"action": action, "requestId": request_id}
    if expected_version is not None:
        body["expectedVersion"] = expected_version
    return body


def _backoff(attempt: int, base: float, cap: float) -> float:
    # The exponent capped: a patient call's count of tries is bounded by time, not by 2 ** 1024.
    return random.uniform(0, min(cap, base * 2 ** min(attempt, 64)))


def _retryable(e: TableroError, retry_aborted: bool) -> bool:
    # ABORTED only as CONFLICT (other writers kept moving the game on): a STALE_VERSION (the
    # expectedVersion is not the game's) fails the same way at every retry.
    return isinstance(e, Unavailable) or (retry_aborted and isinstance(e, Aborted)
                                          and (e.reason or "CONFLICT") == "CONFLICT")


class _Options:
    def __init__(self, retries: int, backoff: float, max_backoff: float, watch_patience: float = 30.0,
                 write_patience: float = 10.0) -> None:
        if retries < 0:
            raise ValueError("retries must be >= 0")
        if not watch_patience >= 0:
            raise ValueError("watch_patience must be >= 0 seconds")
        if not write_patience >= 0:
            raise ValueError("write_patience must be >= 0 seconds")
        self.retries, self.backoff, self.max_backoff = retries, backoff, max_backoff
        self.watch_patience, self.write_patience = watch_patience, write_patience

    def retries_call(self, e: TableroError, retried: int, failing_since: float, retry_aborted: bool) -> bool:
        """Whether a retried call (create, join, act: a requestId makes it safe to repeat) that
        failed with `e` tries again, having made `retried` retries, failing since `failing_since`
        (time.monotonic()): on UNAVAILABLE while fewer than `retries` retries were made or less
        than `write_patience` seconds have passed (a restarting server is away 2-3 s, longer
        than `retries` quick backoffs); on ABORTED CONFLICT (`retry_aborted`) `retries` times."""
        if isinstance(e, Unavailable):
            return retried < self.retries or time.monotonic() - failing_since < self.write_patience
        return retried < self.retries and _retryable(e, retry_aborted)

    # A stream that stayed open this long before it broke was connected (a refusal is at once).
    CONNECTED_AFTER = 1.0

    def watch_gives_up(self, failures: int, broken_since: float, connected: bool) -> bool:
        """A broken watch stops reconnecting once it has tried `retries` times in a row and,
        when it had been connected (an event came, or a stream stayed open), `watch_patience`
        seconds have passed since it broke: a restarting server (gone for a few seconds) is
        waited for, whatever the act() retry budget; one never reached is not."""
        if failures < self.retries:
            return False
        return not connected or time.monotonic() - broken_since >= self.watch_patience


class _Outages:
    """A watch's reconnections. `failures` counts the tries since the server last answered a
    stream (what `retries` bounds; an answer ends the outage, so the next break starts the count
    and the patience clock again, however quiet the game was between them), `backoffs` those
    since the last event (a server that answers and drops the stream at once is not hammered)."""

    def __init__(self, opt: _Options) -> None:
        self.opt, self.failures, self.backoffs, self.broken_since, self.connected = opt, 0, 0, 0.0, False
        self.opened = 0.0
        self.answered = threading.Event()  # set by the transport (from a gRPC thread, maybe)

    def attempt(self) -> Callable[[], None]:
        """A new try: the callback its transport calls once the server answers the stream."""
        self.opened = time.monotonic()
        self.answered = threading.Event()
        return self.answered.set

    def event(self) -> None:
        self.failures, self.backoffs, self.connected = 0, 0, True

    def broke(self) -> None:
        """The stream broke (Unavailable): a try the server had answered starts a new outage."""
        now = time.monotonic()
        if self.answered.is_set():
            self.failures, self.connected = 0, True
        self.connected = self.connected or now - self.opened >= self.opt.CONNECTED_AFTER
        if self.failures == 0:
            self.broken_since = now

    def gives_up(self) -> bool:
        return self.opt.watch_gives_up(self.failures, self.broken_since, self.connected)

    def next_wait(self) -> float:
        """The backoff before the next try (jittered, growing since the last event)."""
        wait = _backoff(self.backoffs, self.opt.backoff, self.opt.max_backoff)
        self.failures += 1
        self.backoffs += 1
        return wait


class Client:
    """Synchronous client. Give exactly one of `rest` (base URL) or `grpc` (host:port).

    `retries`: how often `act()` (and `create()`, `join()`) retries on UNAVAILABLE, with jittered
    exponential backoff from `backoff` seconds up to `max_backoff`; it goes on retrying until
    `write_patience` seconds (default 10: a server restart) have passed since its first failure,
    too (ABORTED CONFLICT, with `retry_aborted`: `retries` times only; the requestId makes every
    retry land once). A broken `watch()` reconnects the same way; once it
    had been connected it gives up only after `retries` tries in a row and `watch_patience`
    seconds (default 30: a server restart); a server never reached, after `retries` tries.
    `retry_count` counts the retries made so far (for load reports).

    A portal's calls: `notifications` (the user's list, Web Push), `players` (leaderboards,
    ratings) and `matchmaking` (quick match), which send `token` (the portal JWT) unless a call
    gives its own (tablero_client.portal).
    """

    def __init__(self, *, rest: str | None = None, grpc: str | None = None, timeout: float = 30.0,
                 secure: bool = False, retries: int = 5, backoff: float = 0.05, max_backoff: float = 2.0,
                 watch_patience: float = 30.0, write_patience: float = 10.0, token: str | None = None) -> None:
        if (rest is None) == (grpc is None):
            raise ValueError("give exactly one of rest='http://host:port' or grpc='host:port'")
        self.transport: RestTransport | GrpcTransport = (
            RestTransport(rest, timeout) if rest is not None else _grpc_module().GrpcTransport(grpc or "", timeout,
                                                                                             secure))
        self.kind = "rest" if rest is not None else "grpc"
        self._opt = _Options(retries, backoff, max_backoff, watch_patience, write_patience)
        self.retry_count = 0
        self.token = token  # a portal JWT: create() and join() send it when given no token of their own
        # A portal's calls (tablero_client.portal): they send `token` too.
        self.notifications = Notifications(self)
        self.players = Players(self)
        self.matchmaking = Matchmaking(self)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.transport.close()

    # --- engines and games -----------------------------------------------------------
    def engines(self) -> list[Engine]:
        return [Engine.from_json(e) for e in self.transport.list_engines()]

    def engine(self, name: str) -> Engine:
        return Engine.from_json(self.transport.get_engine(name))

    def engine_messages(self, name: str, lang: str = "en") -> JSON:
        """An engine's texts in a language (`{"lang", "messages": {key: ICU MessageFormat},
        "etag", "languages"}`), the platform's beside them; name "tablero": the platform's alone."""
        return self.transport.engine_messages(name, lang)

    def create(self, engine: str, players: int | None = None, *, options: JSON | None = None,
               seats: Sequence[str] | None = None, seat_specs: Sequence[Mapping[str, Any]] | None = None,
               on_leave: str | None = None, clock: Mapping[str, Any] | None = None, rated: bool | None = None,
               token: str | None = None, request_id: str | None = None) -> CreatedGame:
        """Create a game. `seats`: one kind per seat, "human" (token now), "open" (join later), "me"
        (the portal user's seat: needs a JWT) or "bot" ("bot:medium", "bot:hard": a bot of that
        level; plain "bot" is easy). Or `seat_specs` instead: one {"kind", "user_id", "user_name",
        "level"} per seat (a seat reserved for a user). `on_leave`: "forfeit" or "bot"; `clock`:
        {"move_seconds", "on_timeout"}; `rated`: docs/ratings.md. `token`: a portal JWT (default:
        the client's `token`). A requestId is made when not given, so that a retry (on
        UNAVAILABLE, after an answer that was lost) gets the same game, never a second one."""
        body = _create_body(engine, players, options, seats, seat_specs, on_leave, clock, rated, request_id)
        out = Created.from_json(self._retried(lambda: self.transport.create_game(body, token or self.token)))
        return CreatedGame(self, out.game, out.seats)

    def list_games(self, *, engine: str | None = None, status: str | None = None, open_seats: bool | None = None,
                   mine: bool = False, page_size: int | None = None, page_token: str | None = None,
                   token: str | None = None) -> GamePage:
        """One page of the lobby, newest first (`page_size`: default 20, at most 100; then the
        answer's `next_page_token` as `page_token`). Filters: `engine`; `status` "running" or
        "finished"; `open_seats` True (running games with a seat open to join) or False (none
        open); `mine=True`, the games the portal user holds a seat in (needs the JWT: `token`,
        default the client's)."""
        query = _games_query(engine, status, open_seats, mine, page_size, page_token)
        return GamePage.from_json(self.transport.list_games(query, token or self.token))

    def all_games(self, *, engine: str | None = None, status: str | None = None, open_seats: bool | None = None,
                  mine: bool = False, page_size: int | None = None, token: str | None = None) -> Iterator[GameSummary]:
        """Every game of the lobby the filters keep (see list_games), page after page."""
        page_token: str | None = None
        while True:
            page = self.list_games(engine=engine, status=status, open_seats=open_seats, mine=mine,
                                   page_size=page_size, page_token=page_token, token=token)
            yield from page.games
            page_token = page.next_page_token or None
            if not page_token:
                return

    def join(self, game_id: str, token: str | None = None, *, request_id: str | None = None) -> Seat:
        """Claim an open seat (as the portal user of `token`, default the client's); the handle
        carries its new token. A requestId is made when not given, so that a retry (on
        UNAVAILABLE, after an answer that was lost) gets the same seat, never a second one. A
        seat token of this game as `token` gets that seat back (no second seat)."""
        rid = request_id or uuid.uuid4().hex
        j = Joined.from_json(self._retried(lambda: self.transport.join_game(game_id, token or self.token, rid)))
        return Seat(self, j.game_id, j.token, j.seat)

    def seat(self, game_id: str, token: str, seat: int | None = None) -> Seat:
        """A handle for a seat whose token you already hold."""
        return Seat(self, game_id, token, seat)

    def game(self, game_id: str, token: str | None = None, version: int | None = None) -> Game:
        return Game.from_json(self.transport.get_game(game_id, token, version))

    def legal_actions(self, game_id: str, token: str, *, page_size: int | None = None, page_token: str | None = None,
                      type: str | None = None, group: str | None = None) -> LegalActions:
        """The seat's legal actions: all of them, or a page (`page_size`, then the answer's
        `next_page_token`), of one `type`, or `group="type"`: `.groups`, one per action type
        with its count and first page (continue one with its token and `type=`)."""
        query = _legal_query(page_size, page_token, type, group)
        return LegalActions.from_json(self.transport.legal_actions(game_id, token, query))

    def act(self, game_id: str, token: str, action: JSON, *, request_id: str | None = None,
            expected_version: int | None = None, retry_aborted: bool = False) -> Game:
        """Submit an action. A requestId is made when not given, so the retries (on UNAVAILABLE;
        on ABORTED CONFLICT too with `retry_aborted=True`, never on STALE_VERSION) never apply it
        twice."""
        body = _submit_body(action, request_id or uuid.uuid4().hex, expected_version)
        return Game.from_json(self._retried(lambda: self.transport.submit_action(game_id, token, body), retry_aborted))

    def _retried(self, call: Any, retry_aborted: bool = False) -> JSON:
        """`call()`, again after a backoff while it fails with UNAVAILABLE (or ABORTED, when
        asked): for requests a requestId makes safe to repeat (_Options.retries_call says how long)."""
        attempt, failing_since = 0, 0.0
        while True:
            try:
                return call()
            except TableroError as e:
                failing_since = failing_since or time.monotonic()
                if not self._opt.retries_call(e, attempt, failing_since, retry_aborted):
                    raise
            time.sleep(_backoff(attempt, self._opt.backoff, self._opt.max_backoff))
            attempt += 1
            self.retry_count += 1

    def events(self, game_id: str, token: str | None = None, *, page_size: int | None = None,
               after_version: int = 0) -> Iterator[Event]:
        """The event log after `after_version` (0: the whole log), redacted for the caller, fetching
        page after page. A game whose early events were trimmed after a snapshot raises
        FailedPrecondition naming the after_version to list from."""
        page_token: str | None = None
        while True:
            page = self.transport.list_events(game_id, token, page_size, page_token, after_version)
            for e in page.get("events") or []:
                yield Event.from_json(e)
            page_token = page.get("nextPageToken") or None
            if not page_token:
                return

    def watch(self, game_id: str, token: str | None = None, *, after_version: int = 0,
              after_hash: str = "") -> Iterator[Event]:
        """Events after `after_version`, live, until the game is over. `after_hash`: the hash of the
        event at after_version as the caller has it (from events() or an earlier watch). Reconnects
        after the last version it saw (with its hash: a log the server lost meanwhile is not
        silently taken up again) when the stream breaks (UNAVAILABLE, server shutdown), until
        it has tried `retries` times in a row and (once it had been connected) `watch_patience`
        seconds have passed. Raises Aborted ("history rewritten; resume from version N") when
        the server's log no longer holds events it yielded or the caller had: drop those after
        N and watch again from N. A reconnection the server answers ends the outage: the next
        break counts its tries and its `watch_patience` afresh."""
        last, last_hash, out = after_version, after_hash, _Outages(self._opt)
        while True:
            try:
                for item in self.transport.watch(game_id, token, last, last_hash, on_open=out.attempt()):
                    ev = Event.from_json(item)
                    if ev.version <= last:
                        continue
                    last, last_hash = ev.version, ev.hash
                    out.event()
                    yield ev
                return
            except Unavailable:
                out.broke()
                if out.gives_up():
                    raise
            time.sleep(out.next_wait())
            self.retry_count += 1


class Seat:
    """A seat handle: a game id bound to the credential (seat token) that acts for it."""

    def __init__(self, client: Client, game_id: str, token: str, seat: int | None = None) -> None:
        self.client, self.game_id, self.token, self.seat = client, game_id, token, seat

    def __repr__(self) -> str:
        return f"Seat(game_id={self.game_id!r}, seat={self.seat})"

    def game(self, version: int | None = None) -> Game:
        return self.client.game(self.game_id, self.token, version)

    def legal_actions(self, **query: Any) -> LegalActions:
        """See Client.legal_actions (page_size, page_token, type, group)."""
        return self.client.legal_actions(self.game_id, self.token, **query)

    def act(self, action: JSON, *, request_id: str | None = None, expected_version: int | None = None,
            retry_aborted: bool = False) -> Game:
        return self.client.act(self.game_id, self.token, action, request_id=request_id,
                               expected_version=expected_version, retry_aborted=retry_aborted)

    def events(self, *, page_size: int | None = None, after_version: int = 0) -> Iterator[Event]:
        return self.client.events(self.game_id, self.token, page_size=page_size, after_version=after_version)

    def watch(self, *, after_version: int = 0, after_hash: str = "") -> Iterator[Event]:
        return self.client.watch(self.game_id, self.token, after_version=after_version, after_hash=after_hash)


class CreatedGame(Created):
    """CreateGame's answer, with `seat(i)` handles for the human seats."""

    __slots__ = ("_client",)
    _client: Client

    def __init__(self, client: Client, game: Game, seats: list[Any]) -> None:
        super().__init__(game, seats)
        object.__setattr__(self, "_client", client)

    def seat(self, seat: int) -> Seat:
        return Seat(self._client, self.game.id, self.token(seat), seat)


class AsyncClient:
    """The asyncio twin of `Client`: the same methods, awaited (events/watch are async iterators).
    `max_connections` bounds the REST connection pool (each open watch holds one); `transport`
    replaces rest/grpc with a transport object of your own."""

    def __init__(self, *, rest: str | None = None, grpc: str | None = None, timeout: float = 30.0,
                 secure: bool = False, retries: int = 5, backoff: float = 0.05, max_backoff: float = 2.0,
                 watch_patience: float = 30.0, write_patience: float = 10.0, max_connections: int | None = 100,
                 transport: AsyncRestTransport | AsyncGrpcTransport | None = None, token: str | None = None) -> None:
        self.transport: AsyncRestTransport | AsyncGrpcTransport
        if transport is not None:
            self.transport = transport
        elif (rest is None) == (grpc is None):
            raise ValueError("give exactly one of rest='http://host:port' or grpc='host:port'")
        elif rest is not None:
            self.transport = AsyncRestTransport(rest, timeout, max_connections=max_connections)
        else:
            self.transport = _grpc_module().AsyncGrpcTransport(grpc or "", timeout, secure)
        self.kind = "grpc" if _is_grpc(self.transport) else "rest"
        self._opt = _Options(retries, backoff, max_backoff, watch_patience, write_patience)
        self.retry_count = 0
        self.token = token  # a portal JWT (see Client)
        self.notifications = AsyncNotifications(self)
        self.players = AsyncPlayers(self)
        self.matchmaking = AsyncMatchmaking(self)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.transport.close()

    async def engines(self) -> list[Engine]:
        return [Engine.from_json(e) for e in await self.transport.list_engines()]

    async def engine(self, name: str) -> Engine:
        return Engine.from_json(await self.transport.get_engine(name))

    async def engine_messages(self, name: str, lang: str = "en") -> JSON:
        """An engine's texts in a language (see Client.engine_messages)."""
        return await self.transport.engine_messages(name, lang)

    async def create(self, engine: str, players: int | None = None, *, options: JSON | None = None,
                     seats: Sequence[str] | None = None, seat_specs: Sequence[Mapping[str, Any]] | None = None,
                     on_leave: str | None = None, clock: Mapping[str, Any] | None = None, rated: bool | None = None,
                     token: str | None = None, request_id: str | None = None) -> AsyncCreatedGame:
        """Create a game (see Client.create)."""
        body = _create_body(engine, players, options, seats, seat_specs, on_leave, clock, rated, request_id)
        out = Created.from_json(await self._retried(lambda: self.transport.create_game(body, token or self.token)))
        return AsyncCreatedGame(self, out.game, out.seats)

    async def list_games(self, *, engine: str | None = None, status: str | None = None,
                         open_seats: bool | None = None, mine: bool = False, page_size: int | None = None,
                         page_token: str | None = None, token: str | None = None) -> GamePage:
        """One page of the lobby (see Client.list_games)."""
        query = _games_query(engine, status, open_seats, mine, page_size, page_token)
        return GamePage.from_json(await self.transport.list_games(query, token or self.token))

    async def all_games(self, *, engine: str | None = None, status: str | None = None,
                        open_seats: bool | None = None, mine: bool = False, page_size: int | None = None,
                        token: str | None = None) -> AsyncIterator[GameSummary]:
        """Every game of the lobby the filters keep, page after page (see Client.all_games)."""
        page_token: str | None = None
        while True:
            page = await self.list_games(engine=engine, status=status, open_seats=open_seats, mine=mine,
                                         page_size=page_size, page_token=page_token, token=token)
            for g in page.games:
                yield g
            page_token = page.next_page_token or None
            if not page_token:
                return

    async def join(self, game_id: str, token: str | None = None, *, request_id: str | None = None) -> AsyncSeat:
        """See Client.join."""
        rid = request_id or uuid.uuid4().hex
        j = Joined.from_json(await self._retried(lambda: self.transport.join_game(game_id, token or self.token, rid)))
        return AsyncSeat(self, j.game_id, j.token, j.seat)

    def seat(self, game_id: str, token: str, seat: int | None = None) -> AsyncSeat:
        return AsyncSeat(self, game_id, token, seat)

    async def game(self, game_id: str, token: str | None = None, version: int | None = None) -> Game:
        return Game.from_json(await self.transport.get_game(game_id, token, version))

    async def legal_actions(self, game_id: str, token: str, *, page_size: int | None = None,
                            page_token: str | None = None, type: str | None = None,
                            group: str | None = None) -> LegalActions:
        """See Client.legal_actions."""
        query = _legal_query(page_size, page_token, type, group)
        return LegalActions.from_json(await self.transport.legal_actions(game_id, token, query))

    async def act(self, game_id: str, token: str, action: JSON, *, request_id: str | None = None,
                  expected_version: int | None = None, retry_aborted: bool = False) -> Game:
        body = _submit_body(action, request_id or uuid.uuid4().hex, expected_version)
        return Game.from_json(await self._retried(lambda: self.transport.submit_action(game_id, token, body),
                                                  retry_aborted))

    async def _retried(self, call: Any, retry_aborted: bool = False) -> JSON:
        """See Client._retried (`call()` returns an awaitable)."""
        attempt, failing_since = 0, 0.0
        while True:
            try:
                return await call()
            except TableroError as e:
                failing_since = failing_since or time.monotonic()
                if not self._opt.retries_call(e, attempt, failing_since, retry_aborted):
                    raise
            await asyncio.sleep(_backoff(attempt, self._opt.backoff, self._opt.max_backoff))
            attempt += 1
            self.retry_count += 1

    async def events(self, game_id: str, token: str | None = None, *,
                     page_size: int | None = None, after_version: int = 0) -> AsyncIterator[Event]:
        page_token: str | None = None
        while True:
            page = await self.transport.list_events(game_id, token, page_size, page_token, after_version)
            for e in page.get("events") or []:
                yield Event.from_json(e)
            page_token = page.get("nextPageToken") or None
            if not page_token:
                return

    async def watch(self, game_id: str, token: str | None = None, *, after_version: int = 0,
                    after_hash: str = "") -> AsyncIterator[Event]:
        """See Client.watch."""
        last, last_hash, out = after_version, after_hash, _Outages(self._opt)
        while True:
            try:
                async for item in self.transport.watch(game_id, token, last, last_hash, on_open=out.attempt()):
                    ev = Event.from_json(item)
                    if ev.version <= last:
                        continue
                    last, last_hash = ev.version, ev.hash
                    out.event()
                    yield ev
                return
            except Unavailable:
                out.broke()
                if out.gives_up():
                    raise
            await asyncio.sleep(out.next_wait())
            self.retry_count += 1


class AsyncSeat:
    """The asyncio seat handle."""

    def __init__(self, client: AsyncClient, game_id: str, token: str, seat: int | None = None) -> None:
        self.client, self.game_id, self.token, self.seat = client, game_id, token, seat

    def __repr__(self) -> str:
        return f"AsyncSeat(game_id={self.game_id!r}, seat={self.seat})"

    async def game(self, version: int | None = None) -> Game:
        return await self.client.game(self.game_id, self.token, version)

    async def legal_actions(self, **query: Any) -> LegalActions:
        """See Client.legal_actions (page_size, page_token, type, group)."""
        return await self.client.legal_actions(self.game_id, self.token, **query)

    async def act(self, action: JSON, *, request_id: str | None = None, expected_version: int | None = None,
                  retry_aborted: bool = False) -> Game:
        return await self.client.act(self.game_id, self.token, action, request_id=request_id,
                                     expected_version=expected_version, retry_aborted=retry_aborted)

    def events(self, *, page_size: int | None = None, after_version: int = 0) -> AsyncIterator[Event]:
        return self.client.events(self.game_id, self.token, page_size=page_size, after_version=after_version)

    def watch(self, *, after_version: int = 0, after_hash: str = "") -> AsyncIterator[Event]:
        return self.client.watch(self.game_id, self.token, after_version=after_version, after_hash=after_hash)


class AsyncCreatedGame(Created):
    """AsyncClient.create's answer, with `seat(i)` handles for the human seats."""

    __slots__ = ("_client",)
    _client: AsyncClient

    def __init__(self, client: AsyncClient, game: Game, seats: list[Any]) -> None:
        super().__init__(game, seats)
        object.__setattr__(self, "_client", client)

    def seat(self, seat: int) -> AsyncSeat:
        return AsyncSeat(self._client, self.game.id, self.token(seat), seat)
