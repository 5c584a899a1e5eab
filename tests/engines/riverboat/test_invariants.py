"""Conservation laws checked after every action of seeded random games: no worker, coin,
surveyor, barn, well, tile, card or boat appears or vanishes."""

import random
from collections import Counter

import pytest
from tablero.engines.core import LocalGame
from tablero.engines.riverboat import ENGINE, board
from tablero.engines.riverboat.data import BOATS, HARBOR_LAST_SPACE, OPPORTUNITY_CARDS, SUPPLY, TILE_KINDS


def _check(s: dict) -> None:
    n = s["n"]
    taken = 4 - s["round_track"]
    workers = sum(p["workers"] + sum(p["worker"]) + p["agents"] for p in s["players"])
    assert workers == 13 * n + taken
    assert s["supply"]["coins"] + sum(p["coins"] for p in s["players"]) == SUPPLY["coins"]
    surveyors = sum(p["surveyors"] + p["active_surveyors"] for p in s["players"])
    assert s["supply"]["surveyors"] + surveyors == SUPPLY["surveyors"]
    for f in ("barn", "well"):
        on_mats = sum(p["feature"].count(f) for p in s["players"])
        assert s["supply"][f + "s"] + on_mats == SUPPLY[f + "s"]
    for p in s["players"]:
        assert all(not (p["worker"][c] and p["feature"][c] == "barn") for c in range(board.CELLS))
        assert all(not (p["crop"][c] and p["feature"][c] == "barn") for c in range(board.CELLS))
        wells = [p["crop"][c] for c in range(board.CELLS) if p["feature"][c] == "well"]
        assert len(wells) == len(set(wells)) and None not in wells, "one well per crop, on a crop hex"
        assert p["active_surveyors"] == sum(p["scored"]) + sum(o["scored"] for o in p["opps"])
    # Every crop hex on the mats came from exactly one tile: count hexes per crop.
    hexes = Counter()
    for pile in s["piles"].values():
        for k in pile:
            hexes.update(TILE_KINDS[k]["crops"])
    for slots in s["slots"].values():
        for k in slots:
            if k:
                hexes.update(TILE_KINDS[k]["crops"])
    if s["held"]:
        hexes.update(TILE_KINDS[s["held"]["kind"]]["crops"])
    for p in s["players"]:
        hexes.update(c for c in p["crop"] if c)
    assert set(hexes.values()) == {33}
    cards = list(s["opp_deck"]) + [c for c in s["opp_spaces"] if c] + [o["id"] for p in s["players"] for o in p["opps"]]
    assert sorted(cards) == sorted(c["id"] for c in OPPORTUNITY_CARDS)
    for b in BOATS:
        owned = sum(p["boats"].count(b["id"]) for p in s["players"])
        assert owned + s["boat_piles"][b["id"]] + s["boat_board"][b["id"]] == b["count"]
    assert all(0 <= p["harbor"] <= HARBOR_LAST_SPACE for p in s["players"])


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {}), (4, {}), (4, {"coin_draws": "blind"})])
def test_nothing_appears_or_vanishes_during_a_game(seats, options):
    g = LocalGame(ENGINE, seats=seats, seed=seats * 101, options=options)
    rng = random.Random(seats)
    _check(g.state)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
        _check(g.state)
    assert g.state["round"] == 4
