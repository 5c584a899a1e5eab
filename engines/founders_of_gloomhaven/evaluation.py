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
# Fleeting influence all goes back at every vote (RULES.md, "The vote"): it counts 1 point only
# if the game ends first, and otherwise only strengthens a vote. Lasting stays unless spent.
_FLEETING = 0.3
# What the seat has built is worth more than its price while the game goes on: the evaluation
# would otherwise see only the money spent (1 point per $4) and never invest.
_ASSET = {"house": 1.5, "bridge": 0.6, "road": 0.25, "stall": 1.5, "t2": 2.5, "t3": 3.5, "worker": 0.5}


def points(state, i: int) -> float:
    p = state["players"][i]
    pts = sum(p["score"].values()) + _FLEETING * p["fleeting"] + p["lasting"] + p["money"] / 4
    if not state["over"]:
        pts += _ASSET["house"] * p["houses"] + _ASSET["bridge"] * p["bridges"] + _ASSET["road"] * p["roads"] \
            + _ASSET["worker"] * p["workers"]
        pts += sum(_ASSET[t["kind"]] for t in state["tiles"] if t["owner"] == i and t["kind"] in _ASSET)
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


# Medium: the engine's own player (play.py: roads and tiles aimed at deliveries) carries the
# plan this evaluation cannot see, so its pick gets 1 point on top of the evaluation: medium
# leaves it only for an action the evaluation finds better by more than that (a delivery, a
# valued adviser, a building placed where its own tiles deliver). A card or an import is judged
# by the best of the seat's next decision (chain_actions: up to 6 of the engine's picks), so
# that playing Recruit is worth the adviser it brings. Measured (2 players, seeds 50-149
# against easy): 72 % with the pick at 1 point alone, 86 % with the chained next decision;
# the pick alone (weight 100) is easy's own player. Hard's rollouts are played by the engine's
# player (rollout_epsilon 1), judged at their end by the evaluation (hard ranks its candidates
# without the chain: its whole 20 ms would go to it).
EVALUATION = Evaluation(standing, Budget(medium_seconds=0.03, medium_actions=1000, hard_seconds=0.02,
                                         hard_candidates=5, rollout_plies=10, rollout_actions=5,
                                         rollout_epsilon=1.0, prior_picks=1, prior_weight=1.0,
                                         chain_actions=6))
