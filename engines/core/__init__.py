"""The engine core: contract, registry, local driver and replay."""

from .engine import (
    START_META_KEYS,
    Action,
    Engine,
    Event,
    State,
    clone,
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
    engine_for_log,
    fold,
    replay,
    start_event,
    state_hash,
    validate_setup,
)
from .registry import get, names, register
from .rules import (
    Branch,
    Move,
    Phase,
    RulesEngine,
    array,
    boolean,
    branch,
    check_action,
    counts,
    decide_action,
    document,
    integer,
    obj,
    string,
    validate_value,
)

__all__ = [
    "START_META_KEYS", "Action", "Engine", "Event", "State", "clone",
    "Branch", "Move", "Phase", "RulesEngine", "array", "boolean", "branch", "counts", "document", "integer", "obj", "string",
    "validate_value",
    "reject_unknown_fields", "require_action_type", "require_fields", "require_int", "require_str",
    "EngineError", "IllegalAction", "InvalidAction", "InvalidOptions", "UnknownEngine", "VersionMismatch",
    "LocalGame", "canonical_json", "check_action", "decide_action", "engine_for_log", "fold", "replay", "start_event",
    "state_hash", "validate_setup", "get", "names", "register",
]
