"""The boards' status lines name the viewer's own seat as the line needs it, as the log does
(tests/web/test_you_in_sentences.py): Founders' vote read "convocada por Rojo (tú)" and a prestige
building "trabajador de Rojo (tú)", Phoenicia's "turno de Rojo (tú)" and "puja de 5$ de Rojo (tú)".
They say "convocada por ti", "tu trabajador", "tu turno", "tu puja de 5$" ("called by you", "your
worker", "your turn", "your bid of $5"); another seat's stays "de Azul".
Lines with a verb read "Rojo (tú) juega", "decide Rojo (tú)", "esperando a que Rojo (tú) descarte",
"Esperando a Rojo (tú)." (the page's turn line): now "juegas", "decides tú", "te toca descartar;
también le toca a Azul", "Esperando tu jugada." ("you play", "you decide", "waiting for you and Blue to discard",
"Waiting for your move."; with others: "Waiting for you and Blue.")."""

from __future__ import annotations

import copy

import pytest

from tablero import engines
from tests.clients.test_founders_tiles_from_one import founders_with_tiles

JS = """async ([engine, view]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog(engine);
    const r = (await import('/js/render/index.js')).rendererFor(engine);
    const root = r.render({ engine, view, seat: 0, held: [0], seatNames: null, game: { view } });
    document.body.append(root);
    const text = root.innerText;
    root.remove();
    return text;
}"""

WAITING = """async (seats) => {
    const i18n = await import('/js/i18n.js');
    const w = await import('/js/words.js');
    const ctx = { engine: 'phoenicia', seat: 0, held: [0], seatNames: null };
    return seats.map((s) => i18n.catalog('tablero').t('web.waiting', w.seatsArgs(ctx, s, i18n.catalog('tablero'))));
}"""

WORDS = {
    "es": {"founders": ["convocada por ti", "tu trabajador", "trabajador de Azul", "juegas", "decides tú"],
           "phoenicia": ["tu turno", "tu puja de 5$", "te toca descartar; también le toca a Azul"],
           "other": ["puja de 5$ de Azul", "esperando a que Azul descarte"], "turn_of": "turno de Azul",
           "waiting": ["Esperando tu jugada.", "Esperando tu jugada y la de Azul.", "Esperando a Azul."]},
    "en": {"founders": ["called by you", "your worker", "worker Blue", "you play", "you decide"],
           "phoenicia": ["your turn", "your bid of $5", "waiting for you and Blue to discard"],
           "other": ["bid $5 by Blue", "waiting for Blue to discard"], "turn_of": "turn: Blue",
           "waiting": ["Waiting for your move.", "Waiting for you and Blue.", "Waiting for Blue."]},
}


def _phoenicia(seat: int) -> dict:
    view = copy.deepcopy(engines.LocalGame("phoenicia", seats=3, seed=1).view(0))
    view["active"] = seat
    view["auction"] = {"card": view["display"][0] if view.get("display") else "fort", "bid": 5, "leader": seat, "bidders": [0, 1]}
    view["awaiting"] = {"decision": "discard", "seats": [0, 1] if seat == 0 else [seat]}
    return view


@pytest.mark.parametrize("lang", ["es", "en"])
def test_your_own_seat_on_the_boards(server, new_page, lang):
    fg = copy.deepcopy(founders_with_tiles().view(0))
    fg["vote"]["caller"] = 0
    fg["prestige"][0]["worker"] = 0
    fg["prestige"][1]["worker"] = 1
    fg["current"] = {"seat": 0, "role": "play"}
    fg["vote"]["decider"] = 0
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    words = WORDS[lang]
    text = page.evaluate(JS, ["founders-of-gloomhaven", fg])
    assert all(w in text for w in words["founders"]), text
    mine = page.evaluate(JS, ["phoenicia", _phoenicia(0)])
    assert all(w in mine for w in words["phoenicia"]), mine
    other = page.evaluate(JS, ["phoenicia", _phoenicia(1)])
    assert all(w in other for w in words["other"]), other
    # Blue's turn, Blue awaited: the waiting line says it, "turn: Blue" is not said again (outside pass B)
    assert words["turn_of"] not in other, other
    bid = _phoenicia(1)
    bid["awaiting"] = {"decision": "bid", "seats": [0]}  # Blue's turn, your bid: both said
    assert words["turn_of"] in page.evaluate(JS, ["phoenicia", bid])
    assert page.evaluate(WAITING, [[0], [0, 1], [1]]) == words["waiting"]
