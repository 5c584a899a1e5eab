"""The engine's modules are layered (issue 37): each imports only modules below it, at the top
of the file, so there is no import cycle (`play.py` used to import seven engine privates inside
functions); no rules module exceeds 800 lines."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[3] / "engines" / "founders_of_gloomhaven"
LAYERS = ["data", "board", "schemas", "common", "placement", "events", "delivery", "build", "trade", "upgrade",
          "turn", "vote", "history", "setup", "phases", "moves", "play", "solo_play", "planner", "evaluation", "engine", "__init__"]


def _relative_imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """(module, at top level) for each `from .x import ...` / `from . import x`."""
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            mods = [node.module] if node.module else [a.name for a in node.names]
            out += [(m, id(node) in top) for m in mods]
    return out


def test_every_module_is_in_a_layer():
    assert {p.stem for p in PKG.glob("*.py")} == set(LAYERS)


def test_modules_import_only_lower_layers_and_only_at_the_top():
    for name in LAYERS:
        tree = ast.parse((PKG / f"{name}.py").read_text())
        for mod, at_top in _relative_imports(tree):
            assert at_top, f"{name}.py imports .{mod} inside a function"
            assert LAYERS.index(mod) < LAYERS.index(name), f"{name}.py imports .{mod}, a higher layer"


def test_no_rules_module_exceeds_800_lines():
    for p in PKG.glob("*.py"):
        assert len(p.read_text().splitlines()) <= 800, p.name
