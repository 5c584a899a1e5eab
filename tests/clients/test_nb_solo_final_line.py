"""The terminal's last line of a New Bedford game against the Captains names each Captain's score
beside the player's (the cases: tests/clients/nb_solo_end.py)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n

from .nb_solo_end import expected, finished_solo


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_final_line_names_each_captains_score(lang):
    view, event = finished_solo()
    game = Game(id="g1", engine="new-bedford", version=1, players=1, status="GAME_STATUS_FINISHED", to_act=[],
                view=view, seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")], your_seat=0)
    i18n.set_language(lang)
    try:
        line = describe_event(event, game)
    finally:
        i18n.set_language("en")
    assert expected(lang, event) in line, line
    assert f" {event['scores'][0]}" in line, line
