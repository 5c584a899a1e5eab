"""Issue 33, done-when: rated games between seeded strong and weak users rank them in that
order, and `tablero admin ratings rebuild` rebuilds every rating from the logs, to the bit.

N = 32 games: 4 strong and 4 weak portal users, each strong user plays each weak one twice
(once as X, once as O), over REST, on SQLite (a file) and on Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests import plainhttp
from tests.server.support import ROOT, ServerProcess

from .support import KEYS, bearer, play, strong_move, weak_move

STRONG = [f"strong{i}" for i in range(4)]
WEAK = [f"weak{i}" for i in range(4)]


def _everything(http: str) -> dict:
    board = plainhttp.get(f"{http}/v1/leaderboards/tic-tac-toe?pageSize=100").json()
    players = {u: plainhttp.get(f"{http}/v1/players/{u}").json()["player"] for u in STRONG + WEAK}
    for p in players.values():
        for g in p["recentGames"]:
            g.pop("createTime", None)
    return {"board": board, "players": players}


def _play_all(http: str) -> None:
    moves = {**dict.fromkeys(STRONG, strong_move), **dict.fromkeys(WEAK, weak_move)}
    for s in STRONG:
        for w in WEAK:
            assert play(http, s, w, moves)["outcome"]["winners"] == [0]
            g = play(http, w, s, moves)
            assert g["outcome"]["winners"] in ([1], [])  # the strong one wins or draws as O


def _rebuild(env: dict) -> dict:
    out = subprocess.run([sys.executable, "-m", "tablero.server", "admin", "ratings", "rebuild"], cwd=ROOT,
                         env={**os.environ, **env}, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out


def _settled(http: str, games: int, players: int = 0) -> dict:
    """The leaderboard once the ratings of `games` finished games are in (a game's rating is
    committed after its end, by the server's ratings task)."""
    deadline = time.monotonic() + 20
    while True:
        board = plainhttp.get(f"{http}/v1/leaderboards/tic-tac-toe?pageSize=100").json()
        played = sum(e["gamesPlayed"] for e in board["entries"])
        if played >= 2 * games and len(board["entries"]) >= players or time.monotonic() > deadline:
            return board
        time.sleep(0.05)


def _check(server: ServerProcess, env: dict) -> None:
    _play_all(server.http)
    _settled(server.http, 32)
    before = _everything(server.http)
    entries = before["board"]["entries"]
    assert before["board"]["totalPlayers"] == 8
    assert [e["userId"] for e in entries[:4]] != [] and {e["userId"] for e in entries[:4]} == set(STRONG), entries
    assert [e["rank"] for e in entries] == list(range(1, 9))
    assert all(a["rating"] >= b["rating"] for a, b in zip(entries, entries[1:], strict=False))
    assert sum(e["gamesPlayed"] for e in entries) == 2 * 32
    assert before["players"]["strong0"]["gamesPlayed"] == 8 and before["players"]["weak0"]["wins"] == 0
    # Around me: weak users' page, and paging on.
    around = plainhttp.get(f"{server.http}/v1/leaderboards/tic-tac-toe?aroundUserId={entries[6]['userId']}&pageSize=2")
    assert [e["rank"] for e in around.json()["entries"]] == [6, 7]
    page = plainhttp.get(f"{server.http}/v1/leaderboards/tic-tac-toe?pageSize=3").json()
    nxt = plainhttp.get(f"{server.http}/v1/leaderboards/tic-tac-toe?pageSize=3&pageToken={page['nextPageToken']}").json()
    assert [e["rank"] for e in nxt["entries"]] == [4, 5, 6]
    # Rebuild from the logs: the very same numbers (floats compared exactly).
    _rebuild(env)
    assert _everything(server.http) == before


def test_strong_users_outrank_weak_ones_and_a_rebuild_gives_the_same_numbers_on_sqlite(tmp_path):
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "t.db")}
    with ServerProcess(env) as server:
        _check(server, env)


@pytest.mark.slow
def test_the_same_on_redis(fresh_redis_url):
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning", "TABLERO_REDIS_URL": fresh_redis_url}
    with ServerProcess(env) as server:
        _check(server, env)


def test_unrated_and_refused(tmp_path):
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}
    with ServerProcess(env) as s:
        # A bot seat: not rated by default, and "rated" needs two portal users.
        r = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "bot"], "rated": True},
                       headers=bearer("solo"))
        assert r.status_code == 400 and "two seats" in r.json()["error"]["message"]
        assert plainhttp.get(f"{s.http}/v1/leaderboards/nope").status_code == 404  # ENGINE_NOT_FOUND, as GetEngine
        assert plainhttp.get(f"{s.http}/v1/players/nobody").status_code == 404
        assert plainhttp.get(f"{s.http}/v1/leaderboards/tic-tac-toe?pageToken=zz").status_code == 400
        # A forfeit is a loss: the resigning user ranks below, though seat 0 moved first.
        g = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [
            {"kind": "me"}, {"kind": "human", "userId": "b"}]}, headers=bearer("a")).json()["game"]
        for who, cell in (("a", 0), ("b", 4)):  # each has moved: a game some user never moved in is not rated
            plainhttp.post(f"{s.http}/v1/games/{g['id']}/actions", json={"action": {"type": "place", "cell": cell}},
                           headers=bearer(who)).raise_for_status()
        r = plainhttp.post(f"{s.http}/v1/games/{g['id']}/resign", json={}, headers=bearer("a"))
        assert r.json()["status"] == "GAME_STATUS_FINISHED"
        board = _settled(s.http, 1)["entries"]
        assert [e["userId"] for e in board] == ["b", "a"] and board[0]["wins"] == 1
        # An abandoned game (the creator leaves before anyone joined) is not rated.
        g = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]},
                       headers=bearer("c")).json()["game"]
        plainhttp.post(f"{s.http}/v1/games/{g['id']}/resign", json={}, headers=bearer("c"))
        assert plainhttp.get(f"{s.http}/v1/players/c").status_code == 404


def test_a_user_id_with_a_slash_is_one_path_segment(tmp_path):
    """Portal user ids are any 1-128 characters: "org/42" is asked for as /v1/players/org%2F42
    (an outside pass found 404 "no route /v1/players/org/42": the route was matched on the
    decoded path)."""
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}
    with ServerProcess(env) as s:
        g = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [
            {"kind": "me"}, {"kind": "human", "userId": "org/42"}]}, headers=bearer("org/7")).json()["game"]
        for who, cell in (("org/7", 0), ("org/42", 4)):
            plainhttp.post(f"{s.http}/v1/games/{g['id']}/actions", json={"action": {"type": "place", "cell": cell}},
                           headers=bearer(who)).raise_for_status()
        plainhttp.post(f"{s.http}/v1/games/{g['id']}/resign", json={}, headers=bearer("org/7"))
        _settled(s.http, 1)
        r = plainhttp.get(f"{s.http}/v1/players/org%2F42")
        assert r.status_code == 200 and r.json()["player"]["userId"] == "org/42", r.text
        assert plainhttp.get(f"{s.http}/v1/players/org%2F99").json()["error"]["reason"] == "PLAYER_NOT_FOUND"


def test_a_game_some_user_never_moved_in_is_not_rated(tmp_path):
    """An outside pass farmed ratings: games with seats reserved for other users (who never came)
    and a one-second clock that forfeits, the creator moving first; each game was rated, the
    absent users lost without ever playing, and an invitee could decline only by resigning, a
    rated loss too. A game some portal user never made a move in is not rated (an aborted game),
    and the same game once both have moved is."""
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}
    with ServerProcess(env) as s:
        def invite(victim: str, clock: bool) -> str:
            body = {"engine": "tic-tac-toe", "seatSpecs": [{"kind": "me"}, {"kind": "human", "userId": victim}]}
            if clock:
                body["clock"] = {"moveSeconds": 1, "onTimeout": "forfeit"}
            return plainhttp.post(f"{s.http}/v1/games", json=body, headers=bearer("farmer")).json()["game"]["id"]

        def place(gid: str, who: str, cell: int) -> None:
            plainhttp.post(f"{s.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                           headers=bearer(who)).raise_for_status()

        timed_out = invite("victim", clock=True)
        place(timed_out, "farmer", 4)
        declined = invite("decliner", clock=False)
        place(declined, "farmer", 4)  # the creator moves; the invitee resigns without a move of their own
        plainhttp.post(f"{s.http}/v1/games/{declined}/resign", json={}, headers=bearer("decliner")).raise_for_status()
        deadline = time.monotonic() + 20
        while plainhttp.get(f"{s.http}/v1/games/{timed_out}").json()["status"] != "GAME_STATUS_FINISHED":
            assert time.monotonic() < deadline, "the clock did not forfeit the absent seat"
            time.sleep(0.2)
        # The control: both move, then the invitee resigns: rated.
        played = invite("player", clock=False)
        place(played, "farmer", 4)
        place(played, "player", 0)
        plainhttp.post(f"{s.http}/v1/games/{played}/resign", json={}, headers=bearer("player")).raise_for_status()
        board = _settled(s.http, 1)
        assert [(e["userId"], e["gamesPlayed"]) for e in board["entries"]] == [("farmer", 1), ("player", 1)]
        for absent in ("victim", "decliner"):
            assert plainhttp.get(f"{s.http}/v1/players/{absent}").status_code == 404
