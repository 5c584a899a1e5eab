"""Tickets asking for the same game match: an option given at its default value (the engine's
options schema) is the same game as the option left out, so `{"cards": 6}` meets `{}` in
Goofspiel; a different value still keeps them apart."""

from __future__ import annotations

import uuid

import pytest
from tablero.server.app import GameService
from tablero.server.auth import TokenSigner
from tablero.server.errors import InvalidArgument
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import MemoryLobby
from tablero.server.ratings.setup import attach
from tablero.server.store import open_store


def _user(name: str) -> User:
    return User(f"{name}-{uuid.uuid4().hex[:6]}")


async def test_an_option_at_its_default_matches_the_option_left_out():
    store = open_store(None, None)
    g = GameService(store, TokenSigner("s"), lobby=MemoryLobby())
    attach(g)
    mm = g.matchmaking
    try:
        users = [_user("a"), _user("b"), _user("c")]
        a = (await mm.create({"engine": "goofspiel", "options": {"cards": 6}}, users[0]))["ticket"]
        b = (await mm.create({"engine": "goofspiel"}, users[1]))["ticket"]
        c = (await mm.create({"engine": "goofspiel", "options": {"cards": 5}}, users[2]))["ticket"]
        assert await mm.round() == 1
        a, b, c = [(await mm.get(t["id"], u))["ticket"] for t, u in zip((a, b, c), users, strict=True)]
        assert a["status"] == b["status"] == "MATCH_TICKET_STATUS_MATCHED" and a["gameId"] == b["gameId"]
        assert c["status"] == "MATCH_TICKET_STATUS_WAITING"
    finally:
        await store.close()


async def test_bots_after_the_ticket_expires_is_refused_with_the_reason():
    store = open_store(None, None)
    g = GameService(store, TokenSigner("s"), lobby=MemoryLobby())
    attach(g)
    try:
        for body in ({"botsAfterSeconds": 200}, {"botsAfterSeconds": 10, "timeoutSeconds": 5}):
            with pytest.raises(InvalidArgument, match="botsAfterSeconds .* timeoutSeconds"):
                await g.matchmaking.create({"engine": "tic-tac-toe", **body}, _user("late"))
        t = (await g.matchmaking.create({"engine": "tic-tac-toe", "botsAfterSeconds": 5, "timeoutSeconds": 6},
                                        _user("ok")))["ticket"]
        assert t["botsAfterSeconds"] == 5
    finally:
        await store.close()
