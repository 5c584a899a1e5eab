"""Founders of Gloomhaven: choosing a proposal that costs influence (solo: the middle card 2 fleeting,
the right one 2 lasting, rulebook p. 18) said only "Rojo (tú) elige la propuesta 2; la colocas tú."
Found by outside pass B: the event carries `pay`, and the player could not see where the influence
went. The line says what was paid, and nothing for the free proposal."""

from __future__ import annotations

import pytest
from tablero_client.render import i18n

ENGINE = "founders-of-gloomhaven"
PAID = {"type": "proposal_chosen", "seat": 0, "proposal": 1, "placer": 0, "pay": {"fleeting": 2, "lasting": 0}}
FREE = {**PAID, "proposal": 0, "pay": {"fleeting": 0, "lasting": 0}}
SAID = {"es": ("Rojo elige la propuesta 1 pagando 2 de influencia temporal; la coloca Rojo.",
               "Rojo elige la propuesta 0; la coloca Rojo."),
        "en": ("Red chooses proposal 1 for 2 fleeting influence; Red places it.", "Red chooses proposal 0; Red places it.")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_paid_proposal_says_what_was_paid(lang):
    cat = i18n.catalog(ENGINE, lang)
    assert cat is not None
    who = {"es": "Rojo", "en": "Red"}[lang]
    assert i18n.describe(cat, PAID, lambda s: who) == SAID[lang][0]
    assert i18n.describe(cat, FREE, lambda s: who) == SAID[lang][1]
