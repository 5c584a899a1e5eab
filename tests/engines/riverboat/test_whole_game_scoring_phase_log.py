"""Whole games played through the public interface, their Scoring phases read from the event log
alone (each mat rebuilt from the planted tiles, barns and wells) and checked against seed-R phase 5:
at most 2 surveyors a round (3 in round 4), never two on one barn, well or card, a barn scores 2 VP
per adjacent hex of its most common single crop, a well 1 VP per hex of its connected crop area,
and each round scores 1 VP per active surveyor and per agent. Independent rules audit (audit-rb)."""

import pytest
from tablero.engines.riverboat import board

from .helpers import whole_game


def _survey(a: dict) -> bool:
    return a["type"] in ("survey", "survey_card")


def _area(crops: dict[int, str], cell: int) -> int:
    seen, todo = {cell}, [cell]
    while todo:
        c = todo.pop()
        for n in board.NEIGHBOURS[c]:
            if n not in seen and crops.get(n) == crops[cell]:
                seen.add(n)
                todo.append(n)
    return len(seen)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_scoring_phases_read_from_the_log(seats):
    checked = sum(_check_log(seats, whole_game(seats, seed, None, _survey, 0.8)) for seed in range(6))
    assert checked > 0, "some barn or well was surveyed"


def _check_log(seats: int, events: list[dict]) -> int:
    """Checks one game's log; returns how many barn and well surveys it checked."""
    crops: list[dict[int, str]] = [{} for _ in range(seats)]
    features: list[dict[int, str]] = [{} for _ in range(seats)]
    surveyed: list[set] = [set() for _ in range(seats)]
    active, agents = [0] * seats, [0] * seats
    rnd, placed, checked = 1, [0] * seats, 0
    for e in events:
        t = e["type"]
        if t == "round_started":
            rnd = e["round"]
        elif t == "phase_started" and e["phase"] == "scoring":
            placed = [0] * seats
        elif t == "tile_planted":
            crops[e["seat"]].update(zip(e["cells"], e["crops"], strict=True))
        elif t in ("barn_placed", "well_placed"):
            features[e["seat"]][e["cell"]] = t.split("_")[0]
        elif t == "agents_sent":
            agents[e["seat"]] += e["count"]
        elif t == "bonus_chosen" and e["bonus"] == "agent":
            agents[e["seat"]] += 1
        elif t == "surveyed":
            seat = e["seat"]
            placed[seat] += 1
            assert placed[seat] <= (3 if rnd == 4 else 2), "hasta 2 topógrafos (Ronda 4: 3)"
            where = e["card"] if e["card"] is not None else e["cell"]
            assert where not in surveyed[seat], "No puede colocar un segundo Agrimensor en una ubicación"
            surveyed[seat].add(where)
            active[seat] += 1
            mine = crops[seat]
            if e["feature"] == "barn":
                assert features[seat][e["cell"]] == "barn"
                around = [mine[n] for n in board.NEIGHBOURS[e["cell"]] if n in mine]
                assert e["vp"] == 2 * max((around.count(c) for c in set(around)), default=0)
                checked += 1
            elif e["feature"] == "well":
                assert features[seat][e["cell"]] == "well" and e["cell"] in mine
                assert e["vp"] == _area(mine, e["cell"])
                checked += 1
        elif t == "round_scored":
            assert e["vp"] == [a + b for a, b in zip(active, agents, strict=True)]
    return checked
