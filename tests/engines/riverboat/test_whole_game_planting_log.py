"""Whole games played through the public interface, their Planting phases read from the event log
alone (the face-up supply and each player's uncovered workers rebuilt from the events) and checked
against seed-R phase 2: a tile lies wholly under workers on empty fields, 2- and 3-hex tiles score 1
and 2 VP, the supply is refilled during the phase only when no face-up tile fits the player on
turn, and no worker stands on an empty field when the phase ends.
Independent rules audit (audit-rb)."""

import pytest
from tablero.engines.riverboat import board
from tablero.engines.riverboat.data import TILE_KINDS

from .helpers import whole_game


def _fits_any(slots: dict, free: list[int]) -> bool:
    return any(board.fits(free, TILE_KINDS[k]["crops"]) for row in slots.values() for k in row if k)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_planting_phases_read_from_the_log(seats, seed):
    events = whole_game(seats, seed)
    slots = {k: list(v) for k, v in events[0]["crop_supply"].items()}
    uncovered: list[set[int]] = [set() for _ in range(seats)]
    planting, refills = False, 0
    for e in events:
        t, seat = e["type"], e.get("seat")
        if t == "phase_started":
            if planting:  # Planting is over: "ningún trabajador debe permanecer en campos vacíos"
                assert not any(uncovered)
            planting = e["phase"] == "planting"
        elif t == "worker_placed":
            uncovered[seat].add(e["cell"])
        elif t in ("crop_tiles_refilled", "round_started"):
            if t == "crop_tiles_refilled":
                assert planting and uncovered[seat] and not _fits_any(slots, sorted(uncovered[seat])), \
                    "refilled only when the face-up tiles cannot fill the player's workers"
                refills += 1
            for size, row in e["fills"].items():
                for slot, kind in row:
                    assert slots[size][slot] is None
                    slots[size][slot] = kind
        elif t == "workers_returned":
            assert not _fits_any(slots, sorted(uncovered[seat]))
            uncovered[seat] -= set(e["cells"])
        elif t == "tile_planted":
            cells, crops = e["cells"], e["crops"]
            assert set(cells) <= uncovered[seat], "La loseta elegida debe estar completamente cubierta por los trabajadores"
            assert board.is_placement(sorted(uncovered[seat]), cells, crops)
            assert e["vp"] == {1: 0, 2: 1, 3: 2}[len(cells)]
            if e["slot"] is not None:
                size = str(len(cells))
                assert slots[size][e["slot"]] == e["kind"]
                slots[size][e["slot"]] = None
            else:
                assert len(cells) in (1, 2), "a coin never takes a 3-hex tile"
            uncovered[seat] -= set(cells)
    assert refills > 0
