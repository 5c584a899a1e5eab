"""The notification events and the in-app list: what is derived is the same whenever it is derived
(docs/webhooks.md: "the same log always gives the same events with the same ids"), in the order a
portal reads it; the list drops turns that ended and pages without skipping."""

from __future__ import annotations

import pytest
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


async def test_a_join_derived_between_its_claim_and_its_mark_names_its_user() -> None:
    """Noticed in an outside pass: a join claims its seat in the store, then marks it with its
    portal user in the lobby; a derivation between the two (another event of the game woke the
    deriver) said seat.joined with userId null. The deriver now waits for the mark."""
    import asyncio

    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.notify.queue import SQLiteQueue
    from tablero.server.notify.worker import Notifier
    from tablero.server.portal.identity import User
    from tablero.server.store import open_store

    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    try:
        gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", seats=("human", "open"))))["game"]["id"]
        notifier = Notifier(SQLiteQueue(None), service, inbox=False)
        mark, derived = service.lobby.mark, []

        async def late_mark(game_id: str, **kw):
            if kw.get("seat") is not None:  # the claim is in the store: a derivation starts now
                derived.append(asyncio.ensure_future(notifier._derive(game_id, None)))
                await asyncio.sleep(0.05)
            await mark(game_id, **kw)

        service.lobby.mark = late_mark  # type: ignore[method-assign]
        await service.join_game(cmd.JoinGame(gid, user=User("bob", "Bob")))
        _, evs = await derived[0]
        assert [e["data"]["userId"] for e in evs if e["type"] == "seat.joined"] == ["bob"], evs
    finally:
        await store.close()


async def test_a_join_whose_mark_never_comes_is_waited_for_once() -> None:
    """A join whose replica died between its claim and its lobby mark: the first derivation
    waits MARK_WAIT for the mark, then says the seat was joined by nobody; later derivations of
    the game do not wait again (each would otherwise hold the deriver for MARK_WAIT)."""
    import time

    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.notify import worker
    from tablero.server.notify.queue import SQLiteQueue
    from tablero.server.notify.worker import Notifier
    from tablero.server.store import open_store

    store = open_store(None, None)
    service = GameService(store, TokenSigner("test-secret"))
    try:
        gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", seats=("human", "open"))))["game"]["id"]
        assert await service.games.claim_seat(gid, [1], "claim-without-mark") == 1  # and no lobby mark
        service.games.forget_meta(gid)
        notifier = Notifier(SQLiteQueue(None), service, inbox=False)
        started = time.monotonic()
        _, evs = await notifier._derive(gid, None)
        first = time.monotonic() - started
        assert [e["data"]["userId"] for e in evs if e["type"] == "seat.joined"] == [None]
        started = time.monotonic()
        await notifier._derive(gid, None)
        assert first >= worker.MARK_WAIT and time.monotonic() - started < worker.MARK_WAIT / 2
    finally:
        await store.close()


async def test_a_turn_item_goes_when_its_seat_is_no_longer_to_act_though_no_turn_starts() -> None:
    """An outside pass kept a "turn" item (and pendingTurns 1) after its user had bid in a game
    of simultaneous moves (the others still to bid: no turn.started follows) and after resigning.
    A seat that stops being to act is derived as turn.ended, for the list only (no endpoint can
    ask for it), and its user's "turn" item goes."""
    from tablero.server.notify.events import KINDS, TURN_ENDED, Cursor, derive_step
    from tablero.server.notify.inbox import Inbox
    from tablero.server.notify.queue import SQLiteQueue

    users = [{"id": "sb1"}, {"id": "sb2"}, {"id": "sb3"}]
    cur = Cursor(version=0, started=True, claimed=[])
    first = derive_step("g", 1, {"type": "round_started"}, [0, 1, 2], False, None, cur, users, {})
    bid = derive_step("g", 2, {"type": "bid"}, [1, 2], False, None, cur, users, {})
    assert [e["type"] for e in first] == ["turn.started"] and [e["type"] for e in bid] == [TURN_ENDED]
    assert bid[0]["data"]["seats"] == [0] and TURN_ENDED not in KINDS
    inbox = Inbox(SQLiteQueue(None))
    for seat, user in enumerate(("sb1", "sb2", "sb3")):
        await inbox.record(user, seat, first[0])
        await inbox.record(user, seat, bid[0])
    mine, theirs = await inbox.list("sb1"), await inbox.list("sb2")
    assert (mine["notifications"], mine["pendingTurns"]) == ([], 0)
    assert [n["kind"] for n in theirs["notifications"]] == ["turn"] and theirs["pendingTurns"] == 1


async def test_paging_the_list_skips_nothing_when_an_item_goes_meanwhile() -> None:
    """An outside pass walked its list two by two and moved in the first game meanwhile: the
    offset token then skipped a pending turn. Pages now start after the last item seen."""
    from tablero.server.notify.events import event
    from tablero.server.notify.inbox import Inbox
    from tablero.server.notify.queue import SQLiteQueue

    inbox = Inbox(SQLiteQueue(None))
    games = ["H", "o", "n", "p"]
    for i, g in enumerate(games):
        ev = event(g, 1, "turn.started", {"seats": [{"seat": 0, "userId": "nn"}], "newly": [0]}, now=100.0 - i)
        await inbox.record("nn", 0, ev)
    first = await inbox.list("nn", 2)
    assert [n["gameId"] for n in first["notifications"]] == ["H", "o"] and first["nextPageToken"]
    moved = event("H", 2, "turn.started", {"seats": [{"seat": 1, "userId": "x"}], "newly": [1]}, now=101.0)
    await inbox.record("nn", 0, moved)  # nn moved in H: H's turn item goes
    second = await inbox.list("nn", 2, first["nextPageToken"])
    assert [n["gameId"] for n in second["notifications"]] == ["n", "p"] and second["nextPageToken"] == ""
    with pytest.raises(ValueError):
        await inbox.list("nn", 2, "bm90IGEgdG9rZW4=")


def test_a_seat_taken_while_it_was_to_act_starts_its_turn_for_its_player():
    """The verifying pass created a game whose open seat moves first, and joined it a while later:
    the seat's turn.started had gone out naming nobody before the join, and none named the joiner
    after it (no turn item either). A join into a seat already to act starts its turn again, for
    its new player, after seat.joined and game.started."""
    from tablero.server.notify.events import Cursor, derive_step

    meta = {"engine": "tic-tac-toe", "players": 2, "seats": ["open", "human"]}
    cur, first = derive_meta("g", meta, None, [], [None, {"id": "ann"}], 1)
    first += derive_step("g", 1, {"type": "game_started"}, [0], False, None, cur, [None, {"id": "ann"}], {})
    assert [e["type"] for e in first][-1] == "turn.started" and first[-1]["data"]["seats"] == [{"seat": 0, "userId": None}]
    cur, later = derive_meta("g", meta, Cursor.from_json(cur.to_json()), [0], [{"id": "bob"}, {"id": "ann"}], 1)
    assert [e["type"] for e in later] == ["seat.joined", "game.started", "turn.started"]
    assert later[-1]["data"]["seats"] == [{"seat": 0, "userId": "bob"}] and later[-1]["data"]["newly"] == [0]
    assert later[-1]["id"] != first[-1]["id"]
    # With a clock, the start's own turn.started (with deadlines) says it instead.
    clocked = {**meta, "clock": {"moveSeconds": 60}}
    ccur, _ = derive_meta("g", clocked, None, [], [None, {"id": "ann"}], 1)
    derive_step("g", 1, {"type": "game_started"}, [0], False, None, ccur, [None, {"id": "ann"}], {})
    _, with_clock = derive_meta("g", clocked, ccur, [0], [{"id": "bob"}, {"id": "ann"}], 1)
    assert [e["type"] for e in with_clock] == ["seat.joined", "game.started"]
