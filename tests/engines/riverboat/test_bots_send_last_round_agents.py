"""An outside pass: the `hard` bot, in round 4's Harvest & Shipping with 8 workers in its supply,
claimed a riverboat with the benefit `{"kind": "agents", "max": 1}` and sent no agent, though an
agent scores 1 VP in that round's scoring (seed-R "Agentes") and a worker has no later use after
round 4; it lost that game 98-99. The bots' evaluation (engines/riverboat/evaluation.py) counted
only the final scoring, where one more agent changed nothing for a seat already first in agents."""

import random

import pytest
from tablero.engines.core import search
from tablero.engines.riverboat import ENGINE, evaluation

from .helpers import act, harvest_state


def _agents_pending(round_: int = 4) -> dict:
    s = harvest_state({"beet": 5}, round_=round_)
    s["players"][0].update(workers=3, agents=3, active_surveyors=0)
    s["players"][1].update(agents=1, active_surveyors=0)
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "5", "crop": "beet", "coin": False})
    while s["pending"] and s["pending"][0]["kind"] == "feature":
        s, _ = act(s, 0, {"type": "take_surveyor"})
    assert s["pending"][0] == {"seat": 0, "kind": "agents", "max": 1}
    assert s["players"][0]["workers"] == 8
    return s


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_bot_sends_its_agent_in_the_last_round(level):
    s = _agents_pending()
    assert sorted(a["count"] for a in ENGINE.legal_actions(s, 0)) == [0, 1]
    for seed in range(10):  # without the fix, a tie broken at random: 1 in 1024 to pass
        got = search.choose(ENGINE, s, 0, level, random.Random(seed)).action
        assert got == {"type": "send_agents", "count": 1}, (level, seed, got)


def test_the_agent_is_worth_this_rounds_scoring_in_the_evaluation():
    s = _agents_pending()
    kept, _ = act(s, 0, {"type": "send_agents", "count": 0})
    sent, _ = act(s, 0, {"type": "send_agents", "count": 1})
    # the majority is the same (seat 0 is first either way): the difference is the round's 1 VP
    assert evaluation.standing(sent, 0) - evaluation.standing(kept, 0) == 1
