"""The generic kit on the variants (the plain game runs in tests/engines/test_kit.py), every
intermediate state's to_act and views, and the random player's games ending."""

import random

import pytest
from tablero.engines.core import clone, testkit

from tablero import engines

ENGINE = engines.get("founders-of-gloomhaven")

VARIANTS = [
    (2, {"achievements": True}),
    (3, {"no_workers": True}),
    (4, {"map": "symmetric", "achievements": True}),
    (2, {"shaping_history": True}),
    (1, {"map": "symmetric"}),
    (1, {"solo_section": "middle", "achievements": True}),
]


@pytest.mark.parametrize(("seats", "options"), VARIANTS, ids=[f"{s}p-{'-'.join(o)}" for s, o in VARIANTS])
def test_variants_play_to_the_end_replay_and_hide(seats, options):
    g = testkit.playthrough(ENGINE, seats, 7, options)
    testkit.check_outcome(g)
    testkit.check_replay(g)
    testkit.check_views(g, random.Random(7))
    testkit.check_schemas(g, random.Random(8))


@pytest.mark.parametrize(("seats", "options"), VARIANTS[:3], ids=["2p-ach", "3p-noworkers", "4p-sym"])
def test_variants_refuse_bad_actions_without_change(seats, options):
    testkit.check_rejections(ENGINE, seats, seed=11, options=options)


def test_every_intermediate_state_has_a_valid_to_act_and_views():
    g = testkit.playthrough(ENGINE, 3, 5, {"achievements": True})
    state = None
    for i, e in enumerate(g.events):
        state = ENGINE.evolve(state, clone(e))
        acting = ENGINE.to_act(state)
        assert isinstance(acting, set) and all(0 <= s < 3 for s in acting), i
        for seat in (None, 0, 1, 2):
            errors = testkit.schema_errors(ENGINE.view_schema, ENGINE.view(state, seat))
            assert not errors, (i, seat, errors[0].message[:300])


def test_shaping_history_is_kept_with_the_result():
    g = testkit.playthrough(ENGINE, 2, 3, {"shaping_history": True})
    out = g.outcome()
    h = out["shaping_history"]
    assert h["seat"] == out["winners"][0] and h["race"] == out["details"][h["seat"]]["race"]
    assert h["buildings"] and {b["section"] for b in h["buildings"]} <= {"Westshore", "Riverbend", "Old Keep"}


def test_random_games_end_and_complete_prestige_buildings():
    """Random play ends (by the sixth completion or, rarely, by our safety net, RULES.md) and
    completes prestige buildings on the way."""
    completions = []
    for seed in range(4):
        g = engines.LocalGame(ENGINE, seats=2, seed=seed, options={"setup": "dealt"})
        g.play_random(rng=random.Random(seed))
        assert g.outcome()["reason"] in {"six_completions", "stalled"}
        completions.append(g.state["completions"])
    assert sum(completions) / len(completions) >= 4
