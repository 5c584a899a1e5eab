"""Helpers to build precise Riverboat test states by playing through the engine and then
editing the JSON state directly."""

from __future__ import annotations

import copy
import random

from engines.core import LocalGame
from engines.riverboat import ENGINE, board


def new_game(seats: int = 2, seed: int = 1) -> LocalGame:
    return LocalGame(ENGINE, seats=seats, seed=seed)


def play_until(g: LocalGame, pred, seed: int = 0, limit: int = 5000) -> LocalGame:
    """Random play until `pred(state)` holds (checked before every action)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if pred(g.state):
            return g
        assert g.outcome() is None, "game ended before the wanted state"
        seat = rng.choice(sorted(g.to_act()))
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    raise AssertionError("state not reached")


def at_phase(phase: str, seats: int = 2, seed: int = 1, round_: int = 1) -> LocalGame:
    g = new_game(seats, seed)
    return play_until(g, lambda s: s["phase"] == phase and s["round"] == round_ and not s["pending"])


def act(state: dict, seat: int, action: dict, rng: random.Random | None = None) -> tuple[dict, list[dict]]:
    """decide + evolve on a copy; returns (new state, events)."""
    before = copy.deepcopy(state)
    events = ENGINE.decide(state, seat, action, rng or random.Random(0))
    assert state == before, "decide mutated the state"
    return ENGINE.simulate(state, events), events


def clear_mat(p: dict) -> None:
    p.update(board.new_mat())


def cells_of(p: dict, colour: str) -> list[int]:
    return [c for c in range(board.CELLS) if board.COLOUR[p["mat"]][c] == colour]


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def make_turn(state: dict, phase: str, seat: int) -> dict:
    """Put `state` in a sequential phase at `seat`'s turn, everyone else done/unable."""
    s = copy.deepcopy(state)
    s["phase"] = phase
    s["turn"] = seat
    s["pending"] = []
    s["waiting"] = []
    n = s["n"]
    s["claims"], s["done"], s["surveyed"] = [0] * n, [False] * n, [0] * n
    return s
