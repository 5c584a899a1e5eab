"""The declared flow of an engine's phases, as the Markdown table its RULES.md shows:

    python -m tablero.engines.core.flow riverboat

A row a phase: when it ends, what its end does, and the phase(s) that follow (`Phase.ends`,
`on_end`, `then`; `RulesEngine.flow`)."""

from __future__ import annotations

import sys

from .registry import get, names

if __name__ == "__main__":
    for n in sys.argv[1:] or names():
        engine = get(n)
        print(engine.flow() if hasattr(engine, "flow") else f"{n}: not a RulesEngine")
