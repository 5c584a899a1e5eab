"""Founders in English names the map's places "squares" everywhere ("Place the prestige building
on squares E2, E3, F3"), but the move builder's crumbs said "Chosen: cells: E3 + E2" and the
terminal "choose step by step by cells" (the field's id; Spanish said "casillas")."""

from __future__ import annotations

import random

from tablero_client.models import Game, SeatInfo
from tablero_client.play import step_field
from tablero_client.render import i18n

from tablero import engines
from tests import plainhttp

from .api_play import ApiGame


def _placing_prestige(g: ApiGame) -> bool:
    """Seat 1 places a prestige building among more places than the page lists as buttons (12):
    the move is then built square by square."""
    out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json()
    return sum(a.get("type") == "place_prestige" for a in out.get("actions") or []) > 12


def test_the_move_builder_says_squares(server, new_page):
    for seed in range(8):  # the server draws each game's map and races: a game may never get there
        game = ApiGame(server.url, "founders-of-gloomhaven", ["human"])
        game.play(random.Random(seed), _placing_prestige, max_moves=300)
        if _placing_prestige(game):
            break
    assert _placing_prestige(game), "no prestige building to place in 8 games"
    page = new_page(390, 844, lang="en")
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.locator(".composer button.choice:not([disabled])").first.click()
    crumbs = page.locator(".composer .crumbs").inner_text()
    assert "squares:" in crumbs and "cells" not in crumbs, crumbs


def test_the_terminal_chooses_step_by_step_by_squares():
    g = engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1)
    game = Game(id="g1", engine="founders-of-gloomhaven", version=g.version, players=1, status="GAME_STATUS_RUNNING",
                to_act=[0], view=g.view(0), seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")], your_seat=0)
    i18n.set_language("en")
    assert (step_field("cells", game), step_field("cell", game)) == ("squares", "square")
