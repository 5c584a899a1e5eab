"""A New Bedford game against two Captains (Ahab, Stubb) played to its end, and the words its last
event (`game_ended`) must have in both clients (tests/clients/test_nb_solo_final_line.py, the
terminal; tests/web/test_nb_solo_final_line.py, the browser).

Outside review: the final line named the player's score and the winner only ("Scores: seat 1 (you)
45; Captain Stubb wins."): a solo player is compared against the Captains, and the line now names
each Captain's score beside the player's."""

from __future__ import annotations

from typing import Any

from tablero import engines

CAPTAINS = ["ahab", "stubb"]
WORDS = {"en": "(Captains: Ahab {ahab} and Stubb {stubb})", "es": "; los Capitanes Ahab {ahab} y Stubb {stubb};"}


def finished_solo() -> tuple[dict[str, Any], dict[str, Any]]:
    """(seat 0's view of the finished game, its last event)."""
    g = engines.LocalGame("new-bedford", seats=1, seed=5, options={"captains": CAPTAINS})
    g.play_random()
    assert g.outcome() is not None and g.events[-1]["type"] == "game_ended", g.events[-1]
    return g.view(0), g.event_view(g.events[-1], 0)


def expected(lang: str, event: dict[str, Any]) -> str:
    totals = {c["captain"]: c["total"] for c in event["captains"]}
    return WORDS[lang].format(**totals)
