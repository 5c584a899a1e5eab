"""New Bedford against a Captain in the browser, as in the terminal (an outside tester's findings):
the $1 for using a Captain's building goes to the supply (solo rules p.12,
../shared/rules/000_d80ea33544e097da.txt L533: "El Capitán nunca paga ni recoge mercancías o
dinero"), never "paga 1$ al Capitán Starbuck"; a Captain using the player's building gives the
player $1 from the supply (L568); a space's first-player bonus is offered only while this worker
would take it. Real views and events, worded by the page's own renderer in Spanish and English."""

from __future__ import annotations

import pytest

from tests.engines.new_bedford.captain_helpers import cap, solo, turn
from tests.engines.new_bedford.helpers import own, place

JS = """async ([lang, items]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
    return items.map(([kind, view, x]) => {
        const ctx = { view, seat: 0, held: [0], game: { view } };
        return kind === 'action' ? r.describeAction(x, ctx) : r.describeEvent(x, ctx);
    });
}"""


def _items():
    items = []
    g = solo(["starbuck"])  # the player at Starbuck's Bank, then his Lumber Mill
    own(g, cap(g, "starbuck"), "bank", "lumber_mill")
    g.state["players"][0]["lumber"] = 2
    g.state["placed"] = 1
    view = g.view(0)
    mill = next(o["action"] for o in view["pending"]["options"] if (o.get("effect") or {}).get("space") == "lumber_mill")
    items += [["action", view, {"type": "place_worker", "space": "bank"}], ["action", view, mill]]
    e = next(e for e in place(g, 0, "bank") if e["type"] == "worker_placed")
    items.append(["event", g.view(0), e])
    g = solo(["starbuck"])  # Starbuck at the player's Bank
    own(g, 0, "bank")
    items.append(["event", g.view(0), turn(g, cap(g, "starbuck"), "money")])
    g = solo(["starbuck"])  # Starbuck takes the Forest's bonus first
    assert turn(g, cap(g, "starbuck"), "lumber")["space"] == "forest"
    view = g.view(0)
    items += [["action", view, {"type": "place_worker", "space": "forest"}],
              ["action", view, {"type": "place_worker", "space": "farm"}]]
    return items


WORDS = {
    "es": ["paga 1$ a la reserva", "paga antes 1$ a la reserva", "1$ de tarifa a la reserva", "; coges 1$ de la reserva",
           "añade 2 de leña", "(primer jugador"],
    "en": ["pay $1 to the supply", "pay $1 to the supply first", "fee to the supply", "; you take $1 from the supply",
           "gain 2 lumber", "(first player"],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_fees_to_a_captain_go_to_the_supply_and_a_taken_bonus_is_not_offered(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    bank, mill, paid, took, forest, farm = page.evaluate(JS, [lang, _items()])
    fee, sale_fee, log_fee, takes, lumber, bonus = WORDS[lang]
    assert fee in bank and "Starbuck" in bank and "al Capitán" not in bank and "to Captain" not in bank, bank
    assert sale_fee in mill, mill
    assert log_fee in paid and "pagando al Capitán" not in paid and "paying Captain" not in paid, paid
    assert takes in took and "tarifa" not in took and "fee" not in took, took
    assert lumber in forest and bonus not in forest, forest
    assert bonus in farm, farm
