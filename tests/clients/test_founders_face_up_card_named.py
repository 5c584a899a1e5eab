"""Founders of Gloomhaven: a card played face up is named in the log, in both languages. Found
playing `tablero play founders-of-gloomhaven --players 2 --bot hard --lang es`: the lines since
one's last turn read `Asiento 1 (bot) juega una carta boca arriba.` and never said which card,
although a face-up card is public (the event carries it as `card`, the view shows it) and it is
what the other players may follow. A face-down card stays unnamed to the others and is named to
its owner (`private_card`), as before."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n

from tablero import engines

ENGINE = "founders-of-gloomhaven"


def _game(g: engines.LocalGame, you: int | None) -> Game:
    view = g.view(you)
    return Game(id="g1", engine=ENGINE, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(view["to_act"]), view=view,
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you)


@pytest.mark.parametrize(("lang", "up", "down"), [("en", "face up", "face down"), ("es", "boca arriba", "boca abajo")])
def test_a_face_up_card_is_named_and_a_face_down_one_only_to_its_owner(lang, up, down):
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        g = engines.LocalGame(ENGINE, seats=2, seed=3)
        game = _game(g, 1)
        names = {"en": {"upgrade": "Upgrade", "trade": "Trade", "income": "Income"},
                 "es": {"upgrade": "Mejorar", "trade": "Comercio", "income": "Ingresos"}}[lang]
        for card, name in names.items():
            line = describe_event({"type": "card_played", "seat": 0, "face_up": True, "card": card}, game)
            assert up in line and name in line, (line, name)
        hidden = describe_event({"type": "card_played", "seat": 0, "face_up": False}, game)
        assert down in hidden and "(" not in hidden.split(down, 1)[1], hidden
        own = describe_event({"type": "card_played", "seat": 1, "face_up": False,
                              "private": {"1": {"card": "trade"}}}, game)
        assert down in own and names["trade"] in own, own
    finally:
        i18n.set_language(before)
