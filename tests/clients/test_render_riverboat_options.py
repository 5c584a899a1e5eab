"""Riverboat's options in the terminal name what they take, as the browser's do: an outside player
found three planting options worded alike ("Plant a size-2 tile on cells 30, 31") for three different
tiles, and opportunity options numbered from 0 ("space 0") under a board numbered from 1. The
catalog's templates changed with the browser's fix; the terminal's renderer now gives the tile's
crops, the space as the board numbers it, and the card with its bonus."""

from __future__ import annotations

import random

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, i18n

from tablero import engines


def _labels(lang: str, seed: int) -> list[list[tuple[dict, str]]]:
    """Each turn's (action, label) pairs of the planting and opportunity options, over a random game."""
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        g = engines.LocalGame("riverboat", seats=2, seed=seed)
        rng = random.Random(seed)
        turns = []
        while g.outcome() is None:
            seat = sorted(g.to_act())[0]
            acts = g.legal_actions(seat)
            game = Game(id="g", engine="riverboat", version=len(g.events), players=2, status="GAME_STATUS_ACTIVE",
                        to_act=[seat], view=g.view(seat), seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)],
                        your_seat=seat, outcome=None)
            shown = [(a, action_label(a, game)) for a in acts if a["type"] in ("plant", "take_opportunity")]
            if shown:
                turns.append(shown)
            g.act(seat, g.engine.random_action(g.state, seat, acts, rng))
        return turns
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize(("lang", "space"), [("en", "Space "), ("es", "Espacio ")])
def test_planting_and_opportunity_options_say_what_they_take(lang, space):
    turns = _labels(lang, 3)
    plants = [label for turn in turns for a, label in turn if a["type"] == "plant"]
    opportunities = [(a, label) for turn in turns for a, label in turn if a["type"] == "take_opportunity"]
    assert plants and opportunities
    assert all(" — " in label for label in plants), plants[:5]  # the crops of the tile it lays
    for a, label in opportunities:
        assert label.startswith(f"{space}{a['space'] + 1} — ") and "(bonus: " in label, label
    for turn in turns:  # no two options of a turn read alike
        labels = [label for _, label in turn]
        assert len(labels) == len(set(labels)), labels
