"""Tic-Tac-Toe: the 3x3 board with cell numbers on empty squares."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from ..models import Game


def render(game: Game) -> Table:
    board = game.view["board"]
    marks = game.view.get("marks") or ["X", "O"]
    t = Table(show_header=False, show_lines=True, box=None, padding=(0, 2))
    for r in range(3):
        row = []
        for c in range(3):
            i = r * 3 + c
            v = board[i]
            row.append(f"[dim]{i}[/dim]" if v is None else f"[bold]{marks[v]}[/bold]")
        t.add_row(*row)
    return t


def action_label(action: dict[str, Any], game: Game) -> str:
    if action.get("type") == "place":
        c = action["cell"]
        return f"place in cell {c} (row {c // 3 + 1}, column {c % 3 + 1})"
    return ""


def describe_event(e: dict[str, Any], game: Game) -> str | None:
    from . import player_name

    t = e.get("type")
    if t == "game_started":
        return f"The game starts: {player_name(game, 0)} plays X, {player_name(game, 1)} plays O."
    if t == "mark_placed":
        c = e["cell"]
        marks = (game.view or {}).get("marks") or ["X", "O"]
        return f"{player_name(game, e['seat'])} puts {marks[e['seat']]} in cell {c} (row {c // 3 + 1}, column {c % 3 + 1})."
    if t == "game_won":
        return f"{player_name(game, e['seat'])} has three in a row and wins."
    if t == "game_drawn":
        return "The board is full: a draw."
    return None
