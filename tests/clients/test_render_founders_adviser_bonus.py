"""Founders of Gloomhaven in the terminal, an outside tester's findings from the browser: an
adviser's bonus in the catalog's words ("+2 carreteras", "+1 de influencia temporal", not "+2 roads",
"+1 fleeting"), its category capitalised as the other kinds ("Comercio" beside "Mejorar"), an empty
hand "ninguna" (feminine)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n
from tablero_client.render.founders_of_gloomhaven import _card_text, _own_hand

from tablero import engines


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


def _game(view: dict) -> Game:
    return Game(id="g1", engine="founders-of-gloomhaven", version=1, players=2, status="GAME_STATUS_RUNNING",
                to_act=[0], view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)], your_seat=0)


def test_an_advisers_bonus_and_category_in_spanish(spanish):
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(0)
    game = _game(view)
    surveyor = _card_text(game, view["cards"]["surveyor"], "surveyor")
    merchant = _card_text(game, {**view["cards"]["merchant"], "bonus": {"fleeting": 1, "roads": 1}}, "merchant")
    assert "Mejorar · " in surveyor and "+2 carreteras" in surveyor and "roads" not in surveyor, surveyor
    assert "Comercio · " in merchant and "+1 de influencia temporal, +1 carretera" in merchant, merchant


def test_an_empty_hand_reads_ninguna(spanish):
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(0)
    view["players"][0]["hand"] = []
    assert _own_hand(_game(view)).plain.endswith("ninguna")
