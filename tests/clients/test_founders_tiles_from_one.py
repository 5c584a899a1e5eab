"""Founders of Gloomhaven's tiles are numbered from 1 in what players read, as a person counts:
the terminal's "Tiles by section" listed "#0 …", and "Buy access to tile 0 (…)" named the API's
first tile (the API's ids stay from 0: the action still sends `tile: 0`)."""

from __future__ import annotations

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, i18n, render

from tablero import engines

ENGINE = "founders-of-gloomhaven"


def founders_with_tiles() -> engines.LocalGame:
    g = engines.LocalGame(ENGINE, seats=2, seed=3)
    g.play_random(max_steps=400)
    assert len(g.view(0)["tiles"]) >= 2
    return g


def _game(g: engines.LocalGame) -> Game:
    return Game(id="g1", engine=ENGINE, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0), your_seat=0,
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)])


def test_tiles_read_from_one_on_the_board_in_moves_and_in_the_log():
    g = founders_with_tiles()
    game = _game(g)
    tiles = game.view["tiles"]
    console = Console(record=True, width=200, color_system=None)
    console.print(render(game))
    text = console.export_text()
    assert "#0 " not in text and f"#{len(tiles)} " in text, text
    i18n.set_language("es")
    try:
        assert action_label({"type": "access", "tile": 0}, game).startswith("Comprar acceso a la loseta 1 ("), \
            action_label({"type": "access", "tile": 0}, game)
        line = describe_event({"type": "access_bought", "seat": 1, "tile": 1, "cost": 3}, game)
        assert " loseta 2 (" in line, line
        # a tile the view does not hold (yet): its number, still from 1
        assert " loseta 1000 " in describe_event({"type": "access_bought", "seat": 1, "tile": 999, "cost": 3}, game)
    finally:
        i18n.set_language("en")
