"""A Phoenicia game whose turn is at its last step, `converted` (a card converted: the step after
tools), and the header's words for it in both clients (tests/clients/test_phoenicia_step_words.py,
the terminal; tests/web/test_phoenicia_step_words.py, the browser).

Outside review: the header read "paso: convertida", the state's word ("converted") translated as
an adjective, where the other steps are named (subastas, trabajadores, herramientas)."""

from __future__ import annotations

import random
from typing import Any

from tablero import engines

STEP = {"es": "conversión", "en": "conversion"}


def at_converted() -> dict[str, Any]:
    """Seat 0's view of a 3-seat game (seed 1) the first time a turn is at the step `converted`."""
    g = engines.LocalGame("phoenicia", seats=3, seed=1)
    rng = random.Random(1)
    while g.view(0).get("step") != "converted":
        assert g.outcome() is None and g.version < 3000, "no turn reached the step converted"
        g.play_random(max_steps=1, rng=rng)
    return g.view(0)
