"""Invariants checked at every step of random games: whale tokens are conserved, the
whaling track and the ships agree, no space ever holds more than 3 ships, nobody's
money or goods go negative, and building spaces are used at most once a round."""

import random

import pytest
from tablero.engines.core import LocalGame
from tablero.engines.new_bedford import data

from .helpers import ENGINE


def check(state, initial_bag):
    total = {k: 0 for k in data.TOKEN_KINDS}
    for k in data.TOKEN_KINDS:
        total[k] += state["bag"][k] + state["sea_tokens"][k] + state["out_of_game"][k]
    if state["sale"]:
        for k, n in state["sale"]["whales"].items():
            total[k] += n
    for p in state["players"]:
        for k in data.RESOURCES:
            assert p[k] >= 0, f"negative {k}"
        for k in data.WHALE_KINDS:
            total[k] += p["returned"][k] + sum(s["hold"][k] for s in p["ships"])
    assert total == initial_bag, "whale tokens appeared or vanished"
    on_track = {}
    for row, entries in enumerate(state["track"]):
        assert len(entries) <= data.RANKS, f"space {row} holds {len(entries)} ships"
        for seat, n in entries:
            assert (seat, n) not in on_track
            on_track[(seat, n)] = row
    for seat, p in enumerate(state["players"]):
        for n, s in enumerate(p["ships"], start=1):
            if s["at"] in ("sea", "returning"):
                assert on_track.get((seat, n)) == s["row"]
            else:
                assert (seat, n) not in on_track and s["row"] is None
                assert s["hold"] == {"right": 0, "bowhead": 0, "sperm": 0}
    for b, tile in state["buildings"].items():
        if b in state["occupancy"]:
            assert len(state["occupancy"][b]) <= 1
            assert tile["used"] == bool(state["occupancy"][b]) or state["inn"] is not None


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_invariants_hold_through_random_games(seats):
    for seed in range(4):
        rng = random.Random(seed)
        g = LocalGame(ENGINE, seats=seats, seed=seed + 100)
        initial = dict(g.state["bag"])
        while g.outcome() is None:
            (seat,) = g.to_act()
            acts = g.legal_actions(seat)
            g.act(seat, ENGINE.random_action(g.state, seat, acts, rng))
            check(g.state, initial)
        assert all(s["at"] in ("home", "dock") for p in g.state["players"] for s in p["ships"])
