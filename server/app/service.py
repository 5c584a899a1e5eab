"""The use cases. Each reads load → decide → commit → reply; the repository owns the
store, the cache, locks, retries and idempotency, `rules` the engine calls.

Use cases take typed commands (server.app.commands) and return replies in the
protobuf JSON mapping (server.app.replies). Errors are server.errors.AppError.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Sequence
from typing import Any

import engines
from engines.core import Engine, UnknownEngine, clone, messages
from engines.core.search import DEFAULT_LEVEL
from engines.core.search import LEVELS as BOT_LEVELS
from server import metrics
from server.auth import TokenSigner
from server.errors import (
    Aborted,
    AppError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    OverQuota,
    PermissionDenied,
    StaleVersion,
    Unauthenticated,
    Unavailable,
    outage,
)
from server.portal.clock import ClockRecord, MemoryClocks, parse_clock
from server.portal.identity import User, has_control
from server.portal.lobby import BadPageToken, Filter, MemoryLobby
from server.portal.table import TURN_TIMED_OUT, is_platform
from server.store.base import POKED, Entry, EventStore, GameNotFound, Reset, Trimmed, chain

from . import commands as cmd
from . import rules
from .bots import BotWorker
from .offload import EngineCalls
from .replies import engine_reply, event_reply, event_view, game_reply, rfc3339
from .repository import Decision, GameRepository, LoadedGame, new_game_id
from .thinkers import MemoryBotQueue

SEAT_KINDS = ("human", "open", "bot")
CREATE_KINDS = (*SEAT_KINDS, "me")
LOBBY_PAGE, MAX_LOBBY_PAGE = 20, 100
_STATUS = {"GAME_STATUS_RUNNING": "RUNNING", "GAME_STATUS_FINISHED": "FINISHED"}
MAX_REQUEST_ID = 128
# A watch may start from a cached game this replica found current at most this many seconds ago.
RECENT_CACHE = 5.0
# What runs one at a time per portal user (a join to one game; with a cap, any create or join)
# holds (game or "*", user) in the lobby for at most USER_HOLD seconds (a replica that dies
# meanwhile lets it lapse); another request of theirs waits up to USER_HOLD_WAIT for it.
USER_HOLD = 10.0
USER_HOLD_WAIT = 5.0
# A joined seat's token names its claim (server/portal/tokens.py). It is checked against the
# claims in the replica's cached meta (no store read); the meta is read again at a mismatch, and
# at most every CLAIM_RECHECK seconds per game while joined seats' tokens are used, so a claim
# the store lost (a failover, a restored backup) stops opening its seat within that long on
# every replica, at once on one that saw the new claim.
CLAIM_RECHECK = 5.0
CLAIMS_CHECKED_MAX = 10_000
MAX_LEGAL_PAGE_SIZE = 10_000
DEFAULT_GROUP_PAGE_SIZE = 20  # ListLegalActions with group="type": each group's first page
LEGAL_GROUPINGS = ("", "type")
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


log = logging.getLogger("tablero.app")


class _ActionRandom(random.Random):
    """A `random.Random` seeded from the OS the first time it draws: most actions of most
    engines draw nothing, and seeding one (an OS call and Mersenne Twister's set-up) was
    about 1.5 % of a server's time per move. Once seeded it is the plain generator."""

    def __init__(self) -> None:  # not seeded (Random's C part starts zeroed): see _seeded
        self.gauss_next = None

    def _seeded(self) -> None:
        super().seed(secrets.randbits(64))
        # From now on the generator's own methods, straight (instance attributes win).
        self.random = super().random  # type: ignore[method-assign]
        self.getrandbits = super().getrandbits  # type: ignore[method-assign]
        self.getstate = super().getstate  # type: ignore[method-assign]

    def random(self) -> float:
        self._seeded()
        return self.random()

    def getrandbits(self, k: int) -> int:
        self._seeded()
        return self.getrandbits(k)

    def getstate(self) -> tuple:
        self._seeded()
        return self.getstate()

    def seed(self, a=None, version=2) -> None:  # type: ignore[override]
        self._seeded()
        super().seed(a, version)

    def setstate(self, state: tuple) -> None:
        self._seeded()
        super().setstate(state)


def _rng() -> random.Random:
    return _ActionRandom()


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


def _event_json(event: Any) -> str:
    """An event's JSON text as the stores keep it and chain it (compact, strict)."""
    return json.dumps(event, separators=(",", ":"), allow_nan=False)


def _trimmed_watch(e: Exception) -> str:
    """Why a watch cannot start where it asked: the events before the first kept one are gone."""
    first = getattr(e, "first_kept", None) or getattr(getattr(e, "__cause__", None), "first_kept", None)
    if first is None:
        return str(e)
    return (f"versions before {first} of this game are no longer kept (a snapshot covers them); "
            f"watch from afterVersion {first - 1} or later "
            f"(GET the game with ?version={first} for its state there)")


class GameService:
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
        self.max_open_games = max_open_games_per_user
        # Turn clock records and their schedule (server.portal.clock), shared through the store.
        self.clocks = clocks if clocks is not None else MemoryClocks()
        # A game nobody has acted in for this long (seconds; 0: never) is ended as abandoned.
        self.abandon_after = abandon_after
        self.games = GameRepository(store, cache_size=cache_size, snapshot_every=snapshot_every,
                                    max_retries=max_retries)
        self.games.engine_calls = self.engine_calls  # past versions' replays too
        self._claims_checked: OrderedDict[str, float] = OrderedDict()  # game -> when its claims were read
        self.bots = BotWorker(self.games, written=self._written)
        self.games.on_commit = self.bots.notice
        # Thinking bots' turns (medium, hard): a durable queue in the store, taken by bot
        # workers in other processes (server/app/thinkers.py); the runner sets the store's.
        self.bot_queue: Any = MemoryBotQueue()
        self.bots.offer = self._offer_thought
        self._offers: set[asyncio.Task[None]] = set()
        # Seat directory entries (who holds each seat) of games whose every seat is taken: from
        # then on they never change, so each replica keeps them instead of asking the lobby on
        # every reply. Bounded like the game cache.
        self._seated: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        # Per game watched here: its watchers, and the newest entries they reached (_follow).
        self._watching: dict[str, int] = {}
        self._followed: OrderedDict[str, dict[int, tuple[str, Any, list[dict[str, Any]], bool]]] = OrderedDict()
        self._seated_size = cache_size
        # Bookkeeping after a commit that failed (the lobby's or the clocks' store went away
        # right after the append), tried again in the background: game id -> its task.
        self._repairs: dict[str, asyncio.Task[None]] = {}
        # The bookkeeping of games that just ended, run after their reply (_written).
        self._ending: set[asyncio.Task[None]] = set()
        self.ratings: Any = None  # server.ratings.service.Ratings, when the server rates games
        self.matchmaking: Any = None  # server.matchmaking.service.Matchmaking
        # Notifications (server/notify): awaited with a game's id after each write and join.
        self.notify: Callable[[str], Awaitable[None]] | None = None
        # ... and with a new game's id before its creation is committed (server/notify sweep).
        self.notify_created: Callable[[str], Awaitable[None]] | None = None

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
            raise NotFound(f"unknown engine {c.name!r}")
        return messages.published(c.name, c.lang)

    # --- create / join -----------------------------------------------------------------
    async def create_game(self, c: cmd.CreateGame) -> dict[str, Any]:
        engine = self._engine(c.engine)
        specs = self._seat_specs(c, engine)
        kinds = ["human" if k == "me" else k for k, _ in specs]
        users: list[dict[str, Any] | None] = [u for _, u in specs]
        levels = self._bot_levels(c, kinds)
        # Only the creator's own cap: a seat reserved for someone else is an invitation,
        # which counts against nobody's cap (else anyone could fill another user's).
        capped = c.user.id if c.user is not None and any(u is not None and u["id"] == c.user.id for u in users) \
            else None
        async with self._capped(capped):
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
        decision = rules.start(engine, len(kinds), c.options, kinds, _rng()) if "bot" not in kinds else \
            await asyncio.to_thread(rules.start, engine, len(kinds), c.options, kinds, _rng(), None, levels)
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
        game_id = c.game_id or new_game_id()
        if self.notify_created is not None:  # durable before the commit: a lost signal is swept up
            await self.notify_created(game_id)
        game = await self.games.create(meta, engine, decision, game_id)
        metrics.GAMES_CREATED.labels(engine.name).inc()
        if ratable:
            await self.ratings.register(game.id)  # before anyone can play it (server/ratings/service.py)
        entry = {
            "gameId": game.id, "engine": engine.name, "players": len(kinds), "created": now,
            "status": "FINISHED" if game.finished else "RUNNING",
            "seats": [{"seat": s, "kind": k, "user": users[s], "taken": k != "open",
                       **({"invited": True} if users[s] is not None and not c.matched
                          and (c.user is None or users[s]["id"] != c.user.id)
                          else {})} for s, k in enumerate(kinds)],
        }
        await self.lobby.add(entry)
        self._remember_seats(game.id, entry)
        await self._written(game)
        # Tokens for the human seats no other portal user holds (the creator's own included).
        mine = c.user.id if c.user else None
        tokens = [{"seat": s, "token": self.signer.issue(game.id, s)} for s, k in enumerate(kinds)
                  if k == "human" and (users[s] is None or users[s]["id"] == mine)]
        # The creator's own seat ("me"), if they took one, is the seat the reply is seen from.
        own = next((s for s, (k, _) in enumerate(specs) if k == "me"), None)
        return {"game": await self._game_reply(game, own), "seats": tokens}

    async def join_game(self, c: cmd.JoinGame) -> dict[str, Any]:
        meta = await self.games.meta(c.game_id)
        if (await self.games.current(c.game_id, meta)).finished:
            raise FailedPrecondition("the game is over", "GAME_OVER")
        if c.user is None:
            return await self._join(c, meta)
        # One join per portal user and game at a time, on every replica: two that race (two
        # devices, a retried request) would otherwise both find no seat of theirs and claim two.
        async with self._one_at_a_time(c.game_id, c.user.id, "join of this user to this game"):
            held = await self.seat_of(c.game_id, c.user)
            if held is not None:  # the user's seat, back (another device)
                claim = ((await self.games.meta(c.game_id, exact=True)).get("claims") or {}).get(str(held))
                return {"gameId": c.game_id, "seat": held, "token": self.signer.issue(c.game_id, held, claim)}
            async with self._capped(c.user.id):
                return await self._join(c, meta)

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, key: str, user_id: str, what: str) -> AsyncIterator[None]:
        """Holds (`key`, `user_id`) in the lobby, shared by every replica, while the body runs;
        another holder's body waits up to USER_HOLD_WAIT for it (a holder that died lets it
        lapse after USER_HOLD)."""
        waited = 0.0
        while not await self.lobby.hold(key, user_id, USER_HOLD):
            if waited >= USER_HOLD_WAIT:
                raise Unavailable(f"another {what} is under way; retry", "BUSY")
            await asyncio.sleep(0.02)
            waited += 0.02
        try:
            yield
        finally:
            with contextlib.suppress(Exception):  # else it lapses after USER_HOLD
                await self.lobby.release(key, user_id)

    @contextlib.asynccontextmanager
    async def _capped(self, user_id: str | None) -> AsyncIterator[None]:
        """The body adds a running game to `user_id`'s count: with a cap, checked and added one
        at a time for each user (else creates or joins that race would all pass the check)."""
        if not self.max_open_games or user_id is None:
            yield
            return
        async with self._one_at_a_time("*", user_id, "game creation or join of this user"):
            await self._check_open_games(user_id)
            yield

    async def _join(self, c: cmd.JoinGame, meta: dict[str, Any]) -> dict[str, Any]:
        open_seats = [s for s, k in enumerate(meta["seats"]) if k == "open"]
        if not open_seats:
            raise FailedPrecondition("this game has no open seats", "SEAT_TAKEN")
        # The claim gets an id of its own, named in the token: the token opens the seat only while
        # the store holds this claim (check_claim).
        claim = secrets.token_urlsafe(9)
        seat = await self.games.claim_seat(c.game_id, open_seats, claim)  # atomic: the cached meta is enough
        if seat is None:
            raise FailedPrecondition("every open seat of this game is taken", "SEAT_TAKEN")
        self.store.forget_meta(c.game_id)  # this replica reads the new claim at its next check
        user = None if c.user is None else {"id": c.user.id, "name": c.user.name}
        await self.lobby.mark(c.game_id, seat=seat, user=user)
        if self.notify is not None:
            await self.notify(c.game_id)
        if meta.get("clock") is not None or self.abandon_after:
            await self._clock_joined(c.game_id, seat)
        return {"gameId": c.game_id, "seat": seat, "token": self.signer.issue(c.game_id, seat, claim)}

    async def check_claim(self, game_id: str, seat: int, claim: str) -> None:
        """Unauthenticated unless `claim` is the claim the store holds for `seat` (see
        CLAIM_RECHECK): no store read while the cached claim matches and is recent."""
        meta = await self.games.meta(game_id)
        now = time.monotonic()
        fresh = now - self._claims_checked.get(game_id, -CLAIM_RECHECK) < CLAIM_RECHECK
        if not fresh or (meta.get("claims") or {}).get(str(seat)) != claim:
            meta = await self.games.meta(game_id, exact=True)
            self._claims_checked[game_id] = now
            self._claims_checked.move_to_end(game_id)
            while len(self._claims_checked) > CLAIMS_CHECKED_MAX:
                self._claims_checked.popitem(last=False)
        held = (meta.get("claims") or {}).get(str(seat))
        if held != claim:
            taken = "another player holds it now" if held is not None or seat in meta.get("claimed", ()) \
                else "it is open again"
            raise Unauthenticated(f"this seat token's claim no longer stands: the server lost the join that took "
                                  f"seat {seat} (a store failover or restore), and {taken}; join the game again",
                                  "CLAIM_LOST")

    async def _clock_joined(self, game_id: str, seat: int) -> None:
        """`seat` was taken. No turn clock runs while an open seat is still to be taken (the
        game waits for its players): when the last one is taken, the clock of every seat that
        must act starts now. Before that, the seat's wait counts only for abandonment."""
        meta = await self.games.meta(game_id, exact=True)
        game = await self.games.current(game_id, meta)
        if game.finished:
            return
        waiting = _waiting(game)
        started = waiting if not _unclaimed(meta) else waiting & {seat}
        if not started:
            return
        old = await self.clocks.get(game_id) or ClockRecord(game.version)
        now = time.time()
        record = old.advance(game.version, waiting, now)
        record = ClockRecord(record.version, {**record.since, **dict.fromkeys(started, now)})
        await self.clocks.put(game_id, record, self._next_due(record, meta.get("clock"), _clockless(meta)))

    # --- portal users and the lobby -----------------------------------------------------
    async def seat_of(self, game_id: str, user: User) -> int | None:
        """The seat `user` holds in `game_id`, if any."""
        for s in await self._seats(game_id):
            if (s.get("user") or {}).get("id") == user.id:
                return s["seat"]
        return None

    async def user_seat(self, game_id: str, user: User, *, required: bool) -> int | None:
        await self.games.meta(game_id)  # NotFound first
        seat = await self.seat_of(game_id, user)
        if seat is None and required:
            raise PermissionDenied(f"user {user.id!r} holds no seat in game {game_id}", "NOT_SEATED")
        return seat

    async def _check_open_games(self, user_id: str) -> None:
        if not self.max_open_games:
            return
        # Games the user created or joined; seats others reserved for them (invitations) don't count.
        playing, token = 0, None
        while True:
            page, token = await self.lobby.list(Filter(status="RUNNING", user=user_id), MAX_LOBBY_PAGE, token)
            playing += sum(1 for e in page if any((s.get("user") or {}).get("id") == user_id and not s.get("invited")
                                                  for s in e["seats"]))
            if playing >= self.max_open_games or not token:
                break
        if playing >= self.max_open_games:
            raise OverQuota(f"user {user_id!r} already plays {playing} running games, the most allowed "
                            f"(TABLERO_MAX_OPEN_GAMES_PER_USER={self.max_open_games}); finish one first")

    async def list_games(self, c: cmd.ListGames) -> dict[str, Any]:
        size = c.page_size or LOBBY_PAGE
        if not 1 <= size <= MAX_LOBBY_PAGE:
            raise InvalidArgument(f"pageSize must be between 1 and {MAX_LOBBY_PAGE}")
        if c.mine and c.user is None:
            raise Unauthenticated("mine=true needs a portal JWT: Authorization: Bearer <jwt>", "TOKEN_MISSING")
        if c.status and c.status not in _STATUS:
            raise InvalidArgument("status must be GAME_STATUS_RUNNING or GAME_STATUS_FINISHED")
        f = Filter(engine=c.engine or None, status=_STATUS.get(c.status or ""),
                   open_seats=c.open_seats, user=c.user.id if c.mine and c.user else None)
        try:
            entries, token = await self.lobby.list(f, size, c.page_token or None)
        except BadPageToken as e:
            raise InvalidArgument(str(e), "PAGE_TOKEN_INVALID") from None
        except AppError:
            raise
        except Exception as e:  # the store behind the lobby
            raise outage("the lobby's store", e) from None
        versions = await asyncio.gather(*(self.games.version(e["gameId"]) for e in entries), return_exceptions=True)
        games = []
        for e, v in zip(entries, versions, strict=True):
            if isinstance(v, NotFound):
                continue  # deleted since
            if isinstance(v, BaseException):
                raise v
            games.append({
                "id": e["gameId"], "engine": e["engine"], "players": e["players"], "version": v,
                "status": "GAME_STATUS_" + e["status"], "createTime": e["created"],
                "createTimestamp": rfc3339(e["created"]),
                "seats": [_seat_reply(s) for s in e["seats"]],
            })
        return {"games": games, "nextPageToken": token}

    async def _game_reply(self, game: LoadedGame, seat: int | None) -> dict[str, Any]:
        out = await self.engine_calls.run(game.engine.name, "view", game_reply, game, seat)
        out["deadlines"] = await self._deadlines(game)
        for s, e in zip(out["seats"], await self._seats(game.id, game.meta), strict=False):
            if e.get("user"):
                s.update({k: v for k, v in _seat_reply(e).items() if k.startswith("user")})
        return out

    async def _seats(self, game_id: str, meta: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The seat directory of a game: each seat's kind, whether it is taken and by which
        portal user. Once every seat is taken it never changes: then it is kept per replica.
        A game created with every seat taken has it in its metadata (`meta`, when given)."""
        seats = self._seated.get(game_id)
        if seats is not None:
            self._seated.move_to_end(game_id)
            return seats
        if meta is not None and "users" in meta and "open" not in meta["seats"]:
            entry = {"seats": [{"seat": s, "kind": k, "user": u, "taken": True}
                               for s, (k, u) in enumerate(zip(meta["seats"], meta["users"], strict=True))]}
            self._remember_seats(game_id, entry)
            return entry["seats"]
        entry = await self.lobby.get(game_id)
        if entry is None:
            return []
        self._remember_seats(game_id, entry)
        return entry["seats"]

    def _remember_seats(self, game_id: str, entry: dict[str, Any]) -> None:
        if all(s["taken"] for s in entry["seats"]):
            self._seated[game_id] = entry["seats"]
            while len(self._seated) > self._seated_size:
                self._seated.popitem(last=False)

    # --- reads ---------------------------------------------------------------------------
    async def get_game(self, c: cmd.GetGame) -> dict[str, Any]:
        if c.version is None:
            game = await self.games.current(c.game_id)
        else:
            game = await self.games.at(c.game_id, _positive("version", c.version))
        return {"game": await self._game_reply(game, c.seat)}

    async def list_legal_actions(self, c: cmd.ListLegalActions) -> dict[str, Any]:
        if c.group not in LEGAL_GROUPINGS:
            raise InvalidArgument(f'group must be "type" or empty, not {c.group!r}')
        if c.group and c.page_token:
            raise InvalidArgument("pageToken continues one group: ask again without group, with type = the "
                                  "group's type", "PAGE_TOKEN_INVALID")
        if c.page_size is not None and not 0 <= c.page_size <= MAX_LEGAL_PAGE_SIZE:
            raise InvalidArgument(f"pageSize must be between 1 and {MAX_LEGAL_PAGE_SIZE}")
        game = await self.games.current(c.game_id)
        may_act = c.seat in game.to_act and c.seat not in game.table.bots
        engine = game.engine
        actions = await self.engine_calls.run(engine.name, "legal_actions", engine.legal_actions, game.state,
                                              c.seat) if may_act else []
        if c.type:
            known = _action_types(engine)
            if known and c.type not in known:
                raise InvalidArgument(f"{engine.name} has no action type {c.type!r}; its types: {', '.join(known)}")
            actions = [a for a in actions if _type_of(a) == c.type]
        reply: dict[str, Any] = {"actions": actions, "version": game.version, "seat": c.seat, "nextPageToken": "",
                                 "groups": []}
        if c.group:
            by_type: dict[str, list[Any]] = {}
            for a in actions:
                by_type.setdefault(_type_of(a), []).append(a)
            size = c.page_size or DEFAULT_GROUP_PAGE_SIZE
            reply["actions"] = []
            reply["groups"] = [
                {"type": kind, "count": len(group), "actions": group[:size],
                 "nextPageToken": _legal_token(c.game_id, game.version, kind, size) if size < len(group) else ""}
                for kind, group in by_type.items()
            ]
            return reply
        if not (c.page_size or c.page_token):
            return reply
        size = c.page_size or MAX_LEGAL_PAGE_SIZE
        start = _decode_legal_token(c, game.version) if c.page_token else 0
        end = start + size
        reply["actions"] = actions[start:end]
        if end < len(actions):
            reply["nextPageToken"] = _legal_token(c.game_id, game.version, c.type, end)
        return reply

    async def list_events(self, c: cmd.ListEvents) -> dict[str, Any]:
        meta = await self.games.meta(c.game_id)
        size = c.page_size or DEFAULT_PAGE_SIZE
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise InvalidArgument(f"pageSize must be between 1 and {MAX_PAGE_SIZE}")
        if c.after_version < 0:
            raise InvalidArgument("afterVersion must be a non-negative integer")
        # A page token says where its page starts; afterVersion only where the first page does.
        after = _decode_page_token(c.game_id, c.page_token) if c.page_token else c.after_version
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
            return [event_reply(c.game_id, e.version, event_view(engine, e.event, c.seat), e.hash) for e in events]

        return {
            "events": await self.engine_calls.run(engine.name, "event_views", views),
            "nextPageToken": _encode_page_token(c.game_id, last) if events and last < current else "",
        }

    async def watch_game(self, c: cmd.WatchGame) -> AsyncIterator[dict[str, Any]]:
        """Redacted events after `after_version`, then live ones pushed by the store; ends
        after the last event of a finished game. Refusals are raised here, before streaming."""
        if c.after_version < 0:
            raise InvalidArgument("afterVersion must be a non-negative integer")
        # A watch opened right after this replica wrote or read the game (a player's page
        # after a create or a move) starts from the cache without a store call: the watch
        # itself reads what follows after_version, and the game state it keeps only tells
        # when the game is over.
        meta = await self.games.meta(c.game_id)
        if getattr(self.games.store, "trim_on_snapshot", False):
            # Entries a snapshot covers may be gone: a start before them is refused now, with
            # its status (FAILED_PRECONDITION), not as an error item after a 200 that an
            # EventSource would retry for ever. (Stores that never trim need no read here.)
            # The watch reads from its start's own entry (its hash tells whether the client's
            # history is still the store's), so that entry must be kept too.
            try:
                await self.games.events(c.game_id, max(c.after_version - 1, 0), 1)
            except FailedPrecondition as e:
                first = getattr(e.__cause__, "first_kept", None)
                if first is None or c.after_version != first - 1:
                    raise FailedPrecondition(_trimmed_watch(e), "HISTORY_TRIMMED") from None
                # Just before the first kept event (where a listing of the kept log starts):
                # that event is sent from here, and the store's watch goes on after it, from
                # its hash, as a watch that had it would.
                head = await self.games.events(c.game_id, c.after_version, 1)
                if c.after_hash and (not head or not head[0].hash
                                     or chain(c.after_hash, _event_json(head[0].event)) != head[0].hash):
                    # The client's last event is gone; its hash is checked through the next
                    # one's (which chains it): a client whose history is not the log's is refused,
                    # told to start again from the kept state (not to resume where it just asked).
                    raise FailedPrecondition(
                        f"afterHash is not the hash of event {c.after_version} of this game's log (its "
                        f"history was rewritten, or the hash is wrong), and the events before "
                        f"{first} are no longer kept (a snapshot covers them): GET the game with "
                        f"?version={first} and watch from afterVersion {first}", "HISTORY_TRIMMED") from None
                game = await self.games.current(c.game_id, meta)
                mine = LoadedGame(game.id, game.meta, game.engine, game.version, clone(game.state),
                                  list(game.platform))
                return self._watch(mine, c.seat, head[0].version, head[0].hash, head=head)
        game = self.games.recent(c.game_id, meta, RECENT_CACHE)
        if game is None and c.after_version == 0:
            if not self.games.holds(c.game_id):
                # A replica that does not hold the game reads it now (a page opened on another
                # replica than the one that created it): that seat's moves, which follow at
                # once, then find it here instead of each paying that read before deciding.
                game = await self.games.hold(c.game_id, meta)
            if game is None:
                # From the first event on a replica that holds the game but has not just seen
                # its head: no store read for the state; the watcher folds every event it
                # sends from the start.
                return self._watch(LoadedGame(c.game_id, meta, self.games.engine_of(meta), 0, None, []), c.seat, 0)
        if game is None or c.after_version > game.version:
            game = await self.games.current(c.game_id, meta)
        rewound = False
        if c.after_version > game.version:
            if not c.after_hash:
                raise InvalidArgument(
                    f"afterVersion {c.after_version} is beyond the game's current version {game.version}")
            rewound = True  # the client saw events the log no longer holds (Redis lost them)
        elif c.after_hash and c.after_version > 0 and c.after_version == game.version and game.finished:
            # Nothing follows, so the store's watch would check nothing: check the head here.
            head = await self.games.store.head(c.game_id)
            rewound = bool(head.hash) and head.version == c.after_version and head.hash != c.after_hash
        # The watcher keeps its own copy of the state to know when the game is over.
        mine = LoadedGame(game.id, game.meta, game.engine, game.version, clone(game.state),
                          list(game.platform))
        return self._watch(mine, c.seat, c.after_version, c.after_hash or None, rewound)

    async def _watch(self, game: LoadedGame, seat: int | None, after: int, after_hash: str | None = None,
                     rewound: bool = False, head: Sequence[Entry] = ()) -> AsyncIterator[dict[str, Any]]:
        """`head`: entries up to `after` sent first (read by the caller), before the store's watch."""
        engine, known = game.engine, game.version
        for entry in head:
            yield event_reply(game.id, entry.version, event_view(engine, entry.event, seat), entry.hash)
        finished = known > 0 and game.finished  # version 0: nothing folded yet (no state)
        if rewound:
            # Every event the client holds is void: it starts again from the first.
            metrics.WATCH_RESETS.inc()
            yield Reset(0)
            after, after_hash = 0, None
            game.state, game.version, game.platform = None, 0, []
            known, finished = 0, False
        if finished and after >= known:
            return
        metrics.WATCH_STREAMS.inc()
        # The hash of the entry before the next one (None: not known), for the repository to
        # follow the game with what this watcher is sent (GameRepository.observed).
        prev: str | None = after_hash or ("" if after == 0 else None)
        held = False  # game.state is one kept for the other watchers here (_follow): never changed in place
        self._watching[game.id] = self._watching.get(game.id, 0) + 1
        try:
            async for item in self.games.watch(game.id, after, after_hash):
                if item is POKED:  # the consumer's nudge (keep-alive, shutdown): passed up
                    yield item
                    continue
                if isinstance(item, Reset):
                    # The store lost events this watcher was sent: the client is told to drop
                    # them (a `Reset` passes through as a control message) and the stream goes
                    # on with the new history after item.version.
                    metrics.WATCH_RESETS.inc()
                    yield item
                    prev = None
                    known = item.version
                    back = await self.games.at(game.id, known, game.meta) if known else None
                    game.state, game.platform = (back.state, list(back.platform)) if back else (None, [])
                    game.version, held = known, False
                    finished = known > 0 and engine.outcome(game.state) is not None
                    continue
                version, event = item
                hash_ = getattr(item, "hash", "")
                self.games.observed(game.id, engine, version, hash_, prev, event)
                prev = hash_ or None
                yield event_reply(game.id, version, event_view(engine, event, seat), hash_)
                if version > known:
                    finished, held = self._follow(game, version, hash_, event, held)
                    known = version
                if finished and version >= known:
                    return
            raise Unavailable("the event store ended the watch; watch again from the last version")
        except GameNotFound as e:  # deleted or expired under a replica that had it cached
            self.games.forget(game.id)
            raise NotFound(f"no game {game.id!r}", "GAME_NOT_FOUND") from e
        except Trimmed as e:  # a watcher that fell behind a snapshot that trimmed what it needs
            raise FailedPrecondition(_trimmed_watch(e), "HISTORY_TRIMMED") from e
        finally:
            metrics.WATCH_STREAMS.dec()
            left = self._watching.pop(game.id, 1) - 1
            if left > 0:
                self._watching[game.id] = left
            else:
                self._followed.pop(game.id, None)

    # Entries of a watched game kept for its watchers here (_follow): an append of several
    # events reaches each watcher as a batch, so the first watcher is a few entries ahead.
    FOLLOWED_ENTRIES = 4

    def _follow(self, game: LoadedGame, version: int, hash_: str, event: dict[str, Any],
                held: bool) -> tuple[bool, bool]:
        """A watcher's copy of the game moves on to the entry `version`: whether the game is over
        then, and whether the watcher's state is now one kept for the others (`held`).

        The watchers of one game on this replica follow it together: the first to reach a new
        entry evolves the state and keeps it in `_followed` (version -> (hash, state, platform
        events, over)); the others take it as it is instead of each evolving a copy. A kept
        state is never changed in place: moving it on starts from a copy. A game watched once
        here keeps nothing (its watcher evolves its own copy, as one catching up on a history
        older than what is kept does)."""
        entries = self._followed.get(game.id)
        if entries is not None and hash_:
            kept = entries.get(version)
            if kept is not None and kept[0] == hash_:
                # the same entry of the same history (the hash chains every event before it)
                _, game.state, game.platform, finished = kept
                game.version = version
                return finished, True
        state, platform = (clone(game.state), list(game.platform)) if held else (game.state, game.platform)
        if is_platform(event):
            platform.append(event)
        else:
            state = game.engine.evolve(state, event)
        game.state, game.platform, game.version = state, platform, version
        finished = state is not None and game.finished
        if not hash_ or self._watching.get(game.id, 0) < 2 or (entries and version <= max(entries)):
            return finished, False
        if entries is None:
            entries = self._followed[game.id] = {}
            while len(self._followed) > self.games.cache_size:
                self._followed.popitem(last=False)
        else:
            self._followed.move_to_end(game.id)
        entries[version] = (hash_, state, platform, finished)
        if len(entries) > self.FOLLOWED_ENTRIES:
            del entries[min(entries)]
        return finished, True

    # --- the write path ----------------------------------------------------------------
    async def submit_action(self, c: cmd.SubmitAction) -> dict[str, Any]:
        """Decide the action's events (and the bots' answers) on the game now; commit them."""
        if not isinstance(c.action, dict):
            raise InvalidArgument('"action" must be a JSON object with a "type"')
        if c.request_id is not None and len(c.request_id) > MAX_REQUEST_ID:
            raise InvalidArgument(f"requestId must be a string of at most {MAX_REQUEST_ID} characters")
        if c.expected_version is not None and c.expected_version < 0:
            raise InvalidArgument("expectedVersion must be a non-negative integer")

        def decide(game: LoadedGame) -> Decision:
            if c.expected_version is not None and c.expected_version != game.version:
                raise StaleVersion(f"stale version: the game is at version {game.version}, not {c.expected_version}",
                                   metadata={"version": str(game.version)})
            _may_play(game, c.seat)
            kinds = game.kinds
            if "bot" in kinds:  # the bots' answers are played off the event loop
                # On a copy: the bots' turns evolve the state they are given, on a thread, while
                # readers (a GET, a new watch) may take the cached state at its cached version.
                return asyncio.to_thread(rules.play, game.engine, clone(game.state), c.seat, c.action, kinds, _rng(),
                                         None, game.levels)
            return rules.play(game.engine, game.state, c.seat, c.action, kinds, _rng())

        meta = await self.games.meta(c.game_id)
        engine = self.games.engine_of(meta)
        with _count_action(engine.name) as result:
            done = await self.games.update(c.game_id, decide, key=c.idempotency_key, meta=meta)
            if not done.appended:
                result[0] = "replayed"
        if done.appended:
            await self._written(done.game, {c.seat})
        else:
            # A retry: its first attempt may have been answered with an error after the commit,
            # before the lobby and the clock were told (or by a replica that died then).
            await self._bookkeeping(done.game, {c.seat})
        return {"game": await self._game_reply(done.game, c.seat)}

    async def resign(self, c: cmd.Resign) -> dict[str, Any]:
        """The seat leaves: it forfeits, or (onLeave "bot") a bot plays it on."""

        def decide(game: LoadedGame) -> Decision:
            _may_play(game, c.seat)
            return _leave(game, [c.seat], "resigned", game.meta.get("on_leave", "forfeit"))

        done = await self.games.update(c.game_id, decide, key=f"resign:{c.seat}")
        if done.appended:
            await self._written(done.game, {c.seat})
        else:
            await self._bookkeeping(done.game, {c.seat})  # a retry (see submit_action)
        return {"game": await self._game_reply(done.game, c.seat)}

    # --- turn clocks ---------------------------------------------------------------------
    def _offer_thought(self, game_id: str) -> None:
        async def offer() -> None:
            try:
                await self.bot_queue.offer(game_id)
            except Exception as e:  # the store is away: the next load of the game offers it again
                log.warning("bot queue offer failed", extra={"fields": {"game": game_id, "error": str(e)[:200]}})

        task = asyncio.get_running_loop().create_task(offer())
        self._offers.add(task)
        task.add_done_callback(self._offers.discard)

    async def _written(self, game: LoadedGame, acted: Collection[int] = ()) -> None:
        """After every accepted write (a request's, a timeout's, the bot worker's): the
        finished-games count, the lobby's status, and the clock record and schedule.
        `acted`: the seats the write acted for (their clocks start again when they must
        act again, though the bots' answers in the same write leave them waiting)."""
        if game.finished:
            metrics.GAMES_FINISHED.labels(game.engine.name).inc()
            if self.notify is not None:  # before the reply (the bookkeeping below comes after it)
                with contextlib.suppress(Exception):  # else that bookkeeping's retries signal it
                    await self.notify(game.id)
            # The game is over: no deadline is shown any more, so its lobby status (and its
            # clock's removal) need not hold up the reply — one store round trip fewer on the
            # last move of every game. They are sent right after it; a retry of the request
            # records them again, and a failure is repaired as below.
            task = asyncio.get_running_loop().create_task(self._bookkeeping(game, acted),
                                                          name=f"tablero-ended-{game.id}")
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)
            return
        await self._bookkeeping(game, acted)

    async def _bookkeeping(self, game: LoadedGame, acted: Collection[int] = ()) -> None:
        """The lobby's status and the clock of `game` as it stands. Idempotent. The write
        before it is committed, so a failure here does not fail it: it is logged and tried
        again in the background (and by a retry of the same request)."""
        try:
            await self._bookkeep(game, acted)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - the lobby's or the clocks' store, whatever failed
            log.warning("game %s v%d committed, but its lobby status or clock was not recorded (%s: %s); "
                        "trying again in the background", game.id, game.version, type(e).__name__, e)
            self._repair(game, acted)

    def _repair(self, game: LoadedGame, acted: Collection[int]) -> None:
        old = self._repairs.pop(game.id, None)
        if old is not None:
            old.cancel()  # the newer state supersedes it
        task = asyncio.get_running_loop().create_task(self._repairing(game, acted), name=f"tablero-repair-{game.id}")
        self._repairs[game.id] = task
        task.add_done_callback(lambda t, g=game.id: self._repairs.pop(g, None) if self._repairs.get(g) is t else None)

    ENDING_GRACE = 2.0  # seconds a stopping server waits for the bookkeeping of ended games

    REPAIR_DELAYS = (0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 60, 60, 60, 60)  # about 6 minutes in all

    async def _repairing(self, game: LoadedGame, acted: Collection[int]) -> None:
        for delay in self.REPAIR_DELAYS:
            await asyncio.sleep(delay)
            try:
                await self._bookkeep(game, acted)
            except Exception as e:  # noqa: BLE001 - still down: later
                last = e
                continue
            log.info("game %s v%d: its lobby status and clock are recorded now", game.id, game.version)
            return
        log.error("game %s v%d: its lobby status or clock could not be recorded (%s: %s); "
                  "the next write or retry of the game records it", game.id, game.version, type(last).__name__, last)

    async def close(self) -> None:
        """Stop the background repairs (a stopping server), once the bookkeeping of the games
        that just ended is done (or has failed over to a repair)."""
        if self._ending:
            await asyncio.wait(list(self._ending), timeout=self.ENDING_GRACE)
        for task in list(self._repairs.values()):
            task.cancel()
        await asyncio.gather(*self._repairs.values(), return_exceptions=True)
        self._repairs.clear()

    async def _bookkeep(self, game: LoadedGame, acted: Collection[int] = ()) -> None:
        if self.notify is not None:
            await self.notify(game.id)
        table = game.table
        # A seat that acted by leaving with onLeave "bot": the lobby lists it as a bot's now.
        left = sorted(s for s in acted if s in table.bots and s not in table.forfeited)
        if game.finished or left:
            await self.lobby.mark(game.id, status="FINISHED" if game.finished else None, bots=left or None)
        if game.finished and self.ratings is not None:
            await self.ratings.on_finished(game)
        clock = game.meta.get("clock")
        if clock is None and not self.abandon_after:
            return
        if game.finished:
            await self.clocks.remove(game.id)
            return
        old = await self.clocks.get(game.id) or ClockRecord(0)
        if old.version >= game.version:
            return  # this write's clock is recorded already (a retry), or a later write's is
        record = old.advance(game.version, _waiting(game), time.time(), acted)
        await self.clocks.put(game.id, record, self._next_due(record, clock, _clockless(game.meta)))

    def _next_due(self, record: ClockRecord, clock: dict[str, Any] | None,
                  clockless: Collection[int] = ()) -> float | None:
        """When the game may next need the sweeper: a deadline (of a seat whose clock runs, see
        _clockless), or being abandoned."""
        due = [] if clock is None else [record.next_due(clock["moveSeconds"], clockless)]
        if self.abandon_after and record.since:
            due.append(max(record.since.values()) + self.abandon_after)
        due = [d for d in due if d is not None]
        return min(due) if due else None

    async def _deadlines(self, game: LoadedGame) -> list[dict[str, Any]]:
        clock = game.meta.get("clock")
        if clock is None or game.finished:
            return []
        record = await self.clocks.get(game.id) or ClockRecord(0)
        if record.version != game.version:  # its writer has not recorded it yet (or died)
            record = record.advance(game.version, _waiting(game), time.time())
        deadlines = record.deadlines(clock["moveSeconds"], _clockless(game.meta))
        return [{"seat": s, "deadline": d, "deadlineTime": rfc3339(d)} for s, d in sorted(deadlines.items())]

    async def sweep_clocks(self, now: float | None = None, limit: int = 100) -> int:
        """Apply every due timeout (any replica may call this; each applies once). Returns
        how many timeouts this call applied."""
        now = time.time() if now is None else now
        applied = 0
        for game_id in await self.clocks.due(now, limit):
            try:
                applied += await self._sweep(game_id, now)
            except NotFound:
                await self.clocks.remove(game_id)
            except AppError as e:
                log.warning("clock sweep of %s: %s", game_id, e.message)
        return applied

    async def _sweep(self, game_id: str, now: float) -> int:
        meta = await self.games.meta(game_id)
        clock = meta.get("clock")
        game = await self.games.current(game_id, meta)
        if (clock is None and not self.abandon_after) or game.finished:
            await self.clocks.remove(game_id)
            return 0
        record = await self.clocks.get(game_id) or ClockRecord(0)
        if record.version != game.version:
            record = record.advance(game.version, _waiting(game), now)
            await self.clocks.put(game_id, record, self._next_due(record, clock, _clockless(meta)))
        waiting = _waiting(game)
        abandoned = bool(self.abandon_after and record.since and waiting
                         and max(record.since.values()) + self.abandon_after <= now)
        clockless = _clockless(meta)
        due = [] if clock is None else [s for s in record.due(clock["moveSeconds"], now, clockless) if s in waiting]
        if not due and not abandoned:
            await self.clocks.put(game_id, record, self._next_due(record, clock, clockless))
            return 0
        seat, version = (min(waiting), game.version) if abandoned else (due[0], game.version)
        then = "abandoned" if abandoned else clock["onTimeout"]

        def decide(g: LoadedGame) -> Decision:
            if g.version != version:
                raise StaleVersion(f"the game moved on from version {version}")
            if seat not in _waiting(g):
                raise FailedPrecondition(f"seat {seat} no longer has to act")
            if then == "abandoned":
                return _leave(g, [seat], "abandoned", "forfeit")  # ends the game for everyone
            if then == "forfeit":
                # Every seat whose deadline has passed forfeits at once: seats that missed
                # the same deadline are treated alike (none wins for having been swept last).
                return _leave(g, due, "timeout", "forfeit")
            # Every seat past its deadline has its turn taken at once (simultaneous moves:
            # each late seat keeps its own deadline; none waits for another's timeout).
            return _timed_out_turns(g, due)

        key = f"abandoned:{version}" if abandoned else f"timeout:{version}:{seat}"
        try:
            done = await self.games.update(game_id, decide, key=key, meta=meta)
        except (StaleVersion, FailedPrecondition, Aborted):
            return 0  # someone moved meanwhile (a player, or another replica's timeout)
        if done.appended:
            # The seats that timed out had their turn taken (a bot played it): a new turn of
            # theirs gets a new deadline.
            await self._written(done.game, due or [seat])
        return 1 if done.appended else 0

    # --- helpers -------------------------------------------------------------------------
    @staticmethod
    def _engine(name: str) -> Engine:
        if not name:
            raise InvalidArgument('"engine" must name an engine (see GET /v1/engines)', "UNKNOWN_ENGINE")
        try:
            return engines.get(name)
        except UnknownEngine as e:
            raise InvalidArgument(str(e), "UNKNOWN_ENGINE") from None

    @staticmethod
    def _bot_levels(c: cmd.CreateGame, kinds: list[str]) -> list[str | None] | None:
        """The bot seats' levels from `seatSpecs` ({"kind": "bot", "level": ...}) or `seats`
        ("bot:hard"); None when every bot is a plain (easy) one, as games were before levels."""
        raw = [x.get("level") or None for x in c.seat_specs] if c.seat_specs else \
            [k.partition(":")[2] or None for k in c.seats]
        raw += [None] * (len(kinds) - len(raw))
        for i, lv in enumerate(raw):
            if lv is None:
                continue
            if kinds[i] != "bot":
                raise InvalidArgument(f'seat {i}: only a bot seat has a level, not a {kinds[i]!r} seat')
            if lv not in BOT_LEVELS:
                raise InvalidArgument(f'seat {i}: the bot level must be one of {", ".join(BOT_LEVELS)}, not {lv!r}')
        return raw if any(lv not in (None, DEFAULT_LEVEL) for lv in raw) else None

    def _seat_specs(self, c: cmd.CreateGame, engine: Engine) -> list[tuple[str, dict[str, Any] | None]]:
        """(kind, portal user or None) per seat, from `seats` (kinds) or `seatSpecs` (objects)."""
        if c.seats and c.seat_specs:
            raise InvalidArgument('give either "seats" or "seatSpecs", not both')
        raw = [{"kind": k.partition(":")[0] if k.startswith("bot:") else k} for k in c.seats] if c.seats \
            else [dict(x) for x in c.seat_specs]
        for i, spec in enumerate(raw):
            if spec.get("kind") not in CREATE_KINDS:
                raise InvalidArgument(f'seat {i}: the kind must be one of {", ".join(CREATE_KINDS)}, '
                                      f'not {spec.get("kind")!r}')
        kinds = self._seat_kinds(engine, c.players, tuple("human" if x["kind"] == "me" else x["kind"] for x in raw))
        out: list[tuple[str, dict[str, Any] | None]] = []
        for i, kind in enumerate(kinds):
            spec = raw[i] if raw else {"kind": kind}
            uid, name = spec.get("userId") or None, spec.get("userName") or None
            if any(isinstance(v, str) and has_control(v) for v in (uid, name)):
                raise InvalidArgument(f"seat {i}: userId and userName cannot hold control characters or lone surrogates")
            if spec["kind"] == "me":
                if c.user is None:
                    raise Unauthenticated('a "me" seat needs a portal JWT: Authorization: Bearer <jwt>', "TOKEN_MISSING")
                if uid is not None:
                    raise InvalidArgument(f'seat {i}: a "me" seat names no other user')
                if name is not None:
                    raise InvalidArgument(f'seat {i}: a "me" seat takes its name from the portal JWT, not userName')
                out.append(("me", {"id": c.user.id, "name": c.user.name}))
            elif uid is not None:
                if kind != "human":
                    raise InvalidArgument(f'seat {i}: only a human seat can name a user')
                if c.user is None:
                    raise Unauthenticated(f'seat {i}: reserving a seat for a user needs a portal JWT: '
                                          'Authorization: Bearer <jwt>', "TOKEN_MISSING")
                if len(uid) > 128 or (name is not None and len(name) > 64):
                    raise InvalidArgument(f"seat {i}: userId is at most 128 characters, userName at most 64")
                out.append((kind, {"id": uid, "name": name}))
            elif name is not None:
                raise InvalidArgument(f"seat {i}: userName names the user of userId; give both, or neither")
            else:
                out.append((kind, None))
        held = [u["id"] for _, u in out if u is not None]
        if len(held) != len(set(held)):
            raise InvalidArgument("a portal user can hold only one seat of a game")
        return out

    @staticmethod
    def _seat_kinds(engine: Engine, players: int | None, seats: tuple[str, ...]) -> list[str]:
        if players is None:
            players = len(seats) or engine.min_seats
        elif seats and len(seats) != players:
            raise InvalidArgument(f'"players" is {players} but "seats" lists {len(seats)}: give one seat kind per player')
        if not engine.min_seats <= players <= engine.max_seats:
            span = f"{engine.min_seats}" if engine.min_seats == engine.max_seats else \
                f"{engine.min_seats}-{engine.max_seats}"
            raise InvalidArgument(f"{engine.title} takes {span} players, not {players}")
        kinds = list(seats) or ["human"] * players
        if any(k not in SEAT_KINDS for k in kinds):
            raise InvalidArgument(f'"seats" must list {players} seat kinds, each one of {", ".join(SEAT_KINDS)}')
        return kinds


def _waiting(game: LoadedGame) -> set[int]:
    """Seats a person must act for now (the ones the clock record follows)."""
    kinds = game.kinds
    return {s for s in game.to_act if kinds[s] != "bot"}


def _unclaimed(meta: dict[str, Any]) -> set[int]:
    """Open seats nobody has taken yet: while there is one, no turn clock runs (_clockless),
    though a game that waits for them may still be abandoned (TABLERO_ABANDON_AFTER)."""
    claimed = meta.get("claimed", ())
    return {s for s, k in enumerate(meta["seats"]) if k == "open" and s not in claimed}


def _clockless(meta: dict[str, Any]) -> set[int]:
    """Seats whose turn clock does not run: every seat while an open seat is still to be taken
    (the game waits for its players; a creator who moves first must not time out before anyone
    could join). The clocks start when the last open seat is taken (_clock_joined)."""
    return set(range(len(meta["seats"]))) if _unclaimed(meta) else set()


def _leave(game: LoadedGame, seats: list[int], reason: str, then: str) -> Decision:
    """`seats` leave (one, or several at once): the events, then whatever the bots play
    before a person must act."""
    table = game.table.copy()
    events = []
    unclaimed = sorted(_unclaimed(game.meta))
    for seat in seats:
        event = table.leave(seat, reason, then, unclaimed)
        table.apply(event)
        events.append(event)
    if table.ended is not None:
        return Decision(events, game.state)
    kinds = ["bot" if s in table.bots else k for s, k in enumerate(game.meta["seats"])]
    state, bot_events = rules.play_bots(game.engine, clone(game.state), kinds, _rng(), None, game.levels)
    return Decision([*events, *bot_events], state)


def _timed_out_turns(game: LoadedGame, seats: list[int]) -> Decision:
    """A bot plays the turn of each of `seats`, whose deadlines passed (each recorded first),
    in seat order, of those still to act then; then the bots."""
    engine, rng = game.engine, _rng()
    state = clone(game.state)
    events: list[dict[str, Any]] = []
    for seat in seats:
        if events and seat not in engine.to_act(state):
            continue  # the turns taken before it moved the game past this seat's
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise FailedPrecondition(f"seat {seat} has no legal action")
        events.append({"type": TURN_TIMED_OUT, "seat": seat, "then": "bot"})
        for e in engine.decide(state, seat, engine.random_action(state, seat, actions, rng), rng):
            state = engine.evolve(state, e)
            events.append(e)
    state, bot_events = rules.play_bots(engine, state, game.kinds, rng, None, game.levels)
    return Decision(events + bot_events, state)


def _may_play(game: LoadedGame, seat: int) -> None:
    if game.finished:
        raise FailedPrecondition("the game is over", "GAME_OVER")
    left = game.table
    if seat in left.bots and game.meta["seats"][seat] != "bot":
        raise FailedPrecondition(f"seat {seat} has left this game"
                                 + (" (forfeited)" if seat in left.forfeited else "; a bot plays it now"), "SEAT_LEFT")


def _seat_reply(e: dict[str, Any]) -> dict[str, Any]:
    from .replies import SEAT_KINDS as KIND_ENUM

    out: dict[str, Any] = {"seat": e["seat"], "kind": KIND_ENUM[e["kind"]], "claimed": bool(e["taken"])}
    if e.get("user"):
        out["userId"] = e["user"]["id"]
        if e["user"].get("name"):
            out["userName"] = e["user"]["name"]
    return out


def _positive(name: str, value: int) -> int:
    if value < 1:
        raise InvalidArgument(f"{name} must be a positive integer")
    return value


def _encode_page_token(game_id: str, after: int) -> str:
    return base64.urlsafe_b64encode(f"{game_id}:{after}".encode()).decode().rstrip("=")


@functools.cache
def _action_types(engine: Engine) -> tuple[str, ...]:
    """The action types the engine's action schema names (empty when it names none)."""
    schema = engine.action_schema or {}
    types = [((o.get("properties") or {}).get("type") or {}).get("const") for o in schema.get("oneOf", ())]
    return tuple(t for t in types if isinstance(t, str))


def _type_of(action: Any) -> str:
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else ""


def _legal_token(game_id: str, version: int, kind: str, start: int) -> str:
    token = json.dumps([game_id, version, kind, start], separators=(",", ":"))
    return base64.urlsafe_b64encode(token.encode()).decode().rstrip("=")


def _decode_legal_token(c: cmd.ListLegalActions, version: int) -> int:
    """The offset a ListLegalActions page token names; it holds only at the version (and
    for the type filter) of the page that gave it."""
    try:
        raw = base64.urlsafe_b64decode(c.page_token + "=" * (-len(c.page_token) % 4)).decode()
        gid, at, kind, start = json.loads(raw)
        if gid != c.game_id or kind != c.type or not all(type(n) is int and n >= 0 for n in (at, start)):
            raise ValueError
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
        raise InvalidArgument("pageToken is not a token this game's ListLegalActions returned "
                              "(with the same type filter)", "PAGE_TOKEN_INVALID") from None
    if int(at) != version:
        raise InvalidArgument(f"pageToken was for version {at}; the game is now at version {version}: "
                              "list the legal actions again from the first page", "PAGE_TOKEN_INVALID")
    return int(start)


def _decode_page_token(game_id: str, token: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        gid, after = raw.rsplit(":", 1)
        if gid != game_id or not after.isdigit():
            raise ValueError
        return int(after)
    except (ValueError, UnicodeDecodeError):
        raise InvalidArgument("pageToken is not a token this game's ListEvents returned", "PAGE_TOKEN_INVALID") from None
