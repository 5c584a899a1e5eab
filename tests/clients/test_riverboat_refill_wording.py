"""Riverboat's log line for the Planting refill (audit-rb). seed-R phase 2: "si tienes Trabajadores
restantes en Campos vacíos y las fichas boca arriba existentes no pueden llenarlos, rellena
inmediatamente todo el tablero con fichas de cultivo": the central board's tiles are refilled
because none fits the player on turn. The line read "Seat 1’s crop tiles are refilled" ("Se
reponen las losetas de cultivo de …"), as if the player's own tiles were."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n

from tablero import engines


def _game() -> Game:
    view = engines.LocalGame("riverboat", seats=2, seed=1).view(None)
    return Game(id="g1", engine="riverboat", version=2, players=2, status="GAME_STATUS_RUNNING", to_act=[],
                view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)], your_seat=None)


@pytest.mark.parametrize(("lang", "says", "not_says"), [
    ("en", "crop tiles on the board are refilled", "’s crop tiles are refilled"),
    ("es", "se reponen las losetas de cultivo del tablero", "Se reponen las losetas de cultivo de"),
])
def test_the_refill_line_says_the_boards_tiles_are_refilled_because_none_fits(lang, says, not_says):
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        line = describe_event({"type": "crop_tiles_refilled", "seat": 1, "fills": {"1": [[0, "1-beet"]]}}, _game())
    finally:
        i18n.set_language(before)
    assert says in line and not_says not in line
