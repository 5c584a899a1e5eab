"""Turn clocks: each seat's deadline, the timeouts any replica applies when one passes, and
started games abandoned when nobody acts for TABLERO_ABANDON_AFTER seconds.

A game's clock record (server/portal/clock.py: since when each waiting seat waits) and its
schedule (when the game may next need the sweeper) live in the store beside the lobby; the
bookkeeping after every write records them (server/app/bookkeeping.py), `TurnClocks` reads
them for the replies and applies what is due.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from tablero.server.errors import Aborted, AppError, FailedPrecondition, NotFound, StaleVersion
from tablero.server.portal.clock import ClockRecord

from .decisions import leave, timed_out_turns, unclaimed, waiting
from .replies import rfc3339
from .repository import Decision, GameRepository, LoadedGame

log = logging.getLogger("tablero.app")


def clockless(meta: dict[str, Any]) -> set[int]:
    """Seats whose turn clock does not run: every seat while an open seat is still to be taken
    (the game waits for its players; a creator who moves first must not time out before anyone
    could join). The clocks start when the last open seat is taken (TurnClocks.joined)."""
    return set(range(len(meta["seats"]))) if unclaimed(meta) else set()


def next_due(record: ClockRecord, clock: dict[str, Any] | None, abandon_after: float,
             no_clock: Collection[int] = ()) -> float | None:
    """When the game may next need the sweeper: a deadline (of a seat whose clock runs, not
    one of `no_clock`), or being abandoned — a started game only: while it waits for its
    players (`no_clock` holds every seat: clockless) nobody has a turn to abandon yet."""
    due = [] if clock is None else [record.next_due(clock["moveSeconds"], no_clock)]
    if abandon_after and record.since and not no_clock:
        due.append(max(record.since.values()) + abandon_after)
    due = [d for d in due if d is not None]
    return min(due) if due else None


class TurnClocks:
    """`clocks`: the clock records and schedule (server.portal.clock); `abandon_after`:
    seconds without an action after which a game ends as abandoned (0: never); `written`:
    what follows a timeout's write (the bookkeeping), with the seats that timed out."""

    def __init__(self, games: GameRepository, clocks: Any, abandon_after: float,
                 written: Callable[[LoadedGame, Collection[int]], Awaitable[None]]) -> None:
        self.games = games
        self.clocks = clocks
        self.abandon_after = abandon_after
        self.written = written

    async def deadlines(self, game: LoadedGame) -> list[dict[str, Any]]:
        """The deadlines a reply shows: each waiting seat's whose clock runs."""
        clock = game.meta.get("clock")
        if clock is None or game.finished:
            return []
        record = await self.clocks.get(game.id) or ClockRecord(0)
        if record.version != game.version:  # its writer has not recorded it yet (or died)
            record = record.advance(game.version, waiting(game), time.time())
        deadlines = record.deadlines(clock["moveSeconds"], clockless(game.meta))
        return [{"seat": s, "deadline": d, "deadlineTime": rfc3339(d)} for s, d in sorted(deadlines.items())]

    async def joined(self, game_id: str, seat: int) -> None:
        """`seat` was taken. No turn clock runs while an open seat is still to be taken (the
        game waits for its players): when the last one is taken, the clock of every seat that
        must act starts now. Before that, the seat's wait counts only for abandonment."""
        meta = await self.games.meta(game_id, exact=True)
        game = await self.games.current(game_id, meta)
        if game.finished:
            return
        to_act = waiting(game)
        full = not unclaimed(meta)
        old = await self.clocks.get(game_id) or ClockRecord(game.version)
        if full and old.full:
            return  # a retried join (its first answer lost): the clocks run since the first one
        started = to_act if full else to_act & {seat}
        if not started and not full:
            return
        now = time.time()
        record = old.advance(game.version, to_act, now)
        record = ClockRecord(record.version, {**record.since, **dict.fromkeys(started, now)}, full)
        await self.clocks.put(game_id, record, next_due(record, meta.get("clock"), self.abandon_after,
                                                        clockless(meta)))

    async def sweep(self, now: float | None = None, limit: int = 100) -> int:
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
        no_clock = clockless(meta)
        record = await self.clocks.get(game_id) or ClockRecord(0)
        if record.version != game.version:
            record = record.advance(game.version, waiting(game), now)
            await self.clocks.put(game_id, record, next_due(record, clock, self.abandon_after, no_clock))
        to_act = waiting(game)
        # (A game still waiting for its players is not abandoned: it has not started. It stays
        # listed until it fills, its creator resigns, or TABLERO_ABANDONED_TTL removes it.)
        abandoned = bool(self.abandon_after and record.since and to_act and not no_clock
                         and max(record.since.values()) + self.abandon_after <= now)
        due = [] if clock is None else [s for s in record.due(clock["moveSeconds"], now, no_clock) if s in to_act]
        if not due and not abandoned:
            await self.clocks.put(game_id, record, next_due(record, clock, self.abandon_after, no_clock))
            return 0
        seat = min(to_act) if abandoned else due[0]
        then = "abandoned" if abandoned else clock["onTimeout"]
        key = f"abandoned:{game.version}" if abandoned else f"timeout:{game.version}:{seat}"
        try:
            done = await self.games.update(game_id, _timeout(game.version, seat, due, then), key=key, meta=meta)
        except (StaleVersion, FailedPrecondition, Aborted):
            return 0  # someone moved meanwhile (a player, or another replica's timeout)
        if done.appended:
            # The seats that timed out had their turn taken (a bot played it): a new turn of
            # theirs gets a new deadline.
            await self.written(done.game, due or [seat])
        return 1 if done.appended else 0


def _timeout(version: int, seat: int, due: list[int], then: str) -> Callable[[LoadedGame], Decision]:
    """The decision of a timeout found at `version`: `seat` abandons the game, or every seat
    of `due` forfeits or has its turn taken (`then`, the clock's onTimeout)."""

    def decide(g: LoadedGame) -> Decision:
        if g.version != version:
            raise StaleVersion(f"the game moved on from version {version}")
        if seat not in waiting(g):
            raise FailedPrecondition(f"seat {seat} no longer has to act")
        if then == "abandoned":
            return leave(g, [seat], "abandoned", "forfeit")  # ends the game for everyone
        if then == "forfeit":
            # Every seat whose deadline has passed forfeits at once: seats that missed
            # the same deadline are treated alike (none wins for having been swept last).
            return leave(g, due, "timeout", "forfeit")
        # Every seat past its deadline has its turn taken at once (simultaneous moves:
        # each late seat keeps its own deadline; none waits for another's timeout).
        return timed_out_turns(g, due)

    return decide
