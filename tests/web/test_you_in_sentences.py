"""The browser names the viewer's own seat in a sentence as the sentence needs ("la loseta es
tuya", "te paga 2$", "El turno pasa a ti"; "the tile is yours"), not "de Rojo (tú)" (the cases:
tests/clients/you_in_sentences.py; the terminal: tests/clients/test_you_in_sentences.py)."""

from __future__ import annotations

import pytest

from tablero import engines
from tests.clients.you_in_sentences import CASES, WAITING, said

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
        out.push([r.describeEvent(item, ctx), w.seatName(ctx, 1), w.seatName(ctx, 2)]);
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
    for (engine, event, words), (line, p1, p2) in zip(CASES, lines, strict=True):
        assert said(line, words[lang].format(p1=p1, p2=p2)), (engine, event, line)
    # who is waited for, the viewer's seat among two others: a list (outside review: "esperando tu
    # jugada y las de Azul y Verde"; Phoenicia's "también les toca a Azul y Verde")
    waits = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        const w = await import('/js/words.js');
        await i18n.loadCatalog('phoenicia');
        const ctx = { engine: 'phoenicia', seat: 0, held: [0], seatNames: null };
        const args = w.seatsArgs(ctx, [0, 1, 2], i18n.catalog('tablero'));
        return [i18n.catalog('tablero').t('web.waiting', args), w.seatName(ctx, 1), w.seatName(ctx, 2),
                i18n.catalog('phoenicia').t('label.waiting_for', { ...w.seatsArgs(ctx, [0, 1, 2]), decision: 'bid' })];
    }""")
    names = {"p1": waits[1], "p2": waits[2]}
    assert waits[0] == WAITING["web.waiting"][lang].format(**names), waits
    assert waits[3] == {"es": "te toca pujar; también les toca a {p1} y a {p2}",
                        "en": "waiting for you, {p1} and {p2} to bid"}[lang].format(**names), waits
