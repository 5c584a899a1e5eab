"""The watch asks the repository for what it needs of the store (GameRepository.head,
.events, .trims), so a store failure there is answered like every other store call's:
UNAVAILABLE, not an internal error."""

from __future__ import annotations

import pytest
from tablero.server.app import GameService, Unavailable
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.store.base import StoreError
from tablero.server.store.sqlite import SQLiteStore


class _HeadDown(SQLiteStore):
    """A store whose head cannot be read (the connection to it was lost)."""

    async def head(self, game_id: str):  # type: ignore[override]
        raise StoreError("connection lost")


async def _finished_game(games: GameService) -> tuple[str, int, str]:
    created = await games.create_game(cmd.CreateGame(engine="tic-tac-toe", players=2))
    gid = created["game"]["id"]
    for seat, cell in ((0, 0), (1, 3), (0, 1), (1, 4), (0, 2)):
        await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
    entries = await games.games.events(gid, 0, 100)
    return gid, entries[-1].version, games.public_hash(entries[-1].hash)  # the hash a client is shown


async def test_a_watch_resuming_at_the_end_of_a_finished_game_checks_its_hash_with_the_store() -> None:
    store = SQLiteStore()
    games = GameService(store, TokenSigner("s"))
    try:
        gid, last, hash_ = await _finished_game(games)
        stream = await games.watch_game(cmd.WatchGame(gid, None, after_version=last, after_hash=hash_))
        assert [item async for item in stream] == []  # nothing follows: the client has it all
        stream = await games.watch_game(cmd.WatchGame(gid, None, after_version=last, after_hash="0" * 16))
        assert type(await anext(stream)).__name__ == "Reset"  # another history: start again
    finally:
        await games.close()
        await store.close()


async def test_a_store_that_cannot_answer_the_head_is_unavailable_to_the_watch() -> None:
    store = _HeadDown()
    games = GameService(store, TokenSigner("s"))
    try:
        gid, last, hash_ = await _finished_game(games)
        with pytest.raises(Unavailable):
            await games.watch_game(cmd.WatchGame(gid, None, after_version=last, after_hash=hash_))
    finally:
        await games.close()
        await store.close()
