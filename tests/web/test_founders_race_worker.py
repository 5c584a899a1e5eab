"""Founders of Gloomhaven: the basic action that puts a worker on the player's race board read
"Trabajador a Raza" / "Worker to Race" (the id "race" taken for a card's name), which told a
player nothing; the log already said "coloca un trabajador en su acción de raza"."""

from __future__ import annotations

import pytest

ACTIONS = """async ([actions]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('founders-of-gloomhaven');
    const r = (await import('/js/render/index.js')).rendererFor('founders-of-gloomhaven');
    return actions.map((a) => r.describeAction(a, { view: {}, seat: 0, held: [0], game: { view: {} } }));
}"""

SAID = {"es": "Trabajador a tu acción de raza", "en": "Worker to your race action"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_worker_on_the_race_board_is_said_as_the_race_action(server, new_page, lang):
    page = new_page(390, 844, lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(ACTIONS, [[{"type": "place_worker", "target": "race"}]])
    assert [s.split(" — ")[0] for s in said] == [SAID[lang]], said


INCOME = {"es": "Jugar Ingresos boca arriba — cobra tus ingresos", "en": "Play Income face up — collect your income"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_playing_income_face_up_says_what_it_does(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(ACTIONS, [[{"type": "play_card", "card": "income", "face_up": True}]])
    assert said[0].startswith(INCOME[lang]), said
