"""Phoenicia's pending payment and discard lines under the board, in the game's language. Found
in Spanish: `pago: asiento asiento 0 (tú), precio 2, …` (the seat's label before a name that
already says "asiento"), and a discard told in English (`Too many cards: seat 1 (bot) discards
2 cards`) whatever the language."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render


def _game(g) -> Game:
    return Game(id="g1", engine="phoenicia", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN" if i == 0 else "SEAT_KIND_BOT") for i in range(g.seats)],
                your_seat=0, outcome=None)


def _text(renderable) -> str:
    console = Console(record=True, width=220, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _screens(key: str, lang: str, want: int = 3):
    """Boards of random 3-seat games while the view has `key` pending (payment, discard)."""
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        got = []
        for seed in range(1, 40):
            for g, _seat, _legal in random_turns("phoenicia", 3, seed):
                if g.view(0).get(key):
                    got.append(_text(render(_game(g))))
                    break
            if len(got) >= want:
                break
        return got
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("lang,seat_word", [("es", "asiento"), ("en", "seat")])
def test_a_pending_payment_names_the_payer_once(lang, seat_word):
    screens = _screens("payment", lang)
    assert screens
    for text in screens:
        line = next(x for x in text.splitlines() if x.startswith(("pago:", "payment:")))
        assert f"{seat_word} {seat_word}" not in line.lower(), line


def test_a_pending_discard_is_told_in_spanish():
    screens = _screens("discard", "es", want=1)
    assert screens, "no random game reached a discard"
    for text in screens:
        assert "Too many cards" not in text and "discards" not in text and "discard:" not in text, text[-800:]
        assert "Demasiadas cartas" in text, text[-800:]
