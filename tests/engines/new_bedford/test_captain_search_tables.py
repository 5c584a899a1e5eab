"""The Captains' order search skips spaces by a static table (`captains._may_satisfy`): a space
the table rules out for a heading must never satisfy it in any state. Checked against
`effect_for` for every space and heading at every state of random games against Captains."""

import random

import pytest
from tablero.engines.core import LocalGame
from tablero.engines.new_bedford import captains, data

HEADINGS = ["lumber", "food", "brick", "money", "prepare", "build_white", "build_black", "victory",
            *[f"launch:{r}" for r in data.SEA_ROWS], *[f"combo:{r}" for r in data.SEA_ROWS]]


@pytest.mark.parametrize("options", [{"captains": ["flask", "ahab", "stubb"], "turners_mill": True},
                                     {"captains": ["starbuck", "stubb"], "expert": True}])
def test_a_ruled_out_space_never_satisfies_the_heading(options):
    rng = random.Random(2)
    satisfied = 0
    for seed in range(2):
        g = LocalGame("new-bedford", seats=1, seed=seed, options=options)
        while g.outcome() is None:
            s = g.state
            for player in s["captain_game"]["captains"]:
                for sid in data.SPACES:
                    for first in (False, True):
                        for h in HEADINGS:
                            if captains.effect_for(s, player, sid, h, first) is not None:
                                assert captains._may_satisfy(sid, h), (sid, h, first)
                                satisfied += 1
            seat = rng.choice(sorted(g.to_act()))
            actions = g.legal_actions(seat)
            g.act(seat, g.engine.random_action(s, seat, actions, rng))
    assert satisfied > 100


def test_the_table_rules_out_most_pairs():
    # The table does prune: most (space, heading) pairs can never match.
    pairs = [(sid, h) for sid in data.SPACES for h in HEADINGS]
    assert sum(not captains._may_satisfy(sid, h) for sid, h in pairs) > len(pairs) // 2
