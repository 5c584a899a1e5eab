"""The boards' status lines name the viewer's own seat as the line needs it, as the log does
(tests/web/test_you_in_sentences.py): Founders' vote read "convocada por Rojo (tú)" and a prestige
building "trabajador de Rojo (tú)", Phoenicia's "turno de Rojo (tú)" and "puja de 5$ de Rojo (tú)".
They say "convocada por ti", "tu trabajador", "tu turno", "tu puja de 5$" ("called by you", "your
worker", "your turn", "your bid of $5"); another seat's stays "de Azul"."""

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

WORDS = {
    "es": {"founders": ["convocada por ti", "tu trabajador", "trabajador de Azul"],
           "phoenicia": ["tu turno", "tu puja de 5$"], "other": ["turno de Azul", "puja de 5$ de Azul"]},
    "en": {"founders": ["called by you", "your worker", "worker Blue"],
           "phoenicia": ["your turn", "your bid of $5"], "other": ["turn: Blue", "bid $5 by Blue"]},
}


def _phoenicia(seat: int) -> dict:
    view = copy.deepcopy(engines.LocalGame("phoenicia", seats=3, seed=1).view(0))
    view["active"] = seat
    view["auction"] = {"card": view["display"][0] if view.get("display") else "fort", "bid": 5, "leader": seat, "bidders": [0, 1]}
    return view


@pytest.mark.parametrize("lang", ["es", "en"])
def test_your_own_seat_on_the_boards(server, new_page, lang):
    fg = copy.deepcopy(founders_with_tiles().view(0))
    fg["vote"]["caller"] = 0
    fg["prestige"][0]["worker"] = 0
    fg["prestige"][1]["worker"] = 1
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
