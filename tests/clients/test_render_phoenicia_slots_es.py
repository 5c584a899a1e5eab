"""Phoenicia's tableaus in the terminal, in the game's language. Found playing in Spanish
(`LANG=es_ES.UTF-8 tablero play phoenicia`): the players table drew each tableau's spaces with
the view's raw codes, `Caza: w · · · · ·`, an English letter (worker) and no word saying what
it marks; the browser words the same spaces from the catalog (`label.slot`)."""

from __future__ import annotations

import io

from rich.console import Console
from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render


def _board(lang: str) -> str:
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        for g, _seat, _legal in random_turns("phoenicia", 2, 3):
            v = g.view(0)
            slots = [s for p in v["players"] for t in p["tiles"] for s in t["slots"]]
            if "w" in slots:
                game = Game(id="g1", engine="phoenicia", version=g.version, players=g.seats,
                            status="GAME_STATUS_RUNNING", to_act=sorted(g.to_act()), view=v,
                            seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)],
                            your_seat=0, outcome=None)
                console = Console(record=True, width=220, color_system=None, file=io.StringIO())
                console.print(render(game))
                return console.export_text()
        raise AssertionError("no worker on a tableau")
    finally:
        i18n.set_language(before)


def test_a_tableaus_workers_are_marked_in_spanish_with_a_legend():
    text = _board("es")
    rows = [x for x in text.splitlines() if "Caza:" in x]
    assert rows, text
    assert all(" w " not in x + " " and ": w" not in x for x in rows), rows
    assert "T: trabajador" in text, text


def test_the_english_board_keeps_its_marks_and_says_what_they_are():
    text = _board("en")
    assert any("Hunting: w" in x for x in text.splitlines()), text
    assert "w: worker" in text, text
