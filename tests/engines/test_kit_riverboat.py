"""riverboat through the generic kit: random playthroughs at every seat count (kit_cases.py)."""

import pytest

from .kit_cases import cases, play


@pytest.mark.parametrize(("name", "seats", "seed"), list(cases("riverboat")))
def test_random_playthrough_replays_and_hides(name, seats, seed):
    play(name, seats, seed)
