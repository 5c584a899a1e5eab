"""Riverboat's remembered board computations answer as the plain ones: `placements` (cached per
free cells and crop pattern) equals `_placements`, `fits` equals "placements is not empty",
and `empty_fields` of one colour equals the filter over every cell."""

import random

from tablero.engines.riverboat import board
from tablero.engines.riverboat.data import MATS

CROPS = ["beet", "wheat", "corn", "potato", "pumpkin"]


def test_remembered_placements_and_fits_match_the_plain_search():
    rng = random.Random(8)
    for _ in range(3000):
        free = sorted(rng.sample(range(board.CELLS), rng.randint(0, 8)))
        crops = [rng.choice(CROPS[:2]) for _ in range(rng.randint(1, 3))]
        want = board._placements(free, crops)
        assert board.placements(free, crops) == want
        assert board.placements(free, crops) == want  # and again, from the table
        assert board.fits(free, crops) == bool(want)
    # A cached answer is a fresh list each time: changing it changes nothing remembered.
    got = board.placements([0, 1, 2, 7, 8], ["beet", "wheat"])
    got[0].append(99)
    assert board.placements([0, 1, 2, 7, 8], ["beet", "wheat"]) == board._placements([0, 1, 2, 7, 8], ["beet", "wheat"])


def test_empty_fields_by_colour():
    rng = random.Random(3)
    for mat in MATS:
        for _ in range(50):
            p = {"mat": mat, **board.new_mat()}
            for c in range(board.CELLS):
                p["worker"][c] = rng.random() < 0.3
                p["crop"][c] = rng.choice([None, None, "beet"])
                p["feature"][c] = rng.choice([None, None, None, "barn"])
            every = [c for c in range(board.CELLS) if board.is_empty_field(p, c)]
            assert board.empty_fields(p) == every
            for colour in set(board.COLOUR[mat]):
                assert board.empty_fields(p, colour) == [c for c in every if board.COLOUR[mat][c] == colour]
