"""Phoenicia's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other seat. Each seat's worth: victory points now
(the engine's `scoring`), plus production (income every round until someone reaches 32 VP:
worth more early than late), money (disks and production cards in hand), workers, and what is
on the table for it — the card of an auction it leads or has won but not paid yet, less the
price."""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from .data import CARD
from .village import money, scoring

_END_VP = 32
_MONEY = 0.3  # a coin, in points (3 coins buy 1 VP in the City Center)
_WORKER = 0.6


def _production_weight(state) -> float:
    lead = max(scoring(p)["vp"] for p in state["players"])
    return min(2.0, max(0.2, (_END_VP - lead) / 12))


def _card(name: str, f: float) -> float:
    c = CARD[name]
    return c["vp"] + f * c["production"] + _WORKER * (c["untrained"] + c["trained"]) + 0.3 * c["storehouses"]


def points(state, i: int, f: float) -> float:
    p = state["players"][i]
    sc = scoring(p)
    pts = sc["vp"] + f * sc["production"] + _MONEY * money(p)
    a = state.get("auction")
    if a is not None and a["leader"] == i:
        pts += _card(a["card"], f) - _MONEY * a["bid"]
    pay = state.get("payment")
    if pay is not None and pay["seat"] == i and pay.get("card"):
        pts += _card(pay["card"], f) - _MONEY * pay["price"]
    return pts


def standing(state, seat: int) -> float:
    f = _production_weight(state)
    mine = points(state, seat, f)
    others = [points(state, i, f) for i in range(len(state["players"])) if i != seat]
    return mine - max(others) if others else mine


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.05,
                                         hard_candidates=5, rollout_plies=8, rollout_actions=12,
                                         rollout_epsilon=0.0))
