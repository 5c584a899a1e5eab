"""Bots never cheat (issue 34 item 2): for every engine, two states that differ only in what the
bot's seat may not see (the engine's own `resample_hidden` redraws exactly that) lead, with the
same random numbers, to the same decision at every level."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tablero.engines.core import LocalGame, canonical_json, clone, search
from tablero.engines.founders_of_gloomhaven import planner

from tablero import engines

CASES = {  # engine -> seats
    "new-bedford": 2, "riverboat": 2, "phoenicia": 3, "founders-of-gloomhaven": 2, "goofspiel": 2, "tic-tac-toe": 2,
}
# The engine's own picks (prior) and the chained next decision are on, so that they are checked too.
SMALL = search.Budget(medium_actions=60, hard_candidates=3, rollout_plies=3, rollout_actions=3, prior_picks=2,
                      prior_weight=1.0, chain_actions=3)


@pytest.fixture(autouse=True)
def _small_budgets(monkeypatch):
    real = search.evaluation
    # The engine's own hooks (New Bedford: an unfinished move finished, its rollout length) are
    # kept, so that they are checked too.
    monkeypatch.setattr(search, "evaluation", lambda engine: dataclasses.replace(real(engine), budget=SMALL))


def _states(name: str, seats: int, seed: int, picks: int):
    """States along a random game where a seat must choose between several actions."""
    g = LocalGame(name, seats=seats, seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while g.outcome() is None and len(out) < picks:
        seat = min(g.to_act())
        actions = g.legal_actions(seat)
        if len(actions) > 1 and step % 7 == 3:
            out.append((clone(g.state), seat))
        g.act(seat, g.engine.random_action(g.state, seat, actions, rng))
        step += 1
    return g.engine, out


def test_every_engine_has_a_case():
    assert set(engines.names()) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_view_same_decision(name):
    engine, states = _states(name, CASES[name], seed=5, picks=4)
    assert states
    differed = 0
    for i, (state, seat) in enumerate(states):
        other = engine.resample_hidden(state, seat, random.Random(1000 + i))
        if other is None:  # nothing is hidden in this engine: the state is all the bot may see
            other = state
        assert canonical_json(engine.view(other, seat)) == canonical_json(engine.view(state, seat))
        differed += canonical_json(other) != canonical_json(state)
        actions = engine.legal_actions(state, seat)
        assert canonical_json(engine.legal_actions(other, seat)) == canonical_json(actions)
        for level in ("medium", "hard"):
            a = search.choose(engine, state, seat, level, random.Random(7), actions, iterations=8).action
            b = search.choose(engine, other, seat, level, random.Random(7), actions, iterations=8).action
            assert a == b, f"{name} {level}: the decision depends on what seat {seat} may not see"
    if engine.resample_hidden(states[0][0], states[0][1], random.Random(0)) is not None:
        assert differed, f"{name}: the hidden parts never differed, so the test proved nothing"


def test_solo_founders_same_view_same_decision():
    """The solo game has its own judgement (Founders' `solo_progress`) and hard its own planner
    (`planner.py`, whole cycles): the hidden decks still never change a decision."""
    engine, states = _states("founders-of-gloomhaven", 1, seed=2, picks=4)
    assert states
    differed = 0
    for i, (state, seat) in enumerate(states):
        other = engine.resample_hidden(state, seat, random.Random(2000 + i))
        assert canonical_json(engine.view(other, seat)) == canonical_json(engine.view(state, seat))
        differed += canonical_json(other) != canonical_json(state)
        actions = engine.legal_actions(state, seat)
        for level in ("medium", "hard"):
            planner.forget()  # hard plans by cycles: each decision planned afresh, not looked up
            a = search.choose(engine, state, seat, level, random.Random(7), actions, iterations=4).action
            planner.forget()
            b = search.choose(engine, other, seat, level, random.Random(7), actions, iterations=4).action
            assert a == b, f"solo {level}: the decision depends on what the player may not see"
    assert differed, "the hidden parts never differed, so the test proved nothing"


def test_the_canonical_form_hides_what_a_seat_may_not_see():
    """The bots' first step: whatever the hidden arrangement, one canonical state per view."""
    engine, states = _states("founders-of-gloomhaven", 2, seed=3, picks=2)
    for state, seat in states:
        other = engine.resample_hidden(state, seat, random.Random(9))
        assert canonical_json(other) != canonical_json(state)
        assert canonical_json(search.canonical(engine, other, seat)) == \
            canonical_json(search.canonical(engine, state, seat))
