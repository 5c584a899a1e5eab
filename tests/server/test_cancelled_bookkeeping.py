"""A call cancelled after its write was committed — by the REST deadline
(TABLERO_REQUEST_DEADLINE, server/http/deadline.py), a Connect-Timeout-Ms or a client gone — while
the bookkeeping after the commit waits on a store (the turn clock's, here frozen): the clock record
was left behind the game until the next write or a retry. The bookkeeping is finished in the
background (the repair a failed one gets), so a client that does not retry loses nothing either."""

from __future__ import annotations

import asyncio

from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.portal.clock import MemoryClocks
from tablero.server.store import SQLiteStore


class ClocksFrozenOnce(MemoryClocks):
    """The first clock write after `freeze()` hangs as one to a frozen Redis does (until cancelled)."""

    frozen = False

    def freeze(self) -> None:
        self.frozen = True

    async def put(self, game_id, record, next_due) -> None:
        if self.frozen:
            self.frozen = False
            await asyncio.Event().wait()
        await super().put(game_id, record, next_due)


async def test_the_bookkeeping_of_a_cancelled_call_is_finished_in_the_background():
    clocks = ClocksFrozenOnce()
    games = GameService(SQLiteStore(), TokenSigner("s"), clocks=clocks)
    try:
        created = await games.create_game(cmd.CreateGame(
            engine="tic-tac-toe", players=2, seats=["human", "human"], clock={"moveSeconds": 60, "onTimeout": "bot"}))
        gid = created["game"]["id"]
        assert (await clocks.get(gid)).version == created["game"]["version"]
        clocks.freeze()
        call = asyncio.create_task(games.submit_action(cmd.SubmitAction(
            gid, 0, {"type": "place", "cell": 4}, request_id="move-0123456789abcdef")))
        for _ in range(200):  # committed, and now waiting on the frozen clock store
            if not clocks.frozen:
                break
            await asyncio.sleep(0.01)
        assert not clocks.frozen
        call.cancel()  # the deadline
        await asyncio.gather(call, return_exceptions=True)
        version = (await games.get_game(cmd.GetGame(gid, None)))["game"]["version"]
        assert version == created["game"]["version"] + 1  # the move was committed
        for _ in range(100):
            if (await clocks.get(gid)).version == version:
                break
            await asyncio.sleep(0.05)
        record = await clocks.get(gid)
        assert record.version == version and set(record.since) == {1}, record
    finally:
        await games.close()
