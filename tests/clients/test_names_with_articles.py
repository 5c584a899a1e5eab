"""The terminal words a space's or a building's name with its article where the sentence needs one
("Trabajador a la Granja", "al Banco"), and the viewer's own seat as "Your pending step" / "tu
paso pendiente", not "Red (you)’s" (the cases: tests/clients/names_with_articles.py)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, i18n, player_name

from tablero import engines

from .names_with_articles import CASES, starts

SEATS = {"new-bedford": 2, "founders-of-gloomhaven": 2, "phoenicia": 3, "riverboat": 2}


def seat_zero_game(engine: str, seats: int) -> Game:
    """A new game of `engine` as seat 0 sees it (the terminal's Game, from an in-process game)."""
    g = engines.LocalGame(engine, seats=seats, seed=1)
    return Game(id="g1", engine=engine, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=0)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_names_take_their_article_and_your_own_seat_is_yours(lang):
    i18n.set_language(lang)
    try:
        games = {e: seat_zero_game(e, n) for e, n in SEATS.items()}
        for engine, kind, item, said in CASES:
            line = (action_label if kind == "action" else describe_event)(item, games[engine])
            names = {f"p{s}": player_name(games[engine], s) for s in (0, 1)}
            assert starts(line, said[lang].format(**names)), (engine, item, line)
            assert "(you)’s" not in line and "(you)'s" not in line, line
    finally:
        i18n.set_language("en")
