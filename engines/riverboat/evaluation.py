"""Riverboat's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other seat: each one's points now plus the
engine's own final scoring of what is on the table (`scoring.final_scoring`: coins, complete
fields, unscored features, harbor, agents), as if the game ended now, plus the round scoring still
due this round (agents and active surveyors, 1 VP each)."""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from . import scoring


def _round_scoring_due(state) -> list[int]:
    """The VP this round's scoring (phase 5, `phases._score_round`) will surely give each seat: 1
    per active surveyor and per agent in New Orleans. Until it is scored it is no part of a
    player's points, yet an agent sent now scores it: without it, sending a round-4 worker (no
    later use) looked worth nothing and the bots kept it (RULES.md, "Bots")."""
    if state["phase"] == "over":
        return [0] * state["n"]
    return [p["active_surveyors"] + p["agents"] for p in state["players"]]


def standing(state, seat: int) -> float:
    rows = scoring.final_scoring(state)
    due = _round_scoring_due(state)
    totals = [r["total"] + due[i] for i, r in enumerate(rows)]
    others = [t for i, t in enumerate(totals) if i != seat]
    return totals[seat] - max(others) if others else float(totals[seat])


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.05,
                                         hard_candidates=5, rollout_plies=3, rollout_actions=12,
                                         rollout_epsilon=0.0))
