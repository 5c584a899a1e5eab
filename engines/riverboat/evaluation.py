"""Riverboat's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other seat: each one's points now plus the
engine's own final scoring of what is on the table (`scoring.final_scoring`: coins, complete
fields, unscored features, harbor, agents), as if the game ended now."""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from . import scoring


def standing(state, seat: int) -> float:
    rows = scoring.final_scoring(state)
    totals = [r["total"] for r in rows]
    others = [t for i, t in enumerate(totals) if i != seat]
    return totals[seat] - max(others) if others else float(totals[seat])


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.05,
                                         hard_candidates=5, rollout_plies=3, rollout_actions=12,
                                         rollout_epsilon=0.0))
