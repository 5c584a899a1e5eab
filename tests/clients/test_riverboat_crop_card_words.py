"""Riverboat's log in English read "The crop card orange is revealed." (outside pass B; the Spanish
"Se revela la carta de cultivo naranja." was fine): the colour goes before the noun."""

from __future__ import annotations

from tablero_client.render import i18n


def test_the_revealed_crop_card_reads_as_english():
    cat = i18n.catalog("riverboat", "en")
    assert cat is not None
    said = i18n.describe(cat, {"type": "crop_card_revealed", "card": "orange"}, lambda s: "Red")
    assert said == "The orange crop card is revealed.", said
    es = i18n.catalog("riverboat", "es")
    assert es is not None
    assert i18n.describe(es, {"type": "crop_card_revealed", "card": "orange"}, lambda s: "Rojo") == "Se revela la carta de cultivo naranja."
