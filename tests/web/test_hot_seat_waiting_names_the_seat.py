"""Hot seat (several seats of one game held in this browser): the turn line named no seat. With
the seat shown ("Playing as") not to move and another of the held seats to move, it read
"Waiting for your move." — whose move, of the players around the screen? (outside review). With
several seats held, the line names them: "Waiting for Blue." / "Esperando a Azul." (as Phoenicia's
board line: "waiting for Blue to bid"). One seat held: "Waiting for your move." as before."""

from __future__ import annotations

import pytest

JS = """async ([engine, held, toAct]) => {
    const i18n = await import('/js/i18n.js');
    const w = await import('/js/words.js');
    await i18n.loadCatalog(engine);
    const ctx = { engine, seat: held[0], held, seatNames: null };
    return [i18n.catalog('tablero').t('web.waiting', w.seatsArgs(ctx, toAct, i18n.catalog('tablero'))),
            i18n.catalog('phoenicia').t('label.waiting_for', { ...w.seatsArgs(ctx, toAct), decision: 'bid' })];
}"""

CASES = [  # (held, to act, {lang: (the turn line, Phoenicia's board line)})
    ([0, 1], [1], {"en": ("Waiting for Blue.", "waiting for Blue to bid"),
                   "es": ("Esperando a Azul.", "esperando a que Azul puje")}),
    ([0, 1, 2], [1, 2], {"en": ("Waiting for Blue and Green.", "waiting for Blue and Green to bid"),
                         "es": ("Esperando a Azul y Verde.", "esperando a que Azul y Verde pujen")}),
    ([0], [0], {"en": ("Waiting for your move.", "your turn to bid"), "es": ("Esperando tu jugada.", "te toca pujar")}),
]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_hot_seats_waiting_line_names_the_seat_to_move(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    for held, to_act, words in CASES:
        got = page.evaluate(JS, ["phoenicia", held, to_act])
        assert tuple(got) == words[lang], (held, to_act, got)
