"""Tic-Tac-Toe: the reference engine of the platform tests and benchmarks, and the
smallest example of an engine written as rules (`engines.core.RulesEngine`).

Seat 0 plays X and moves first; cells are numbered 0-8 row by row.
"""

from __future__ import annotations

from typing import Any

from tablero.engines.core import IllegalAction, Move, Phase, RulesEngine, integer

_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
_MARKS = ("X", "O")
_SEAT = integer(0, 1)
_CELL = integer(0, 8)


# --- the move: "players take turns marking an empty cell" -------------------------------------
def _check_place(state, seat, action) -> None:
    if state["board"][action["cell"]] is not None:
        raise IllegalAction(f"cell {action['cell']} is already marked")


def _place(state, seat, action, ctx, rng) -> list[dict[str, Any]]:
    cell = action["cell"]
    events: list[dict[str, Any]] = [{"type": "mark_placed", "seat": seat, "cell": cell}]
    board = list(state["board"])
    board[cell] = seat
    if any(board[a] == board[b] == board[c] == seat for a, b, c in _LINES):
        events.append({"type": "game_won", "seat": seat})
    elif all(c is not None for c in board):
        events.append({"type": "game_drawn"})
    return events


def _empty_cells(state, seat):
    return ({"type": "place", "cell": i} for i, c in enumerate(state["board"]) if c is None)


def _phase(state) -> str:
    return "over" if state["winner"] is not None or state["draw"] else "play"


# --- the events -------------------------------------------------------------------------------
def _on_started(state, event):
    return {"board": [None] * 9, "next": 0, "winner": None, "draw": False}


def _on_mark(state, event):
    state["board"][event["cell"]] = event["seat"]
    state["next"] = 1 - event["seat"]


def _on_won(state, event):
    state["winner"] = event["seat"]


def _on_drawn(state, event):
    state["draw"] = True


class TicTacToe(RulesEngine):
    name = "tic-tac-toe"
    title = "Tic-Tac-Toe"
    min_seats = 2
    max_seats = 2
    version = 1
    max_random_steps = 9

    moves = (
        Move("place", fields={"cell": _CELL}, phases={"play"}, check=_check_place, resolve=_place,
             options=_empty_cells, doc="Mark an empty cell (0-8, row by row).",
             rule="the players take turns marking an empty cell"),
    )
    phases = (
        Phase("play", to_act=lambda s: {s["next"]}, then="over",
              ends_doc="three in a row or a full board (the last mark's event)", doc="a player's turn"),
        Phase("over", to_act=lambda s: (), doc="the game is over"),
    )
    on = {
        "game_started": _on_started,
        "mark_placed": _on_mark,
        "game_won": _on_won,
        "game_drawn": _on_drawn,
    }
    event_fields = {"mark_placed": {"seat": _SEAT, "cell": _CELL}, "game_won": {"seat": _SEAT}}
    outcome_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tic-tac-toe outcome",
        "type": "object",
        "properties": {
            "scores": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 1},
                       "description": "1 for the winner, else 0"},
            "winners": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 1}, "maxItems": 1,
                        "description": "the winning seat; empty on a draw"},
            "details": {"type": "array", "items": {
                "type": "object", "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 1},
                                                 "won": {"type": "boolean"}},
                "required": ["seat", "won"], "additionalProperties": False}},
        },
        "required": ["scores", "winners", "details"],
        "additionalProperties": False,
    }
    view_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tic-tac-toe view",
        "type": "object",
        "properties": {
            "type": {"const": "tic-tac-toe"},  # the engine name, as in every engine
            "board": {"type": "array", "items": {"type": ["integer", "null"], "minimum": 0, "maximum": 1},
                      "minItems": 9, "maxItems": 9, "description": "the seat that marked each cell, row by row"},
            "rows": {"type": "array", "items": {"type": "string", "pattern": "^[.XO]{3}$"}, "minItems": 3,
                     "maxItems": 3},
            "next": {"type": ["integer", "null"], "description": "the seat to move; null once the game is over"},
            "marks": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["type", "board", "rows", "next", "marks"],
        "additionalProperties": False,
    }

    def phase_of(self, state) -> str:
        return _phase(state)

    def start(self, seats, options, rng):
        return {"type": "game_started"}

    def view(self, state, seat):
        rows = ["".join("." if c is None else _MARKS[c] for c in state["board"][r * 3 : r * 3 + 3]) for r in range(3)]
        return {
            "type": "tic-tac-toe",
            "board": list(state["board"]),
            "rows": rows,
            "next": None if _phase(state) == "over" else state["next"],
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
