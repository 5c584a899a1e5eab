"""The terminal's event lines and final table: zeros kept, automa opponents shown."""

from __future__ import annotations

import random

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import compact, outcome_text

from tablero import engines


def test_event_lines_keep_zeros_and_false_but_drop_absent_values() -> None:
    line = compact({"type": "votes_revealed", "votes": [{"proposal": 0, "influence": 0}, {"proposal": 2, "note": None}],
                    "final": False})
    assert line == "votes_revealed votes=[{proposal:0,influence:0},{proposal:2}] final=false"


def test_the_final_table_of_a_solo_game_shows_the_captains_and_who_won() -> None:
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["starbuck", "ahab"]})
    rng = random.Random(1)
    while g.outcome() is None:
        seat = sorted(g.to_act())[0]
        g.act(seat, g.engine.random_action(g.state, seat, g.legal_actions(seat), rng))
    outcome = g.outcome()
    game = Game(id="g1", engine="new-bedford", version=len(g.events), players=1, status="GAME_STATUS_FINISHED",
                to_act=[], view={}, seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")], your_seat=0, outcome=outcome)
    console = Console(record=True, width=120, color_system=None)
    console.print(outcome_text(game))
    text = console.export_text()
    for c in outcome["captains"]:
        row = next(line for line in text.splitlines() if f"Captain {c['captain'].title()}" in line)
        assert str(c["total"]) in row
        assert ("WINNER" in row) == (c["captain"] in outcome["captain_winners"])
    assert outcome["captain_winners"]  # this seeded game is won by a Captain, not by the seat
    assert "WINNER" not in next(line for line in text.splitlines() if "seat 1" in line)
