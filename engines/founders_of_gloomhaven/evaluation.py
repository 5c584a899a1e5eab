"""Founders of Gloomhaven's judgement for the medium and hard bots (engines/core/search.py):
not rules.

A seat's points are what the engine's final scoring would give now (points by source, each
influence token 1, every $4 1) plus what is on the table: deliveries and completions pay points
and end the game, so each delivered requirement and each completion counts a little more. With
several seats the standing is the lead over the best other seat; solo, where the game is won
only by completing every building, it is the progress itself."""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from . import phases, planner
from .data import ADVISERS

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


# Solo weights (see solo_progress; measured in bench/bots_results.md, fourth pass).
SOLO = {"done": 12.0, "delivered": 3.0, "short": 3.0, "lasting": 1.0, "fleeting": 0.4, "surplus": 0.1,
        "house": 0.4, "adviser": 0.5, "money": 1 / 6, "money_cap": 12, "money_beyond": 1 / 20}


def solo_progress(state) -> float:
    """Solo: completions (all of them win), deliveries toward them, and what pays the claim tokens.

    The claims on the table cost influence at the next vote (short of it, the game is lost
    there), paid after that vote's income (1 fleeting a house). Fleeting influence beyond that
    cost is lost at the vote (worth little); lasting influence stays for later claims; a house
    pays 1 fleeting at every vote still to come and an adviser in hand is one more action every
    cycle still to come. Money buys imports, upgrades, houses and advisers, but the solo game runs
    out of actions long before money (the bots ended with $15-33 unspent), so beyond $12 it is
    worth little."""
    w = SOLO
    delivered = sum(1 for pb in state["prestige"] for d in pb["delivered"] if d is not None)
    done = sum(1 for pb in state["prestige"] if pb["complete"])
    p = state["players"][0]
    need = _claims_cost(state)
    short = max(0, need - (p["fleeting"] + 2 * p["lasting"] + p["houses"]))
    useful = min(p["fleeting"], max(0, need - 2 * p["lasting"] - p["houses"]))
    left = max(0, 7 - state["cycle"])  # votes still to come
    advisers = sum(1 for c in [*p["hand"], *(x["card"] for x in p["played"])] if c in ADVISERS)
    money = p["money"]
    return (w["done"] * done + w["delivered"] * delivered - w["short"] * short
            + w["lasting"] * p["lasting"] + w["fleeting"] * useful + w["surplus"] * (p["fleeting"] - useful)
            + w["house"] * left * p["houses"] + w["adviser"] * left * advisers
            + w["money"] * min(money, w["money_cap"]) + w["money_beyond"] * max(0, money - w["money_cap"]))


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
                                         chain_actions=6, plan_seconds=0.9),
                        plan=planner.plan)

