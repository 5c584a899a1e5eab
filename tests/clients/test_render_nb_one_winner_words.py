"""New Bedford's log lines in words, found playing in Spanish (`tablero play new-bedford
--players 2 --bot hard`): the last line said "Termina la partida. Puntuaciones: asiento 1 (tú) 21
y asiento 2 (bot difícil) 25; ganadores: asiento 2 (bot difícil)." (a plural label for one winner;
Riverboat, Phoenicia and Founders say "gana …", and "empate entre …" for a tie, which New Bedford
said as "ganadores: … y …" too), and ships coming home "…hacia casa; regresa 1." (1 what?)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n

END = {"type": "game_ended", "scores": [21, 25], "winners": [1], "captain_winners": []}
TIE = {"type": "game_ended", "scores": [25, 25], "winners": [0, 1], "captain_winners": []}
TIE_CAPTAIN = {"type": "game_ended", "scores": [25], "winners": [0], "captain_winners": ["ahab"]}


def _game(seats: int) -> Game:
    return Game(id="g1", engine="new-bedford", version=99, players=seats, status="GAME_STATUS_FINISHED", to_act=[],
                view={}, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(seats)], your_seat=0)


@pytest.mark.parametrize(("lang", "one", "tie", "tie_captain"), [
    ("es", "; gana asiento 2.", "; empate entre asiento 1 (tú) y asiento 2.", "; empate entre asiento 1 (tú) y el Capitán Ahab."),
    ("en", "; winner: seat 2.", "; a tie between seat 1 (you) and seat 2.", "; a tie between seat 1 (you) and Captain Ahab."),
])
def test_one_winner_wins_and_a_tie_is_a_tie(lang, one, tie, tie_captain):
    i18n.set_language(lang)
    try:
        assert describe_event(END, _game(2)).endswith(one), describe_event(END, _game(2))
        assert describe_event(TIE, _game(2)).endswith(tie), describe_event(TIE, _game(2))
        assert describe_event(TIE_CAPTAIN, _game(1)).endswith(tie_captain), describe_event(TIE_CAPTAIN, _game(1))
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("es", "; regresa 1 barco.", "; regresan 2 barcos."),
    ("en", "; 1 ship returns.", "; 2 ships return."),
])
def test_ships_returning_are_counted_as_ships(lang, one, two):
    """"Todos los barcos en el mar avanzan un espacio hacia casa; regresa 1." (1 what?)."""
    i18n.set_language(lang)
    try:
        said = [describe_event({"type": "ships_moved", "final": False, "returning": r}, _game(2))
                for r in ([[0, 1]], [[0, 1], [1, 0]])]
        assert said[0].endswith(one) and said[1].endswith(two), said
    finally:
        i18n.set_language("en")
