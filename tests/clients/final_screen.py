"""The terminal's final-scores screen of a whole random 2-seat game, as text: what the final
breakdown tests read (tests/clients/test_final_*.py)."""

from __future__ import annotations

import random

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, outcome_text

from tablero import engines


def finished(engine: str) -> engines.LocalGame:
    """A whole random 2-seat game, to its end."""
    g = engines.LocalGame(engine, seats=2, seed=5)
    rng = random.Random(1)
    while g.outcome() is None:
        seat = sorted(g.to_act())[0]
        g.act(seat, g.engine.random_action(g.state, seat, g.legal_actions(seat), rng))
    return g


def final_screen(engine: str, lang: str, width: int = 400, outcome: dict | None = None) -> str:
    """`outcome`: the game's own, else this one (a test's edit of it)."""
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        g = finished(engine)
        game = Game(id="g1", engine=engine, version=len(g.events), players=2, status="GAME_STATUS_FINISHED",
                    to_act=[], view=g.view(0), seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)],
                    your_seat=0, outcome=outcome or g.outcome())
        console = Console(record=True, width=width, color_system=None)
        console.print(outcome_text(game))
        return console.export_text()
    finally:
        i18n.set_language(before)
