"""Riverboat's final breakdown on the page reads as sentences in both languages (the terminal and
the story: tests/clients/test_riverboat_breakdown_words.py): Spanish "colores amarilla, morada" and
"barcos barco 3a, capacidad 3, …", English "colours yellow" and "boats boat 3a, capacity 3, …"."""

from __future__ import annotations

import re

import pytest

from tests.clients.test_riverboat_breakdown_words import WORDS, with_yellow_and_purple

SCORES = """async (outcome) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('riverboat');
    const { result } = await import('/js/scores.js');
    const el = result({ outcome, players: 2, engine: 'riverboat' }, { seatNames: null, engine: 'riverboat', held: [0] }, null);
    return el.textContent;
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_riverboats_breakdown_reads_as_sentences(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    text = " ".join(page.evaluate(SCORES, with_yellow_and_purple()).split())
    fields, harbor, wrong = WORDS[lang]
    assert fields in text, text
    assert re.search(harbor, text), text
    assert not re.search(wrong, text), re.search(wrong, text)
