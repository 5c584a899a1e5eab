"""Founders' judgement for the bots in the solo game (evaluation.py `solo_progress`): what pays
the claim tokens, what an adviser or a house is worth."""

from __future__ import annotations

from tablero.engines.core import LocalGame
from tablero.engines.founders_of_gloomhaven import evaluation

from tablero import engines

FOG = engines.get("founders-of-gloomhaven")


def _solo_with_a_claim() -> LocalGame:
    """A solo game played by the engine's own player until a claim token is on the table."""
    import random
    g = LocalGame("founders-of-gloomhaven", seats=1, seed=0)
    rng = random.Random(0)
    while not any(pb["claim"] for pb in g.state["prestige"]):
        g.act(0, FOG.random_action(g.state, 0, g.legal_actions(0), rng))
    assert g.outcome() is None
    return g


def test_influence_short_of_the_claims_costs_more_than_influence_beyond_them_is_worth():
    s = _solo_with_a_claim().state
    p = s["players"][0]
    p["fleeting"], p["lasting"], p["houses"] = 0, 0, 0
    need = evaluation._claims_cost(s)
    assert need > 0
    values = []
    for f in range(need + 3):
        p["fleeting"] = f
        values.append(evaluation.solo_progress(s))
    steps = [b - a for a, b in zip(values, values[1:], strict=False)]
    assert min(steps[:need]) > 3 * max(steps[need:])  # short of the claims, each fleeting counts much more
    p["fleeting"] = 0
    before = evaluation.solo_progress(s)
    p["houses"] = 1  # a house pays 1 fleeting at the vote, before the claims
    assert evaluation.solo_progress(s) > before + 1


def test_lasting_influence_and_advisers_in_hand_count_money_beyond_need_hardly():
    s = _solo_with_a_claim().state
    p = s["players"][0]
    base = evaluation.solo_progress(s)
    p["lasting"] += 1
    assert evaluation.solo_progress(s) > base
    p["lasting"] -= 1
    adviser = next(iter(evaluation.ADVISERS))
    p["hand"].append(adviser)
    assert evaluation.solo_progress(s) > base + 1  # an action in every cycle still to come
    p["hand"].remove(adviser)
    p["money"] = 40
    rich = evaluation.solo_progress(s)
    p["money"] = 44
    assert 0 < evaluation.solo_progress(s) - rich < 0.5

