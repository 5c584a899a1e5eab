"""Founders of Gloomhaven's tiles are numbered from 1 in what players read, as a person counts
(the terminal: tests/clients/test_founders_tiles_from_one.py): a tile one can choose was named
"Tile 0", and "Buy access to tile 0 (…)" named the API's first tile (its ids stay from 0)."""

from __future__ import annotations

import pytest

from tests.clients.test_founders_tiles_from_one import founders_with_tiles

JS = """async (view) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('founders-of-gloomhaven');
    const r = (await import('/js/render/index.js')).rendererFor('founders-of-gloomhaven');
    const ctx = { engine: 'founders-of-gloomhaven', view, seat: 0, held: [0], seatNames: null, game: { view } };
    const root = r.render(ctx);
    return {
        picks: Array.from(root.querySelectorAll('[data-pick-field=tile]')).map((e) => e.dataset.pickLabel),
        action: r.describeAction({ type: 'access', tile: 0 }, ctx),
        event: r.describeEvent({ type: 'access_bought', seat: 1, tile: 1, cost: 3 }, ctx),
        unknown: r.describeEvent({ type: 'access_bought', seat: 1, tile: 999, cost: 3 }, ctx),
    };
}"""


@pytest.mark.parametrize(("lang", "tile"), [("es", "Loseta"), ("en", "Tile")])
def test_tiles_read_from_one(server, new_page, lang, tile):
    view = founders_with_tiles().view(0)
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(JS, view)
    n = len(view["tiles"])
    assert f"{tile} 1" in said["picks"] and f"{tile} {n}" in said["picks"] and f"{tile} 0" not in said["picks"], said
    word = tile.lower()
    assert f" {word} 1 (" in said["action"] and f" {word} 2 (" in said["event"], said
    assert f" {word} 1000 " in said["unknown"], said
