"""New Bedford's words in the browser (Spanish and English), from real solo games against Captain
Ahab (tests/engines/new_bedford/sold_whales.py): "paying their lays" for a single whale;
"Captain Ahab buys a bowhead whale for $0" (Captains use no money: solo rules p.11 step 4, p.12);
"Red (you)’s ship 1 comes home" for the player's own ship; and the header names the Captain a
solo game is played against. The terminal's words: tests/clients/test_nb_words_lays_you_captains.py."""

from __future__ import annotations

import pytest

from tests.clients.test_nb_words_lays_you_captains import RETURN, SAID
from tests.engines.new_bedford.sold_whales import sold_whale_games

from .api_play import ApiGame

JS = """async ([events, actions]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
    return [events.map(([view, e]) => r.describeEvent(e, { view, seat: 0, held: [0], game: { view } })),
            actions.map(([view, a]) => r.describeAction(a, { view, seat: 0, held: [0], game: { view } }))];
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_returns_and_captains_purchases_are_worded_for_the_player(server, new_page, lang):
    found = sold_whale_games()
    keys = list(SAID[lang])
    events = [[found[k][0].view(0), found[k][1]] for k in keys]
    view = found["kept_one"][0].view(0)
    moves = [[view, {"type": "return_ship", "pay": {"right": n, "bowhead": 0, "sperm": 0},
                     "sell": {"right": 0, "bowhead": 0, "sperm": 0}}] for n in (1, 2)]
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said, labels = page.evaluate(JS, [events, moves])
    for key, line in zip(keys, said, strict=True):
        assert line.startswith(SAID[lang][key]), (key, line)
        assert "(you)" not in line and "(tú)" not in line and "$0" not in line and "0$" not in line, line
    assert [x.split(" — ")[0] for x in labels] == RETURN[lang]


HEAD = {"en": "Captain Starbuck", "es": "Capitán Starbuck"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_solo_header_names_the_captain_played_against(server, new_page, lang):
    game = ApiGame(server.url, "new-bedford", ["human"])
    page = new_page(390, 844, lang=lang)
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".table-head .seat-list")
    assert HEAD[lang] in page.inner_text(".table-head")
