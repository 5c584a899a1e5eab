"""The terminal's Founders map marks a building's owner with the seat number the screens use
(seat 1 for seat index 0): it showed "s0" and "h0" for "seat 1 (you)", so a player of seat 1
read "h1" (seat 2's house) as their own. The key says "then the owner's seat"."""

from __future__ import annotations

import re

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import render

from tablero import engines

ENGINE = "founders-of-gloomhaven"


def _map_marks(g: engines.LocalGame, you: int) -> dict[str, set[str]]:
    """For each square that holds a building on the printed map: the two characters shown."""
    game = Game(id="g1", engine=ENGINE, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(you), your_seat=you,
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)])
    console = Console(record=True, width=200, color_system=None)
    console.print(render(game))
    text = console.export_text()
    rows = [line for line in text.splitlines() if re.match(r"^\s{0,2}\d{1,2} ", line)]
    view = g.view(you)
    w = view["map"]["width"]
    shown: dict[str, set[str]] = {}
    for t in view["tiles"]:
        if not isinstance(t.get("owner"), int):
            continue
        for cell in t.get("cells") or []:
            r, c = divmod(cell, w)
            shown.setdefault(t["kind"], set()).add(rows[r][4 + 2 * c: 6 + 2 * c][1] + f"@{t['owner']}")
    return shown


def test_map_owner_marks_are_the_seat_numbers_the_screens_use():
    g = engines.LocalGame(ENGINE, seats=2, seed=3)
    g.play_random(max_steps=400)
    shown = _map_marks(g, 0)
    marks = {m for kind in shown.values() for m in kind}
    assert marks, "no owned building on the map"
    assert all(m.split("@")[0] == str(int(m.split("@")[1]) + 1) for m in marks), marks
    assert {m.split("@")[0] for m in marks} <= {"1", "2"}, marks
