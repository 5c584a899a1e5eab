"""The terminal names the viewer's own seat in a sentence as the sentence needs ("la loseta es
tuya", "te paga 2$", "El turno pasa a ti"; "the tile is yours"), not "de asiento 1 (tú)" (the
cases: tests/clients/you_in_sentences.py)."""

from __future__ import annotations

import pytest
from tablero_client.render import describe_event, i18n, player_name

from .test_names_with_articles import seat_zero_game
from .you_in_sentences import CASES, WAITING, said

SEATS = {"new-bedford": 2, "founders-of-gloomhaven": 2, "phoenicia": 3, "riverboat": 2, "goofspiel": 2}



@pytest.mark.parametrize("lang", ["es", "en"])
def test_your_own_seat_fits_the_sentence(lang):
    i18n.set_language(lang)
    try:
        games = {e: seat_zero_game(e, n) for e, n in SEATS.items()}
        for engine, event, words in CASES:
            line = describe_event(event, games[engine])
            names = {"p1": player_name(games[engine], 1), "p2": player_name(games[engine], 2)}
            assert said(line, words[lang].format(**names)), (engine, event, line)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_waiting_for_you_and_two_others_is_a_list(lang):
    """Outside review: "esperando tu jugada y las de asiento 2 y asiento 3" (two "y"); a list now."""
    from tablero_client.render import messages, seats_args

    i18n.set_language(lang)
    try:
        game = seat_zero_game("phoenicia", 3)
        names = {"p1": player_name(game, 1), "p2": player_name(game, 2)}
        said_now = messages(game).format("play.waiting", seats_args(game, [0, 1, 2]))
        assert said_now == WAITING["play.waiting"][lang].format(**names), said_now
        line = messages(game).format("label.waiting_for", {**seats_args(game, [0, 1, 2]), "decision": "bid"})
        assert line == {"es": "te toca pujar; también les toca a {p1} y a {p2}",
                        "en": "waiting for you, {p1} and {p2} to bid"}[lang].format(**names), line
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "words"), [("es", "convocada por ti"), ("en", "called by you")])
def test_a_vote_you_called_says_so(lang, words):
    """The terminal's Founders vote read "convocada por asiento 1 (tú)" (the browser:
    tests/web/test_you_on_the_boards.py)."""
    from .test_founders_tiles_from_one import _game, founders_with_tiles

    game = _game(founders_with_tiles())
    game.view["vote"]["caller"] = 0
    text = _board(game, lang)
    assert words in text, text




def _board(game, lang: str) -> str:
    from rich.console import Console
    from tablero_client.render import render

    i18n.set_language(lang)
    try:
        console = Console(record=True, width=200, color_system=None)
        console.print(render(game))
        return console.export_text()
    finally:
        i18n.set_language("en")


# Founders' lines with a verb read "asiento 1 (tú) juega", "decide asiento 1 (tú)", "La coloca
# asiento 1 (tú)"; Phoenicia's waiting line "Esperando a asiento 1: …" when the seat is yours.
BOARD = {
    "es": {"founders": ["juegas (", "decides tú", "La colocas tú"], "phoenicia": ["Te toca: "],
           "phoenicia_with": ["Esperando tu jugada y la de asiento 2: "], "others": ["asiento 2 juega", "decide asiento 2",
                                                                              "La coloca asiento 2", "Esperando a asiento 2: "]},
    "en": {"founders": ["you play (", "you decide", "To be placed by you"], "phoenicia": ["Your move: "],
           "phoenicia_with": ["Waiting for you and seat 2: "], "others": ["seat 2 plays", "decider seat 2",
                                                                             "To be placed by seat 2", "Waiting for seat 2: "]},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_boards_lines_with_a_verb_say_you(lang):
    from .test_founders_tiles_from_one import _game as founders_game
    from .test_founders_tiles_from_one import founders_with_tiles

    def boards(seat: int, seats: list[int]) -> tuple[str, str]:
        fg = founders_game(founders_with_tiles())
        fg.view["current"] = {"seat": seat, "role": "play", "category": "build"}
        fg.view["vote"].update(decider=seat, placer=seat)
        ph = seat_zero_game("phoenicia", SEATS["phoenicia"])
        ph.view["awaiting"] = {"decision": "discard", "seats": seats}
        return _board(fg, lang), _board(ph, lang)

    words = BOARD[lang]
    fg, ph = boards(0, [0])
    assert all(w in fg for w in words["founders"]), fg
    assert all(w in ph for w in words["phoenicia"]), ph
    assert words["phoenicia_with"][0] in boards(0, [0, 1])[1]
    others = "\n".join(boards(1, [1]))
    assert all(w in others for w in words["others"]), others


@pytest.mark.parametrize(("lang", "seats", "words"), [
    ("es", [0], "esperando tu jugada…"), ("es", [0, 1], "esperando tu jugada y la de asiento 2…"),
    ("es", [1], "esperando a asiento 2…"),
    ("es", [0, 1, 2], "esperando tu jugada, la de asiento 2 y la de asiento 3…"), ("en", [0], "waiting for your move…"),
    ("en", [0, 1], "waiting for you and seat 2…"),
    ("en", [0, 1, 2], "waiting for you, seat 2 and seat 3…"), ("en", [1], "waiting for seat 2…")])
def test_waiting_for_your_own_move_says_so(lang, seats, words):
    """`play`'s line under the board read "esperando a asiento 1 (tú)…"."""
    from tablero_client.render import messages, seats_args

    i18n.set_language(lang)
    try:
        game = seat_zero_game("riverboat", SEATS["riverboat"])
        assert messages(game).format("play.waiting", seats_args(game, seats)) == words
    finally:
        i18n.set_language("en")
