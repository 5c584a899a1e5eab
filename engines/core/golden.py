"""Golden event logs: recorded games that must keep replaying to the same state.

    python -m engines.core.golden record tic-tac-toe   # writes tests/golden/tic-tac-toe/v1-*.json

A change that replays an existing log differently fails the golden test until the
engine's `version` is bumped (and the old behaviour kept, or the old version listed
in `supported_versions` with a migration).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import testkit
from .local import replay, state_hash
from .registry import get, names

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


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "record":
        sys.exit("usage: python -m engines.core.golden record ENGINE|--all")
    targets = names() if sys.argv[2] == "--all" else sys.argv[2:]
    for n in targets:
        for p in record(n):
            print(p)
