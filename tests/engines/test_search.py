"""The bot levels' search (engines/core/search.py): medium takes a win one step ahead, hard sees
the opponent's answer, a deadline that has passed still gives a legal move, budgets are CPU time."""

from __future__ import annotations

import random
import time

from tablero.engines.core import LocalGame, search

from tablero import engines

TTT = engines.get("tic-tac-toe")


def _board(moves: list[int]):
    g = LocalGame("tic-tac-toe", seats=2, seed=0)
    for i, cell in enumerate(moves):
        g.act(i % 2, {"type": "place", "cell": cell})
    return g


def test_medium_takes_the_win_it_sees():
    g = _board([0, 3, 1, 4])  # X: 0, 1; O: 3, 4 -> X wins at 2
    for seed in range(5):
        a = search.choose(TTT, g.state, 0, "medium", random.Random(seed)).action
        assert a == {"type": "place", "cell": 2}


def test_hard_blocks_the_win_one_step_ahead_cannot_see():
    g = _board([0, 4, 1])  # X: 0, 1 threatens 2; O (seat 1) must block at 2
    for seed in range(3):
        a = search.choose(TTT, g.state, 1, "hard", random.Random(seed), iterations=60).action
        assert a == {"type": "place", "cell": 2}


def test_a_passed_deadline_still_gives_a_legal_move():
    g = LocalGame("riverboat", seats=2, seed=1)
    seat = min(g.to_act())
    actions = g.legal_actions(seat)
    t = time.perf_counter()
    for level in ("medium", "hard"):
        a = search.choose(g.engine, g.state, seat, level, random.Random(1), actions,
                          deadline=time.perf_counter() - 1).action
        assert a in actions
    assert time.perf_counter() - t < 2.0


def test_levels_are_checked():
    g = _board([])
    try:
        search.choose(TTT, g.state, 0, "expert", random.Random(0))
    except ValueError as e:
        assert "unknown bot level" in str(e)
    else:
        raise AssertionError("an unknown level was accepted")


def test_every_board_game_declares_its_evaluation_and_budget():
    for name in ("new-bedford", "riverboat", "phoenicia", "founders-of-gloomhaven"):
        ev = search.evaluation(engines.get(name))
        assert ev.standing is not search._random_standing, name
        assert 0 < ev.budget.medium_seconds <= 0.05 and 0 < ev.budget.hard_seconds <= 1.0, name


def _with_budget(engine, **fields):
    ev = search.evaluation(engine)
    return search.Evaluation(ev.standing, search.Budget(**fields))


def test_the_engines_picks_are_counted_when_the_budget_asks():
    """`prior_picks`/`prior_weight`: a heavy weight on the engine's own (uniform) pick outweighs
    the win the evaluation sees; without picks medium always takes it. (From 524eab1 the picks
    were silently never counted.)"""
    g = _board([0, 3, 1, 4])  # X wins at 2
    actions = TTT.legal_actions(g.state, 0)
    plain = _with_budget(TTT, prior_picks=0)
    heavy = _with_budget(TTT, prior_picks=1, prior_weight=1e6)
    took = []
    for seed in range(12):
        a = search.one_step(TTT, plain, g.state, 0, actions, random.Random(seed), None)[0][1]
        assert a == {"type": "place", "cell": 2}
        took.append(search.one_step(TTT, heavy, g.state, 0, actions, random.Random(seed), None)[0][1])
    assert any(a != {"type": "place", "cell": 2} for a in took)


def test_a_chained_decision_is_judged_by_the_best_next_one():
    """`chain_actions`: when the same seat decides again (Founders: a card, then its action), the
    state is worth the best of that next decision, one step each."""
    engine = engines.get("founders-of-gloomhaven")
    g = LocalGame("founders-of-gloomhaven", seats=2, seed=4)
    rng = random.Random(4)
    ev = _with_budget(engine, chain_actions=1000)
    checked = 0
    while g.outcome() is None and checked < 3:
        seat = min(g.to_act())
        for a in g.legal_actions(seat):
            after = search.apply(engine, g.state, seat, a, random.Random(1))
            if after is None or engine.to_act(after) != {seat} or not 1 < len(engine.legal_actions(after, seat)) <= 12:
                continue
            nxt = [search.apply(engine, after, seat, b, random.Random(9)) for b in engine.legal_actions(after, seat)]
            best = max(search.value(engine, ev, s, seat) for s in nxt if s is not None)
            assert search._chained(engine, ev, after, seat, random.Random(0), 9) == best
            checked += 1
            break
        g.act(seat, engine.random_action(g.state, seat, g.legal_actions(seat), rng))
    assert checked == 3
