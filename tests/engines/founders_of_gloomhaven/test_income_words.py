"""Income is told without a zero part, in the terminal's formatter and the browser's (the vendored
intl-messageformat, run by node): a player without houses read "Azul (tú) cobra 3$ y 0 de
influencia fugaz" at every vote."""

from __future__ import annotations

import json

from tablero_client.render.i18n import Catalog

from .browser_words import MESSAGES, browser_words

CASES = [  # money, fleeting -> English, Spanish
    ((3, 0), "Blue collects $3.", "Blue cobra 3$."),
    ((3, 2), "Blue collects $3 and 2 fleeting influence.", "Blue cobra 3$ y 2 de influencia temporal."),
    ((1, 1), "Blue collects $1 and 1 fleeting influence.", "Blue cobra 1$ y 1 de influencia temporal."),
]


def _args(case):
    return {"who": "Blue", "money": case[0], "fleeting": case[1]}


def test_the_terminal_and_the_browser_word_income_without_a_zero_part():
    want = {"en": [en for _, en, _ in CASES], "es": [es for _, _, es in CASES]}
    for lang in ("en", "es"):
        cat = Catalog(json.loads((MESSAGES / f"{lang}.json").read_text()), lang)
        assert [cat.format("event.income_collected", _args(c)) for c, _, _ in CASES] == want[lang]
    got = browser_words("event.income_collected", [_args(c) for c, _, _ in CASES])
    assert got == want
