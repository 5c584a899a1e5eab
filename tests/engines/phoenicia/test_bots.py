"""Phoenicia's medium bot (engines/core/search.py with engines/phoenicia/evaluation.py): decisions
the first evaluation got wrong, which let a player who always plays the first listed legal
action (open an auction on the first card, always raise) beat medium 2 games in 3."""

from __future__ import annotations

import random

from tablero.engines.core import search

from .helpers import ENGINE, game, player, set_turn, tile


def _medium(g, seat: int, seed: int) -> dict:
    # iterations: no time budget, every legal action is judged (the same decision every run)
    return search.choose(ENGINE, g.state, seat, "medium", random.Random(seed), iterations=1).action


def test_medium_stays_in_an_auction_for_a_cheap_card_that_raises_its_production():
    # Seat 1 (the first-legal player) opens a Tracker auction at its minimum, 3. Seat 0 has three
    # Hunting workers: a Tracker turns the second into a 2, +1 production every round to come,
    # for a raise to 4 of the 7 it holds. The old evaluation saw only the Tracker's 1 VP
    # (worth less than 4 coins at 0.3) and dropped out: the first-legal player then took every
    # cheap card at its minimum.
    g = game(2, seed=7)
    set_turn(g, [1, 0])
    g.state["display"] = ["Tracker"]
    hunting = tile(g, 0, "hunting")
    hunting["slots"] = ["w", "w", "w", None, None, None]
    player(g, 0, hand=[5], disks=2, untrained=0, trained=0)
    g.act(1, {"type": "open_auction", "card": "Tracker", "bid": 3})
    assert g.to_act() == {0}
    for seed in range(5):
        assert _medium(g, 0, seed)["type"] == "bid", seed


def test_medium_does_not_buy_a_tool_no_worker_can_use():
    # No spare worker (untrained or trained): a tool bought now serves nobody. The old evaluation
    # judged the grouped "buy_tool" before its payment (nothing changed yet), as good as ending
    # the turn, and bought tools at random with the money the next auction needed.
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, hand=[6], disks=3, storehouses=4, untrained=0, trained=0)
    picks = [_medium(g, 0, seed) for seed in range(8)]
    assert not [a for a in picks if a["type"] == "buy_tool"], picks


def test_medium_employs_a_trained_worker_it_can_pay_for():
    # A trained worker and 9 coins: employing it brings 1 VP and production now. The old evaluation
    # judged the grouped "employ" before its payment (no worker placed yet) and ended the turn as
    # often as it employed.
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, hand=[6], disks=3, storehouses=4, untrained=0, trained=1)
    for seed in range(8):
        assert _medium(g, 0, seed)["type"] == "employ", seed
