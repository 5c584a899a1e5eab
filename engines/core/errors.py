"""Errors an engine raises. Transports map them to status codes."""


class EngineError(Exception):
    """Base class of every error an engine or the local driver raises."""


class InvalidAction(EngineError):
    """The action is malformed: not an object, unknown type, missing or mistyped fields."""


class IllegalAction(EngineError):
    """The action is well formed but against the rules now (not your turn, can't afford it, ...)."""


class InvalidOptions(EngineError):
    """Create options or seat count don't fit the engine."""


class UnknownEngine(EngineError):
    """No engine is registered under that name."""


class VersionMismatch(EngineError):
    """A log was written by an engine version this code can no longer replay."""
