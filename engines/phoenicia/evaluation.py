"""Phoenicia's judgement for the medium and hard bots (engines/core/search.py): not rules.

Everything is counted in victory points. A seat's standing is its worth less the best other
seat's. A seat's worth: its VP now, plus its production over the rounds still to come, plus the
money that will survive the storage and treasury limits at the end of this round (money the
limits take is worth nothing), plus spare workers, tool disks a spare worker can still use,
storehouses and work tiles. What is on the table is counted as it will be: a price due is judged
after its best payment (so a purchase shows what it buys, and what it costs), and the card of an
auction a seat leads as the worth that card adds to that seat's village, less the price.
"""

from __future__ import annotations

import random

from tablero.engines.core.search import Budget, Evaluation, apply

from . import data
from .data import CARD, TABLEAUS
from .money import income
from .village import discount, first, money, new_tile, owned_kinds, scoring, slot_production, treasury_capacity

# --- constants: judgement, not rules. Where each comes from: ---
# A coin in VP: the City Center sells 1 VP for 3; late cards pay ~2.5 per VP (RULES.md,
# "Our edition"); a Hunting worker costs 4 (train + tool) for 1 VP and 1 production.
COIN = 0.35
# ... but only while there are rounds left to spend it: money left at the end is worth nothing
# but a tie-break. From FULL_ROUNDS rounds left down to the last round a coin's worth falls to
# LAST_COIN_SHARE of COIN, so that at the end a bot turns money into VP (employs, moves a worker
# to Mining or Clothmaking) rather than keep it. Seen without it: 2-player games where both seats
# ended turns forever at 29-30 VP, the bot holding 45-80 coins (each round's income, pinned at
# one round left, looked like a gain worth more than the VP the coins could buy).
FULL_ROUNDS = 4
LAST_COIN_SHARE = 0.05
# Rounds left: the fewer of (a) the rounds to the usual last round (2-player medium/first
# games end in rounds 12-13: 13 incomes at most) and (b) the rounds the leader needs to reach
# 32 VP at 2 VP a round. (a) falls by one at every round's end, so that the income a round's
# end hands out is not counted twice (once in hand, once as production to come).
LAST_ROUND = 13
VP_PER_ROUND = 2.0
# A point of production pays one coin a round from the next round on; part of it is lost to the
# storage limits or arrives too late to be spent: this share of it is counted.
PRODUCTION_SHARE = 0.8
# A spare worker is worth a share of what employing it on the cheapest free space would bring now
# (VP + production to come - the tool cost): an untrained one less (it still needs training and
# a turn), a trained one more, so that training pays when an employment follows (one step ahead
# sees only the training), and employing beats keeping a trained worker (shares below 1; tried:
# 0.5/0.8 left a bot at 30 VP with two trained workers ending its turns forever). A tool disk a
# spare worker can use is worth a share of its cost (none without a worker: no tool bought for
# nobody).
UNTRAINED_SHARE = 0.3
TRAINED_SHARE = 0.6
TOOL_SHARE = 0.8
# A storehouse: keeps one more production card (~5 coins) through the limits, when needed.
STOREHOUSE = 0.3
# A work tile owned (Mining, Clothmaking): the better spaces it opens to later workers.
TILE = {"mining": 1.0, "clothmaking": 1.5}
# A treasury space beyond the three printed ones (Granary): disks kept through the limits.
TREASURY_SPACE = 0.15
# The production card income brings for 4 points (the deck's mean, data.PRODUCTION_DECK).
CARD_MEAN = sum(v * n for v, n in data.PRODUCTION_DECK.items()) / sum(data.PRODUCTION_DECK.values())


def coin(r: float) -> float:
    """A coin's worth in VP with `r` rounds left."""
    return COIN * min(1.0, max(LAST_COIN_SHARE, (r - 1) / (FULL_ROUNDS - 1)))


def rounds_left(state) -> float:
    lead = max(p["vp"] for p in state["players"])
    return max(1.0, min(LAST_ROUND - state["round"], (data.VP_TO_WIN - lead) / VP_PER_ROUND))


def kept_money(p, income_due: bool) -> float:
    """`p`'s money less what the storage and treasury limits would take from it: the limits as
    they stand, or (`income_due`: `p` can no longer spend before this round's end) after this
    round's income (the income itself is counted as production)."""
    total = money(p)
    cards, disks = income(p["production"], p["disks"]) if income_due else (0, p["disks"])
    hand = sorted([*p["hand"], *[data.PRESET_CARD_VALUE] * p["preset"], *[CARD_MEAN] * cards], reverse=True)
    kept_cards = hand[: p["storehouses"]]
    refill = sum(hand[p["storehouses"]:]) + disks
    kept = sum(kept_cards) + min(treasury_capacity(p), refill)
    lost = sum(hand) + disks - kept
    return max(0.0, total - lost)


def _spare_tools(p) -> int:
    tools = sorted((TABLEAUS[t["kind"]]["tool_cost"] for t in p["tiles"] if t["kind"] in TABLEAUS
                    for s in t["slots"] if s == "t"), reverse=True)
    return sum(tools[: p["untrained"] + p["trained"]])


def _employment(p, pv: float, c: float) -> float:
    """What employing one more worker on the cheapest free space brings now, in VP (0: none;
    the cheapest, as a costlier one may never be paid for)."""
    for kind in owned_kinds(p):  # cheapest first
        where = first(p, kind, None)
        if where is not None:
            t = TABLEAUS[kind]
            return max(0.0, t["vp"] + pv * slot_production(p, kind, where[1]) - c * t["tool_cost"])
    return 0.0


def income_due(state, i: int) -> bool:
    """Has seat `i` played (or is it playing) its turn of this round, before the round's income?"""
    if state["phase"] not in ("turn", "limits") or (state.get("discard") or {}).get("when") == "admin":
        return False
    return i in state["order"][: state["turn"] + 1]


def worth(p, r: float, due: bool) -> float:
    """`p`'s worth in VP with `r` rounds left (`due`: income_due); its tracks are the
    village's VP and production (village.scoring)."""
    c = coin(r)
    pv = COIN * PRODUCTION_SHARE * r  # a point of production
    tiles = sum(TILE.get(t["kind"], 0.0) for t in p["tiles"])
    spare = _employment(p, pv, c) * (UNTRAINED_SHARE * p["untrained"] + TRAINED_SHARE * p["trained"])
    return (p["vp"] + pv * p["production"] + c * kept_money(p, due) + spare
            + TOOL_SHARE * c * _spare_tools(p) + STOREHOUSE * p["storehouses"] + tiles
            + TREASURY_SPACE * (treasury_capacity(p) - data.TREASURY_SPACES))


def with_card(p, name: str):
    """A copy of `p` owning the development card `name` (what a won auction brings)."""
    c = CARD[name]
    q = dict(p)
    q["cards"] = [*p["cards"], name]
    q["storehouses"] = p["storehouses"] + c["storehouses"]
    q["untrained"] = p["untrained"] + c["untrained"]
    q["trained"] = p["trained"] + c["trained"]
    if c["tile"]:
        q["tiles"] = [*p["tiles"], new_tile(c["tile"])]
    sc = scoring(q)  # the tracks (a Tracker or Smelter raises the workers' production too)
    q["vp"], q["production"] = sc["vp"], sc["production"]
    return q


def _engine():
    from tablero import engines

    return engines.get("phoenicia")


def _after_payment(state, i: int):
    """The state after seat `i` pays the price due in its best way (by this judgement)."""
    eng = _engine()
    best = None
    for a in eng.legal_actions(state, i):
        after = apply(eng, state, i, a, random.Random(0))
        if after is not None and after.get("payment") is None:
            v = worth(after["players"][i], rounds_left(after), income_due(after, i))
            if best is None or v > best[0]:
                best = (v, after)
    return None if best is None else best[1]


def points(state, i: int, r: float) -> float:
    p = state["players"][i]
    a = state.get("auction")
    if a is not None and a["leader"] == i:
        price = max(0, a["bid"] - discount(p, a["card"]))
        return worth(with_card(p, a["card"]), r, income_due(state, i)) - coin(r) * price
    return worth(p, r, income_due(state, i))


def standing(state, seat: int) -> float:
    pay = state.get("payment")
    if pay is not None:
        after = _after_payment(state, pay["seat"])
        if after is not None:
            state = after
    r = rounds_left(state)
    mine = points(state, seat, r)
    others = [points(state, i, r) for i in range(len(state["players"])) if i != seat]
    return mine - max(others) if others else mine


EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.05,
                                         hard_candidates=5, rollout_plies=8, rollout_actions=12,
                                         rollout_epsilon=0.0))
