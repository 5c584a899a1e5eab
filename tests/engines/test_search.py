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
