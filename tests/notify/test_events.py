"""The notification events derived from a game's metadata are the same whenever they are derived
(docs/webhooks.md: "the same log always gives the same events with the same ids")."""

from __future__ import annotations

from tablero.server.notify.events import derive_meta

META = {"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]}
ALICE, BOB = {"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}


def _kind(events, kind):
    """The events of `kind`, without their timestamps (when each was derived)."""
    return [{k: v for k, v in e.items() if k != "timestamp"} for e in events if e["type"] == kind]


def test_game_created_is_the_game_as_created_even_when_derived_after_a_join():
    """An outside pass found game.created naming bob on the open seat when it was derived after
    bob's join, and nobody when derived before: the seat's joiner is seat.joined's to tell."""
    _, before = derive_meta("g1", META, None, [], [ALICE, None], 0)
    _, after = derive_meta("g1", META, None, [1], [ALICE, BOB], 0)
    created = _kind(before, "game.created")
    assert created and _kind(after, "game.created") == created
    assert created[0]["data"]["seats"] == [{"seat": 0, "kind": "human", "userId": "alice"},
                                           {"seat": 1, "kind": "open", "userId": None}]
    assert [e["data"] for e in _kind(after, "seat.joined")] == [{"gameId": "g1", "version": 0, "seat": 1, "userId": "bob"}]


async def test_a_join_read_late_is_derived_before_the_moves_after_it() -> None:
    """An outside pass saw webhooks say it was the joiner's turn before saying the seat was
    joined or the game started: the deriver read the game's metadata (no join yet), then the
    joiner joined and moved, then it read the log with those moves. Joins are now read after the
    log, so every move read finds its seat's join derived first. In process: the metadata read
    that starts a derivation is made stale by a join and two moves right after it."""
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.notify.queue import SQLiteQueue
    from tablero.server.notify.worker import Notifier
    from tablero.server.store import open_store

    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    try:
        gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", seats=("human", "open"))))["game"]["id"]
        notifier = Notifier(SQLiteQueue(None), service, inbox=False)
        meta, raced = service.games.meta, []

        async def stale_meta(game_id: str, *args, **kw):
            m = await meta(game_id, *args, **kw)
            if game_id == gid and not raced:  # the join and the moves land right after this read
                raced.append(True)
                await service.join_game(cmd.JoinGame(gid))
                for seat, cell in ((0, 4), (1, 0)):
                    await service.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
            return m

        service.games.meta = stale_meta  # type: ignore[method-assign]
        _, evs = await notifier._derive(gid, None)
        kinds = [(e["type"], tuple(e["data"].get("newly", ()))) for e in evs]
        joined = kinds.index(("seat.joined", ()))
        assert joined < kinds.index(("game.started", ())) < kinds.index(("turn.started", (1,))), kinds
    finally:
        await store.close()
