"""Tic-Tac-Toe: the reference engine of the platform tests and benchmarks.

Seat 0 plays X and moves first; cells are numbered 0-8 row by row.
"""

from __future__ import annotations

from typing import Any

from engines.core import Engine, IllegalAction, reject_unknown_fields, require_action_type, require_int

_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
_MARKS = ("X", "O")


class TicTacToe(Engine):
    name = "tic-tac-toe"
    title = "Tic-Tac-Toe"
    min_seats = 2
    max_seats = 2
    version = 1
    max_random_steps = 9

    def start(self, seats, options, rng):
        return {"type": "game_started"}

    def evolve(self, state, event):
        t = event["type"]
        if t == "game_started":
            return {"board": [None] * 9, "next": 0, "winner": None, "draw": False}
        if t == "mark_placed":
            state["board"][event["cell"]] = event["seat"]
            state["next"] = 1 - event["seat"]
        elif t == "game_won":
            state["winner"] = event["seat"]
        elif t == "game_drawn":
            state["draw"] = True
        return state

    def decide(self, state, seat, action, rng):
        require_action_type(action, {"place"})
        reject_unknown_fields(action, {"cell"})
        cell = require_int(action, "cell", 0, 8)
        if state["next"] != seat:
            raise IllegalAction("it is not your turn")
        if state["board"][cell] is not None:
            raise IllegalAction(f"cell {cell} is already marked")
        events: list[dict[str, Any]] = [{"type": "mark_placed", "seat": seat, "cell": cell}]
        board = list(state["board"])
        board[cell] = seat
        if any(board[a] == board[b] == board[c] == seat for a, b, c in _LINES):
            events.append({"type": "game_won", "seat": seat})
        elif all(c is not None for c in board):
            events.append({"type": "game_drawn"})
        return events

    def to_act(self, state):
        if state["winner"] is not None or state["draw"]:
            return set()
        return {state["next"]}

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "place", "cell": i} for i, c in enumerate(state["board"]) if c is None]

    def view(self, state, seat):
        rows = ["".join("." if c is None else _MARKS[c] for c in state["board"][r * 3 : r * 3 + 3]) for r in range(3)]
        return {
            "type": "tic_tac_toe",
            "board": list(state["board"]),
            "rows": rows,
            "next": None if self.to_act(state) == set() else state["next"],
            "marks": list(_MARKS),
        }

    def outcome(self, state):
        if state["winner"] is not None:
            w = state["winner"]
            scores = [1 if s == w else 0 for s in range(2)]
            return {"scores": scores, "winners": [w], "details": [{"seat": s, "won": s == w} for s in range(2)]}
        if state["draw"]:
            return {"scores": [0, 0], "winners": [], "details": [{"seat": s, "won": False} for s in range(2)]}
        return None
