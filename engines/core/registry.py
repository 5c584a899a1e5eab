"""The engine registry. Every package under `engines/` that exports `ENGINE` is registered."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from .engine import Engine
from .errors import UnknownEngine

_REGISTRY: dict[str, Engine] = {}
_DISCOVERED = False


def register(engine: Engine) -> Engine:
    if not engine.name:
        raise ValueError("an engine needs a name")
    _REGISTRY[engine.name] = engine
    return engine


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    root = Path(__file__).resolve().parent.parent
    for info in pkgutil.iter_modules([str(root)]):
        if not info.ispkg or info.name == "core" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"tablero.engines.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if isinstance(engine, Engine):
            register(engine)


def names() -> list[str]:
    _discover()
    return sorted(_REGISTRY)


def get(name: str) -> Engine:
    _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownEngine(f"no engine named {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None
