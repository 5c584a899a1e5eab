"""Boards drawn in the terminal's width (an outside pass at 80-100 columns): no table cut at the
terminal's edge (four players' turned tables), and Riverboat's hex mats drawn whole under the
players table when the table with them does not fit (squeezed into a cell, a mat's cells wrapped
and their numbers split). Views of real random games."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import render

from tablero import engines

RULES = "━─┏┓┗┛┡┩┳╇┻┃│┌┐└┘├┤┬┴┼ "


def _drawn(engine: str, seats: int, width: int, steps: int, seed: int = 3) -> str:
    g = engines.LocalGame(engine, seats=seats, seed=seed)
    g.play_random(max_steps=steps)
    game = Game(id="g1", engine=engine, version=1, players=seats, status="GAME_STATUS_RUNNING", to_act=[],
                view=g.view(0), seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(seats)], your_seat=0)
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render(game))
    return console.export_text()


@pytest.mark.parametrize("engine", ["founders-of-gloomhaven", "phoenicia", "new-bedford", "riverboat"])
@pytest.mark.parametrize("width", [70, 80, 100, 120])
@pytest.mark.parametrize("steps", [60, 400])
def test_no_table_is_cut_at_the_terminals_edge(engine, width, steps):
    text = _drawn(engine, 4, width, steps)
    # A table cut at the edge: one of its border lines (box-drawing characters only) ends in a
    # horizontal stroke, not a corner or a joint.
    cut = [line for line in text.splitlines()
           if line.strip() and set(line.strip()) <= set(RULES) and line.rstrip()[-1] in "━─"]
    assert not cut, "\n".join(cut[:5])


@pytest.mark.parametrize("width", [80, 100])
def test_riverboat_mats_are_drawn_whole_under_the_table_when_it_does_not_fit(width):
    text = _drawn("riverboat", 2, width, 60)
    lines = text.splitlines()
    for seat in ("1 (you)", "2"):
        start = next(i for i, line in enumerate(lines) if line.endswith(f"seat {seat}") and line.startswith("mat"))
        rows = lines[start + 1:start + 6]  # five rows of seven cells, numbered in order
        numbers = [int(n) for row in rows for n in re.findall(r"\d+", row)]
        assert numbers == list(range(1, 36)), rows
    assert "│ mat" not in text and "┃ mat" not in text


@pytest.mark.parametrize("engine", ["riverboat", "phoenicia"])
def test_the_players_table_counts_seats_from_one_as_the_header_does(engine):
    """An outside pass saw Riverboat's and Phoenicia's players tables say `0 (you)` and `1`
    under a header that says `you are seat 1` and a log that says `seat 2 (bot)`."""
    text = _drawn(engine, 2, 160, 60)
    cells = {c.strip() for line in text.splitlines() for c in re.split("[│┃]", line)}  # turned or not
    assert "you are seat 1" in text
    assert "1 (you)" in cells and "2" in cells and "0 (you)" not in cells, text


def test_riverboat_mats_stay_in_the_table_on_a_wide_terminal():
    text = _drawn("riverboat", 2, 160, 60)
    assert "┃ mat" in text and not any(line.startswith("mat ·") for line in text.splitlines())


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", range(40, 101, 3))
def test_the_header_breaks_only_between_its_parts(lang, width, monkeypatch):
    """An outside pass saw the header wrap at 80 columns between "version" and its number: the
    header's parts (title, game and version, who is to act, who you are) now wrap whole."""
    from tablero_client.render import header, i18n

    monkeypatch.setattr(i18n, "current_language", lambda: lang)
    seats = [SeatInfo(seat=i, kind="SEAT_KIND_HUMAN" if i else "SEAT_KIND_BOT") for i in range(4)]
    game = Game(id="Gm8kQz2LpX7aBcDe", engine="founders-of-gloomhaven", version=1234, players=4,
                status="GAME_STATUS_RUNNING", to_act=[0, 2, 3], view={}, seats=seats, your_seat=2)
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(header(game))
    lines = console.export_text().splitlines()
    label, number, game_word = ("version", "1,234", "game") if lang == "en" else ("versión", "1.234", "partida")
    assert any(f"{game_word} Gm8kQz2LpX7aBcDe  {label} {number}" in line for line in lines), lines
    you = "you are seat 3" if lang == "en" else "eres asiento 3"  # seat 2, numbered from 1
    assert any(you in line for line in lines), lines


@pytest.mark.parametrize("width", [70, 80, 90, 100, 120])
def test_founders_prestige_table_keeps_whole_words_inside_the_terminal(width):
    """At 80 columns the prestige table cut "population:" to "populatio…" (rich narrowed its
    widest column first); a column minimum then drew it a column past the edge. Its columns now
    keep their longest word, or it is drawn one table per building."""
    text = _drawn("founders-of-gloomhaven", 4, width, 400, seed=1)
    assert "…" not in text
    cut = [line for line in text.splitlines()
           if line.strip() and set(line.strip()) <= set(RULES) and line.rstrip()[-1] in "━─"]
    assert not cut and max(len(line) for line in text.splitlines()) <= width, cut[:3]
