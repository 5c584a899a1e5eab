"""New Bedford's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other player (Captains included): each one's
points now by the engine's own scoring (`scoring.score_seat`: whales kept, buildings, Victory
bonuses, money) plus what is on the table — whales in holds not yet home (most reach it),
money short of a point, goods that pay for buildings."""

from __future__ import annotations

from engines.core.search import Budget, Evaluation

from . import data, scoring

_HOLD = 0.7  # a whale in a hold, per point it is worth home
_GOOD = 0.25  # a lumber, food or brick


def points(state, i: int) -> float:
    p = state["players"][i]
    total = scoring.score_seat(state, i)["total"]
    held = sum(data.WHALES[k]["points"] * n for s in p["ships"] for k, n in s["hold"].items())
    at_sea = sum(1 for s in p["ships"] if s["at"] in ("sea", "returning"))
    return (total + _HOLD * held + 0.3 * at_sea + (p["money"] % data.MONEY_PER_POINT) / data.MONEY_PER_POINT
            + _GOOD * (p["lumber"] + p["food"] + p["brick"]))


def standing(state, seat: int) -> float:
    mine = points(state, seat)
    others = [points(state, i) for i in range(len(state["players"])) if i != seat]
    return mine - max(others) if others else mine


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.7,
                                         hard_candidates=5, rollout_plies=6, rollout_actions=6))
