"""Helpers to build precise Riverboat test states by playing through the engine and then
editing the JSON state directly."""

from __future__ import annotations

import copy
import random

from tablero.engines.core import LocalGame
from tablero.engines.riverboat import ENGINE, board
from tablero.engines.riverboat.data import BOAT_TYPES


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


def harvest_state(crops0: dict | None = None, round_: int = 1, coins: int = 2) -> dict:
    """Harvest, player 0 to act; player 1 has nothing to harvest. crops0: {crop: number of
    workers on it} (default 7 beet); every boat on the board and 4 of each in the piles."""
    s = make_turn(at_phase("harvest").state, "harvest", 0)
    s["round"] = round_
    for p in s["players"]:
        clear_mat(p)
        p.update(harvested={c: 0 for c in p["harvested"]}, harvest_bonus=[], boats=[], coins=coins, workers=0)
    cell = 0
    for crop, k in (crops0 or {"beet": 7}).items():
        for _ in range(k):
            s["players"][0]["crop"][cell] = crop
            s["players"][0]["worker"][cell] = True
            cell += 1
    s["boat_board"] = {b: True for b in BOAT_TYPES}
    s["boat_piles"] = {b: 4 for b in BOAT_TYPES}
    return s


def whole_game(seats: int, seed: int, options: dict | None = None, prefer=None, share: float = 0.0) -> list[dict]:
    """The events of a whole game of the engine's random player (the log-reading audit tests);
    with `prefer` (a test on an action), one of the preferred legal actions is played instead
    with probability `share` when there is one (so that rare moves are exercised)."""
    g = LocalGame(ENGINE, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        acts = g.legal_actions(seat)
        picks = [a for a in acts if prefer(a)] if prefer is not None else []
        a = rng.choice(picks) if picks and rng.random() < share else ENGINE.random_action(g.state, seat, acts, rng)
        g.act(seat, a)
    return g.events


def full_rows(outcome: dict) -> list[dict]:
    """The outcome's details (`scoring.summary`: the lines that add up to the total, then a
    `breakdown` of records) read back as the scoring rows (`scoring.final_scoring`), category by
    category: the outcome keeps every figure of them."""
    from tablero.engines.riverboat.scoring import FINAL_CATEGORIES

    out = []
    for d in outcome["details"]:
        b = d["breakdown"]
        assert d["total"] == d["in_game"]["vp"] + sum(d[k] for k in FINAL_CATEGORIES), d  # the lines add up
        row = {"seat": d["seat"], "in_game": {"vp": d["in_game"]["vp"], "by_source": b["in_game"][0]},
               **{k: {**b[k][0], "vp": d[k]} for k in FINAL_CATEGORIES},
               "final_vp": b["final_vp"][0]["vp"], "total": d["total"], "tiebreak": b["tiebreak"][0],
               "harvested": b["harvested"][0]}
        out.append(row)
    return out
