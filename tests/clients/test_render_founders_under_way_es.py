"""Founders of Gloomhaven's "under way" line in the terminal, in Spanish. Found playing
(`LANG=es_ES.UTF-8 tablero play founders-of-gloomhaven`): a follow of the Income card read
`En curso: asiento 1 (tú) sigue (any)` (category `any` had no word in the catalogs, so the
browser's `label.current` said "(any)" too), and an adviser's bonus of roads read
`bonificación roads 1` (the bonus's keys as sent, where the catalogs word amounts by
`amount.<key>`: `1 carretera`)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render


def _under_way(lang: str, want) -> str:
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        for seed in range(1, 6):
            for g, _seat, _legal in random_turns("founders-of-gloomhaven", 2, seed):
                v = g.view(0)
                if isinstance(v.get("current"), dict) and want(v["current"]):
                    game = Game(id="g1", engine="founders-of-gloomhaven", version=g.version, players=g.seats,
                                status="GAME_STATUS_RUNNING", to_act=sorted(g.to_act()), view=v,
                                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)],
                                your_seat=0, outcome=None)
                    console = Console(record=True, width=400, color_system=None, file=io.StringIO())
                    console.print(render(game))
                    return next(x for x in console.export_text().splitlines() if x.startswith(("En curso", "Under way")))
        raise AssertionError("no random game reached it")
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("lang,words", [("es", "(Cualquier acción)"), ("en", "(Any action)")])
def test_a_follow_of_the_income_card_names_its_category_in_words(lang, words):
    line = _under_way(lang, lambda cur: cur.get("category") == "any")
    assert "(any)" not in line and words in line, line


def test_a_bonus_of_roads_is_an_amount_in_spanish():
    line = _under_way("es", lambda cur: (cur.get("bonus") or {}).get("roads"))
    assert "roads" not in line and "carretera" in line, line
