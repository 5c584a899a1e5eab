"""New Bedford's solo words as a player meets them in the browser (an outside pass):

- the lobby's option for the solo tile read "Turners mill" in English and "Torno del Carpintero"
  in Spanish, a name the Spanish rulebook never uses: its solo rules call the tile "Taller de
  Tornero" (seed 000, lines 493, 513 and 633);
- a goods sale's step read "Vender 1 de ladrillo" / "Vender 3 de ladrillo" (the log, for the same
  step, already said "vende 1 ladrillo")."""

from __future__ import annotations

import pytest

LABELS = {"es": "Taller de Tornero", "en": "Turner’s Mill"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_lobby_names_the_solo_tile_as_the_rulebook_does(server, new_page, lang):
    page = new_page(390, 844, lang=lang)
    page.goto(server.url + "/#/")
    page.locator(".engines label", has_text="New Bedford").click()
    box = page.get_by_label(LABELS[lang], exact=True)
    assert box.is_visible()
    box.check()
    hint = page.locator("form.create").inner_text()
    assert LABELS[lang] in hint and "Turners mill" not in hint and "Carpintero" not in hint


ACTIONS = """async ([lang, actions]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
    return actions.map((a) => r.describeAction(a, { view: {}, seat: 0, held: [0], game: { view: {} } }));
}"""

SALE = [{"type": "sell_goods", "good": g, "count": n} for g, n in
        [("brick", 1), ("brick", 3), ("brick", 0), ("lumber", 2), ("food", 1)]]

SALE_SAID = {
    "es": ["Vender 1 ladrillo", "Vender 3 ladrillos", "No vender ladrillo", "Vender 2 de leña",
           "Vender 1 de comida"],
    "en": ["Sell 1 brick", "Sell 3 bricks", "Sell no brick", "Sell 2 lumber", "Sell 1 food"],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_sale_step_counts_bricks_as_bricks(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(ACTIONS, [lang, SALE])
    assert [s.split(" — ")[0] for s in said] == SALE_SAID[lang], said
