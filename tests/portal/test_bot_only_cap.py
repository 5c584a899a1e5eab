"""A game of bots only counts against its creator's open-games cap (outside acceptance pass: with
TABLERO_MAX_OPEN_GAMES_PER_USER=2 a third ["me", "bot:hard"] game was refused, but four
["bot:hard", "bot:hard"] games were accepted, each one taking the thinking bots' workers from
everyone else's games). Anonymous creation stays governed by the create rate limit."""

from __future__ import annotations

import json
import time

import jwt
import pytest
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.errors import OverQuota
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import RedisLobby, SQLiteLobby
from tablero.server.store import SQLiteStore
from tablero.server.store.redis import RedisStore

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "k1-" + "z" * 40
ROBOTS = {"engine": "new-bedford", "seats": ["bot:hard", "bot:hard", "bot:hard", "bot:hard"]}


def who(user: str) -> dict[str, str]:
    t = jwt.encode({"sub": user, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})
    return {"Authorization": f"Bearer {t}"}


def _create(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    r = plainhttp.post(f"{url}/v1/games", json=body, headers=headers or {}, timeout=10)
    return r.status_code, r.json()


def test_a_bot_only_game_counts_against_its_creators_open_games_cap():
    # No bot process: nobody thinks, so the hard bots' games stay running.
    with ServerThread(portal_keys=json.dumps({"k1": KEY}), max_open_games_per_user=2, bot_processes=0) as s:
        for _ in range(2):
            status, made = _create(s.http, ROBOTS, who("rob"))
            assert status == 200, made
        status, refused = _create(s.http, ROBOTS, who("rob"))
        assert status == 429 and refused["error"]["reason"] == "OPEN_GAMES_CAP", refused
        assert "2 running games" in refused["error"]["message"]
        status, refused = _create(s.http, {"engine": "tic-tac-toe", "seats": ["me", "bot:hard"]}, who("rob"))
        assert (status, refused["error"]["reason"]) == (429, "OPEN_GAMES_CAP")
        # ...and the other way round: a game rob sits in, then bot-only ones up to the cap.
        assert _create(s.http, {"engine": "tic-tac-toe", "seats": ["me", "bot:hard"]}, who("ann"))[0] == 200
        assert _create(s.http, {**ROBOTS, "seats": ["bot:medium", "bot"]}, who("ann"))[0] == 200
        status, refused = _create(s.http, ROBOTS, who("ann"))
        assert (status, refused["error"]["reason"]) == (429, "OPEN_GAMES_CAP")
        # A user at the cap sees the games that hold it: mine=true lists the bot-only games they
        # started beside the games they sit in (it listed neither of rob's two: held seats only)
        mine = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers=who("rob"), timeout=10).json()
        assert len(mine["games"]) == 2 and all(g["seats"][0]["kind"] == "SEAT_KIND_BOT" for g in mine["games"]), mine
        mine = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers=who("ann"), timeout=10).json()
        assert len(mine["games"]) == 2, mine
        # A finished bot-only game no longer counts: easy bots play a tic-tac-toe out at its creation.
        for _ in range(3):
            status, made = _create(s.http, {"engine": "tic-tac-toe", "seats": ["bot", "bot"]}, who("cy"))
            assert status == 200 and made["game"]["status"] == "GAME_STATUS_FINISHED", made
        # Anonymous creates count against nobody's cap (the create rate limit governs them).
        for _ in range(3):
            assert _create(s.http, ROBOTS)[0] == 200


@pytest.mark.parametrize("kind", ["sqlite-file", "redis"])
async def test_the_cap_counts_bot_only_games_on_the_shared_lobbies(kind, tmp_path, request):
    if kind == "redis":
        store = RedisStore(request.getfixturevalue("fresh_redis_url"))
        lobby = RedisLobby(store._client)
    else:
        store = SQLiteStore(str(tmp_path / "g.db"))
        lobby = SQLiteLobby(str(tmp_path / "g.db.lobby"))
    try:
        games = GameService(store, TokenSigner("s"), lobby=lobby, max_open_games_per_user=2)
        dee = User("dee")
        robots = cmd.CreateGame("new-bedford", 2, seats=("bot:hard", "bot:medium"), user=dee)
        first = (await games.create_game(robots))["game"]["id"]
        await games.create_game(robots)
        with pytest.raises(OverQuota):
            await games.create_game(robots)
        with pytest.raises(OverQuota):
            await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"), user=dee))
        # One of them over (its lobby entry marked so, as its end does): room for one more.
        await games.lobby.mark(first, status="FINISHED")
        await games.create_game(robots)
        with pytest.raises(OverQuota):
            await games.create_game(robots)
    finally:
        await store.close()
