"""Founders of Gloomhaven: a building worth 1 point says "1 pto." / "1 pt", not "1 ptos." / "1 pts".
Found playing `tablero play founders-of-gloomhaven --players 2 --bot hard --lang es`: the proposals
read `Atalaya — necesita metal + conocimiento · 1 ptos. · I2 blanco`. The card texts, the prestige
buildings' state and the scoring term (`label.prestige_text`, `label.prestige_state`,
`label.term_points`) take the number's plural form, as `amount.points` does."""

from __future__ import annotations

import pytest
from tablero_client.render import i18n

ENGINE = "founders-of-gloomhaven"
ARGS = {"needs": "metal", "shape": "I2", "colour": "white", "has_action": "false", "action": "",
        "complete": "false", "has_worker": "false", "worker": ""}


@pytest.mark.parametrize(("lang", "one", "many"), [("es", "1 pto.", "2 ptos."), ("en", "1 pt ", "2 pts ")])
def test_one_point_is_singular(lang, one, many):
    cat = i18n.catalog(ENGINE, lang)
    assert cat is not None
    for key, arg in (("label.prestige_text", "points"), ("label.prestige_state", "points"), ("label.term_points", "n")):
        said_one = cat.format(key, {**ARGS, arg: 1}) + " "
        said_two = cat.format(key, {**ARGS, arg: 2}) + " "
        assert one in said_one and many not in said_one.replace("2", ""), (key, said_one)
        assert many in said_two, (key, said_two)
