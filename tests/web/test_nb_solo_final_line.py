"""The browser's last log line of a New Bedford game against the Captains names each Captain's
score beside the player's (the cases: tests/clients/nb_solo_end.py; the terminal:
tests/clients/test_nb_solo_final_line.py)."""

from __future__ import annotations

import pytest

from tests.clients.nb_solo_end import expected, finished_solo


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_final_line_names_each_captains_score(server, new_page, lang):
    view, event = finished_solo()
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    line = page.evaluate("""async ([view, event]) => {
        const i18n = await import('/js/i18n.js');
        await i18n.loadCatalog('new-bedford');
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const ctx = { engine: 'new-bedford', view, seat: 0, held: [0], seatNames: r.seatNames({ view }), game: { view } };
        return r.describeEvent(event, ctx);
    }""", [view, event])
    assert expected(lang, event) in line, line
    assert f" {event['scores'][0]}" in line, line
