"""The engine core: contract, registry, local driver and replay."""

from .engine import (
    START_META_KEYS,
    Action,
    Engine,
    Event,
    State,
    reject_unknown_fields,
    require_action_type,
    require_fields,
    require_int,
    require_str,
)
from .errors import (
    EngineError,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    UnknownEngine,
    VersionMismatch,
)
from .local import (
    LocalGame,
    canonical_json,
    check_action,
    engine_for_log,
    fold,
    replay,
    start_event,
    state_hash,
    validate_setup,
)
from .registry import get, names, register

__all__ = [
    "START_META_KEYS", "Action", "Engine", "Event", "State",
    "reject_unknown_fields", "require_action_type", "require_fields", "require_int", "require_str",
    "EngineError", "IllegalAction", "InvalidAction", "InvalidOptions", "UnknownEngine", "VersionMismatch",
    "LocalGame", "canonical_json", "check_action", "engine_for_log", "fold", "replay", "start_event",
    "state_hash", "validate_setup", "get", "names", "register",
]
