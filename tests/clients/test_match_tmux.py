"""`tablero match` in a real terminal (tmux): a portal user's quick match to a whole game.

The terminal user (ann, her portal JWT as --token) waits for a match; bob asks for one over
REST; the matcher seats them together; ann plays in the terminal (always the first choice),
bob over REST with his JWT (a seat call accepts the portal user's JWT), to the end; then the
game is rated and both show on the leaderboard."""

from __future__ import annotations

import time

import pytest

from tests import plainhttp
from tests.ratings.support import KEYS, bearer, token
from tests.server.support import ServerProcess

from .test_play_tmux import Tmux


@pytest.fixture
def portal_server():
    with ServerProcess({"TABLERO_LOG_LEVEL": "warning", "TABLERO_PORTAL_KEYS": KEYS}) as s:
        yield s


@pytest.mark.slow
def test_a_quick_match_in_the_terminal_to_the_end_of_a_rated_game(portal_server, tmp_path):
    h = portal_server.http
    t = Tmux(tmp_path)
    try:
        t.start(f"python -m tablero_client --url {h} match tic-tac-toe --token {token('ann', 'Ann')}")
        t.wait(lambda s: "Looking for a game of tic-tac-toe" in s, 30)
        bob = plainhttp.post(f"{h}/v1/matchmaking/tickets", json={"engine": "tic-tac-toe"}, headers=bearer("bob")).json()
        text = t.wait(lambda s: "Matched: game" in s, 30)
        deadline = time.monotonic() + 20
        while (ticket := plainhttp.get(f"{h}/v1/matchmaking/tickets/{bob['ticket']['id']}",
                                   headers=bearer("bob")).json()["ticket"])["status"] != "MATCH_TICKET_STATUS_MATCHED":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        gid, bob_seat = ticket["gameId"], ticket["seat"]
        assert f"Matched: game {gid}, you are seat {1 - bob_seat + 1}." in text  # numbered from 1
        prompts = 0
        while True:
            game = plainhttp.get(f"{h}/v1/games/{gid}", headers=bearer("bob")).json()
            if game["status"] == "GAME_STATUS_FINISHED":
                break
            if game["toAct"] == [bob_seat]:  # bob: the first legal cell, with his JWT
                cell = plainhttp.get(f"{h}/v1/games/{gid}/legal-actions", headers=bearer("bob")).json()["actions"][0]
                r = plainhttp.post(f"{h}/v1/games/{gid}/actions", json={"action": cell}, headers=bearer("bob"))
                assert r.status_code == 200, r.text
                continue
            screen = t.wait(lambda s, n=prompts: s.count("choose>") > n and not s[s.rindex("choose>") + 7:]
                            .lstrip(" ")[:1].isdigit(), 30)
            assert "Traceback" not in screen
            prompts = screen.count("choose>")
            t.keys("1", "Enter")
            t.wait(lambda s, n=prompts: plainhttp.get(f"{h}/v1/games/{gid}").json()["version"] > 0 and (
                plainhttp.get(f"{h}/v1/games/{gid}").json()["toAct"] != [1 - bob_seat]
                or plainhttp.get(f"{h}/v1/games/{gid}").json()["status"] == "GAME_STATUS_FINISHED"), 30)
        text = t.wait(lambda s: "EXITED" in s, 30)
        assert "EXITED 0" in text and "Game over" in text, text[-3000:]
        deadline = time.monotonic() + 20  # the game is rated right after its last reply
        while len((board := plainhttp.get(f"{h}/v1/leaderboards/tic-tac-toe").json())["entries"]) < 2 \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert {e["userId"] for e in board["entries"]} == {"ann", "bob"}
    finally:
        t.close()
