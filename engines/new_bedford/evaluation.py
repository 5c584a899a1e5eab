"""New Bedford's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other player (Captains included): each one's
points now by the engine's own scoring (`scoring.score_seat`: whales kept, buildings, Victory
bonuses, money) plus what is on the table, valued by what it turns into before round 12 ends:
whales in holds (most are kept after paying the lay), ships at sea (a whale per whaling phase
still ahead), a prepared ship, buildings' actions, money short of a point, and goods (what they
sell for, or build; worth nothing once the last round is over)."""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from . import data

_HOLD = 0.8  # a whale in a hold, per point it is worth home (its lay is still to pay)
_AT_SEA = 1.3  # a ship at sea, per whaling phase it still takes part in
_LAUNCHED = 1.5  # a ship at sea, as such
_PREPARED = 2.0  # a ship on the Dock, ready to launch
_BUILDING_USE = 1.0  # a building's action (and the fees others pay for it), beyond its point
_GOOD = {"lumber": 0.2, "food": 0.2, "brick": 0.4}


def points(state, i: int) -> float:
    from . import scoring

    p = state["players"][i]
    total = scoring.score_seat(state, i)["total"]
    left = max(0, data.ROUNDS - state["round"]) / data.ROUNDS  # share of the game still ahead
    ships = 0.0
    for s in p["ships"]:
        ships += _HOLD * sum(data.WHALES[k]["points"] * n for k, n in s["hold"].items())
        if s["at"] == "sea":
            ships += _LAUNCHED + _AT_SEA * max(0, (s["row"] or 0) - 1) * (1.0 if left > 0 else 0.0)
        elif s["at"] == "dock":
            ships += _PREPARED * left
    owned = sum(1 for t in state["buildings"].values() if t["owner"] == i)
    goods = sum(_GOOD[g] * p[g] for g in _GOOD) * (0.3 + 0.7 * left)
    return total + ships + _BUILDING_USE * owned * left + goods \
        + (p["money"] % data.MONEY_PER_POINT) / data.MONEY_PER_POINT * 0.8


def standing(state, seat: int) -> float:
    mine = points(state, seat)
    others = [points(state, i) for i in range(len(state["players"])) if i != seat]
    return mine - max(others) if others else mine


# Hard: one ply of rollout (the other seat's answer by medium's judgement) was best of the
# lengths measured (0-6 plies, bench/bots_results.md): longer rollouts only add noise here.
EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.05,
                                         hard_candidates=5, rollout_plies=1, rollout_actions=12,
                                         rollout_epsilon=0.0))
