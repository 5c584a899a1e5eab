"""The terminal numbers seats from 1, as the browser does ("Asiento 1 (Rojo)" in its lobby:
engines/core/messages `web.seat_n` with n = index + 1): an outside tester read "asiento 0 (tú)" in
the terminal and "Asiento 1 (Rojo)" in the browser for the same seat. Flags, the API and --json
keep counting from 0 (`--seat 0` is shown as seat 1)."""

from __future__ import annotations

import pytest
from tablero_client.cli import parser
from tablero_client.models import Game, SeatInfo
from tablero_client.render import header, i18n, seat_name


@pytest.fixture(params=["en", "es"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _game(you: int) -> Game:
    return Game(id="g1", engine="tic-tac-toe", version=1, players=2, status="GAME_STATUS_RUNNING", to_act=[0],
                view={}, seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN"), SeatInfo(seat=1, kind="SEAT_KIND_BOT")],
                your_seat=you)


def test_seats_are_numbered_from_one_as_in_the_browser(lang):
    word = "seat" if lang == "en" else "asiento"
    you = "you" if lang == "en" else "tú"
    assert seat_name(_game(0), 0) == f"{word} 1 ({you})"
    assert seat_name(_game(0), 1) == f"{word} 2 (bot)"
    said = " ".join(str(p[0]) for p in header(_game(1)).parts)
    assert f"{word} 1" in said and f"{word} 2" in said and f"{word} 0" not in said, said


def test_the_seat_flag_still_counts_from_zero():
    p = parser()
    args = p.parse_args(["play", "tic-tac-toe", "--seat", "1"])
    assert args.seat == 1  # O, the second seat: shown as seat 2
    play = next(a for a in p._subparsers._group_actions[0].choices["play"]._actions if a.dest == "seat")
    assert "counted from 0" in play.help and "--seat 0 is shown as seat 1" in play.help
