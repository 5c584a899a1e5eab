"""Founders of Gloomhaven's judgement for the medium and hard bots (engines/core/search.py):
not rules.

A seat's points are what the engine's final scoring would give now (points by source, each
influence token 1, every $4 1) plus what is on the table: deliveries and completions pay points
and end the game, so each delivered requirement and each completion counts a little more. With
several seats the standing is the lead over the best other seat; solo, where the game is won
only by completing every building, it is the progress itself."""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from . import phases

_DELIVERED = 1.5  # per delivery token of the seat on a prestige building
_COMPLETED = 3.0  # per completed building the seat delivered to


def points(state, i: int) -> float:
    p = state["players"][i]
    pts = sum(p["score"].values()) + p["fleeting"] + p["lasting"] + p["money"] / 4
    for pb in state["prestige"]:
        mine = sum(1 for d in pb["delivered"] if d == i)
        pts += _DELIVERED * mine + (_COMPLETED if pb["complete"] and mine else 0.0)
    return pts


def _claims_cost(state) -> int:
    """Influence (in fleeting) the neutral claim tokens on the table will cost at the next solo
    vote, by the engine's own rule for the game's version (phases._claims_cost)."""
    claims = sum(1 for pb in state["prestige"] if pb.get("claim"))
    return phases._claims_cost(state, claims)


def solo_progress(state) -> float:
    """Solo: completions (all of them win), deliveries toward them, and influence to pay the
    claim tokens at the next vote (short of it, the game is lost there)."""
    delivered = sum(1 for pb in state["prestige"] for d in pb["delivered"] if d is not None)
    done = sum(1 for pb in state["prestige"] if pb["complete"])
    p = state["players"][0]
    influence = p["fleeting"] + 2 * p["lasting"]
    short = max(0, _claims_cost(state) - influence)
    return 12.0 * done + 3.0 * delivered + 0.4 * influence - 3.0 * short + p["money"] / 8


def standing(state, seat: int) -> float:
    if state["solo"]:
        return solo_progress(state)
    mine = points(state, seat)
    others = [points(state, i) for i in range(len(state["players"])) if i != seat]
    return mine - max(others)


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=300, hard_seconds=0.7,
                                         hard_candidates=5, rollout_plies=8, rollout_actions=5))
