"""The browser's Phoenicia header names the turn's last step (the cases:
tests/clients/phoenicia_converted.py; the terminal: tests/clients/test_phoenicia_step_words.py)."""

from __future__ import annotations

import pytest

from tests.clients.phoenicia_converted import STEP, at_converted


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_header_names_the_converted_step(server, new_page, lang):
    view = at_converted()
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    head = page.evaluate("""async (view) => {
        await (await import('/js/i18n.js')).loadCatalog('phoenicia');
        const r = (await import('/js/render/index.js')).rendererFor('phoenicia');
        const root = r.render({ view, seat: 0, held: [0], seatNames: null, engine: 'phoenicia' });
        return root.querySelector('.box').textContent;
    }""", view)
    assert f"({STEP[lang]})" in head, head
    assert "convertida" not in head and "converted" not in head, head
