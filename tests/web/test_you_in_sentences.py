"""The browser names the viewer's own seat in a sentence as the sentence needs ("la loseta es
tuya", "te paga 2$", "El turno pasa a ti"; "the tile is yours"), not "de Rojo (tú)" (the cases:
tests/clients/you_in_sentences.py; the terminal: tests/clients/test_you_in_sentences.py)."""

from __future__ import annotations

import pytest

from tablero import engines
from tests.clients.you_in_sentences import CASES, said

SEATS = {"new-bedford": 2, "founders-of-gloomhaven": 2, "phoenicia": 3, "riverboat": 2, "goofspiel": 2}
JS = """async (items) => {
    const i18n = await import('/js/i18n.js');
    const w = await import('/js/words.js');
    const index = await import('/js/render/index.js');
    const out = [];
    for (const [engine, item, view] of items) {
        await i18n.loadCatalog(engine);
        const r = index.rendererFor(engine);
        const ctx = { engine, view, seat: 0, held: [0], seatNames: null, game: { view } };
        out.push([r.describeEvent(item, ctx), w.seatName(ctx, 1)]);
    }
    return out;
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_your_own_seat_fits_the_sentence(server, new_page, lang):
    views = {e: engines.LocalGame(e, seats=n, seed=1).view(0) for e, n in SEATS.items()}
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    lines = page.evaluate(JS, [[engine, event, views[engine]] for engine, event, _ in CASES])
    for (engine, event, words), (line, p1) in zip(CASES, lines, strict=True):
        assert said(line, words[lang].format(p1=p1)), (engine, event, line)
