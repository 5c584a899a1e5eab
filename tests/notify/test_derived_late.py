"""The same log gives the same notification events however late it is derived (docs/webhooks.md:
"the same log always gives the same events with the same ids").

An outside pass: a portal user moved, and their opponent, whose turn it now was, resigned a moment
later. Derived write by write (the deriver kept up), the log gave the opponent's turn.started
(evt_<game>_5_turn_started) and then seat.left and game.finished; derived after the resignation
(the deriver's child process at nice +10 behind a busy loop, a backlog, the sweep) the
turn.started was missing, because an entry that the game's end followed was taken for the
winning move's own write. A platform event (a resignation, a timeout, an abandonment) is always
a write of its own, so the turn before it did start."""

from __future__ import annotations

import json

import pytest


async def _derived(notifier, gid: str, raw: str | None) -> tuple[str, list[str]]:
    cur, evs = await notifier._derive(gid, raw)
    return json.dumps(cur.to_json()), [e["id"] for e in evs]


@pytest.mark.parametrize("leave", ["resign", "resign_at_once"])
async def test_a_turn_the_next_write_ends_is_derived_alike_early_or_late(leave: str) -> None:
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.notify.queue import SQLiteQueue
    from tablero.server.notify.worker import Notifier
    from tablero.server.store import open_store

    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    try:
        gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", seats=("human", "human"))))["game"]["id"]
        notifier = Notifier(SQLiteQueue(None), service, inbox=False)
        raw, early = await _derived(notifier, gid, None)
        for seat, cell in ((0, 4), (1, 0), (0, 2), (1, 1)):  # seat 0 is to act at version 5
            await service.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
            if leave == "resign":
                raw, more = await _derived(notifier, gid, raw)
                early += more
        if leave == "resign_at_once":  # (the deriver had not seen the last move yet)
            raw, more = await _derived(notifier, gid, raw)
            early += more
        await service.resign(cmd.Resign(gid, 0))  # the seat whose turn it was leaves: the game ends
        _, more = await _derived(notifier, gid, raw)
        early += more
        _, late = await _derived(notifier, gid, None)  # the whole log at once
        assert f"evt_{gid}_5_turn_started" in early
        assert sorted(late) == sorted(early)
    finally:
        await store.close()
