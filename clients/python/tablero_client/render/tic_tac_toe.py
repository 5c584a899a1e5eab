"""Tic-Tac-Toe: the 3x3 board. At your turn each empty square shows the number to type to play
there (the choices list the empty squares in order, numbered from 1); squares are otherwise named
by row and column, never by a number that could be mistaken for a choice."""

from __future__ import annotations

from rich.table import Table

from ..models import Game


def render(game: Game) -> Table:
    board = game.view["board"]
    marks = game.view.get("marks") or ["X", "O"]
    mine = game.your_seat is not None and game.your_seat in game.to_act and not game.finished
    choice = {cell: n for n, cell in enumerate((i for i, v in enumerate(board) if v is None), 1)}
    t = Table(show_header=False, show_lines=True, box=None, padding=(0, 2))
    for r in range(3):
        row = []
        for c in range(3):
            i = r * 3 + c
            v = board[i]
            if v is not None:
                row.append(f"[bold]{marks[v]}[/bold]")
            else:
                row.append(f"[cyan]{choice[i]}[/cyan]" if mine else "[dim]·[/dim]")
        t.add_row(*row)
    return t


def field_value(key: str, value: object, game: Game) -> str | None:
    """A square by its row and column (never by a number that could be mistaken for a choice)."""
    from . import messages

    if key == "cell" and isinstance(value, int) and not isinstance(value, bool):
        return messages(game).format("label.square", {"row": value // 3 + 1, "col": value % 3 + 1})
    return None
