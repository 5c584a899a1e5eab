"""The generic kit on the variants (the plain game runs in tests/engines/test_kit.py), every
intermediate state's to_act and views, and the random player's games ending."""

import random

import jsonschema
import pytest

import engines
from engines.core import clone, testkit

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
    validator = jsonschema.Draft202012Validator(ENGINE.view_schema)
    state = None
    for i, e in enumerate(g.events):
        state = ENGINE.evolve(state, clone(e))
        acting = ENGINE.to_act(state)
        assert isinstance(acting, set) and all(0 <= s < 3 for s in acting), i
        for seat in (None, 0, 1, 2):
            validator.validate(ENGINE.view(state, seat))


def test_shaping_history_is_kept_with_the_result():
    g = testkit.playthrough(ENGINE, 2, 3, {"shaping_history": True})
    out = g.outcome()
    assert out["history"]["seat"] == out["winners"][0]
    assert out["history"]["section"] in ("Westshore", "Riverbend", "Old Keep")


def test_random_games_end_and_some_by_the_sixth_completion():
    reasons = []
    for seed in range(6):
        g = engines.LocalGame(ENGINE, seats=2, seed=seed)
        g.play_random(rng=random.Random(seed))
        reasons.append(g.outcome()["reason"])
    assert set(reasons) <= {"six_completions", "no_proposals"}
    assert "six_completions" in reasons
