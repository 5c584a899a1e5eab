"""Riverboat's hand-written look-ahead copy (`Riverboat.fork`, state.fork) is a deep copy:
equal to the state, sharing no dict or list with it, at every state of random games."""

import pytest
from tablero.engines.core import testkit
from tablero.engines.riverboat import state as rb_state

from tablero import engines


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {"coin_draws": "blind"}), (4, {})])
def test_fork_is_deep_at_every_state(seats, options):
    assert testkit.check_forks(engines.get("riverboat"), seats, 11, options) > 100


def test_fork_copies_the_optional_parts_deeply():
    engine = engines.get("riverboat")
    g = engines.LocalGame("riverboat", seats=2, seed=4, options={"coin_draws": "blind"})
    s = g.state
    s["pending"] = [{"seat": 0, "kind": "feature", "options": ["barn", "well"], "reason": "r"},
                    {"seat": 1, "kind": "agents", "max": 2, "odd": {"nested": [[1]]}}]
    s["held"] = {"seat": 1, "kind": "1-beet"}
    s["result"] = {"scores": [1, 2], "winners": [1], "details": [{"seat": 0, "vp_by": {"x": 1}}]}
    s["unforeseen"] = [{"a": [1]}]  # a key the fork does not name is cloned
    testkit.check_deep_fork(s, engine.fork(s))
    testkit.check_deep_fork(s, rb_state.fork(s))


def test_check_deep_fork_finds_a_shared_part():
    g = engines.LocalGame("riverboat", seats=2, seed=1)
    s = g.state
    shallow = rb_state.fork(s)
    shallow["players"][0]["crop"] = s["players"][0]["crop"]
    with pytest.raises(AssertionError, match=r"players\[0\]\.crop"):
        testkit.check_deep_fork(s, shallow)
