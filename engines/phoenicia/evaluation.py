"""Phoenicia's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other seat: victory points now (the engine's
`scoring`), plus production (what the village will earn: worth points later) and money
(disks and production cards in hand), lightly weighted."""

from __future__ import annotations

from engines.core.search import Budget, Evaluation

from .village import money, scoring

_PRODUCTION = 0.5
_MONEY = 0.1


def points(state, i: int) -> float:
    p = state["players"][i]
    sc = scoring(p)
    return sc["vp"] + _PRODUCTION * sc["production"] + _MONEY * money(p)


def standing(state, seat: int) -> float:
    mine = points(state, seat)
    others = [points(state, i) for i in range(len(state["players"])) if i != seat]
    return mine - max(others) if others else mine


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.03, medium_actions=400, hard_seconds=0.7,
                                         hard_candidates=5, rollout_plies=8, rollout_actions=6))
