"""The terminal shows each Captain's Orders (El Océano Solitario, solo p.12: the Captain searches
his Orders, step by step, for an action that satisfies his heading; ../shared/rules/
000_d80ea33544e097da.txt L317: "Toda la información es pública"). The browser listed them
(label.order_entry) but the terminal never did: `order_entry()` was never called. Now the
Captains table has an "orders" row, a line per step as the board numbers them, in the catalogs'
words, in English and in Spanish, at 80 columns and wider, on real solo games from the engine."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render

from tablero import engines

from .test_render_widths import RULES

ORDERS = {
    "en": {
        "ahab": ["1. Most (the building giving most) → Town and Whaling Board actions",
                 "2. Combo (the building combining most) → Lighthouse → change heading to money",
                 "3. reroll the Helm and go back to step 1"],
        "starbuck": ["1. Starbuck’s buildings → Town and Whaling Board actions → opponents’ buildings",
                     "2. Inn → Lighthouse → change heading to money",
                     "3. change heading to lumber and go back to step 1"],
    },
    "es": {
        "ahab": ["1. Edificio que más da (Most) → Acciones de Ciudad y del Tablero ballenero",
                 "2. Edificio que más combina (Combo) → Faro → cambia el Rumbo a dinero",
                 "3. vuelve a tirar el Timón y vuelve al paso 1"],
        "starbuck": ["1. Edificios de Starbuck → Acciones de Ciudad y del Tablero ballenero → Edificios de los rivales",
                     "2. Posada → Faro → cambia el Rumbo a dinero",
                     "3. cambia el Rumbo a leña y vuelve al paso 1"],
    },
}
ROW = {"en": "orders", "es": "órdenes"}


@pytest.fixture(params=["en", "es"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _drawn(captains: list[str], width: int, steps: int = 0) -> str:
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": captains})
    g.play_random(max_steps=steps)  # the Captains' turns played by the engine, up to `steps`
    game = Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0), seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")],
                your_seat=0)
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(render(game))
    return console.export_text()


def test_each_captains_orders_are_a_line_per_step_on_a_wide_terminal(lang):
    text = _drawn(["ahab", "starbuck"], 400, steps=40)
    header = next(line for line in text.splitlines() if re.search(rf"┃ {ROW[lang]}\s+┃", line))
    assert header, text
    lines = [line for line in text.splitlines() if "│" in line]
    for name, orders in ORDERS[lang].items():
        for order in orders:  # each step whole on a line of its own, in the table
            assert any(f"│ {order} " in line for line in lines), (name, order, text)


def _cell(text: str, row: str) -> list[str]:
    """The lines of a turned table's row (one Captain: field │ value), as wrapped."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith(f"│ {row} "):
            inside = True
        elif inside and not line.startswith("│ "):
            break
        if inside:
            out.append(line.split("│")[2].strip())
    return out


@pytest.mark.parametrize("width", [80, 100])
def test_a_captains_orders_fit_an_80_column_terminal(lang, width):
    text = _drawn(["ahab"], width)
    cell = _cell(text, ROW[lang])
    assert " ".join(cell) == " ".join(ORDERS[lang]["ahab"]), text  # every word, wrapped, none cut
    assert [line[:3] for line in cell if re.match(r"\d\. ", line)] == ["1. ", "2. ", "3. "], cell  # a step a line
    assert all(len(line) <= width for line in text.splitlines())


@pytest.mark.parametrize("captains", [["ahab"], ["starbuck", "flask"], ["stubb", "flask", "starbuck"]])
@pytest.mark.parametrize("width", [70, 80, 120])
def test_the_captains_table_with_orders_is_never_cut_at_the_edge(captains, width):
    text = _drawn(captains, width, steps=60)
    cut = [line for line in text.splitlines()
           if line.strip() and set(line.strip()) <= set(RULES) and line.rstrip()[-1] in "━─"]
    assert not cut, "\n".join(cut[:5])
    assert "│ orders " in text or "┃ orders " in text
