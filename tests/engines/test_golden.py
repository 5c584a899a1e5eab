"""Golden logs replay to their recorded final state; every engine has one for its version."""

from pathlib import Path

import pytest
from tablero.engines.core import golden

from tablero import engines

LOGS = sorted(golden.GOLDEN_DIR.glob("*/*.json"))


@pytest.mark.parametrize("path", LOGS, ids=[f"{p.parent.name}/{p.name}" for p in LOGS])
def test_golden_log_replays_to_recorded_state(path: Path):
    golden.check(path)


@pytest.mark.parametrize("name", engines.names())
def test_every_engine_has_a_golden_log_for_its_version(name):
    v = engines.get(name).version
    assert list((golden.GOLDEN_DIR / name).glob(f"v{v}-*.json")), (
        f"no golden log for {name} v{v}: run python -m tablero.engines.core.golden record {name}"
    )


def test_golden_check_fails_on_changed_rules(tmp_path, monkeypatch):
    """The golden check can fail: the same log under changed rules gives another hash."""
    [p] = [q for q in golden.record("tic-tac-toe", directory=tmp_path)][:1]
    golden.check(p)
    from tablero.engines.tic_tac_toe.engine import TicTacToe

    orig = TicTacToe.evolve

    def changed(self, state, event):
        state = orig(self, state, event)
        if event["type"] == "mark_placed":
            state["moves"] = state.get("moves", 0) + 1
        return state

    monkeypatch.setattr(TicTacToe, "evolve", changed)
    with pytest.raises(AssertionError, match="bump the engine version"):
        golden.check(p)


def test_golden_check_fails_when_decide_changes(tmp_path, monkeypatch):
    """A recorded log keeps its decisions: a change of what decide() gives for the same decision
    fails the check even when evolve() is unchanged."""
    [p] = golden.record("tic-tac-toe", directory=tmp_path)
    golden.check(p)
    from tablero.engines.tic_tac_toe.engine import TicTacToe

    orig = TicTacToe.decide_checked  # what the decide loop calls once check_action passed

    def changed(self, state, seat, action, rng):
        events = orig(self, state, seat, action, rng)
        return [dict(events[0], note="changed"), *events[1:]]

    monkeypatch.setattr(TicTacToe, "decide_checked", changed)
    with pytest.raises(AssertionError, match="now gives other events"):
        golden.check(p)


def test_riverboat_golden_logs_of_both_versions_re_decide_their_events():
    # v1 logs were recorded by the engine before it was written as rules; the decisions taken in
    # them give the same events today (v1 games keep the v1 reading of the pile-boat coin).
    import json

    for v in (1, 2):
        paths = sorted((golden.GOLDEN_DIR / "riverboat").glob(f"v{v}-*.json"))
        assert paths
        for path in paths:
            doc = json.loads(path.read_text())
            assert doc["decisions"], f"{path.name} keeps no decisions"
            golden.redecide(doc, path.name)


def test_the_decide_loop_checks_an_action_shape_once(monkeypatch):
    """Validation once per layer: an action through the decide loop (check_action, then the
    engine) has its declared shape checked once, not again inside decide()."""
    from tablero.engines.core import LocalGame, rules
    from tablero.engines.tic_tac_toe.engine import TicTacToe

    calls = []
    orig = rules.Move.validate_shape

    def counted(self, action):
        calls.append(action["type"])
        return orig(self, action)

    monkeypatch.setattr(rules.Move, "validate_shape", counted)
    g = LocalGame(TicTacToe(), seats=2, seed=1)
    g.act(0, {"type": "place", "cell": 4})
    assert calls == ["place"]
    # decide() called on its own (a test, a tool) still checks the shape itself.
    with pytest.raises(rules.InvalidAction):
        TicTacToe().decide(g.state, 1, {"type": "place", "cell": "x"}, g.rng)


def test_recording_an_unknown_engine_is_a_one_line_error_and_writes_nothing(tmp_path):
    # `python -m tablero.engines.core.golden record chess` ended in an UnknownEngine traceback,
    # after recording the names before it.
    import subprocess
    import sys

    before = {p.name: p.read_bytes() for p in (golden.GOLDEN_DIR / "tic-tac-toe").iterdir()}
    r = subprocess.run([sys.executable, "-m", "tablero.engines.core.golden", "record", "tic-tac-toe", "chess"],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "no engine named 'chess'" in r.stderr and "tic-tac-toe" in r.stderr, r.stderr
    assert {p.name: p.read_bytes() for p in (golden.GOLDEN_DIR / "tic-tac-toe").iterdir()} == before
    assert not r.stdout, r.stdout
