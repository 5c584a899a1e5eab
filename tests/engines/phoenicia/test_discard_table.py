"""Phoenicia's discard choices are remembered per hand: the remembered answer equals the plain
search for any hand, whatever order its cards are in, and is a fresh list each time."""

import random

from tablero.engines.phoenicia import money


def test_remembered_discard_choices_match_the_plain_search():
    rng = random.Random(4)
    for _ in range(500):
        hand = [rng.randint(1, 5) for _ in range(rng.randint(0, 9))]
        preset = rng.randint(0, 2)
        excess = rng.randint(-1, 4)
        want = money._discard_options(hand, preset, excess) if excess > 0 else [[]]
        assert money.discard_options(hand, preset, excess) == want
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert money.discard_options(shuffled, preset, excess) == want


def test_a_remembered_answer_is_a_fresh_list():
    first = money.discard_options([3, 2, 2, 1], 0, 2)
    first[0].append(99)
    first.append([0])
    assert money.discard_options([3, 2, 2, 1], 0, 2) == money._discard_options([3, 2, 2, 1], 0, 2)
