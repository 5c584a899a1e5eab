"""Riverboat and Phoenicia final scores say "VP" as the boards do ("1 VP and 2 harbor steps"), not
"Vp": found playing `tablero play riverboat --players 2 --bot hard` to the end, whose breakdown read
`Harbor › Vp`, `Coins › Vp each`, `Final vp` (Phoenicia: `Cards vp`, `Vp by card`). The rows'
names come from each engine's `label.details` (en); the Spanish ones already said "PV"."""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, outcome_text

from tablero import engines


@pytest.mark.parametrize("engine", ["riverboat", "phoenicia"])
def test_the_final_breakdown_says_vp_in_capitals(engine) -> None:
    before = i18n.current_language()
    i18n.set_language("en")
    try:
        g = engines.LocalGame(engine, seats=2, seed=5)
        rng = random.Random(1)
        while g.outcome() is None:
            seat = sorted(g.to_act())[0]
            g.act(seat, g.engine.random_action(g.state, seat, g.legal_actions(seat), rng))
        game = Game(id="g1", engine=engine, version=len(g.events), players=2, status="GAME_STATUS_FINISHED",
                    to_act=[], view=g.view(0), seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)],
                    your_seat=0, outcome=g.outcome())
        console = Console(record=True, width=200, color_system=None)
        console.print(outcome_text(game))
        text = console.export_text()
    finally:
        i18n.set_language(before)
    assert re.search(r"\bVP\b", text), text
    # rows' names: "Harbor › Vp", "Final vp" (a nested value's own keys, "vp each 2", are no row name)
    wrong = re.findall(r"(?m)(?:^\s*|› )((?:[A-Z][a-z]+ )+vp\b|Vp\b[a-z ]*)", text)
    assert not wrong, wrong
