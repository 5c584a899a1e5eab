"""Money rules: paying with production cards and disks, income (step 2c) and the
storage and treasury limits (end of 1c and step 2d). Pure functions on numbers.

A hand is a sorted list of card values; the introductory preset cards are counted
apart (`preset`, all worth 5) because their value is public and they go back to the
box when spent (seed-P setup).
"""

from __future__ import annotations

from itertools import combinations, product

from .data import CARD_POINTS, PRESET_CARD_VALUE


def wealth(hand: list[int], preset: int, disks: int) -> int:
    return sum(hand) + PRESET_CARD_VALUE * preset + disks


def _counts(hand: list[int], preset: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for v in hand:
        counts[v] = counts.get(v, 0) + 1
    if preset:
        counts[PRESET_CARD_VALUE] = counts.get(PRESET_CARD_VALUE, 0) + preset
    return counts


def payment_options(hand: list[int], preset: int, disks: int, amount: int) -> list[tuple[list[int], int]]:
    """Every way to pay `amount` with cards and disks in which nothing handed over is
    superfluous (taking back any one card or disk would leave less than the amount).
    Change comes back as disks (seed-P 1a). Cards are listed high to low."""
    if amount <= 0:
        return [([], 0)]
    counts = _counts(hand, preset)
    values = sorted(counts, reverse=True)
    out = []
    for picks in product(*[range(counts[v] + 1) for v in values]):
        card_sum = sum(v * k for v, k in zip(values, picks, strict=True))
        used = [v for v, k in zip(values, picks, strict=True) if k]
        d = max(0, amount - card_sum)  # the fewest disks that complete the payment
        if d > disks:
            continue
        if used and card_sum + d - min(used) >= amount:
            continue  # a card would be superfluous
        out.append(([v for v, k in zip(values, picks, strict=True) for _ in range(k)], d))
    return out


def is_minimal_payment(cards: list[int], disks: int, amount: int) -> bool:
    total = sum(cards) + disks
    if total < amount:
        return False
    if amount <= 0:
        return not cards and disks == 0
    if disks and total - 1 >= amount:
        return False
    return not (cards and total - min(cards) >= amount)


def take_cards(hand: list[int], preset: int, cards: list[int]) -> tuple[list[int], int, list[int]] | None:
    """Remove `cards` (values) from a hand; 5s come from the preset cards first.
    Returns (new hand, new preset, values going to the discard pile) or None."""
    rest = list(hand)
    discarded = []
    for v in cards:
        if v == PRESET_CARD_VALUE and preset:
            preset -= 1
            continue
        if v not in rest:
            return None
        rest.remove(v)
        discarded.append(v)
    return rest, preset, discarded


def income(production: int, disks: int) -> tuple[int, int]:
    """Step 2c: production plus the treasury's disks, one card per 4 and the rest as
    disks. Seed-P's worked examples: (6, 0) -> 1 card + 2 disks; (6, 3) -> 2 + 1.
    FAQ: four or more disks must become a card, even past the storage limit."""
    total = production + disks
    return total // CARD_POINTS, total % CARD_POINTS


_DISCARDS: dict[tuple, tuple[tuple[int, ...], ...]] = {}


def discard_options(hand: list[int], preset: int, excess: int) -> list[list[int]]:
    """The distinct choices of `excess` cards to discard (values, high to low); remembered per
    (cards held, excess), a pure function of them."""
    if excess <= 0:
        return [[]]
    key = (tuple(sorted(hand)), preset, excess)
    got = _DISCARDS.get(key)
    if got is None:
        if len(_DISCARDS) > 20_000:
            _DISCARDS.clear()
        got = _DISCARDS[key] = tuple(tuple(c) for c in _discard_options(hand, preset, excess))
    return [list(c) for c in got]


def _discard_options(hand: list[int], preset: int, excess: int) -> list[list[int]]:
    allcards = sorted(hand + [PRESET_CARD_VALUE] * preset, reverse=True)
    seen = set()
    out = []
    for combo in combinations(allcards, excess):
        if combo not in seen:
            seen.add(combo)
            out.append(list(combo))
    return out


def after_limits(disks: int, capacity: int, discarded_value: int) -> tuple[int, int]:
    """Seed-P 2d: the value of discarded cards refills the free treasury spaces, the
    rest is lost; disks beyond the treasury are lost too. Returns (disks, lost)."""
    total = disks + discarded_value
    kept = min(capacity, total)
    return kept, total - kept
