"""The bot worker: plays the bot seats' turns off the request path.

A request plays at most `rules.INLINE_BOT_STEPS` bot turns (on a worker thread, so the
event loop keeps serving other games); whatever bot turns remain are queued here. One
worker task per process takes a game, plays at most `steps_per_write` turns on a thread
and commits them through the ordinary compare-and-set write (`GameRepository.update`),
so whichever replica gets there first plays them, exactly once: the others' appends
conflict and find no bot turn left. Any replica that loads a game waiting for its bots
queues it too (e.g. after the replica that started it died).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable

from tablero.engines.core import clone
from tablero.server import metrics
from tablero.server.errors import AppError

from . import rules
from .repository import Decision, GameRepository, LoadedGame

log = logging.getLogger("tablero.bots")


class NoBotTurn(AppError):
    code = "FAILED_PRECONDITION"


class BotWorker:
    def __init__(self, games: GameRepository, *, steps_per_write: int = 32,
                 written: Callable[[LoadedGame], Awaitable[None]] | None = None) -> None:
        self.games = games
        self.written = written  # what follows every accepted write (lobby status, clocks, metrics)
        self.steps_per_write = steps_per_write
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        # Where a thinking bot's turn (medium, hard) goes: the durable bot queue
        # (server/app/thinkers.py), offered by game id and whether the game is bot-only (its
        # lane: rules.bot_only). None: nobody thinks (tests).
        self.offer: Callable[[str, bool], None] | None = None
        self._pending: set[str] = set()
        self._task: asyncio.Task | None = None
        self.idle = asyncio.Event()
        self.idle.set()

    def notice(self, game: LoadedGame) -> None:
        """Called after every commit and load: queue the game when a bot must act."""
        kinds = game.kinds
        if "bot" not in kinds or game.id in self._pending or game.finished:
            return
        seat = rules.next_bot(game.engine, game.state, kinds)
        if seat is None:
            return
        if rules.level_of(game.levels, seat) != rules.DEFAULT_LEVEL:
            if self.offer is not None:
                self.offer(game.id, rules.bot_only(game.meta))
            return
        self._pending.add(game.id)
        metrics.BOT_BACKLOG.inc()
        self.idle.clear()
        self._queue.put_nowait(game.id)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            game_id = await self._queue.get()
            # Out of pending before playing: the commit's notice queues the next chunk.
            self._pending.discard(game_id)
            metrics.BOT_BACKLOG.dec()
            try:
                await self._play(game_id)
            except NoBotTurn:
                pass
            except AppError as e:  # the store is away, the game is gone: a later load queues it again
                log.warning("bot turn failed", extra={"fields": {"game": game_id, "error": e.message}})
            except Exception:
                log.exception("bot turn failed", extra={"fields": {"game": game_id}})
            finally:
                if not self._pending:
                    self.idle.set()

    async def _play(self, game_id: str) -> None:
        rng = random.Random(secrets.randbits(64))
        played = decided = 0

        def decide(game: LoadedGame):
            nonlocal decided
            decided += 1
            if decided > 1:
                # The game moved under us (our append met a newer version): another replica's
                # bot worker, or a player, wrote it. Whoever commits queues the game on its own
                # replica (on_commit), so it goes on there; playing the same turns here too would
                # only lose the race again (both workers' bots playing one game wasted ~40 %).
                raise NoBotTurn("another writer is advancing this game")
            kinds = game.kinds
            if game.finished or not rules.bots_to_act(game.engine, game.state, kinds):
                raise NoBotTurn("no bot turn")

            def turns() -> Decision:
                nonlocal played
                # On a copy: playing evolves the state it is given, here on a thread, while
                # readers (a GET, a new watch) may take the cached state at its cached version.
                state, events = rules.play_bots(game.engine, clone(game.state), kinds, rng, self.steps_per_write,
                                                game.levels)
                played = len(events)  # the last decision is the one appended
                return Decision(events, state)

            return asyncio.to_thread(turns)

        done = await self.games.update(game_id, decide)
        if done.appended:  # turns that lost to another replica's write are not counted
            metrics.BOT_STEPS.labels(done.game.engine.name).inc(played)
            if self.written is not None:
                await self.written(done.game)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
