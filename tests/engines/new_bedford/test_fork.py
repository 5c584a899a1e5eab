"""New Bedford's hand-written look-ahead copy (`NewBedford.fork`, state.fork) is a deep copy:
equal to the state, sharing no dict or list with it, at every state of random games with and
without Captains."""

import pytest
from tablero.engines.core import testkit
from tablero.engines.new_bedford import state as nb_state

from tablero import engines

SETUPS = [
    (1, {}),
    (2, {}),
    (4, {}),
    (1, {"captains": ["stubb", "flask"], "expert": True}),
    (1, {"captains": ["flask", "ahab", "stubb"], "turners_mill": True}),
    (2, {"captains": ["starbuck"]}),
]


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=[f"{s}p-{o}" for s, o in SETUPS])
def test_fork_is_deep_at_every_state(seats, options):
    engine = engines.get("new-bedford")
    assert testkit.check_forks(engine, seats, 7, options) > 50


def test_fork_copies_the_optional_parts_deeply():
    # A composed sale, a whale sale, an Inn and a Captain's choice under way at once: every
    # optional part the state can hold is copied, none shared.
    engine = engines.get("new-bedford")
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["stubb"]})
    s = g.state
    s["selling"] = {"seat": 0, "space": "market", "kinds": ["lumber", "food"], "sold": {"lumber": 1}}
    s["sale"] = {"seller": 0, "ship": 1, "whales": {"right": 1}, "queue": [0], "turn": 0}
    s["inn"] = {"seat": 0, "left": 2}
    s["picks"] = [[0, 1]]
    s["captain_game"]["choice"] = {"chooser": 0, "player": 1, "captain": "stubb", "heading": "food",
                                   "entry": "x", "choices": [{"choice": "farm", "text": "Farm",
                                                              "event": {"type": "t", "trace": ["a"]}}]}
    s["result"] = {"scores": [1], "winners": [0], "details": [{"seat": 0}]}
    s["unforeseen"] = {"nested": [[1]]}  # a key the fork does not name is cloned
    testkit.check_deep_fork(s, engine.fork(s))
    testkit.check_deep_fork(s, nb_state.fork(s))


def test_check_deep_fork_finds_a_shared_part():
    # The check itself can fail: a copy that shares one ship's hold is caught.
    g = engines.LocalGame("new-bedford", seats=2, seed=1)
    s = g.state
    shallow = nb_state.fork(s)
    shallow["players"][1]["ships"][0]["hold"] = s["players"][1]["ships"][0]["hold"]
    with pytest.raises(AssertionError, match=r"players\[1\]\.ships\[0\]\.hold"):
        testkit.check_deep_fork(s, shallow)
    with pytest.raises(AssertionError, match="differs"):
        testkit.check_deep_fork(s, {**nb_state.fork(s), "round": 99})
