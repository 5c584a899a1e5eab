"""The final breakdown's lists of records (Riverboat's harbor boats, Phoenicia's VP sources) are
worded from the engine's catalog, as the rows are. Found playing `tablero play riverboat --players 2
--bot hard --lang es` to the end: among Spanish rows, `Puerto › Barcos` read `boat 3b, capacity 3,
slot space 1, reached yes; …` (the record's keys humanized in English, `yes` for true)."""

from __future__ import annotations

import re

import pytest

from .final_screen import final_screen

ENGLISH = re.compile(r"\b(boat|capacity|slot space|reached|yes|source|card|workers|copies|vp each|tableau)\b", re.I)


@pytest.mark.parametrize(("engine", "said"), [("riverboat", "barco 3"), ("phoenicia", "origen ")])
def test_the_breakdowns_records_read_in_spanish(engine, said) -> None:
    text = final_screen(engine, "es")
    assert said in text, text
    english = [m.group(0) for m in ENGLISH.finditer(text)]
    assert not english, (english, text)


def test_the_breakdowns_records_still_read_in_english() -> None:
    text = final_screen("riverboat", "en")
    assert re.search(r"boat \w+, capacity \d, slot space \d+", text), text
