"""The use cases. Each reads load → decide → commit → reply; the repository owns the
store, the cache, locks, retries and idempotency, `rules` the engine calls.

Use cases take typed commands (server.app.commands) and return replies in the
protobuf JSON mapping (server.app.replies). Errors are server.errors.AppError.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import random
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import engines
from engines.core import Engine, UnknownEngine
from server import metrics
from server.auth import TokenSigner
from server.errors import (
    Aborted,
    AppError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    StaleVersion,
    Unavailable,
)
from server.store.base import EventStore, Reset

from . import commands as cmd
from . import rules
from .bots import BotWorker
from .replies import engine_reply, event_reply, game_reply
from .repository import Decision, GameRepository, LoadedGame

SEAT_KINDS = ("human", "open", "bot")
MAX_REQUEST_ID = 128
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


def _rng() -> random.Random:
    return random.Random(secrets.randbits(64))


# tablero_actions results of refused actions, most specific first.
_REFUSALS = ((StaleVersion, "stale"), (Aborted, "conflict"), (InvalidArgument, "invalid"),
             (FailedPrecondition, "illegal"))


@contextlib.contextmanager
def _count_action(engine: str) -> Iterator[None]:
    """tablero_actions by result: ok, stale, invalid, illegal, conflict."""
    try:
        yield
    except AppError as e:
        label = next((label for cls, label in _REFUSALS if isinstance(e, cls)), None)
        if label is not None:
            metrics.ACTIONS.labels(engine, label).inc()
        raise
    metrics.ACTIONS.labels(engine, "ok").inc()


class GameService:
    def __init__(self, store: EventStore, signer: TokenSigner, *, cache_size: int = 1000,
                 snapshot_every: int = 100, max_retries: int = 5) -> None:
        self.store = store
        self.signer = signer
        self.games = GameRepository(store, cache_size=cache_size, snapshot_every=snapshot_every,
                                    max_retries=max_retries)
        self.bots = BotWorker(self.games)
        self.games.on_commit = self.bots.notice

    # --- engines ---------------------------------------------------------------------
    async def list_engines(self) -> dict[str, Any]:
        return {"engines": [engine_reply(engines.get(name)) for name in engines.names()]}

    async def get_engine(self, c: cmd.GetEngine) -> dict[str, Any]:
        try:
            return {"engine": engine_reply(engines.get(c.name))}
        except UnknownEngine as e:
            raise NotFound(str(e)) from None

    # --- create / join -----------------------------------------------------------------
    async def create_game(self, c: cmd.CreateGame) -> dict[str, Any]:
        engine = self._engine(c.engine)
        kinds = self._seat_kinds(engine, c.players, c.seats)
        decision = rules.start(engine, len(kinds), c.options, kinds, _rng()) if "bot" not in kinds else \
            await asyncio.to_thread(rules.start, engine, len(kinds), c.options, kinds, _rng())  # off the loop
        meta = {"engine": engine.name, "engine_version": engine.version, "players": len(kinds),
                "seats": kinds, "claimed": [], "created": time.time()}
        game = await self.games.create(meta, engine, decision)
        metrics.GAMES_CREATED.labels(engine.name).inc()
        if game.finished:
            metrics.GAMES_FINISHED.labels(engine.name).inc()
        tokens = [{"seat": s, "token": self.signer.issue(game.id, s)} for s, k in enumerate(kinds) if k == "human"]
        return {"game": game_reply(game, None), "seats": tokens}

    async def join_game(self, c: cmd.JoinGame) -> dict[str, Any]:
        meta = await self.games.meta(c.game_id)
        open_seats = [s for s, k in enumerate(meta["seats"]) if k == "open"]
        if not open_seats:
            raise FailedPrecondition("this game has no open seats")
        seat = await self.games.claim_seat(c.game_id, open_seats)  # atomic: the cached meta is enough
        if seat is None:
            raise FailedPrecondition("every open seat of this game is taken")
        return {"gameId": c.game_id, "seat": seat, "token": self.signer.issue(c.game_id, seat)}

    # --- reads ---------------------------------------------------------------------------
    async def get_game(self, c: cmd.GetGame) -> dict[str, Any]:
        if c.version is None:
            game = await self.games.current(c.game_id)
        else:
            game = await self.games.at(c.game_id, _positive("version", c.version))
        return {"game": game_reply(game, c.seat)}

    async def list_legal_actions(self, c: cmd.ListLegalActions) -> dict[str, Any]:
        game = await self.games.current(c.game_id)
        may_act = not game.finished and c.seat in game.engine.to_act(game.state)
        actions = game.engine.legal_actions(game.state, c.seat) if may_act else []
        return {"actions": actions, "version": game.version, "seat": c.seat}

    async def list_events(self, c: cmd.ListEvents) -> dict[str, Any]:
        meta = await self.games.meta(c.game_id)
        size = c.page_size or DEFAULT_PAGE_SIZE
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise InvalidArgument(f"pageSize must be between 1 and {MAX_PAGE_SIZE}")
        after = _decode_page_token(c.game_id, c.page_token) if c.page_token else 0
        engine = self.games.engine_of(meta)
        current = await self.games.version(c.game_id)
        if after > current:
            raise InvalidArgument("pageToken is not a token this game's ListEvents returned")
        events = await self.games.events(c.game_id, after, size)
        last = after + len(events)
        return {
            "events": [event_reply(c.game_id, after + i + 1, engine.event_view(e, c.seat))
                       for i, e in enumerate(events)],
            "nextPageToken": _encode_page_token(c.game_id, last) if events and last < current else "",
        }

    async def watch_game(self, c: cmd.WatchGame) -> AsyncIterator[dict[str, Any]]:
        """Redacted events after `after_version`, then live ones pushed by the store; ends
        after the last event of a finished game. Refusals are raised here, before streaming."""
        if c.after_version < 0:
            raise InvalidArgument("afterVersion must be a non-negative integer")
        game = await self.games.current(c.game_id)
        if c.after_version > game.version:
            raise InvalidArgument(
                f"afterVersion {c.after_version} is beyond the game's current version {game.version}")
        # The watcher keeps its own copy of the state to know when the game is over.
        mine = LoadedGame(game.id, game.meta, game.engine, game.version, copy.deepcopy(game.state))
        return self._watch(mine, c.seat, c.after_version)

    async def _watch(self, game: LoadedGame, seat: int | None, after: int) -> AsyncIterator[dict[str, Any]]:
        engine, known, finished = game.engine, game.version, game.finished
        if finished and after >= known:
            return
        metrics.WATCH_STREAMS.inc()
        try:
            async for item in self.games.watch(game.id, after):
                if isinstance(item, Reset):
                    # The store lost events this watcher was sent: the client is told to drop
                    # them (a `Reset` passes through as a control message) and the stream goes
                    # on with the new history after item.version.
                    metrics.WATCH_RESETS.inc()
                    yield item
                    known = item.version
                    game.state = (await self.games.at(game.id, known, game.meta)).state if known else None
                    finished = known > 0 and engine.outcome(game.state) is not None
                    continue
                version, event = item
                yield event_reply(game.id, version, engine.event_view(event, seat))
                if version > known:
                    game.state, known = engine.evolve(game.state, event), version
                    finished = engine.outcome(game.state) is not None
                if finished and version >= known:
                    return
            raise Unavailable("the event store ended the watch; watch again from the last version")
        finally:
            metrics.WATCH_STREAMS.dec()

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
                raise StaleVersion(f"stale version: the game is at version {game.version}, not {c.expected_version}")
            if "bot" in game.meta["seats"]:  # the bots' answers are played off the event loop
                return asyncio.to_thread(rules.play, game.engine, game.state, c.seat, c.action,
                                         game.meta["seats"], _rng())
            return rules.play(game.engine, game.state, c.seat, c.action, game.meta["seats"], _rng())

        meta = await self.games.meta(c.game_id)
        engine = self.games.engine_of(meta)
        with _count_action(engine.name):
            done = await self.games.update(c.game_id, decide, key=c.idempotency_key, meta=meta)
        if done.appended and done.game.finished:
            metrics.GAMES_FINISHED.labels(engine.name).inc()
        return {"game": game_reply(done.game, c.seat)}

    # --- helpers -------------------------------------------------------------------------
    @staticmethod
    def _engine(name: str) -> Engine:
        if not name:
            raise InvalidArgument('"engine" must name an engine (see GET /v1/engines)')
        try:
            return engines.get(name)
        except UnknownEngine as e:
            raise InvalidArgument(str(e)) from None

    @staticmethod
    def _seat_kinds(engine: Engine, players: int | None, seats: tuple[str, ...]) -> list[str]:
        if players is None:
            players = len(seats) or engine.min_seats
        if not engine.min_seats <= players <= engine.max_seats:
            raise InvalidArgument(f"{engine.title} takes {engine.min_seats}-{engine.max_seats} players, not {players}")
        kinds = list(seats) or ["human"] * players
        if len(kinds) != players or any(k not in SEAT_KINDS for k in kinds):
            raise InvalidArgument(f'"seats" must list {players} seat kinds, each one of {", ".join(SEAT_KINDS)}')
        return kinds


def _positive(name: str, value: int) -> int:
    if value < 1:
        raise InvalidArgument(f"{name} must be a positive integer")
    return value


def _encode_page_token(game_id: str, after: int) -> str:
    return base64.urlsafe_b64encode(f"{game_id}:{after}".encode()).decode().rstrip("=")


def _decode_page_token(game_id: str, token: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        gid, after = raw.rsplit(":", 1)
        if gid != game_id or not after.isdigit():
            raise ValueError
        return int(after)
    except (ValueError, UnicodeDecodeError):
        raise InvalidArgument("pageToken is not a token this game's ListEvents returned") from None
