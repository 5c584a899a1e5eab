"""The rules-as-tables engine decides a v1 game exactly as the v1 engine did: every
action of recorded v1 games (their single-action forms, as v1 clients sent them) gives
the very events v1 gave, and the game ends in the recorded state. (The golden logs
check replay; these check decisions.)"""

import json
import random
from pathlib import Path

import pytest
from tablero.engines.core import check_action, clone
from tablero.engines.core.local import state_hash

from .helpers import ENGINE

RECORDS = sorted((Path(__file__).parent / "data").glob("v1-decisions-*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_v1_actions_give_v1_events(path):
    doc = json.loads(path.read_text())
    assert doc["first"]["engine_version"] == 1
    state = ENGINE.evolve(None, clone(doc["first"]))
    rng = random.Random(doc["seed"] + 1)
    for i, step in enumerate(doc["steps"]):
        check_action(ENGINE, state, step["seat"], step["action"])
        events = ENGINE.decide(state, step["seat"], step["action"], rng)
        assert events == step["events"], f"decision {i}: {step['action']}"
        for e in events:
            state = ENGINE.evolve(state, e)
    assert ENGINE.outcome(state) is not None
    assert state_hash(state) == doc["final_state_hash"]


def test_the_grouped_form_and_pay_give_a_v1_game_the_same_final_events():
    """Each priced v1 action split into its grouped form and `pay`: the same events,
    with `payment_requested` in front."""
    doc = json.loads(RECORDS[0].read_text())
    state = ENGINE.evolve(None, clone(doc["first"]))
    rng = random.Random(doc["seed"] + 1)
    split = 0
    for step in doc["steps"]:
        a, seat = step["action"], step["seat"]
        if "cards" in a and a["type"] not in ("pay", "discard") and (a["cards"] or a["disks"]):
            grouped = {k: v for k, v in a.items() if k not in ("cards", "disks")}
            first = ENGINE.decide(state, seat, grouped, random.Random(0))
            assert [e["type"] for e in first] == ["payment_requested"]
            after = ENGINE.simulate(state, first)
            assert {"type": "pay", "cards": a["cards"], "disks": a["disks"]} in ENGINE.legal_actions(after, seat)
            assert ENGINE.decide(after, seat, {"type": "pay", "cards": a["cards"], "disks": a["disks"]},
                                 random.Random(0)) == step["events"]
            split += 1
        events = ENGINE.decide(state, seat, a, rng)
        for e in events:
            state = ENGINE.evolve(state, e)
    assert split > 10
