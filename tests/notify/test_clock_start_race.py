"""A turn clock that starts with the game (its last open seat taken) while the deriver reads the
game: one turn gives one turn.started, with its deadline (docs/webhooks.md, Deadlines)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.notify.queue import SQLiteQueue
from tablero.server.notify.worker import Notifier
from tablero.server.portal.identity import User
from tablero.server.store import open_store


@contextlib.asynccontextmanager
async def _clocked_game_with_an_open_seat() -> AsyncIterator[tuple[GameService, str, Notifier]]:
    """Ann's clocked tic-tac-toe game with Bob's seat open, and a notifier of it."""
    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    try:
        made = await service.create_game(cmd.CreateGame("tic-tac-toe", seats=("human", "open"),
                                                        clock={"moveSeconds": 3600, "onTimeout": "bot"}))
        yield service, made["game"]["id"], Notifier(SQLiteQueue(None), service, inbox=False)
    finally:
        await store.close()


async def _derive(notifier: Notifier, game_id: str, sent: list[dict[str, Any]]) -> None:
    """What Notifier.derive does for a signal (from the game's cursor on; the cursor moved), with
    the events derived kept in `sent`."""
    raw = await notifier.q.cursor(game_id)
    cur, evs = await notifier._derive(game_id, raw)
    assert await notifier.q.commit(game_id, raw, json.dumps(cur.to_json()), [], None)
    sent.extend(evs)


async def test_a_join_during_a_derivation_gives_its_turn_one_turn_started_with_the_deadline() -> None:
    """Found by an outside pass (once in ~30 games, the first game after a start): Ann moved,
    so it was the open seat's turn; the deriver read the game's metadata (seat open), then Bob
    joined (the clock started), then the deriver read the metadata again for the joins. It named
    Bob in the move's turn.started but took the deadlines from the game as first read (every
    seat clockless while one is open): no deadline though the clock ran; the join's own
    derivation then sent a second turn.started for the same turn (`_clock`). The join here lands
    right after that first read, every time."""
    async with _clocked_game_with_an_open_seat() as (service, gid, notifier):
        sent: list[dict[str, Any]] = []
        await _derive(notifier, gid, sent)  # the creation: Ann's turn, no clock yet (a seat is open)
        await service.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}))  # Bob's seat to act
        meta, raced = service.games.meta, []

        async def join_after_read(game_id: str, *args: Any, **kw: Any) -> dict[str, Any]:
            m = await meta(game_id, *args, **kw)
            if game_id == gid and not raced:  # Bob's join (claim, mark, clock) lands right after this read
                raced.append(True)
                await service.join_game(cmd.JoinGame(gid, user=User("bob", "Bob")))
            return m

        service.games.meta = join_after_read  # type: ignore[method-assign]
        await _derive(notifier, gid, sent)  # the move's signal
        service.games.meta = meta  # type: ignore[method-assign]
        assert raced
        await _derive(notifier, gid, sent)  # the join's own signal
        head = await service.games.current(gid)
        [due] = await service.turn_clocks.deadlines(head)
        turns = [e for e in sent if e["type"] == "turn.started" and e["version"] == head.version]
        assert [t["id"] for t in turns] == [f"evt_{gid}_{head.version}_turn_started"], turns
        assert turns[0]["data"]["seats"] == [{"seat": 1, "userId": "bob", "deadline": due["deadline"]}]
        assert turns[0]["data"]["newly"] == [1]
        assert [e["type"] for e in sent].count("game.started") == 1


async def test_a_derivation_right_after_the_joins_mark_gives_the_clocks_deadline() -> None:
    """The same start read at another moment: Bob joins a while after Ann's move, and a
    derivation (another signal, the sweep) runs right after his seat is marked in the lobby
    (which the deriver waits for). The game's start gives the turn's deadline (`_clock`): the
    clock's, which starts at the join, not the turn's first wait plus moveSeconds (as when the
    seat was marked before the clock started)."""
    import asyncio

    async with _clocked_game_with_an_open_seat() as (service, gid, notifier):
        sent: list[dict[str, Any]] = []
        await service.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}))
        await _derive(notifier, gid, sent)  # Bob's seat's turn, nobody's yet: no clock
        await asyncio.sleep(0.3)
        mark = service.lobby.mark

        async def derive_after_mark(game_id: str, **kw: Any) -> None:
            await mark(game_id, **kw)
            if kw.get("seat") is not None:
                await _derive(notifier, game_id, sent)

        service.lobby.mark = derive_after_mark  # type: ignore[method-assign]
        await service.join_game(cmd.JoinGame(gid, user=User("bob", "Bob")))
        await _derive(notifier, gid, sent)  # the join's own signal
        head = await service.games.current(gid)
        [due] = await service.turn_clocks.deadlines(head)
        [clocked] = [e for e in sent if e["id"].endswith("_clock")]
        assert clocked["data"]["seats"] == [{"seat": 1, "userId": "bob", "deadline": due["deadline"]}], (clocked, due)
