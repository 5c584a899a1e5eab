"""Solo Founders: hard's cycle planner (engines/founders_of_gloomhaven/planner.py, issue 34).

The solo game is won only by completing every building by the 7th cycle, so `hard` plans whole
hand cycles (a beam over the engine's own player's play-outs) and then follows the plan, a
lookup per decision, until the game leaves it."""

from __future__ import annotations

import random

import pytest
from tablero.engines.core import LocalGame, canonical_json, clone, search
from tablero.engines.founders_of_gloomhaven import planner

NAME = "founders-of-gloomhaven"


@pytest.fixture(autouse=True)
def _no_plans():
    planner.forget()
    yield
    planner.forget()


def _solo(seed: int, decisions: int) -> LocalGame:
    """A solo deal after `decisions` of the engine's player, and on to a choice (a position with
    a single legal move is not planned)."""
    g = LocalGame(NAME, seats=1, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        g.act(0, g.engine.random_action(g.state, 0, g.legal_actions(0), rng))
    while len(g.legal_actions(0)) == 1:
        g.act(0, g.legal_actions(0)[0])
    return g


def _planned(engine, state) -> tuple[dict, str, str]:
    """Hard's move, everything it remembered of its plan, and the state its search started
    from, from no plan at all."""
    planner.forget()
    starts = []
    real = planner.search

    def spied(engine, start, *args, **kwargs):
        starts.append(canonical_json(start))
        return real(engine, start, *args, **kwargs)

    planner.search = spied
    try:
        action = planner.plan(engine, state, 0, random.Random(7), None, iterations=3)
    finally:
        planner.search = real
    assert len(starts) == 1
    return action, canonical_json(sorted(planner._plans.items())), starts[0]


def test_the_plan_is_made_from_what_the_player_sees():
    """The search starts from the same state, and makes the same whole plan (every action and
    the state it is meant for), for two states that differ only in the hidden decks (the
    proposals drawn at the cycle's vote, the advisers a Recruit draws): it starts from a redraw
    of them, never from the real ones."""
    for seed, decisions in ((3, 12), (6, 40)):
        g = _solo(seed, decisions)
        engine, state = g.engine, clone(g.state)
        other = engine.resample_hidden(state, 0, random.Random(11))
        assert canonical_json(other) != canonical_json(state)
        assert canonical_json(engine.view(other, 0)) == canonical_json(engine.view(state, 0))
        a, plan_a, start_a = _planned(engine, state)
        b, plan_b, start_b = _planned(engine, other)
        assert a is not None and a in engine.legal_actions(state, 0)
        assert start_a == start_b, "the search started from the real hidden decks"
        assert (a, plan_a) == (b, plan_b)


def test_hard_follows_its_plan_through_the_cycle():
    """After one plan, the cycle's next decisions are looked up, not searched again (unless
    the game leaves the plan), and each is a legal move."""
    g = _solo(5, 3)
    engine, rng = g.engine, random.Random(5)
    searches = 0
    real = planner.search

    def counted(*args, **kwargs):
        nonlocal searches
        searches += 1
        return real(*args, **kwargs)

    cycle, decided = g.state["cycle"], 0
    planner.search = counted
    try:
        while g.outcome() is None and g.state["cycle"] == cycle:
            actions = g.legal_actions(0)
            choice = search.choose(engine, g.state, 0, "hard", rng, actions, iterations=3)
            assert choice.action in actions
            g.act(0, choice.action)
            decided += 1
    finally:
        planner.search = real
    assert decided >= 6
    assert 1 <= searches <= decided // 3, f"{searches} searches for {decided} decisions"


def test_the_plan_leads_to_the_best_line_found():
    """The line followed is the best of those searched: with a won line among them, the search
    picks a won one (`score` puts any won end above every unfinished or lost one)."""
    g = _solo(1, 0)
    ends = []
    for seed in (0.1, 0.2, 0.3):
        end, actions = planner._line(g.engine, g.state, seed)
        ends.append(planner.score(g.engine, end))
        assert actions
    won = {"over": {"winners": [0], "reason": "solo_complete", "scores": [0], "details": {}, "tie_break": None}}
    s = clone(g.state)
    s.update(won)
    assert planner.score(g.engine, s) > max(ends)
    lost = clone(g.state)
    lost["over"] = {"winners": [], "reason": "solo_claims_unpaid", "scores": [0], "details": {}, "tie_break": None}
    assert planner.score(g.engine, lost) < min(ends)


def test_games_of_several_seats_are_not_planned():
    g = LocalGame(NAME, seats=2, seed=4)
    seat = min(g.to_act())
    assert planner.plan(g.engine, g.state, seat, random.Random(1), None, iterations=2) is None
