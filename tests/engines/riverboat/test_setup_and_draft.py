"""Setup (seed-R "Preparar") and the phase-tile draft (seed-R "Inicio de una ronda")."""

from collections import Counter

import pytest
from tablero.engines.core import IllegalAction
from tablero.engines.riverboat import board
from tablero.engines.riverboat.data import (
    AGENT_MAJORITY_VP,
    BOATS,
    CROP_CARDS,
    CROP_TILES,
    FIELD_COLOURS,
    HARBOR_START,
    MATS,
    OPPORTUNITY_CARDS,
    PHASES,
    ROUND_TRACK_WORKERS,
    START_WORKERS,
    SUPPLY,
    SUPPLY_SLOTS,
)

from .helpers import new_game


def test_component_counts_match_the_facts_file():
    by_size = Counter()
    for t in CROP_TILES:
        by_size[t["size"]] += t["count"]
        assert 1 <= len(set(t["crops"])) <= 2, "a crop tile shows one or two crops"
    assert by_size == {1: 70, 2: 25, 3: 15}
    assert sum(CROP_CARDS.values()) == 40 and CROP_CARDS["wild"] == 5
    assert all(CROP_CARDS[c] == 7 for c in FIELD_COLOURS.values())
    assert len(BOATS) == 9 and sum(b["count"] for b in BOATS) == 45
    assert sorted(b["capacity"] for b in BOATS) == [1, 2, 2, 3, 3, 4, 5, 6, 7]
    assert len(OPPORTUNITY_CARDS) == 17 and len({c["id"] for c in OPPORTUNITY_CARDS}) == 17
    # seed-R components: 25 coins, 8 barns, 8 wells, 28 surveyors, 56 workers, 5 phase tiles
    assert SUPPLY == {"coins": 25, "barns": 8, "wells": 8, "surveyors": 28}
    assert 4 * START_WORKERS + ROUND_TRACK_WORKERS == 56 and len(PHASES) == 5
    assert AGENT_MAJORITY_VP == [20, 10, 5, 0]
    # 2', 3' are the second versions of capacities 2 and 3, with other benefits (seed-R setup 1)
    twos = [b["benefit"] for b in BOATS if b["capacity"] == 2]
    threes = [b["benefit"] for b in BOATS if b["capacity"] == 3]
    assert len(twos) == len(threes) == 2 and twos[0] != twos[1] and threes[0] != threes[1]


def test_every_mat_has_the_same_hexes_of_each_colour_in_five_connected_field_areas():
    counts = {name: Counter(board.COLOUR[name]) for name in MATS}
    assert len({tuple(sorted(c.items())) for c in counts.values()}) == 1
    layouts = {tuple(rows) for rows in MATS.values()}
    assert len(layouts) == 4, "the four mats are arranged differently"
    for name in MATS:
        cols = board.COLOUR[name]
        assert len(set(cols)) == 5
        for colour in set(cols):
            cells = [c for c in range(board.CELLS) if cols[c] == colour]
            seen, stack = {cells[0]}, [cells[0]]
            while stack:
                for n in board.NEIGHBOURS[stack.pop()]:
                    if n not in seen and cols[n] == colour:
                        seen.add(n)
                        stack.append(n)
            assert len(seen) == len(cells), f"mat {name}: the {colour} field is one area"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_gives_each_player_13_workers_2_surveyors_3_coins_a_distinct_mat_and_harbor_start(seats):
    s = new_game(seats, seed=3).state
    assert len({p["mat"] for p in s["players"]}) == seats
    for p in s["players"]:
        assert (p["workers"], p["surveyors"], p["coins"], p["vp"]) == (13, 2, 3, 0)
        assert p["harbor"] == HARBOR_START[str(seats)]
    assert s["supply"]["coins"] == 25 - 3 * seats
    assert s["supply"]["surveyors"] == 28 - 2 * seats
    assert s["round_track"] == 4


def test_setup_fills_the_crop_supply_one_boat_of_each_type_and_four_opportunity_cards():
    s = new_game(2).state
    for size, k in SUPPLY_SLOTS.items():
        assert len(s["slots"][size]) == k and None not in s["slots"][size]
    assert all(s["boat_board"].values()) and all(v == 4 for v in s["boat_piles"].values())
    assert None not in s["opp_spaces"] and len(s["opp_deck"]) == 13
    assert len(s["crop_deck"]) == 40
    assert sum(len(p) for p in s["piles"].values()) + sum(SUPPLY_SLOTS.values()) == 110


def test_phase_tiles_are_drafted_clockwise_from_the_first_player_until_all_five_are_taken():
    g = new_game(2, seed=5)
    fp = g.state["first_player"]
    order = []
    for phase in ["scoring", "harvest", "cultivation", "planting", "opportunity"]:
        [seat] = g.to_act()
        order.append(seat)
        assert {"type": "choose_phase", "phase": phase} in g.legal_actions(seat)
        g.act(seat, {"type": "choose_phase", "phase": phase})
    assert order == [fp, 1 - fp, fp, 1 - fp, fp], "the first player ends with three tiles in a 2-player game"
    assert g.state["phase_tiles"][PHASES.index("scoring")] == fp
    assert g.state["phase"] == "cultivation"


def test_a_taken_phase_tile_cannot_be_chosen_again():
    g = new_game(3, seed=5)
    [seat] = g.to_act()
    g.act(seat, {"type": "choose_phase", "phase": "planting"})
    [nxt] = g.to_act()
    assert {"type": "choose_phase", "phase": "planting"} not in g.legal_actions(nxt)
    with pytest.raises(IllegalAction, match="already taken"):
        g.act(nxt, {"type": "choose_phase", "phase": "planting"})
