"""Tablero's game engines. See engines/core for the contract.

    from tablero import engines
    engines.names()
    g = engines.LocalGame("tic-tac-toe", seats=2, seed=7)
"""

from .core import (
    Engine,
    EngineError,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    LocalGame,
    UnknownEngine,
    VersionMismatch,
    get,
    names,
    replay,
)

__all__ = [
    "Engine", "EngineError", "IllegalAction", "InvalidAction", "InvalidOptions", "LocalGame",
    "UnknownEngine", "VersionMismatch", "get", "names", "replay",
]
