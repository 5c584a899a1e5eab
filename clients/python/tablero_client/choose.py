"""Step-by-step choice among many legal actions (New Bedford has thousands of sale combinations).

Actions are flattened to dotted paths (`sell.lumber`); while more than `page` remain, the person
picks a value of the first path on which they differ, then the next, until few enough remain to list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MISSING = "(none)"


def flatten(action: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in action.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(flatten(v, path + "."))
        else:
            out[path] = v
    return out


def _key(v: Any) -> str:
    return MISSING if v is _ABSENT else json.dumps(v, sort_keys=True)


_ABSENT = object()


@dataclass
class Option:
    label: str
    actions: list[dict[str, Any]]
    value: Any = None  # the value of the path grouped on that this option stands for


def _order(k: str) -> tuple[int, Any]:
    """Numbers in their order (cells 0, 1, ... 34), other values where they first came."""
    v = None if k == MISSING else json.loads(k)
    return (0, v) if isinstance(v, int | float) and not isinstance(v, bool) else (1, 0)


def options(actions: list[dict[str, Any]], page: int = 24) -> tuple[str | None, list[Option]]:
    """(path grouped on or None, options). None: every option is a single action."""
    if len(actions) <= page:
        return None, [Option("", [a]) for a in actions]
    flats = [flatten(a) for a in actions]
    paths: list[str] = []
    for f in flats:
        for p in f:
            if p not in paths:
                paths.append(p)
    if "type" in paths:
        paths.remove("type")
        paths.insert(0, "type")
    for p in paths:
        groups: dict[str, list[dict[str, Any]]] = {}
        for a, f in zip(actions, flats, strict=True):
            groups.setdefault(_key(f.get(p, _ABSENT)), []).append(a)
        if len(groups) > 1:
            opts = []
            for k in sorted(groups, key=_order):
                shown = k if k == MISSING else json.loads(k)
                opts.append(Option(f"{p} = {shown}", groups[k], None if k == MISSING else shown))
            return p, opts
    return None, [Option("", [a]) for a in actions]  # identical actions: list them
