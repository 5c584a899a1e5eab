"""What follows every accepted write (a request's, a timeout's, a bot worker's): the
finished-games count, the notifications' signal, the lobby's status, the rating of a game
that ended, and the turn clock's record and schedule. The write is committed before it, so
a failure here does not fail the write: it is logged and tried again in the background (and
by a retry of the same request, which does it again: it is idempotent)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from tablero.server import metrics
from tablero.server.portal.clock import ClockRecord

from .clocks import clockless, next_due
from .decisions import waiting
from .repository import LoadedGame

log = logging.getLogger("tablero.app")


class Bookkeeping:
    """`lobby`: the lobby (its entries' status and bot seats); `clocks`: the clock records;
    `abandon_after` as TurnClocks'. `notify` and `ratings` are set by the server when it
    sends notifications (server/notify) and rates games (server/ratings)."""

    ENDING_GRACE = 2.0  # seconds a stopping server waits for the bookkeeping of ended games
    REPAIR_DELAYS = (0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 60, 60, 60, 60)  # about 6 minutes in all

    def __init__(self, lobby: Any, clocks: Any, abandon_after: float) -> None:
        self.lobby = lobby
        self.clocks = clocks
        self.abandon_after = abandon_after
        self.notify: Callable[[str], Awaitable[None]] | None = None
        self.ratings: Any = None  # server.ratings.service.Ratings
        # Bookkeeping after a commit that failed (the lobby's or the clocks' store went away
        # right after the append), tried again in the background: game id -> its task.
        self.repairs: dict[str, asyncio.Task[None]] = {}
        # The bookkeeping of games that just ended, run after their reply (written).
        self.ending: set[asyncio.Task[None]] = set()
        self.closed = False

    async def written(self, game: LoadedGame, acted: Collection[int] = ()) -> None:
        """After every accepted write: the finished-games count, the lobby's status, and the
        clock record and schedule. `acted`: the seats the write acted for (their clocks start
        again when they must act again, though the bots' answers in the same write leave them
        waiting)."""
        if game.finished:
            metrics.GAMES_FINISHED.labels(game.engine.name).inc()
            if self.notify is not None:  # before the reply (the bookkeeping below comes after it)
                with contextlib.suppress(Exception):  # else that bookkeeping's retries signal it
                    await self.notify(game.id)
            # The game is over: no deadline is shown any more, so its lobby status (and its
            # clock's removal) need not hold up the reply — one store round trip fewer on the
            # last move of every game. They are sent right after it; a retry of the request
            # records them again, and a failure is repaired as below.
            task = asyncio.get_running_loop().create_task(self.record(game, acted), name=f"tablero-ended-{game.id}")
            self.ending.add(task)
            task.add_done_callback(self.ending.discard)
            return
        if not self.nothing_to_record(game, acted):
            await self.record(game, acted)

    def nothing_to_record(self, game: LoadedGame, acted: Collection[int] = ()) -> bool:
        """Whether `written` has nothing to do for this write (most moves of most games): the
        caller need not make its coroutine."""
        return not game.finished and self.notify is None and game.meta.get("clock") is None \
            and not self.abandon_after and not any(s in game.table.bots for s in acted)

    async def record(self, game: LoadedGame, acted: Collection[int] = ()) -> None:
        """The lobby's status and the clock of `game` as it stands (also for a retried request:
        its first attempt may have been answered with an error after the commit, before the
        lobby and the clock were told, or by a replica that died then). Idempotent; a failure
        is logged and tried again in the background."""
        try:
            await self._record(game, acted)
        except asyncio.CancelledError:
            # The request's deadline (TABLERO_REQUEST_DEADLINE) or a client's cancelled the call
            # after its commit: the bookkeeping is finished in the background all the same.
            self._repair(game, acted)
            raise
        except Exception as e:  # noqa: BLE001 - the lobby's or the clocks' store, whatever failed
            log.warning("game %s v%d committed, but its lobby status or clock was not recorded (%s: %s); "
                        "trying again in the background", game.id, game.version, type(e).__name__, e)
            self._repair(game, acted)

    async def _record(self, game: LoadedGame, acted: Collection[int] = ()) -> None:
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
        record = old.advance(game.version, waiting(game), time.time(), acted)
        await self.clocks.put(game.id, record, next_due(record, clock, self.abandon_after, clockless(game.meta)))

    def _repair(self, game: LoadedGame, acted: Collection[int]) -> None:
        if self.closed:
            return
        old = self.repairs.pop(game.id, None)
        if old is not None:
            old.cancel()  # the newer state supersedes it
        task = asyncio.get_running_loop().create_task(self._repairing(game, acted), name=f"tablero-repair-{game.id}")
        self.repairs[game.id] = task
        task.add_done_callback(lambda t, g=game.id: self.repairs.pop(g, None) if self.repairs.get(g) is t else None)

    async def _repairing(self, game: LoadedGame, acted: Collection[int]) -> None:
        for delay in self.REPAIR_DELAYS:
            await asyncio.sleep(delay)
            try:
                await self._record(game, acted)
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
        if self.ending:
            await asyncio.wait(list(self.ending), timeout=self.ENDING_GRACE)
        self.closed = True
        for task in list(self.repairs.values()):
            task.cancel()
        await asyncio.gather(*self.repairs.values(), return_exceptions=True)
        self.repairs.clear()
