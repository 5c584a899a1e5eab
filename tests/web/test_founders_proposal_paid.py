"""Founders of Gloomhaven in the browser: choosing a proposal that costs influence says what was paid
(outside pass B: "Rojo (tú) elige la propuesta 2 (Atalaya); la colocas tú." told nothing of the 2
fleeting influence the event's `pay` carries); a free proposal says nothing of it."""

from __future__ import annotations

import pytest

DESCRIBE = """async ([events]) => {
    const i18n = await import('/js/i18n.js');
    const cat = await i18n.loadCatalog('founders-of-gloomhaven');
    return events.map((e) => i18n.describe(cat, e, () => 'X'));
}"""

PAID = {"type": "proposal_chosen", "seat": 0, "proposal": 1, "placer": 0, "pay": {"fleeting": 0, "lasting": 2}}
FREE = {**PAID, "proposal": 0, "pay": {"fleeting": 0, "lasting": 0}}
SAID = {"es": ("X elige la propuesta 1 pagando 2 de influencia duradera; la coloca X.", "X elige la propuesta 0; la coloca X."),
        "en": ("X chooses proposal 1 for 2 lasting influence; X places it.", "X chooses proposal 0; X places it.")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_paid_proposal_says_what_was_paid(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    assert page.evaluate(DESCRIBE, [[PAID, FREE]]) == list(SAID[lang])
