"""The terminal's words for Founders' worker on the race board: "Worker to Race" / "Trabajador a
Raza" (the id taken for a card's name) now say the race action, as the log does."""

from __future__ import annotations

from tablero_client.render import action_label, i18n

from tablero import engines

from .test_render_words_ph_nb import _game


def test_a_worker_on_the_race_board_is_said_as_the_race_action():
    game = _game(engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1), "founders-of-gloomhaven")
    for lang, race, foundry in (("en", "Worker to your race action", "Worker to the Foundry"),
                                ("es", "Trabajador a tu acción de raza", "Trabajador a la Fundición")):
        i18n.set_language(lang)
        try:
            said = [action_label({"type": "place_worker", "target": t}, game).split(" — ")[0] for t in ("race", "foundry")]
        finally:
            i18n.set_language("en")
        assert said == [race, foundry], said


def test_playing_income_face_up_says_what_it_does():
    """Every card played face up says what it does but Income (two players): "Jugar Ingresos boca
    arriba" alone, beside "Jugar Comercio boca arriba — importa un recurso básico …"."""
    game = _game(engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1), "founders-of-gloomhaven")
    for lang, said in (("en", "Play Income face up — collect your income"), ("es", "Jugar Ingresos boca arriba — cobra tus ingresos")):
        i18n.set_language(lang)
        try:
            label = action_label({"type": "play_card", "card": "income", "face_up": True}, game)
        finally:
            i18n.set_language("en")
        assert label.startswith(said), label
