"""Builders of New Bedford games against Captains (El Océano Solitario)."""

from __future__ import annotations

import random

from tablero.engines.core import LocalGame
from tablero.engines.new_bedford import captains

from .helpers import ENGINE, ZERO_WHALES


def solo(names=("starbuck",), seats: int = 1, buildings=None, seed: int = 1, **options) -> LocalGame:
    """A game against Captains standing at the start of round 1's action phase, before any
    worker is placed (the humans took $5 in money; nobody owns a building)."""
    opts = {"captains": list(names), "first_player": 0, **options}
    if buildings is not None:
        opts["buildings"] = buildings
    g = LocalGame(ENGINE, seats=seats, seed=seed, options=opts)
    s = g.state
    for i in range(seats):
        s["players"][i]["money"] = 5
    s["setup_done"] = seats
    s["phase"] = "actions"
    return g


def cap(g: LocalGame, name: str) -> int:
    """The player index of Captain `name`."""
    return next(i for i, p in enumerate(g.state["players"]) if p["captain"] and p["captain"]["name"] == name)


def turn(g: LocalGame, player: int, heading: str, seed: int = 0) -> dict:
    """The Captain's worker turn with `heading` already determined: its placement (or
    offer, or skip) event, applied to the game."""
    g.state["players"][player]["captain"]["turn_heading"] = heading
    e = captains.worker_turn(g.state, player, random.Random(seed))
    g.state = ENGINE.evolve(g.state, e)
    g.events.append(e)
    return e


def run_auto(g: LocalGame, seed: int = 0) -> list[dict]:
    """Play the automatic steps (Captain turns among them) until a human must decide."""
    rng = random.Random(seed)
    out = []
    while True:
        e = ENGINE._automatic(g.state, rng)
        if e is None:
            return out
        g.state = ENGINE.evolve(g.state, e)
        g.events.append(e)
        out.append(e)


def hold(**whales: int) -> dict:
    return {**ZERO_WHALES, **whales}
