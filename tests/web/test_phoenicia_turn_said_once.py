"""Phoenicia's header said whose turn it is twice: "your turn · your turn to play" ("turno de Azul ·
esperando a que Azul juegue"), found by outside pass B. The turn is named only when someone else
than the active seat is awaited (an auction's bid: "turn: Blue · your turn to bid")."""

from __future__ import annotations

import random

import pytest

from tablero import engines

HEAD = """async ([view, lang]) => {
    await (await import('/js/i18n.js')).loadCatalog('phoenicia');
    const r = (await import('/js/render/index.js')).rendererFor('phoenicia');
    const root = r.render({ view, seat: 0, held: [0], seatNames: null, engine: 'phoenicia' });
    return root.querySelector('.box').textContent;
}"""

SAID = {"en": ("your turn", "your turn to play"), "es": ("tu turno", "te toca jugar")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_header_names_the_turn_once(server, new_page, lang):
    g = engines.LocalGame("phoenicia", seats=2, seed=3)
    rng = random.Random(1)
    while not (g.view(0).get("active") == 0 and g.view(0)["awaiting"].get("seats") == [0]
               and g.view(0)["awaiting"].get("decision") == "turn"):
        g.play_random(max_steps=1, rng=rng)
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    head = page.evaluate(HEAD, [g.view(0), lang])
    turn, play = SAID[lang]
    assert play in head and f"· {turn} ·" not in head and not head.rstrip().endswith(f"· {turn}"), head
