"""Solo Founders: the engine's solo player (`solo_play.py`, whose play-outs the hard bot's cycle
planner chooses between; not rules) takes the plain influence basic action only when the
influence it can still gather this cycle covers the next vote's claim tokens. A shortfall no
basic action of the cycle can close is lost influence: the basic action goes to a road, which may
bring a delivery (a delivery takes a claim token off) — bench/bots_results.md, tenth pass."""

from __future__ import annotations

import random

from tablero.engines.core import LocalGame, clone
from tablero.engines.founders_of_gloomhaven import solo_play
from tablero.engines.founders_of_gloomhaven.phases import _claims_cost
from tablero.engines.founders_of_gloomhaven.play import weighted_choice as general_choice

NAME = "founders-of-gloomhaven"


def _basic_action_with_a_claim() -> dict:
    """A solo state (seed 0, the general weighting's moves: independent of the solo player)
    where the player picks a basic action, influence and a road both legal, with a building
    holding a claim token and cards left in hand."""
    g = LocalGame(NAME, seats=1, seed=0)
    rng = random.Random(0)
    while g.outcome() is None:
        s = g.state
        acts = g.legal_actions(0)
        types = {a["type"] for a in acts}
        pl = s["players"][0]
        if ({"take_influence", "road"} <= types and s["roads_left"] > 0 and len(pl["hand"]) >= 3
                and any(pb["claim"] for pb in s["prestige"])):
            return clone(s)
        g.act(0, general_choice(g.engine, s, 0, acts, rng))
    raise AssertionError("no such position in the deal")


def _choice(s: dict) -> dict:
    g = LocalGame(NAME, seats=1, seed=0)
    return solo_play.weighted_choice(g.engine, s, 0, g.engine.legal_actions(s, 0), random.Random(1))


def _with_influence(s: dict, short: int) -> dict:
    """`s` with the fleeting influence that leaves the next vote's claims `short` of being paid."""
    s = clone(s)
    pl = s["players"][0]
    claims = sum(1 for pb in s["prestige"] if pb["claim"])
    pl["fleeting"] = max(0, _claims_cost(s, claims) - short - pl["houses"] - 2 * pl["lasting"])
    return s


def test_a_shortfall_the_cycle_cannot_close_goes_to_a_road_not_to_influence():
    s = clone(_basic_action_with_a_claim())
    pl = s["players"][0]
    pl["fleeting"] = pl["lasting"] = 0
    for pb in s["prestige"]:
        pb["claim"] = not pb["complete"]
    claims = sum(1 for pb in s["prestige"] if pb["claim"])
    left = sum(1 for c in pl["hand"] if c != "vote")
    assert _claims_cost(s, claims) - pl["houses"] > left + 1  # more than every basic action left gives
    assert _choice(s)["type"] == "road"


def test_a_shortfall_the_cycle_can_close_is_paid_with_influence():
    """...and the vote's income counts: a house's fleeting influence at the vote is influence
    already there (the position has a house)."""
    s = _basic_action_with_a_claim()
    assert s["players"][0]["houses"] >= 1
    assert _choice(_with_influence(s, 1)) == {"type": "take_influence"}
    covered = _with_influence(s, 0)
    assert _choice(covered)["type"] != "take_influence"
