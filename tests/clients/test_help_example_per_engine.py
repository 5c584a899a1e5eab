"""The terminal's help (`?`) gave a Founders square as the example of words that find a move ("a
square: E9") in every game; the example is now the engine's own (`label.find_example` in its
catalog), and a game without one gives none (outside pass)."""

from __future__ import annotations

import pytest
from tablero_client import play
from tablero_client.render import i18n

from tests.clients.test_names_with_articles import seat_zero_game


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_help_gives_a_square_as_its_example_only_where_moves_name_squares(lang):
    i18n.set_language(lang)
    try:
        play._HELP_GAME["game"] = seat_zero_game("founders-of-gloomhaven", 2)
        assert play.help_text().endswith({"en": "find it (a square: E9).", "es": "la buscan (una casilla: E9)."}[lang])
        for engine in ("riverboat", "new-bedford", "phoenicia"):
            play._HELP_GAME["game"] = seat_zero_game(engine, 2)
            text = play.help_text()
            assert "E9" not in text and text.endswith({"en": "find it.", "es": "la buscan."}[lang]), (engine, text)
    finally:
        play._HELP_GAME.pop("game", None)
        i18n.set_language("en")
