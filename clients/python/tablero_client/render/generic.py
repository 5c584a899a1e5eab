"""Any engine's view as a readable tree: nested dicts and lists, long lists summarised."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.tree import Tree

from ..models import Game

MAX_ITEMS = 12


def render(game: Game) -> Tree:
    tree = Tree("[bold]view[/bold]")
    _add(tree, game.view, depth=0)
    return tree


def _raw(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _scalar(v: Any) -> str:
    return escape(_raw(v))


def _is_flat(v: list) -> bool:
    return all(not isinstance(x, dict | list) for x in v)


def _add(node: Tree, value: Any, depth: int) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, dict | list) and v and not (isinstance(v, list) and _is_flat(v)):
                if depth >= 4:
                    node.add(f"[cyan]{escape(str(k))}[/cyan]: …")
                    continue
                _add(node.add(f"[cyan]{escape(str(k))}[/cyan]"), v, depth + 1)
            elif isinstance(v, list):
                node.add(f"[cyan]{escape(str(k))}[/cyan]: {_flat(v)}")
            else:
                node.add(f"[cyan]{escape(str(k))}[/cyan]: {_scalar(v) if v != {} else '{}'}")
    elif isinstance(value, list):
        for i, v in enumerate(value[:MAX_ITEMS]):
            if isinstance(v, dict | list) and v:
                _add(node.add(f"[cyan]{i}[/cyan]"), v, depth + 1)
            else:
                node.add(f"[cyan]{i}[/cyan]: {_scalar(v)}")
        if len(value) > MAX_ITEMS:
            node.add(f"… {len(value) - MAX_ITEMS} more")
    else:
        node.add(_scalar(value))


def _flat(v: list) -> str:
    shown = ", ".join(_raw(x) for x in v[:40])
    return escape(f"[{shown}{', …' if len(v) > 40 else ''}]")
