"""Golden event logs: recorded games that must keep replaying to the same state.

    python -m tablero.engines.core.golden record tic-tac-toe   # writes tests/golden/tic-tac-toe/v1-*.json

A change that replays an existing log differently fails the golden test until the
engine's `version` is bumped (and the old behaviour kept, or the old version listed
in `supported_versions` with a migration).

A log also keeps its decisions (`[seat, action]`, with the seed): the check then decides them
again from the first event, with the same random numbers, and every decision must give the
events of the log. So a change of what `decide` does (a rule, a refusal that becomes an
acceptance, an automatic step) fails too, not only a change of `evolve`.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from . import testkit
from .engine import START_META_KEYS, clone
from .local import engine_for_log, replay, start_event, state_hash
from .registry import get, names
from .rules import decide_action

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "tests" / "golden"


def record(name: str, seeds: tuple[int, ...] = (1,), directory: Path = GOLDEN_DIR) -> list[Path]:
    engine = get(name)
    out = []
    for seats in sorted({engine.min_seats, engine.max_seats}):
        for seed in seeds:
            g = testkit.playthrough(engine, seats, seed)
            path = directory / name / f"v{engine.version}-{seats}p-seed{seed}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            doc = {
                "engine": name,
                "engine_version": engine.version,
                "seats": seats,
                "seed": seed,
                "final_state_hash": state_hash(g.state),
                "events": g.events,
                "decisions": g.decisions,
            }
            path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
            out.append(path)
    return out


def check(path: Path) -> None:
    doc = json.loads(path.read_text())
    g = replay(doc["events"])
    got = state_hash(g.state)
    assert got == doc["final_state_hash"], (
        f"{path.name}: {doc['engine']} v{doc['engine_version']} log replays to a different state; "
        "bump the engine version and keep the old behaviour for old logs"
    )
    if "decisions" in doc:
        redecide(doc, path.name)


def redecide(doc: dict, where: str = "golden log") -> None:
    """Decide the log's decisions again from its first event, with the random numbers of the
    recording (`LocalGame(seed=...)`), and compare every event."""
    events = doc["events"]
    engine = engine_for_log(events)
    first = events[0]
    rng = random.Random(doc["seed"])
    again = start_event(engine, first["seats"], first.get("options"), rng)
    setup = {k: v for k, v in first.items() if k not in START_META_KEYS}
    assert {k: v for k, v in again.items() if k not in START_META_KEYS} == setup, (
        f"{where}: the setup is drawn differently from the same seed"
    )
    state = engine.evolve(None, clone(first))
    i = 1
    for k, (seat, action) in enumerate(doc["decisions"]):
        new = decide_action(engine, state, seat, action, rng)
        assert new == events[i:i + len(new)], (
            f"{where}: decision {k} (seat {seat}, {action}) now gives other events; bump the engine "
            "version and keep the old behaviour for games of the old version"
        )
        for e in new:
            state = engine.evolve(state, clone(e))
        i += len(new)
    assert i == len(events), f"{where}: the decisions give {i} events, the log has {len(events)}"


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "record":
        sys.exit("usage: python -m tablero.engines.core.golden record ENGINE|--all")
    if not GOLDEN_DIR.is_dir():  # an installed package, not a checkout: no tests/golden beside it
        sys.exit(f"no {GOLDEN_DIR}: golden logs are recorded in a checkout of the repository "
                 "(pip install -e), into its tests/golden/")
    targets = names() if sys.argv[2] == "--all" else sys.argv[2:]
    unknown = [n for n in targets if n not in names()]
    if unknown:  # before any file is written (an engine name misspelt among several)
        sys.exit(f"no engine named {', '.join(map(repr, unknown))}; known: {', '.join(sorted(names()))}")
    for n in targets:
        for p in record(n):
            print(p)
