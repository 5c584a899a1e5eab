"""Numbers with their units on the page (the terminal and the story: tests/clients/test_units_ph_rb.py):
Riverboat's crop tile piles read "montón 35" (a pile's number?) for the tiles left in them;
Phoenicia's player line "Tesorería 6 · almacenes 5 · formar cuesta 2"."""

from __future__ import annotations

import pytest

from tests.clients.test_units_ph_rb import PHOENICIA, PILE

from .api_play import ApiGame

JS = """async (events) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('phoenicia');
    const r = (await import('/js/render/index.js')).rendererFor('phoenicia');
    return events.map((e) => r.describeEvent(e, { engine: 'phoenicia', view: {}, seat: 0, held: [0], seatNames: null }));
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_units_on_the_boards_and_in_the_log(server, new_page, lang):
    rb = ApiGame(server.url, "riverboat", ["human", "bot"])
    page = new_page(390, 844, lang=lang)
    rb.hold(page, [0])
    page.goto(f"{server.url}/#/g/{rb.id}")
    page.wait_for_selector(".rb-supply")
    piles = (rb.get(0).get("view") or {})["pile_sizes"]
    supply = " ".join(page.inner_text(".rb-supply").split())
    for n in piles.values():
        assert PILE[lang].format(n=n) in supply, supply
    ph = ApiGame(server.url, "phoenicia", ["human", "bot"])
    page = new_page(390, 844, lang=lang)
    ph.hold(page, [0])
    page.goto(f"{server.url}/#/g/{ph.id}")
    page.wait_for_selector(".player.me .small-print")
    line = page.inner_text(".player.me .small-print")
    assert line.startswith({"es": "Tesorería: 3 espacios · 2 almacenes · formar cuesta 2$",
                            "en": "Treasury: 3 spaces · 2 storehouses · training costs $2"}[lang]), line
    said = page.evaluate(JS, [e for e, _ in PHOENICIA])
    for (event, words), line in zip(PHOENICIA, said, strict=True):
        assert line.endswith(words[lang]), (event, line)


def test_riverboats_fields_are_named_as_fields_in_spanish(server, new_page):
    """A cell's title read "casilla 3: campo amarilla", "campo morada": the crop card's feminine
    colour ("la carta de cultivo amarilla") on a field, which is masculine."""
    rb = ApiGame(server.url, "riverboat", ["human", "bot"])
    page = new_page(lang="es")
    rb.hold(page, [0])
    page.goto(f"{server.url}/#/g/{rb.id}")
    page.wait_for_selector(".player.me [title*='campo']")
    titles = page.eval_on_selector_all(".player.me [title*='campo']", "els => els.map((e) => e.title)")
    assert not [t for t in titles if "campo amarilla" in t or "campo morada" in t], titles
    assert any("campo amarillo" in t for t in titles) and any("campo morado" in t for t in titles), titles

