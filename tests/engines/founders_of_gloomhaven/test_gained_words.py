"""A gain is told without its zero parts, in the terminal's formatter and the browser's (the
vendored intl-messageformat, run by node): an outside player's Founders log read "gains $0,
0 fleeting and 2 lasting influence, 0 points"."""

from __future__ import annotations

import json

import pytest
from tablero_client.render.i18n import Catalog

from .browser_words import MESSAGES, browser_words

CASES = [  # money, fleeting, lasting, points -> English, Spanish
    ((3, 2, 1, 1), "Red gains $3, 2 fleeting and 1 lasting influence, 1 point.",
     "Red gana 3$, 2 de influencia temporal y 1 duradera, 1 punto."),
    ((0, 0, 2, 0), "Red gains 2 lasting influence.", "Red gana 2 de influencia duradera."),
    ((0, 2, 0, 0), "Red gains 2 fleeting influence.", "Red gana 2 de influencia temporal."),
    ((5, 0, 0, 2), "Red gains $5, 2 points.", "Red gana 5$, 2 puntos."),
    ((0, 1, 0, 1), "Red gains 1 fleeting influence, 1 point.", "Red gana 1 de influencia temporal, 1 punto."),
    ((0, 0, 0, 0), "Red gains nothing.", "Red no gana nada."),
]


def _args(case):
    money, fleeting, lasting, points = case
    return {"who": "Red", "money": money, "fleeting": fleeting, "lasting": lasting, "points": points}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_terminal_words_a_gain_without_its_zero_parts(lang):
    cat = Catalog(json.loads((MESSAGES / f"{lang}.json").read_text()), lang)
    for case, en, es in CASES:
        assert cat.format("event.gained", _args(case)) == (en if lang == "en" else es)


def test_the_browser_words_a_gain_alike():
    got = browser_words("event.gained", [_args(c) for c, _, _ in CASES])
    assert got == {"en": [en for _, en, _ in CASES], "es": [es for _, _, es in CASES]}
