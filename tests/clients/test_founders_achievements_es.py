"""Founders of Gloomhaven's achievements (the variant) in Spanish. Found with a Spanish board
(`tablero play founders-of-gloomhaven --options '{"achievements": true}'`): "logros: inmediato
bridge builder, a mitad de partida patronage y al final network" — the cards' ids as their names,
in the terminal, in the browser's box ("inmediato: bridge builder — construir 2 puentes/puertas")
and in the log ("El logro bridge builder da 2 a …")."""

from __future__ import annotations

import io

from rich.console import Console
from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n, render

ENGINE = "founders-of-gloomhaven"
SPANISH = {"three_houses": "tres casas", "bridge_builder": "constructor de puentes", "diversified": "diversificación",
           "road_crew": "cuadrilla de caminos", "court": "corte", "early_industry": "industria temprana",
           "supplier": "proveedor", "treasury": "tesorería", "homesteads": "granjas", "patronage": "mecenazgo",
           "master_builder": "maestro constructor", "chief_supplier": "proveedor principal", "landlord": "terrateniente",
           "network": "red de caminos", "emporium": "emporio"}


def test_the_achievements_are_named_in_spanish_on_the_board_and_in_the_log():
    i18n.set_language("es")
    try:
        boards, said = [], []
        for seed in (1, 2, 3):
            for g, _seat, _legal in random_turns(ENGINE, 2, seed, {"achievements": True}):
                if g.version % 40 == 1:
                    game = Game(id=f"a{seed}", engine=ENGINE, version=g.version, players=2,
                                status="GAME_STATUS_RUNNING", to_act=sorted(g.to_act()), view=g.view(0),
                                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)], your_seat=0)
                    console = Console(record=True, width=300, color_system=None, file=io.StringIO())
                    console.print(render(game))
                    boards.append((g.view(0)["achievements"], console.export_text()))
            said += [(e["achievement"], describe_event(g.event_view(e, 0), game)) for e in g.events
                     if e["type"] == "achievement_scored"]
        assert boards and said, "no board or no achievement scored in the random games"
        for drawn, text in boards:
            line = next(x for x in text.splitlines() if x.startswith("logros:"))
            for card in drawn.values():
                assert card.replace("_", " ") not in line and SPANISH[card] in line, line
        for card, line in said:
            assert SPANISH[card] in line and card.replace("_", " ") not in line, line
    finally:
        i18n.set_language("en")
