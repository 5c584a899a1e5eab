"""Riverboat's final breakdown reads as sentences in both languages (the browser:
tests/web/test_riverboat_breakdown_words.py). Spanish said "colores amarilla, morada, cantidad 2,
PV cada uno 7" (the crop card's feminine colour for a field's: "color amarillo") and "barcos barco
3a, capacidad 3, espacio 1, alcanzado sí; …" (the noun twice); English "colours yellow, count 2"
and "boats boat 3a, capacity 3, …". The catalog words each record (`record.complete_fields`,
`record.harbor`) and each item of its lists (`record.colours`, `record.boats`)."""

from __future__ import annotations

import copy
import re

import pytest

from .final_screen import final_screen, finished

WORDS = {
    "es": ("2 colores completos: amarillo y morado, 7 PV cada uno",
           r"capitán del puerto en la posición \d+( \(el más lejano\))?; barcos fluviales: \w+ \(capacidad \d, espacio 1, "
           r"(alcanzado|sin alcanzar)\)(, \w+ \(capacidad \d, espacio \d+, (alcanzado|sin alcanzar)\))*( y \w+ \(.*?\))?; "
           r"valor de los barcos alcanzados \d+, puntúa (valor entero|mitad, redondeando hacia arriba)",
           r"\b(amarilla|morada|barcos barco|alcanzado sí)\b"),
    "en": ("2 colours complete: yellow and purple, 7 VP each",
           r"harbor master at position \d+( \(the farthest\))?; riverboats: \w+ \(capacity \d, slot space 1, "
           r"(reached|not reached)\)(, \w+ \(capacity \d, slot space \d+, (reached|not reached)\))*(,? and \w+ \(.*?\))?; "
           r"value of the boats reached \d+, scores (full value|half, rounded up)",
           r"\b(boats boat|colours yellow|reached yes)\b"),
}


def with_yellow_and_purple() -> dict:
    """The game's outcome, its first seat's complete fields yellow and purple (the two colours whose
    Spanish words differ for a field and a card)."""
    outcome = copy.deepcopy(finished("riverboat").outcome())
    outcome["details"][0]["breakdown"]["complete_fields"] = [{"colours": ["yellow", "purple"], "count": 2, "vp_each": 7}]
    return outcome


@pytest.mark.parametrize("lang", ["es", "en"])
def test_riverboats_breakdown_reads_as_sentences(lang):
    text = " ".join(final_screen("riverboat", lang, width=3000, outcome=with_yellow_and_purple()).split())
    fields, harbor, wrong = WORDS[lang]
    assert fields in text, text
    assert re.search(harbor, text), text
    assert not re.search(wrong, text), re.search(wrong, text)
