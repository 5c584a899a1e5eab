"""New Bedford's General Store and Market in the browser, as the rulebook names them and as the
terminal says them (the findings: tests/clients/test_nb_selling_spaces_words.py): the Market's
rule (the first good of each kind doubled) said, the General Store's bonus the first player's,
Spanish prices "leña a 1$", and "va a vender en la Tienda" / "en el Mercado"."""

from __future__ import annotations

import pytest

from tests.clients.test_nb_selling_spaces_words import LABELS, selling_game, selling_moves

JS = """async ([view, moves, events]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
    const ctx = (v) => ({ view: v, seat: 0, held: [0], game: { view: v } });
    return [moves.map((a) => r.describeAction(a, ctx(view))), events.map((e) => r.describeEvent(e, ctx(view)))];
}"""
OPENED = {"en": ["You go to sell at the General Store:", "You go to sell at the Market:"],
          "es": ["Vas a vender en la Tienda:", "Vas a vender en el Mercado:"]}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_general_store_and_the_market_say_their_own_rules(server, new_page, lang):
    view = selling_game().view(0)
    moves = selling_moves(view)
    opened = []
    for move in moves:
        g = selling_game()
        opened.append(next(e for e in g.act(0, move) if e["type"] == "sale_opened"))
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    labels, said = page.evaluate(JS, [view, moves, opened])
    owner = {"en": "Blue", "es": "Azul"}[lang]
    assert labels == [x.format(owner=owner) for x in LABELS[lang]]
    for line, start in zip(said, OPENED[lang], strict=True):
        assert line.startswith(start), line
