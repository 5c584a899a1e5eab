"""Whole games played through the public interface, their Harvest & Shipping read from the event
log alone and checked against seed-R phase 3: one boat of each type on the board per round, a
board boat taken once per round, a coin boat only from a pile that has one, at most 2 claims a
round (3 in round 4), no claim after a pass, exactly the boat's capacity of workers of one crop,
and the harvest bonus once per crop when 9 of it have been harvested. Independent rules audit
(audit-rb)."""

import pytest
from tablero.engines.riverboat.data import BOAT_TYPES, BOATS

from .helpers import whole_game


def _coin_boat(a: dict) -> bool:  # now and then a coin boat, so that the draw piles are used
    return a.get("type") == "claim_boat" and a["coin"]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_harvest_and_shipping_read_from_the_log(seats, seed):
    events = whole_game(seats, seed, {}, _coin_boat, 0.3)
    on_board = {b["id"]: True for b in BOATS}  # seed-R setup 1: the top boat of each pile
    pile = {b["id"]: b["count"] - 1 for b in BOATS}
    harvested = [dict.fromkeys(("beet", "wheat", "corn", "potato", "pumpkin"), 0) for _ in range(seats)]
    bonus_given = [set() for _ in range(seats)]
    rnd, claims, passed = 1, [0] * seats, [False] * seats
    coin_boats = 0
    for e in events:
        t = e["type"]
        if t == "round_started":
            rnd = e["round"]
            # "Asegúrate de que haya una loseta de barco fluvial de cada tipo ... (si quedan fichas)"
            assert sorted(e["boats"]) == sorted(b for b in on_board if not on_board[b] and pile[b] > 0)
            for b in e["boats"]:
                on_board[b], pile[b] = True, pile[b] - 1
        elif t == "phase_started" and e["phase"] == "harvest":
            claims, passed = [0] * seats, [False] * seats
        elif t == "passed" and e["phase"] == "harvest":
            passed[e["seat"]] = True
        elif t == "boat_claimed":
            seat, boat, crop = e["seat"], e["boat"], e["crop"]
            assert not passed[seat], "Si lo hace, no obtendrá más fichas de Barco fluvial en esta Ronda"
            claims[seat] += 1
            assert claims[seat] <= (3 if rnd == 4 else 2)
            assert len(e["cells"]) == len(set(e["cells"])) == BOAT_TYPES[boat]["capacity"]
            if e["coin"]:
                coin_boats += 1
                assert pile[boat] > 0, "a coin takes a boat from its draw pile"
                pile[boat] -= 1
            else:
                assert on_board[boat], "one of each type per round without a coin"
                on_board[boat] = False
            before = harvested[seat][crop]
            harvested[seat][crop] += len(e["cells"])
            crossed = before < 9 <= harvested[seat][crop] and crop not in bonus_given[seat]
            assert e["harvest_bonus"] == crossed, "al menos 9 cultivos de un tipo; no dos veces por el mismo"
            if crossed:
                bonus_given[seat].add(crop)
                assert any(x["kind"] == "feature" and x.get("optional") for x in e["pending"])
    assert coin_boats > 0
    final = events[-1]["details"]
    assert [row["harvested"] for row in final] == harvested
