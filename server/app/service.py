"""The use cases. Each reads load → decide → commit → reply; the repository owns the
store, the cache, locks, retries and idempotency, `rules` the engine calls.

`GameService` holds the use cases; each concern beside them is a collaborator with one job:

    seats.py        SeatDirectory: who holds each seat (cached once full), seat tokens' claims;
                    the seat kinds a new game is created with
    lobby.py        GameLobby: ListGames's pages, one-at-a-time per portal user, the open-games cap
    clocks.py       TurnClocks: deadlines, timeouts and abandoned games (sweep_clocks)
    bookkeeping.py  Bookkeeping: what follows every accepted write (lobby status, clock record,
                    notifications, ratings), with background repairs
    watching.py     Watching: WatchGame, and the watchers of one game following it together
    paging.py       page tokens and pages of ListEvents and ListLegalActions
    decisions.py    the platform's own decisions (a seat leaves, a late seat's turn is taken)

Use cases take typed commands (server.app.commands) and return replies in the
protobuf JSON mapping (server.app.replies). Errors are server.errors.AppError.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from tablero.engines.core import Engine, UnknownEngine, clone, messages
from tablero.server import metrics
from tablero.server.auth import TokenSigner
from tablero.server.errors import (
    Aborted,
    AppError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    StaleVersion,
)
from tablero.server.pagesize import page_size
from tablero.server.portal.clock import MemoryClocks, parse_clock
from tablero.server.portal.identity import User, has_control
from tablero.server.portal.lobby import MemoryLobby
from tablero.server.store.base import EventStore, GameExists

from tablero import engines

from . import commands as cmd
from . import paging, rules
from .bookkeeping import Bookkeeping
from .bots import BotWorker
from .chance import action_rng
from .clocks import TurnClocks
from .decisions import leave, may_play
from .lobby import GameLobby
from .offload import EngineCalls
from .replies import engine_reply, event_reply, event_view, game_reply, public_hash
from .repository import Decision, GameRepository, LoadedGame, new_game_id
from .seats import SeatDirectory, bot_levels, lobby_entry, seat_reply, seat_specs
from .thinkers import MemoryBotQueue
from .watching import Watching

MAX_REQUEST_ID = 128


# An anonymous caller's requestId of a create or a join is the only proof that a retry is theirs:
# whoever sends it again gets the same seat tokens. So it must be hard to guess (a UUID is 36).
MIN_ANONYMOUS_REQUEST_ID = 16


def _check_request_id(request_id: str | None, anonymous: bool = False) -> None:
    if request_id is not None and (len(request_id) > MAX_REQUEST_ID or has_control(request_id)):
        raise InvalidArgument(f"requestId must be a string of at most {MAX_REQUEST_ID} characters, none of them a "
                              "control character")
    if anonymous and request_id is not None and len(request_id.strip()) < MIN_ANONYMOUS_REQUEST_ID:
        raise InvalidArgument(f"an anonymous caller's requestId must be at least {MIN_ANONYMOUS_REQUEST_ID} "
                              "characters: whoever sends it again gets the same seat tokens, so use a random id "
                              "(a UUID)")


log = logging.getLogger("tablero.app")

# tablero_actions results of refused actions, most specific first.
_REFUSALS = ((StaleVersion, "stale"), (Aborted, "conflict"), (InvalidArgument, "invalid"),
             (FailedPrecondition, "illegal"))


@contextlib.contextmanager
def _count_action(engine: str) -> Iterator[list[str]]:
    """tablero_actions by result: ok, replayed (a repeated requestId: answered, nothing
    appended; the caller sets it), stale, invalid, illegal, conflict."""
    result = ["ok"]
    try:
        yield result
    except AppError as e:
        label = next((label for cls, label in _REFUSALS if isinstance(e, cls)), None)
        if label is not None:
            metrics.child(metrics.ACTIONS, engine, label).inc()
        raise
    metrics.child(metrics.ACTIONS, engine, result[0]).inc()


class GameService:
    # Use cases a collaborator answers, bound to it in __init__ (no extra call on the way):
    watch_game: Callable[[cmd.WatchGame], Awaitable[AsyncIterator[dict[str, Any]]]]  # Watching
    list_games: Callable[[cmd.ListGames], Awaitable[dict[str, Any]]]  # GameLobby
    check_claim: Callable[[str, int, str], Awaitable[None]]  # SeatDirectory: game, seat, claim
    seat_of: Callable[[str, User], Awaitable[int | None]]  # SeatDirectory: the seat a user holds
    user_seat: Callable[..., Awaitable[int | None]]  # SeatDirectory: (game, user, *, required)
    sweep_clocks: Callable[..., Awaitable[int]]  # TurnClocks.sweep(now=None, limit=100)
    # After every accepted write (a request's, a timeout's, a bot worker's): Bookkeeping.written.
    written: Callable[..., Awaitable[None]]
    close: Callable[[], Awaitable[None]]  # Bookkeeping.close: a stopping server's background work

    def __init__(self, store: EventStore, signer: TokenSigner, *, cache_size: int = 1000,
                 snapshot_every: int = 100, max_retries: int = 5, lobby: Any = None,
                 max_open_games_per_user: int = 0, clocks: Any = None, abandon_after: float = 0,
                 engine_calls: EngineCalls | None = None) -> None:
        self.store = store
        # Legal actions and views: inline, or on a bounded thread pool once an engine's call has
        # been slow (server/app/offload.py).
        self.engine_calls = engine_calls if engine_calls is not None else EngineCalls()
        self.signer = signer
        # The lobby (server.portal.lobby) is also the seat directory: which portal user holds which seat.
        self.lobby = lobby if lobby is not None else MemoryLobby()
        # Turn clock records and their schedule (server.portal.clock), shared through the store.
        self.clocks = clocks if clocks is not None else MemoryClocks()
        # A game nobody has acted in for this long (seconds; 0: never) is ended as abandoned.
        self.abandon_after = abandon_after
        self.games = GameRepository(store, cache_size=cache_size, snapshot_every=snapshot_every,
                                    max_retries=max_retries)
        self.games.engine_calls = self.engine_calls  # past versions' replays too
        self.seats = SeatDirectory(self.games, self.lobby, cache_size)
        # Every page token is signed (server/app/paging.py), with keys from the seat tokens' secrets.
        self.pages = paging.PageTokens(signer.page_keys())
        self.game_lobby = GameLobby(self.games, self.lobby, max_open_games_per_user, self.pages)
        self.bookkeeping = Bookkeeping(self.lobby, self.clocks, abandon_after)
        self.turn_clocks = TurnClocks(self.games, self.clocks, abandon_after, self.bookkeeping.written)
        self.public_hash = functools.partial(public_hash, signer.event_hash_key())
        self.watching = Watching(self.games, self.public_hash)
        self.watch_game = self.watching.watch_game
        self.list_games = self.game_lobby.list_games
        self.check_claim = self.seats.check_claim
        self.seat_of = self.seats.seat_of
        self.user_seat = self.seats.user_seat
        self.sweep_clocks = self.turn_clocks.sweep
        self.written = self.bookkeeping.written
        self.close = self.bookkeeping.close
        # What every reply reads beside the game (bound, as above).
        self._deadlines = self.turn_clocks.deadlines
        self._seats = self.seats.directory
        self.bots = BotWorker(self.games, written=self.written)
        self.games.on_commit = self.bots.notice
        # Thinking bots' turns (medium, hard): a durable queue in the store, taken by bot
        # workers in other processes (server/app/thinkers.py); the runner sets the store's.
        self.bot_queue: Any = MemoryBotQueue()
        self.bots.offer = self._offer_thought
        self._offers: set[asyncio.Task[None]] = set()
        self.matchmaking: Any = None  # server.matchmaking.service.Matchmaking
        # Notifications (server/notify): with a new game's id before its creation is committed
        # (server/notify sweep); `notify` (after each write and join) is the bookkeeping's.
        self.notify_created: Callable[[str], Awaitable[None]] | None = None

    @property
    def notify(self) -> Callable[[str], Awaitable[None]] | None:
        """Notifications (server/notify): awaited with a game's id after each write and join."""
        return self.bookkeeping.notify

    @notify.setter
    def notify(self, hook: Callable[[str], Awaitable[None]] | None) -> None:
        self.bookkeeping.notify = hook

    @property
    def max_open_games(self) -> int:
        """Running games a portal user may play at once (0: any number): the lobby's cap."""
        return self.game_lobby.max_open_games

    @max_open_games.setter
    def max_open_games(self, most: int) -> None:
        self.game_lobby.max_open_games = most

    @property
    def ratings(self) -> Any:
        """server.ratings.service.Ratings, when the server rates games (None: it does not)."""
        return self.bookkeeping.ratings

    @ratings.setter
    def ratings(self, ratings: Any) -> None:
        self.bookkeeping.ratings = ratings

    # --- engines ---------------------------------------------------------------------
    async def list_engines(self) -> dict[str, Any]:
        return {"engines": [engine_reply(engines.get(name)) for name in engines.names()]}

    async def get_engine(self, c: cmd.GetEngine) -> dict[str, Any]:
        try:
            return {"engine": engine_reply(engines.get(c.name))}
        except UnknownEngine as e:
            raise NotFound(str(e), "ENGINE_NOT_FOUND") from None

    async def get_engine_messages(self, c: cmd.GetEngineMessages) -> dict[str, Any]:
        """An engine's texts in one language (engines.core.messages), the platform's beside them."""
        if c.name != messages.PLATFORM and c.name not in engines.names():
            raise NotFound(f"unknown engine {c.name!r}", "ENGINE_NOT_FOUND")
        return messages.published(c.name, c.lang)

    # --- create / join -----------------------------------------------------------------
    async def create_game(self, c: cmd.CreateGame) -> dict[str, Any]:
        engine = self._engine(c.engine)
        if c.request_id is not None:  # its game's id follows from it: a retry finds that game
            _check_request_id(c.request_id, anonymous=c.user is None)
            c = dataclasses.replace(c, game_id=self._request_game_id(c.user, c.request_id))
        specs = seat_specs(c, engine)
        kinds = ["human" if k == "me" else k for k, _ in specs]
        users: list[dict[str, Any] | None] = [u for _, u in specs]
        levels = bot_levels(c, kinds)
        if c.request_id is not None and (made := await self._made_by(c, specs, levels)) is not None:
            return await self._created(c, made, kinds, users, specs, fresh=False)
        # Only the creator's own cap: a seat reserved for someone else is an invitation,
        # which counts against nobody's cap (else anyone could fill another user's). A game of
        # bots only counts against its creator's, as a game they sit in (each keeps the thinking
        # bots' workers busy); an anonymous one against nobody's (the create rate limit governs).
        capped = c.user.id if c.user is not None and (any(u is not None and u["id"] == c.user.id for u in users)
                                                      or rules.bot_only({"seats": kinds})) else None
        async with self.game_lobby.capped(capped):
            return await self._create(c, engine, kinds, users, specs, levels)

    async def _create(self, c: cmd.CreateGame, engine: Engine, kinds: list[str],
                      users: list[dict[str, Any] | None], specs: list[tuple[str, Any]],
                      levels: list[str | None] | None = None) -> dict[str, Any]:
        if c.on_leave not in ("", "forfeit", "bot"):
            raise InvalidArgument('"onLeave" must be "forfeit" or "bot"')
        try:
            clock = parse_clock(c.clock)
        except ValueError as e:
            raise InvalidArgument(str(e)) from None
        decision = rules.start(engine, len(kinds), c.options, kinds, action_rng()) if "bot" not in kinds else \
            await asyncio.to_thread(rules.start, engine, len(kinds), c.options, kinds, action_rng(), None, levels)
        now = time.time()
        meta = {"engine": engine.name, "engine_version": engine.version, "players": len(kinds),
                "seats": kinds, "claimed": [], "created": now, "on_leave": c.on_leave or "forfeit"}
        if clock is not None:
            meta["clock"] = clock
        if c.rated is not None:
            if c.rated and sum(1 for u in users if u is not None) + kinds.count("open") < 2:
                raise InvalidArgument('"rated" needs at least two seats for portal users (docs/ratings.md)')
            meta["rated"] = bool(c.rated)
        # Portal users' games may be rated (server/ratings): registered below, rated when they end.
        ratable = self.ratings is not None and c.rated is not False and (c.user is not None or any(users))
        if ratable:
            meta["ratable"] = True
        if levels:
            meta["bot_levels"] = levels
        if "open" not in kinds:
            # Every seat is taken now, so the seat directory never changes: kept with the
            # metadata (which each replica caches), another replica needs no lobby read for it.
            meta["users"] = users
        if c.request_id is not None:
            meta["request"] = self._fingerprint(c, specs, levels)
        game_id = c.game_id or new_game_id()
        if self.notify_created is not None:  # durable before the commit: a lost signal is swept up
            await self.notify_created(game_id)
        try:
            game = await self.games.create(meta, engine, decision, game_id)
        except GameExists:
            made = await self._made_by(c, specs, levels) if c.request_id is not None else None
            if made is None:
                raise
            return await self._created(c, made, kinds, users, specs, fresh=False)  # a retry beside it won
        metrics.GAMES_CREATED.labels(engine.name).inc()
        return await self._created(c, game, kinds, users, specs, fresh=True)

    def _request_game_id(self, user: User | None, request_id: str) -> str:
        return self.signer.request_game_id(user.id if user is not None else "", request_id)

    async def is_create_retry(self, wire: dict[str, Any], user: User | None) -> bool:
        """Whether this CreateGame request repeats one that made its game (the edge counts no
        creation against the rate limit for it)."""
        rid = wire.get("requestId")
        if not isinstance(rid, str) or not rid or len(rid) > MAX_REQUEST_ID:
            return False
        try:
            await self.games.meta(self._request_game_id(user, rid))
        except NotFound:
            return False
        return True

    async def _made_by(self, c: cmd.CreateGame, specs: list[tuple[str, Any]],
                       levels: list[str | None] | None) -> LoadedGame | None:
        """The game an earlier attempt of this create (same caller, same requestId) made, if
        any; a requestId that made a game from other choices is refused."""
        assert c.game_id is not None
        try:
            meta = await self.games.meta(c.game_id)
        except NotFound:
            return None
        if meta.get("request") != self._fingerprint(c, specs, levels):
            raise InvalidArgument(f"requestId {c.request_id!r} already created a game from other choices (engine, "
                                  "players, seats, options, clock, onLeave, rated); a new game needs a new requestId",
                                  "REQUEST_ID_REUSED")
        # An answer from what the store holds: acknowledged means replicated, as for a new game.
        await self.games.confirm_replicated(c.game_id)
        return await self.games.current(c.game_id, meta)

    def _fingerprint(self, c: cmd.CreateGame, specs: list[tuple[str, Any]], levels: list[str | None] | None) -> str:
        """The create's choices, hashed as resolved (cmd.CreateGame.fingerprint)."""
        try:
            clock = parse_clock(c.clock)
        except ValueError as e:
            raise InvalidArgument(str(e)) from None
        props = self._engine(c.engine).options_schema.get("properties") or {}
        defaults = {k: p["default"] for k, p in props.items() if isinstance(p, dict) and "default" in p}
        ratable = self.ratings is not None and (c.user is not None or any(u is not None for _, u in specs))
        return c.fingerprint(specs, levels, clock, defaults, ratable)

    async def _created(self, c: cmd.CreateGame, game: LoadedGame, kinds: list[str],
                       users: list[dict[str, Any] | None], specs: list[tuple[str, Any]], *,
                       fresh: bool) -> dict[str, Any]:
        """The rest of a create once its game is in the store, and its reply. For a retry
        (not `fresh`) the steps after the commit are taken again where the first attempt may
        have failed before them (each is idempotent); the reply shows the game as it stands."""
        if game.meta.get("ratable") and self.ratings is not None and (fresh or not game.finished):
            await self.ratings.register(game.id)  # before anyone can play it (server/ratings/service.py)
        if fresh or await self.lobby.get(game.id) is None:
            entry = lobby_entry(c, game, kinds, users)
            await self.lobby.add(entry)
            self.seats.remember(game.id, entry)
        if fresh:
            await self.written(game)
        else:  # the lobby status and clock as the game stands (nothing counted or signalled again)
            await self.bookkeeping.record(game)
        # Tokens for the human seats no other portal user holds (the creator's own included).
        mine = c.user.id if c.user else None
        tokens = [{"seat": s, "token": self.signer.issue(game.id, s)} for s, k in enumerate(kinds)
                  if k == "human" and (users[s] is None or users[s]["id"] == mine)]
        # The creator's own seat ("me"), if they took one, is the seat the reply is seen from.
        own = next((s for s, (k, _) in enumerate(specs) if k == "me"), None)
        return {"game": await self._game_reply(game, own), "seats": tokens}

    async def join_game(self, c: cmd.JoinGame) -> dict[str, Any]:
        _check_request_id(c.request_id, anonymous=c.user is None)
        meta = await self.games.meta(c.game_id)
        if (await self.games.current(c.game_id, meta)).finished:
            raise FailedPrecondition("the game is over", "GAME_OVER")
        if c.user is None:
            return await self._join(c, meta)
        # One join per portal user and game at a time, on every replica: two that race (two
        # devices, a retried request) would otherwise both find no seat of theirs and claim two.
        async with self.game_lobby.one_at_a_time(c.game_id, c.user.id, "join of this user to this game"):
            held = await self.seat_of(c.game_id, c.user)
            if held is not None:  # the user's seat, back (another device)
                claim = ((await self.games.meta(c.game_id, exact=True)).get("claims") or {}).get(str(held))
                await self.games.confirm_replicated(c.game_id)  # acknowledged means replicated
                return {"gameId": c.game_id, "seat": held, "token": self.signer.issue(c.game_id, held, claim)}
            async with self.game_lobby.capped(c.user.id):
                return await self._join(c, meta)

    async def rejoin(self, game_id: str, seat: int, claim: str | None) -> dict[str, Any]:
        """JoinGame sent with a seat token of this game: its holder is seated already and gets
        that seat back, its token signed anew (the signing key may have rotated), as a portal
        user's second join gets the seat they hold; never a second seat. Nothing is written."""
        meta = await self.games.meta(game_id)
        if (await self.games.current(game_id, meta)).finished:
            raise FailedPrecondition("the game is over", "GAME_OVER")
        if claim is not None:  # a joined seat's token opens it only while its claim stands
            await self.check_claim(game_id, seat, claim)
        return {"gameId": game_id, "seat": seat, "token": self.signer.issue(game_id, seat, claim)}

    async def _join(self, c: cmd.JoinGame, meta: dict[str, Any]) -> dict[str, Any]:
        open_seats = [s for s, k in enumerate(meta["seats"]) if k == "open"]
        if not open_seats:
            raise FailedPrecondition("this game has no open seats", "SEAT_TAKEN")
        # The claim gets an id of its own, named in the token: the token opens the seat only while
        # the store holds this claim (check_claim). An anonymous join with a requestId gets one
        # derived from it, and the store gives a claim it already holds its seat back: a retry
        # whose first answer was lost gets that seat and token, not a second seat.
        claim = secrets.token_urlsafe(9) if c.request_id is None or c.user is not None \
            else self.signer.claim_id(c.game_id, c.request_id)
        seat = await self.games.claim_seat(c.game_id, open_seats, claim)  # atomic: the cached meta is enough
        if seat is None:
            raise FailedPrecondition("every open seat of this game is taken", "SEAT_TAKEN")
        self.games.forget_meta(c.game_id)  # this replica reads the new claim at its next check
        user = None if c.user is None else {"id": c.user.id, "name": c.user.name}
        # The clock starts before the seat is marked: the notifications' deriver waits for the
        # mark (server/notify/worker.py), so a join it reads has its clock's deadlines (else a
        # derivation between the two gave the start's turn the deadline of the turn's first wait).
        if meta.get("clock") is not None or self.abandon_after:
            await self.turn_clocks.joined(c.game_id, seat)
        await self.lobby.mark(c.game_id, seat=seat, user=user)
        notify = self.bookkeeping.notify
        if notify is not None:  # after the clock's start: the game's start derived gives its deadlines
            await notify(c.game_id)
        return {"gameId": c.game_id, "seat": seat, "token": self.signer.issue(c.game_id, seat, claim)}

    # --- reads ---------------------------------------------------------------------------
    async def _game_reply(self, game: LoadedGame, seat: int | None) -> dict[str, Any]:
        # (Each step that needs no await is taken without one: this runs on every answer.)
        calls, name = self.engine_calls, game.engine.name
        out = calls.run_inline(name, "view", game_reply, game, seat) if calls.inline(name, "view") \
            else await calls.run(name, "view", game_reply, game, seat)
        out["deadlines"] = await self._deadlines(game) if game.meta.get("clock") is not None else []
        seats = self.seats.known(game.id, game.meta)
        if seats is None:
            seats = await self._seats(game.id, game.meta)
        for s, e in zip(out["seats"], seats, strict=False):
            if e.get("user"):
                s.update({k: v for k, v in seat_reply(e).items() if k.startswith("user")})
        return out

    async def get_game(self, c: cmd.GetGame) -> dict[str, Any]:
        if c.version is None:
            game = await self.games.current(c.game_id)
        else:
            game = await self.games.at(c.game_id, _positive("version", c.version))
        return {"game": await self._game_reply(game, c.seat)}

    async def list_legal_actions(self, c: cmd.ListLegalActions) -> dict[str, Any]:
        c = paging.check_legal_request(c)
        game = await self.games.current(c.game_id)
        may_act = c.seat in game.to_act and c.seat not in game.table.bots
        engine = game.engine
        actions = await self.engine_calls.run(engine.name, "legal_actions", engine.legal_actions, game.state,
                                              c.seat) if may_act else []
        return paging.legal_reply(c, engine, game.version, actions, self.pages)

    async def list_events(self, c: cmd.ListEvents) -> dict[str, Any]:
        meta = await self.games.meta(c.game_id)
        size = page_size(c.page_size, paging.DEFAULT_PAGE_SIZE, paging.MAX_PAGE_SIZE)
        if c.after_version < 0:
            raise InvalidArgument("afterVersion must be a non-negative integer")
        # A page token says where its page starts; afterVersion only where the first page does.
        after = paging.decode_page_token(self.pages, c.game_id, c.page_token) if c.page_token else c.after_version
        engine = self.games.engine_of(meta)
        current = await self.games.version(c.game_id)
        if c.after_version > current:
            raise InvalidArgument(f"afterVersion {c.after_version} is beyond the game's current version {current}")
        if after > current:
            raise InvalidArgument("pageToken is not a token this game's ListEvents returned", "PAGE_TOKEN_INVALID")
        events = await self.games.events(c.game_id, after, size)
        last = after + len(events)

        def views() -> list[dict[str, Any]]:
            # With each event's chain hash, as the watch sends it: a client that lists the log
            # and then watches from its end can send the last one as afterHash.
            shown = self.public_hash
            return [event_reply(c.game_id, e.version, event_view(engine, e.event, c.seat), shown(e.hash))
                    for e in events]

        return {
            "events": await self.engine_calls.run(engine.name, "event_views", views),
            "nextPageToken": paging.encode_page_token(self.pages, c.game_id, last) if events and last < current else "",
        }

    # --- the write path ----------------------------------------------------------------
    async def submit_action(self, c: cmd.SubmitAction) -> dict[str, Any]:
        """Decide the action's events (and the bots' answers) on the game now; commit them."""
        _check_request_id(c.request_id)
        if c.expected_version is not None and not 0 <= c.expected_version <= 2**31 - 1:  # an int32, as in the proto
            raise InvalidArgument(f"expectedVersion must be an integer from 0 to {2**31 - 1}, not {c.expected_version}")

        def decide(game: LoadedGame) -> Decision:
            if c.expected_version is not None and c.expected_version != game.version:
                raise StaleVersion(f"stale version: the game is at version {game.version}, not {c.expected_version}",
                                   metadata={"version": str(game.version)})
            may_play(game, c.seat)
            kinds = game.kinds
            if "bot" in kinds:  # the bots' answers are played off the event loop
                # On a copy: the bots' turns evolve the state they are given, on a thread, while
                # readers (a GET, a new watch) may take the cached state at its cached version.
                return asyncio.to_thread(rules.play, game.engine, clone(game.state), c.seat, c.action, kinds, action_rng(),
                                         None, game.levels)
            return rules.play(game.engine, game.state, c.seat, c.action, kinds, action_rng())

        meta = await self.games.meta(c.game_id)
        engine = self.games.engine_of(meta)
        with _count_action(engine.name) as result:
            done = await self.games.update(c.game_id, decide, key=c.idempotency_key, meta=meta,
                                           fingerprint="" if c.request_id is None else c.fingerprint())
            if not done.appended:
                result[0] = "replayed"
        if done.appended:  # (each awaited only when it has something to do: this runs on every move)
            if not self.seats.played_known(c.game_id, done.game.meta, c.seat):
                await self.seats.played(c.game_id, done.game.meta, c.seat)
            if not self.bookkeeping.nothing_to_record(done.game, (c.seat,)):
                await self.written(done.game, {c.seat})
        else:
            # A retry: its first attempt may have been answered with an error after the commit,
            # before the lobby and the clock were told (or by a replica that died then).
            await self.bookkeeping.record(done.game, {c.seat})
        return {"game": await self._game_reply(done.game, c.seat)}

    async def resign(self, c: cmd.Resign) -> dict[str, Any]:
        """The seat leaves: it forfeits, or (onLeave "bot") a bot plays it on."""

        def decide(game: LoadedGame) -> Decision:
            may_play(game, c.seat)
            return leave(game, [c.seat], "resigned", game.meta.get("on_leave", "forfeit"))

        done = await self.games.update(c.game_id, decide, key=f"resign:{c.seat}")
        if done.appended:  # (a resignation is no move of the seat's own: docs/ratings.md)
            await self.written(done.game, {c.seat})
        else:
            await self.bookkeeping.record(done.game, {c.seat})  # a retry (see submit_action)
        return {"game": await self._game_reply(done.game, c.seat)}

    # --- bots ----------------------------------------------------------------------------
    def _offer_thought(self, game_id: str, bot_only: bool = False) -> None:
        async def offer() -> None:
            try:
                await self.bot_queue.offer(game_id, bot_only)
            except Exception as e:  # the store is away: the next load of the game offers it again
                log.warning("bot queue offer failed", extra={"fields": {"game": game_id, "error": str(e)[:200]}})

        task = asyncio.get_running_loop().create_task(offer())
        self._offers.add(task)
        task.add_done_callback(self._offers.discard)

    # --- helpers -------------------------------------------------------------------------
    @staticmethod
    def _engine(name: str) -> Engine:
        if not name:
            raise InvalidArgument('"engine" must name an engine (see GET /v1/engines)', "UNKNOWN_ENGINE")
        try:
            return engines.get(name)
        except UnknownEngine as e:
            raise InvalidArgument(str(e), "UNKNOWN_ENGINE") from None


def _positive(name: str, value: int) -> int:
    if value < 1:
        raise InvalidArgument(f"{name} must be a positive integer")
    return value
