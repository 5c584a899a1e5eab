"""Numbers with their units, as an outside player read them in whole games (terminal and browser:
tests/web/test_units_ph_rb.py): Phoenicia's log said "Azul gana Caravana por 10.", "debe pagar 2
para formar…", "paga 12 por Templo", "descarta … (pierde 11)" beside bids of "10$"; its board
"Tesorería 6 · almacenes 5 · formar cuesta 2". Riverboat's crop tiles said "montón 35" for the
35 tiles left in a pile (read as pile number 35), and the terminal did not say it at all."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n, render

from tablero import engines

PHOENICIA = [  # event -> how it reads, by language
    ({"type": "auction_won", "seat": 1, "card": "Caravan", "bid": 10, "discount": 0, "price": 10},
     {"es": "gana Caravana por 10$.", "en": "wins Caravan for $10."}),
    ({"type": "auction_won", "seat": 1, "card": "Fort", "bid": 7, "discount": 3, "price": 4},
     {"es": "gana Fuerte con una puja de 7$, menos un descuento de 3$: el precio es 4$.",
      "en": "wins Fort with a bid of $7, less a discount of $3: the price is $4."}),
    ({"type": "payment_requested", "seat": 1, "price": 2, "action": {"type": "train"}},
     {"es": "debe pagar 2$ para formar a un trabajador.", "en": "must pay $2 to train a worker."}),
    ({"type": "limits_applied", "seat": 1, "discarded": [], "disks": 3, "lost": 11},
     {"es": "descarta hasta su límite de almacenamiento (pierde 11$).",
      "en": "discards down to the storage limits (loses $11)."}),
]
PILE = {"es": "montón: {n} losetas", "en": "pile: {n} tiles"}


def _game(engine: str, seats: int) -> tuple[engines.LocalGame, Game]:
    g = engines.LocalGame(engine, seats=seats, seed=1)
    return g, Game(id="g1", engine=engine, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                   to_act=sorted(g.to_act()), view=g.view(0),
                   seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=0)


@pytest.fixture(params=["es", "en"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_phoenicias_prices_and_losses_say_their_unit(lang):
    _, game = _game("phoenicia", 2)
    for event, said in PHOENICIA:
        line = describe_event(event, game)
        assert line.endswith(said[lang]), (event, line)


def test_riverboats_crop_tile_piles_say_how_many_tiles_are_left(lang):
    g, game = _game("riverboat", 2)
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render(game))
    text = " ".join(console.export_text().split())
    for size, n in g.view(0)["pile_sizes"].items():
        assert PILE[lang].format(n=n) in text, (size, n, text[-2000:])


FOUNDERS = [  # Founders' squares are named as squares in Spanish too ("en T14, S15" said no more)
    ({"type": "prestige_placed", "seat": 1, "card": "watchtower", "cells": [40, 41]},
     {"es": "coloca el edificio de prestigio Atalaya en las casillas ", "en": "places the prestige building Watchtower on squares "}),
    ({"type": "building_upgraded", "seat": 1, "resource": "bricks", "cells": [40], "cost": 4},
     {"es": "mejora a ladrillos en la casilla ", "en": "upgrades to bricks on square "}),
]


def test_founders_squares_are_named_in_both_languages(lang):
    _, game = _game("founders-of-gloomhaven", 2)
    for event, said in FOUNDERS:
        line = describe_event(event, game)
        assert said[lang] in line, (event, line)
