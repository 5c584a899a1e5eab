"""The scoring scheme: points per list position, the number-one bonus, the repetition bonus and
the rule for lists that name games without ranking them.

The default is the table of the "top de los tops 2023" post that issue 6 cites (a Formula-1-like
table): 1st 100, 2nd 80, 3rd 65, 4th 50, 5th 40, 6th 33, 7th 28, 8th 24, 9th 20, 10th 18, 11th 16,
12th 14, 13th 12, 14th 10, 15th and below 0; +10 for being a list's number one; +1 for every list
that names the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

UNRANKED_RULES = {
    # An unranked list of n games gives each of them the mean of the table over positions 1..n
    # (positions past the table count 0): the list hands out the same total as if it were ranked,
    # shared evenly, because nothing says which of its games is better.
    "mean": "each game gets the mean of the points of positions 1..n, n = the list's length",
    # Unranked lists only count as appearances (repetition bonus), no position points.
    "zero": "no position points; the games still get the repetition bonus",
}

Number = int | float


def exact(value: Number) -> int | Fraction:
    """The exact value a scheme number stands for. A JSON (or proto double) 0.145 is the binary
    float 0.14499999999999999, which would round down; it is read as the decimal it was written as —
    its shortest repr, 29/200 — so the documented half-up rounding gives 0.15."""
    if isinstance(value, int):
        return value
    return Fraction(Decimal(repr(value)))


@dataclass(frozen=True)
class Scheme:
    position_points: tuple[Number, ...]  # points of positions 1, 2, …; past the end → 0
    top_bonus: Number  # for each list where the game is number one (ranked lists only)
    repetition_bonus: Number  # for each list that names the game (ranked or not)
    unranked: str  # a key of UNRANKED_RULES

    def as_json(self) -> dict:
        """The scheme as the REST body spells it."""
        return {
            "positionPoints": list(self.position_points),
            "topBonus": self.top_bonus,
            "repetitionBonus": self.repetition_bonus,
            "unrankedShare": f"UNRANKED_SHARE_{self.unranked.upper()}",
        }

    def points_at(self, position: int) -> Fraction:
        """Exact points of a 1-based position in a ranked list."""
        if position <= len(self.position_points):
            return Fraction(exact(self.position_points[position - 1]))
        return Fraction(0)

    def unranked_points(self, length: int) -> Fraction:
        """Exact position points of each game of an unranked list of `length` games."""
        if self.unranked == "zero":
            return Fraction(0)
        return sum((Fraction(exact(p)) for p in self.position_points[:length]), Fraction(0)) / length


DEFAULT_SCHEME = Scheme(
    position_points=(100, 80, 65, 50, 40, 33, 28, 24, 20, 18, 16, 14, 12, 10),
    top_bonus=10,
    repetition_bonus=1,
    unranked="mean",
)
