"""The line `play` keeps above the prompt (`You have: …` / `Tienes: …`) names one's goods in the
game's language. Found in Spanish: Phoenicia said `Tienes: 2 vp, 3 production, 1 hand size,
2 disks, 3 treasury spaces, 2 storehouses, 1 untrained y 2 training cost`, Riverboat
`Tienes: 13 workers, 3 monedas y 2 agrimensores`, Founders `Tienes: 7$ y 6 hand size`: the view's
own field names, and counters that are no goods (a training cost, treasury spaces)."""

from __future__ import annotations

import re

import pytest
from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.play import own_resources
from tablero_client.render import i18n

ENGINES = ["phoenicia", "riverboat", "founders-of-gloomhaven", "new-bedford"]


def _game(g, engine: str) -> Game:
    return Game(id="g1", engine=engine, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN" if i == 0 else "SEAT_KIND_BOT")
                       for i in range(g.seats)], your_seat=0, outcome=None)


def _lines(engine: str, lang: str, seeds=(1, 2)):
    """(the goods line, seat 0's own numbers) at seat 0's turns of random games."""
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        for seed in seeds:
            for n, (g, seat, _legal) in enumerate(random_turns(engine, 2, seed)):
                if n > 400:
                    break
                if seat == 0:
                    game = _game(g, engine)
                    line = own_resources(game)
                    if line is not None:
                        yield line, game.view["players"][0]
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_goods_line_is_worded_not_the_views_field_names(engine, lang):
    seen = 0
    for line, mine in _lines(engine, lang):
        seen += 1
        for k, n in mine.items():
            if not isinstance(n, int) or isinstance(n, bool) or n == 0:
                continue
            raw = k.replace("_", " ")
            if lang == "es":  # no field name of the view, in any form
                assert not re.search(rf"\b{re.escape(raw)}\b", line), (k, line)
            elif "_" in k or k == "vp":  # English: `1 hand size`, `2 vp` are field names, not words
                assert f"{n} {raw}" not in line, (k, line)
        assert "cost" not in line and "spaces" not in line and "coste" not in line, line
    assert seen > 5


def test_phoenicia_in_spanish_names_its_goods():
    line, mine = next(iter(_lines("phoenicia", "es", seeds=(1,))))
    assert line.startswith("Tienes: ")
    assert f"{mine['vp']} PV" in line and f"{mine['production']} de producción" in line, line

