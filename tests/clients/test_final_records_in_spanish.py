"""The final breakdown's lists of records (Riverboat's harbor boats, Phoenicia's VP sources) are
worded from the engine's catalog, as the rows are. Found playing `tablero play riverboat --players 2
--bot hard --lang es` to the end: among Spanish rows, `Puerto › Barcos` read `boat 3b, capacity 3,
slot space 1, reached yes; …` (the record's keys humanized in English, `yes` for true)."""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, outcome_text

from tablero import engines

ENGLISH = re.compile(r"\b(boat|capacity|slot space|reached|yes|source|card|workers|copies|vp each|tableau)\b", re.I)


def _final(engine: str, lang: str) -> str:
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        g = engines.LocalGame(engine, seats=2, seed=5)
        rng = random.Random(1)
        while g.outcome() is None:
            seat = sorted(g.to_act())[0]
            g.act(seat, g.engine.random_action(g.state, seat, g.legal_actions(seat), rng))
        game = Game(id="g1", engine=engine, version=len(g.events), players=2, status="GAME_STATUS_FINISHED",
                    to_act=[], view=g.view(0), seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)],
                    your_seat=0, outcome=g.outcome())
        console = Console(record=True, width=400, color_system=None)
        console.print(outcome_text(game))
        return console.export_text()
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize(("engine", "said"), [("riverboat", "barco 3"), ("phoenicia", "origen ")])
def test_the_breakdowns_records_read_in_spanish(engine, said) -> None:
    text = _final(engine, "es")
    assert said in text, text
    english = [m.group(0) for m in ENGLISH.finditer(text)]
    assert not english, (english, text)


def test_the_breakdowns_records_still_read_in_english() -> None:
    text = _final("riverboat", "en")
    assert re.search(r"boat \w+, capacity \d, slot space \d+", text), text
