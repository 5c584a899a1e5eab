"""Riverboat's coin actions say that they cost a coin (audit-rb). seed-R: "Habilidad de monedas:
elige una loseta de cultivo de 1 o 2 hexágonos del mazo de robo" / "elige 1 carta de oportunidad de
la pila de robo"; the coin is paid when the pile or deck is searched (or the top card drawn), and
once paid "debes tomar una ficha de la pila de robo". The actions offered read "Search the size-2
pile", "Search the opportunity deck", "Draw a size-1 tile", "Draw an opportunity card" (and their
kinds "Search pile"...), nothing telling the player a coin goes with them, while a coin boat or a
coin worker said "(pay a coin)"."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, i18n, step_label

from tablero import engines

COIN = {"en": ("pay a coin", "coin"), "es": ("pagar una moneda", "moneda")}
ACTIONS = [{"type": "search_pile", "size": 2}, {"type": "draw_tile", "size": 1},
           {"type": "search_opportunity_deck"}, {"type": "draw_opportunity"}]


def _game() -> Game:
    view = engines.LocalGame("riverboat", seats=2, seed=1).view(None)
    return Game(id="g1", engine="riverboat", version=2, players=2, status="GAME_STATUS_RUNNING", to_act=[],
                view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)], your_seat=0)


@pytest.mark.parametrize("action", ACTIONS, ids=[a["type"] for a in ACTIONS])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_coin_action_and_its_kind_name_the_coin(lang, action):
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        game = _game()
        label, kind = action_label(action, game), step_label("type", action["type"], game)
    finally:
        i18n.set_language(before)
    assert COIN[lang][0] in label, label
    assert COIN[lang][1] in kind, kind
