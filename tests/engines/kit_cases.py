"""The generic kit's random playthroughs (testkit.run_all): which engine, seat count and seed.

The heavy engines have a file each (tests/engines/test_kit_<engine>.py): the parallel suite
(`--dist loadfile`) runs a file on one worker, and all of them in one file made that file the
suite's longest path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tablero.engines.core import testkit

from tablero import engines

HEAVY = ("new-bedford", "phoenicia", "riverboat", "founders-of-gloomhaven")

# Founders of Gloomhaven's random games run to the sixth completion: 700-1,000 events, ~20 s
# through the whole kit each. A third of the seeds keeps the suite's time in bounds
# (TABLERO_KIT_GAMES raises every count; the engine's own tests cover its rules).
SEED_SHARE = {"founders-of-gloomhaven": 3}


def cases(*names: str) -> Iterator[object]:
    for name in names:
        e = engines.get(name)
        for seats in range(e.min_seats, e.max_seats + 1):
            for i in range(max(1, testkit.GAMES_PER_SEAT_COUNT // SEED_SHARE.get(name, 1))):
                yield pytest.param(name, seats, 1000 + i, id=f"{name}-{seats}p-seed{1000 + i}")


def play(name: str, seats: int, seed: int) -> None:
    testkit.run_all(engines.get(name), seats, seed)
