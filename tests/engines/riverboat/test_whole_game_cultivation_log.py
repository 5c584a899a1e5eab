"""Whole games played through the public interface, their Cultivation phases read from the event
log alone (each mat and worker supply rebuilt from the events) and checked against seed-R phase 1:
8 crop cards a round; for each card every player with a worker in supply and an empty field of the
card's colour (any colour on a wild) places one, on an empty field of that colour unless paying a
coin; nobody skips who could place; the tile holder's round-track worker comes first and is not one
of the eight. Independent rules audit (audit-rb)."""

import pytest
from tablero.engines.riverboat import board

from .helpers import whole_game


class Mats:
    """Each seat's workers in supply and what stands on its mat, from the events."""

    def __init__(self, start: dict) -> None:
        n = start["seats"]
        self.colour = [board.COLOUR[m] for m in start["mats"]]
        self.supply = [13] * n
        self.worker = [set() for _ in range(n)]
        self.covered = [set() for _ in range(n)]  # crop hexes and barns

    def empty(self, seat: int, colour: str | None) -> list[int]:
        return [c for c in range(board.CELLS) if c not in self.worker[seat] and c not in self.covered[seat]
                and (colour is None or self.colour[seat][c] == colour)]

    def apply(self, e: dict) -> None:
        t, seat = e["type"], e.get("seat")
        if t == "round_track_worker_taken":
            self.supply[seat] += 1
        elif t == "worker_placed":
            self.supply[seat] -= 1
            self.worker[seat].add(e["cell"])
        elif t in ("boat_claimed", "workers_returned"):
            self.supply[seat] += len(e["cells"])
            self.worker[seat] -= set(e["cells"])
        elif t == "tile_planted":
            self.covered[seat] |= set(e["cells"])
        elif t == "barn_placed":
            self.covered[seat].add(e["cell"])
        elif t == "agents_sent":
            self.supply[seat] -= e["count"]
        elif t == "bonus_chosen" and e["bonus"] == "agent":
            self.supply[seat] -= 1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_cultivation_phases_read_from_the_log(seats, seed):
    events = whole_game(seats, seed)
    mats = Mats(events[0])
    card, answered, must, cards = None, set(), [], []
    for e in events:
        t = e["type"]
        if t == "phase_started" and e["phase"] == "cultivation":
            cards.append(0)
        elif t == "crop_card_revealed":
            assert card is None or answered == set(must), "every player asked answered the card before the next"
            card, answered, cards[-1] = e["card"], set(), cards[-1] + 1
            must = e["must_place"]
            for seat in range(seats):
                colour = None if card == "wild" else card
                if mats.supply[seat] > 0 and mats.empty(seat, colour):
                    assert seat in must, "debe colocar un Trabajador en un Campo vacío del mismo color"
                elif seat in must:
                    assert mats.supply[seat] > 0 and mats.empty(seat, None), "asked only to use a coin"
        elif t == "worker_placed" and not e["bonus"]:
            assert e["cell"] in mats.empty(e["seat"], None)
            if not e["coin"] and card != "wild":
                assert mats.colour[e["seat"]][e["cell"]] == card
            answered.add(e["seat"])
        elif t == "worker_placed":
            assert card is None or cards[-1] == 0, "the round-track worker comes before the first card"
        elif t == "placement_skipped":
            assert not mats.empty(e["seat"], None if card == "wild" else card), "No puede optar por omitir"
            answered.add(e["seat"])
        elif t == "phase_started" and e["phase"] == "planting":
            card = None
        mats.apply(e)
    assert cards == [8, 8, 8, 8]
