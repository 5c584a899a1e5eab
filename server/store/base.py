"""The EventStore contract. Every adapter passes tests/store/test_contract.py.

A game is a stream of events; its version is the number of events. Besides the
stream, a game has a small metadata document (engine, seat kinds, who joined),
a table of idempotency keys (request_id -> version it produced), and an
optional snapshot of the engine state at some version.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator
from typing import Any

Event = dict[str, Any]


class StoreError(Exception):
    """The store could not do what was asked (connection lost, ...)."""


class Conflict(StoreError):
    """The stream moved on: `expected_version` is not the current version."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id, self.expected, self.actual = game_id, expected, actual


class DuplicateRequest(StoreError):
    """`request_id` was already used in this game; nothing was appended."""

    def __init__(self, game_id: str, request_id: str, version: int) -> None:
        super().__init__(f"request {request_id} already applied to game {game_id} at version {version}")
        self.game_id, self.request_id, self.version = game_id, request_id, version


class GameExists(StoreError):
    """create() for a game id that already exists."""


class GameNotFound(StoreError):
    """The game id is unknown."""


class EventStore(abc.ABC):
    """Async event store. All methods are coroutines except watch(), an async generator."""

    @abc.abstractmethod
    async def create(self, game_id: str, meta: dict[str, Any], events: list[Event]) -> int:
        """Create a game with its metadata and first events atomically; returns the new
        version (len(events)). Raises GameExists. `events` may be empty (version 0).
        A "claimed" list in `meta` gives the seats claimed from the start."""

    @abc.abstractmethod
    async def append(
        self, game_id: str, expected_version: int, events: list[Event], request_id: str | None = None
    ) -> int:
        """Atomically append `events` if the game is at `expected_version`; returns the
        new version. Raises Conflict when it is not, GameNotFound for an unknown game,
        and DuplicateRequest (appending nothing) when `request_id` was seen before in
        this game. The request id is recorded with the version it produced, in the
        same atomic step.

        The request id is checked before the version, so a retry of a request that
        already succeeded gets DuplicateRequest (with the first version) even though its
        expected_version is stale now. A refused append records nothing. Appending no
        events does the same checks and records the request id at the unchanged version."""

    @abc.abstractmethod
    async def read(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Event]:
        """Events after `after_version` (event number after_version+1 first), at most
        `limit`. Raises GameNotFound for an unknown game."""

    @abc.abstractmethod
    async def version(self, game_id: str) -> int:
        """Current version. Raises GameNotFound."""

    @abc.abstractmethod
    async def get_meta(self, game_id: str) -> dict[str, Any]:
        """The game's metadata. Raises GameNotFound."""

    @abc.abstractmethod
    async def claim_seat(self, game_id: str, seats: list[int]) -> int | None:
        """Atomically mark the first of `seats` not yet claimed as claimed (meta
        "claimed" list) and return it, or None when all are taken. Raises GameNotFound."""

    @abc.abstractmethod
    async def request_version(self, game_id: str, request_id: str) -> int | None:
        """The version a request id produced in this game, or None (also for an unknown game)."""

    @abc.abstractmethod
    async def put_snapshot(self, game_id: str, version: int, state: Any) -> None:
        """Keep `state` (JSON) as the state at `version` (only if newer than the one kept).
        Raises GameNotFound for an unknown game."""

    @abc.abstractmethod
    async def get_snapshot(self, game_id: str) -> tuple[int, Any] | None:
        """The newest snapshot as (version, state), or None (also for an unknown game)."""

    @abc.abstractmethod
    def watch(self, game_id: str, after_version: int) -> AsyncIterator[tuple[int, Event]]:
        """Yield (version, event) for every event after `after_version`, first those
        already stored, then new ones as they are appended by any process, until the
        consumer stops iterating. Push, not polling, where the backend allows it.

        The first step raises GameNotFound for an unknown game; StoreError ends the
        iteration when the store fails or is closed. Stop it with `aclose()` (e.g.
        `contextlib.aclosing`) or by cancelling the task: nothing is left behind.
        Each watcher gets its own event objects."""

    @abc.abstractmethod
    async def ping(self) -> None:
        """Raise StoreError when the store is unreachable."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections."""
