"""A board piece one can choose is a button named by what it shows, then what choosing it does.
Its lines ran together: Riverboat's phase tile was "cultivationnot taken — Phase cultivation", a
riverboat "⛴ Boat 2a (2)holds 1…3 left". A first fix (lines joined from innerText) was reverted:
axe-core's label-content-name-mismatch takes the visible text as the text nodes joined with nothing
between them ("cultivationnot taken"), which the separated name no longer held word for word
(tests/web/test_i18n.py's axe check failed). Now the page itself has a space at those boundaries
and the name keeps the lines apart with ", "; axe's rule passes on every piece."""

from __future__ import annotations

import pytest

from .api_play import ApiGame
from .test_i18n import axe_source  # noqa: F401 - the fixture


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_board_pieces_name_keeps_its_lines_apart_and_axe_agrees(server, new_page, axe_source, lang):  # noqa: F811
    rb = ApiGame(server.url, "riverboat", ["human", "bot"])
    page = new_page(1280, 900, lang=lang)
    rb.hold(page, [0])
    page.goto(f"{server.url}/#/g/{rb.id}")
    page.wait_for_selector(".tile.phase[role=button][aria-label]")
    names = page.eval_on_selector_all(".tile.phase[role=button]", "els => els.map((e) => e.getAttribute('aria-label'))")
    not_taken = {"en": "not taken", "es": "libre"}[lang]
    phase = {"en": "Phase", "es": "Fase"}[lang]
    assert names and all(f", {not_taken} — {phase} " in n for n in names), names
    page.add_script_tag(content=axe_source)
    found = page.evaluate("""async () => (await axe.run(document, {runOnly: ['label-content-name-mismatch']})).violations
        .flatMap((v) => v.nodes.map((n) => n.target.join(' ')))""")
    assert not found, found
