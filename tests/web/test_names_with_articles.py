"""The browser words a space's or a building's name with its article where the sentence needs one
("Trabajador a la Granja", "al Banco", "de la Caza a la Minería"), and the viewer's own seat as
"Your mat" / "Tu finca", "Your pending step", "Your bid", not "Red (you)’s" (the cases:
tests/clients/names_with_articles.py; the terminal: tests/clients/test_names_with_articles.py)."""

from __future__ import annotations

import random

import pytest

from tablero import engines
from tests.clients.names_with_articles import CASES, starts

from .api_play import ApiGame

SEATS = {"new-bedford": 2, "founders-of-gloomhaven": 2, "phoenicia": 3, "riverboat": 2}
JS = """async (items) => {
    const i18n = await import('/js/i18n.js');
    const w = await import('/js/words.js');
    const index = await import('/js/render/index.js');
    const out = [];
    for (const [engine, kind, item, view] of items) {
        await i18n.loadCatalog(engine);
        const r = index.rendererFor(engine);
        const ctx = { engine, view, seat: 0, held: [0], seatNames: null, game: { view } };
        const line = kind === 'action' ? r.describeAction(item, ctx) : r.describeEvent(item, ctx);
        out.push([line, w.seatName(ctx, 0), w.seatName(ctx, 1)]);
    }
    return out;
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_names_take_their_article_and_your_own_seat_is_yours(server, new_page, lang):
    views = {e: engines.LocalGame(e, seats=n, seed=1).view(0) for e, n in SEATS.items()}
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(JS, [[engine, kind, item, views[engine]] for engine, kind, item, _ in CASES])
    for (engine, _, item, words), (line, p0, p1) in zip(CASES, said, strict=True):
        assert starts(line, words[lang].format(p0=p0, p1=p1)), (engine, item, line)
        assert "(you)’s" not in line and "(you)'s" not in line, line


# The viewer's own mat, tableau and bid on the board (a label each client-side template words).
MINE = {
    "riverboat": (".player.me", "aria-label", {"es": "Tu finca", "en": "Your mat"}),
    "phoenicia": (".player.me", "aria-label", {"es": "Tus tarjetones", "en": "Your tableau"}),
    "founders-of-gloomhaven": (".player.me", "aria-label", {"es": "Tu tablero", "en": "Your mat"}),
}


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("engine", sorted(MINE))
def test_your_own_mat_is_named_yours(server, new_page, engine, lang):
    game = ApiGame(server.url, engine, ["human", "bot"])
    selector, attribute, words = MINE[engine]
    page = new_page(390, 844, lang=lang)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(selector)
    assert page.get_attribute(selector, attribute) == words[lang]
    others = page.eval_on_selector_all(".player:not(.me)[aria-label]", "els => els.map((e) => e.getAttribute('aria-label'))")
    assert others and all(o.split()[0] not in words[lang] for o in others), others  # "Finca de Azul"


def test_your_own_goofspiel_bid_is_yours(server, new_page):
    game = ApiGame(server.url, "goofspiel", ["human", "bot"])
    game.play(random.Random(1), lambda g: bool((g.get(0).get("view") or {}).get("history")))
    page = new_page(lang="es")
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".gs-history thead th")
    heads = page.eval_on_selector_all(".gs-history thead th", "els => els.map((e) => e.innerText.trim())")
    assert "Tu puja" in heads and "Puja de Azul" in heads and not any("(tú)" in h for h in heads), heads
