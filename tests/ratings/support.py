"""Portal users playing rated Tic-Tac-Toe over REST: a strong player (win, block, centre,
corner) and a weak one (the first free cell)."""

from __future__ import annotations

import json
import time

import jwt

from tests import plainhttp

KEY = "ratings-test-key-" + "x" * 32
KEYS = json.dumps({"k1": KEY})
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def token(user: str, name: str | None = None) -> str:
    claims = {"sub": user, "exp": int(time.time()) + 3600, **({"name": name} if name else {})}
    return jwt.encode(claims, KEY, algorithm="HS256", headers={"kid": "k1"})


def bearer(user: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + token(user, user.upper())}


def strong_move(board: list, me: str) -> int:
    free = [i for i, c in enumerate(board) if not c]
    other = "O" if me == "X" else "X"
    for who in (me, other):  # win, else block
        for line in LINES:
            marks = [board[i] for i in line]
            if marks.count(who) == 2 and marks.count(None) + marks.count("") == 1:
                return next(i for i in line if not board[i])
    for i in (4, 0, 2, 6, 8):
        if i in free:
            return i
    return free[0]


def weak_move(board: list, me: str) -> int:
    return next(i for i, c in enumerate(board) if not c)


def cells(view: dict) -> list:
    rows = view["rows"]
    flat = [c for row in rows for c in row] if isinstance(rows[0], (list, str)) else list(rows)
    return [c if c in ("X", "O") else None for c in flat]


def play(http: str, x: str, o: str, moves: dict) -> dict:
    """One rated game, `x` at seat 0; `moves[user]` picks each move. Returns the final game."""
    g = plainhttp.post(f"{http}/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [
        {"kind": "me"}, {"kind": "human", "userId": o, "userName": o.upper()}], "rated": True},
        headers=bearer(x), timeout=10)
    assert g.status_code == 200, g.text
    game = g.json()["game"]
    seats = {0: x, 1: o}
    while game["status"] != "GAME_STATUS_FINISHED":
        seat = game["toAct"][0]
        user = seats[seat]
        board = cells(game["view"])
        r = plainhttp.post(f"{http}/v1/games/{game['id']}/actions", headers=bearer(user), timeout=10, json={
            "action": {"type": "place", "cell": moves[user](board, "XO"[seat])}})
        assert r.status_code == 200, r.text
        game = r.json()
    return game
