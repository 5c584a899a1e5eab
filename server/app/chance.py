"""The randomness an action draws (dice, shuffles, a bot's choice): a fresh generator per
decision, seeded from the OS, whose outcomes the engine writes into the events."""

from __future__ import annotations

import random
import secrets


class ActionRandom(random.Random):
    """A `random.Random` seeded from the OS the first time it draws: most actions of most
    engines draw nothing, and seeding one (an OS call and Mersenne Twister's set-up) was
    about 1.5 % of a server's time per move. Once seeded it is the plain generator."""

    def __init__(self) -> None:  # not seeded (Random's C part starts zeroed): see _seeded
        self.gauss_next = None

    def _seeded(self) -> None:
        super().seed(secrets.randbits(64))
        # From now on the generator's own methods, straight (instance attributes win).
        self.random = super().random  # type: ignore[method-assign]
        self.getrandbits = super().getrandbits  # type: ignore[method-assign]
        self.getstate = super().getstate  # type: ignore[method-assign]

    def random(self) -> float:
        self._seeded()
        return self.random()

    def getrandbits(self, k: int) -> int:
        self._seeded()
        return self.getrandbits(k)

    def getstate(self) -> tuple:
        self._seeded()
        return self.getstate()

    def seed(self, a=None, version=2) -> None:  # type: ignore[override]
        self._seeded()
        super().seed(a, version)

    def setstate(self, state: tuple) -> None:
        self._seeded()
        super().setstate(state)


def action_rng() -> random.Random:
    """The generator of one decision."""
    return ActionRandom()
