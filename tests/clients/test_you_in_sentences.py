"""The terminal names the viewer's own seat in a sentence as the sentence needs ("la loseta es
tuya", "te paga 2$", "El turno pasa a ti"; "the tile is yours"), not "de asiento 1 (tú)" (the
cases: tests/clients/you_in_sentences.py)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n, player_name

from tablero import engines

from .you_in_sentences import CASES, said

SEATS = {"new-bedford": 2, "founders-of-gloomhaven": 2, "phoenicia": 3, "riverboat": 2, "goofspiel": 2}


def _game(engine: str) -> Game:
    g = engines.LocalGame(engine, seats=SEATS[engine], seed=1)
    return Game(id="g1", engine=engine, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=0)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_your_own_seat_fits_the_sentence(lang):
    i18n.set_language(lang)
    try:
        games = {e: _game(e) for e in SEATS}
        for engine, event, words in CASES:
            line = describe_event(event, games[engine])
            assert said(line, words[lang].format(p1=player_name(games[engine], 1))), (engine, event, line)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "words"), [("es", "convocada por ti"), ("en", "called by you")])
def test_a_vote_you_called_says_so(lang, words):
    """The terminal's Founders vote read "convocada por asiento 1 (tú)" (the browser:
    tests/web/test_you_on_the_boards.py)."""
    from rich.console import Console
    from tablero_client.render import render

    from .test_founders_tiles_from_one import _game, founders_with_tiles

    game = _game(founders_with_tiles())
    game.view["vote"]["caller"] = 0
    i18n.set_language(lang)
    try:
        console = Console(record=True, width=200, color_system=None)
        console.print(render(game))
        text = console.export_text()
    finally:
        i18n.set_language("en")
    assert words in text, text


