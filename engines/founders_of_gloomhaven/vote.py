"""The vote (seed-FoG p. 15), the placement of the winner (p. 16) and the solo proposal costs
(pp. 17-18)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

from tablero.engines.core import IllegalAction

from . import data as D
from .board import board_of
from .common import Action, Event, Player, State, _closest, _p, _points, _version
from .delivery import _apply, _completion_events, _find_deliveries
from .placement import _prestige_fits, _prestige_footprints


# ============================================================================================
# the vote (seed-FoG p. 15) and placement (p. 16)
# ============================================================================================
def _check_vote(state: State, seat: int, a: Action) -> None:
    v = state["vote"]
    if v["votes"][seat] is not None:
        raise IllegalAction("you have already voted")
    if a["proposal"] >= len(state["proposals"]):
        raise IllegalAction(f"there are only {len(state['proposals'])} proposals")
    pl = _p(state, seat)
    if a["fleeting"] > pl["fleeting"] or a["lasting"] > pl["lasting"]:
        raise IllegalAction(f"you hold {pl['fleeting']} fleeting and {pl['lasting']} lasting influence")


def _strength(v: dict[str, Any]) -> int:
    return 1 + v["fleeting"] + 2 * v["lasting"]


def _tie_pick(state: State, seats: Iterable[int], caller: int) -> int:
    """Fewest points, then closest in turn order to the caller (seed-FoG p. 15)."""
    low = min(_points(state, s) for s in seats)
    return _closest(state, [s for s in seats if _points(state, s) == low], caller)


def _placer(state: State, votes: list[dict[str, Any]], proposal, caller: int) -> int:
    given = {s: _strength(v) for s, v in enumerate(votes) if v["proposal"] == proposal}
    top = max(given.values())
    return _tie_pick(state, [s for s, g in given.items() if g == top], caller)


def _vote(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    choice = {"proposal": a["proposal"], "fleeting": a["fleeting"], "lasting": a["lasting"]}
    evs = [{"type": "vote_cast", "seat": seat, "private": {str(seat): choice}}]
    votes = list(state["vote"]["votes"])
    votes[seat] = choice
    if all(v is not None for v in votes):
        caller = state["vote"]["caller"]
        totals = [0, 0, 0]
        for v in votes:
            totals[v["proposal"]] += _strength(v)
        top = max(totals)
        tied = [i for i, t in enumerate(totals) if t == top]
        ev = {"type": "votes_revealed", "votes": votes, "totals": totals, "tied": tied,
              "winner": None, "placer": None, "decider": None}
        if len(tied) == 1:
            ev["winner"] = tied[0]
            ev["placer"] = _placer(state, votes, tied[0], caller)
        else:
            implicated = [s for s, v in enumerate(votes) if v["proposal"] in tied]
            ev["decider"] = _tie_pick(state, implicated, caller)
        evs.append(ev)
    return evs


def _vote_options(state: State, seat: int) -> Iterator[Action]:
    if state["vote"]["votes"][seat] is not None:
        return
    pl = _p(state, seat)
    for prop in range(len(state["proposals"])):
        for f in range(pl["fleeting"] + 1):
            for la in range(pl["lasting"] + 1):
                yield {"type": "vote", "proposal": prop, "fleeting": f, "lasting": la}


def _check_choose(state: State, seat: int, a: Action) -> Any:
    v = state["vote"]
    if state["solo"]:
        cost = _solo_cost(state, a["proposal"])
        if a["proposal"] >= len(state["proposals"]):
            raise IllegalAction("no proposal in that slot")
        if not _can_pay(_p(state, seat), cost):
            raise IllegalAction(f"that proposal costs {cost} fleeting influence (2 fleeting = 1 lasting)")
        return cost
    if a["proposal"] not in v["tied"]:
        raise IllegalAction(f"choose one of the tied proposals {v['tied']}")
    return 0


def _choose(state: State, seat: int, a: Action, cost: Any, rng: random.Random):
    if state["solo"]:
        return [{"type": "proposal_chosen", "seat": seat, "proposal": a["proposal"], "placer": seat,
                 "pay": _payment(state, _p(state, seat), cost)}]
    v = state["vote"]
    placer = _placer(state, v["votes"], a["proposal"], v["caller"])
    return [{"type": "proposal_chosen", "seat": seat, "proposal": a["proposal"], "placer": placer,
             "pay": {"fleeting": 0, "lasting": 0}}]


def _choose_options(state: State, seat: int) -> Iterator[Action]:
    props = range(len(state["proposals"])) if state["solo"] else state["vote"]["tied"]
    for i in props:
        a = {"type": "choose_proposal", "proposal": i}
        try:
            _check_choose(state, seat, a)
        except IllegalAction:
            continue
        yield a


def _check_place(state: State, seat: int, a: Action) -> None:
    card = state["vote"]["card"]
    cells = tuple(sorted(a["cells"]))
    if not _prestige_fits(state, card, cells):
        spec = D.edition(state).PRESTIGE[card]
        if "spot" in spec and (_version(state) < 9 or cells not in board_of(state).spots[spec["spot"]]):
            raise IllegalAction(f"{spec['name']} goes only on its reserved spot")
        if "spot" in spec:
            raise IllegalAction(f"{spec['name']}: a prestige building of its type ({spec['shape']} {spec['colour']}) "
                                "already stands in this section")
        raise IllegalAction(f"{spec['name']} ({spec['shape']}) must cover free squares, at least one {spec['colour']}, "
                            "with no prestige building of its type in the same section")


def _place(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    card = state["vote"]["card"]
    tile = len(state["tiles"])
    evs = [{"type": "prestige_placed", "seat": seat, "card": card, "cells": sorted(a["cells"]), "tile": tile}]
    bi = len(state["prestige"])
    for ri, res in enumerate(D.edition(state).PRESTIGE[card]["requires"]):
        if res in state["neutral"]:  # a neutral basic resource is delivered at once (p. 11)
            evs.append({"type": "delivered", "building": bi, "requirement": ri, "resource": res, "tile": None,
                        "owner": -1, "points": []})
    s = _apply(state, evs)
    dl = _find_deliveries(s)
    s = _apply(s, dl)
    return [*evs, *dl, *_completion_events(s)]


def _place_options(state: State, seat: int):
    return ({"type": "place_prestige", "cells": list(fp)} for fp in _prestige_footprints(state, state["vote"]["card"]))


# ============================================================================================
# solo (seed-FoG pp. 17-18)
# ============================================================================================
def _solo_cost(state: State, slot: int) -> int:
    """Influence cost of a proposal slot, in fleeting influence (2 fleeting = 1 lasting)."""
    c = state["completions"]
    return [0, 2 + c, 2 * (2 + c)][slot]


def _can_pay(pl: Player, cost: Any) -> bool:
    return pl["fleeting"] + 2 * pl["lasting"] >= cost


def _payment(state: State, pl: Player, cost: Any) -> dict:
    """The influence paid for `cost` (in fleeting; 2 fleeting = 1 lasting, p. 18): as few lasting
    tokens as the fleeting ones leave to pay (fleeting is lost after the vote anyway; ours), and
    from v11 no more than the cost: an odd rest is paid with a fleeting token, not a lasting one
    (with 2 fleeting and 1 lasting, 3 is 1 + 1 lasting, which leaves a fleeting token for the
    proposal chosen after the claims). v1-v10 paid fleeting first: 2 fleeting + 1 lasting for 3."""
    if _version(state) >= 11:
        la = (max(0, cost - pl["fleeting"]) + 1) // 2
        return {"fleeting": max(0, cost - 2 * la), "lasting": la}
    f = min(pl["fleeting"], cost)
    rest = cost - f
    la = (rest + 1) // 2
    return {"fleeting": f, "lasting": la}
