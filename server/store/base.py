"""The EventStore contract. Every adapter passes tests/store/test_contract.py.

A game is a stream of events; its version is the number of events. Besides the
stream, a game has a small metadata document (engine, seat kinds, who joined),
a table of idempotency keys (request_id -> version it produced), and an
optional snapshot of the engine state at some version.
"""

from __future__ import annotations

import abc
import contextvars
import dataclasses
import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

# Strict JSON (no NaN/Infinity), compact: the text both stores keep for events, states and
# metadata. One encoder for every write (json.dumps with options other than its defaults makes
# a new encoder per call); the same text as json.dumps with these options.
compact_json = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode

Event = dict[str, Any]


class StoreError(Exception):
    """The store could not do what was asked (connection lost, ...)."""


class NotReplicated(StoreError):
    """A write reached the master but fewer than the required replicas confirmed it in time
    (Redis with min_replicas_ack). It may or may not survive a failover: the caller answers
    UNAVAILABLE, and a retry with the same request id lands exactly once."""

    def __init__(self, game_id: str, acked: int, wanted: int, timeout: float) -> None:
        super().__init__(f"game {game_id}: the write was confirmed by {acked} of the {wanted} replica(s) "
                         f"required within {timeout:g} s")
        self.game_id, self.acked, self.wanted, self.timeout = game_id, acked, wanted, timeout


class Conflict(StoreError):
    """The stream moved on: `expected_version` is not the current version."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id, self.expected, self.actual = game_id, expected, actual
        # Set by append_ex(..., tail_limit=N) when the store is ahead by at most N events:
        # the entries the caller misses (list[Entry]), so it can catch up without a read.
        self.tail: list[Entry] | None = None
        self.head_hash: str | None = None


class DuplicateRequest(StoreError):
    """`request_id` was already used in this game; nothing was appended."""

    def __init__(self, game_id: str, request_id: str, version: int, fingerprint: str = "") -> None:
        super().__init__(f"request {request_id} already applied to game {game_id} at version {version}")
        self.game_id, self.request_id, self.version = game_id, request_id, version
        # What append_ex recorded of the first request (its `fingerprint`; "" when none was given).
        self.fingerprint = fingerprint


class HistoryRewritten(Conflict):
    """The stream's history is not the one the caller knows: the event at `version` has
    another hash (or is gone) — the store lost acknowledged writes (a Redis crash inside
    the AOF `everysec` window, a failover to a lagging replica, a restored backup) and
    others wrote since. The caller must drop what it derived from versions >= `version`
    and reload. A Conflict, so `except Conflict: evict and reload` already does the right
    thing. `actual`/`head_hash` are the store's head now."""

    def __init__(self, game_id: str, version: int, actual: int, head_hash: str | None = None) -> None:
        StoreError.__init__(
            self, f"game {game_id}: the history at version {version} was rewritten (the store is at {actual})"
        )
        self.game_id, self.expected, self.actual = game_id, version, actual
        self.version, self.head_hash, self.tail = version, head_hash, None


class Nudge:
    """A way for a watch's consumer to wake it up without an event (a keep-alive is due, the
    server is stopping), so one task can drive the whole watch (no reader task and queue per
    watcher). The consumer sets NUDGE to a Nudge for the watch's first step; the store's
    watch attaches its waiter to it then, and from there on yields POKED whenever the
    consumer called `poke()` since its last item. A watch started without one never yields
    POKED."""

    __slots__ = ("_poke", "_pending")

    def __init__(self) -> None:
        self._poke: Any = None
        self._pending = False

    @property
    def attached(self) -> bool:
        return self._poke is not None

    def attach(self, poke: Any) -> None:
        self._poke = poke
        if self._pending:
            self._pending = False
            poke()

    def poke(self) -> None:
        if self._poke is not None:
            self._poke()
        else:
            self._pending = True


NUDGE: contextvars.ContextVar[Nudge | None] = contextvars.ContextVar("tablero_watch_nudge", default=None)
POKED = "<poked>"  # what a nudged watch yields: not an event, the consumer's turn to look


# Past snapshots a store keeps per game (besides the newest): when one more would exceed it,
# the one whose removal leaves the smallest gap goes, so they stay spread over the game.
SNAPSHOT_HISTORY = 16


NEWEST = 2**62  # a version no game reaches: snapshot_at(game, NEWEST) is the newest snapshot


class Snapshot(NamedTuple):
    version: int
    state: Any
    platform: list[Event] | None  # the platform events up to `version`, when the store kept them


def thinned(versions: list[int], keep: int) -> list[int]:
    """The versions to drop so that at most `keep` remain: repeatedly the interior one
    (never the first or the newest) whose removal leaves the smallest gap."""
    vs, drop = sorted(versions), []
    while len(vs) > max(keep, 2):
        i = min(range(1, len(vs) - 1), key=lambda j: (vs[j + 1] - vs[j - 1], vs[j]))
        drop.append(vs.pop(i))
    return drop


class Trimmed(StoreError):
    """The events asked for are no longer kept: a snapshot covers them and they were
    trimmed (`first_kept` is the oldest version still stored)."""

    def __init__(self, game_id: str, first_kept: int) -> None:
        super().__init__(f"game {game_id}: events before version {first_kept} are no longer kept (trimmed)")
        self.game_id, self.first_kept = game_id, first_kept


@dataclasses.dataclass(frozen=True)
class Entry:
    """One stored event with its place in the log: `hash` chains it to the one before
    (hash(prev_hash + event JSON), "" for entries written before hash chains existed)."""

    version: int
    hash: str
    event: Event


@dataclasses.dataclass(frozen=True)
class AppendResult:
    """What append_ex() answers: the new head of the log."""

    version: int
    hash: str


@dataclasses.dataclass(frozen=True)
class Reset:
    """Yielded by watch(..., resets=True) in place of a (version, event) pair when the
    store's history was rewritten under the watcher: every event it yielded after
    `version` is void. The next pairs are versions version+1, version+2, ... of the new
    history (so the consumer rebuilds its state from version `version`)."""

    version: int


class Watched(tuple):
    """What watch() yields for an event: the pair (version, event), equal to a plain tuple,
    with the log's chain hash at that event as `.hash` ("" for logs written before the chain)."""

    def __new__(cls, version: int, event: Any, hash_: str) -> Watched:
        entry = tuple.__new__(cls, (version, event))
        entry.hash = hash_
        return entry

    hash: str


class GameExists(StoreError):
    """create() for a game id that already exists."""


class GameNotFound(StoreError):
    """The game id is unknown."""


class EventStore(abc.ABC):
    """Async event store. All methods are coroutines except watch(), an async generator."""

    # Settings every adapter has (constructor keywords of both): what the repository and the
    # watch ask of a store without reaching past this interface.
    trim_on_snapshot: bool = False  # a newer snapshot drops the events it covers (reads before it: Trimmed)
    finished_ttl: float | None = None  # seconds finish() keeps a finished game (None: forever)

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
    async def get_meta(self, game_id: str, *, cached: bool = False) -> dict[str, Any]:
        """The game's metadata. Raises GameNotFound.

        `cached=True` may answer from a per-store cache without a round trip: meta is
        immutable after create() except its "claimed" list, which the cache may show
        stale (claims only grow; call without `cached` where exact claims matter). A game
        deleted or expired since may still be answered from the cache: writes still check."""

    def cached_meta(self, game_id: str) -> dict[str, Any] | None:
        """What `get_meta(cached=True)` would answer from the cache without a round trip (the
        caller's own copy), or None when it would have to ask the store."""
        return None

    def forget_meta(self, game_id: str) -> None:
        """Drop the game's cached metadata (the store found the game gone); no cache here."""
        return None

    @abc.abstractmethod
    async def claim_seat(self, game_id: str, seats: list[int], claim: str | None = None) -> int | None:
        """Atomically mark the first of `seats` not yet claimed as claimed (meta
        "claimed" list) and return it, or None when all are taken. Raises GameNotFound.
        `claim`: an id of this claim, kept with it (meta "claims": {"<seat>": claim}), so that
        a token naming it holds only while this claim stands (a store that loses the claim and
        gives the seat to another claim refuses the old token). A `claim` the game already
        holds returns its seat (a retried join; no second seat)."""

    async def confirm_replicated(self, game_id: str) -> None:
        """Before an answer given from what the store holds already (a retried create or join):
        that the game's writes so far are on as many replicas as a new write must reach
        (NotReplicated otherwise). Nothing to do for a store without replicas."""
        return None

    @abc.abstractmethod
    async def request_version(self, game_id: str, request_id: str) -> int | None:
        """The version a request id produced in this game, or None (also for an unknown game)."""

    @abc.abstractmethod
    async def request_fingerprint(self, game_id: str, request_id: str) -> str:
        """The fingerprint append_ex recorded with this request id, or "" (none recorded, an
        unknown request or game)."""

    @abc.abstractmethod
    async def put_snapshot(self, game_id: str, version: int, state: Any,
                           platform: list[Event] | None = None) -> None:
        """Keep `state` (JSON) as the state at `version` (only if newer than the one kept),
        with the platform events up to it when given. Raises GameNotFound for an unknown game."""

    @abc.abstractmethod
    async def get_snapshot(self, game_id: str) -> tuple[int, Any] | None:
        """The newest snapshot as (version, state), or None (also for an unknown game)."""

    async def snapshot_at(self, game_id: str, at_most: int) -> Snapshot | None:
        """The newest snapshot kept at a version <= `at_most` (None: none; also for an
        unknown game). Stores keep up to SNAPSHOT_HISTORY past snapshots per game, thinned
        evenly, so a past version replays a bounded stretch. This default knows only the
        newest."""
        snap = await self.get_snapshot(game_id)
        return Snapshot(snap[0], snap[1], None) if snap is not None and snap[0] <= at_most else None

    @abc.abstractmethod
    def watch(
        self, game_id: str, after_version: int, *, after_hash: str | None = None, resets: bool = False
    ) -> AsyncIterator[Any]:
        """Yield (version, event) for every event after `after_version`, first those
        already stored, then new ones as they are appended by any process, until the
        consumer stops iterating. Push, not polling, where the backend allows it.

        The first step raises GameNotFound for an unknown game; StoreError ends the
        iteration when the store fails or is closed. Stop it with `aclose()` (e.g.
        `contextlib.aclosing`) or by cancelling the task: nothing is left behind.
        Each watcher gets its own event objects.

        Rewritten history (the store lost events this watcher was given, and others were
        written in their place): with `resets=False` (the default) the watch raises
        HistoryRewritten; with `resets=True` it yields a `Reset(version)` marker and goes on
        with the new history after `version`. `after_hash` (the hash of the event at
        `after_version` the consumer knows) lets a resumed watch detect a rewrite that
        happened while it was away; None trusts the store.

        A watch whose first step runs with NUDGE set attaches to that Nudge and yields POKED
        after each `poke()` (see Nudge)."""

    # -- optional extensions (both adapters implement them; the base raises NotImplementedError) --

    async def append_ex(
        self,
        game_id: str,
        expected_version: int,
        events: list[Event],
        request_id: str | None = None,
        *,
        expected_hash: str | None = None,
        tail_limit: int = 0,
        fingerprint: str = "",
    ) -> AppendResult:
        """append() that also checks and returns the log's identity, in the same atomic step.

        - `expected_hash`: the hash of the event at `expected_version` as the caller knows
          it ("" for version 0). When the store's event at that version has another hash,
          or the store is behind `expected_version`, raises HistoryRewritten (a Conflict):
          the store lost writes the caller saw. Entries stored before hash chains existed
          have hash "" and are not checked.
        - `tail_limit`: when the CAS fails because the store is ahead by at most this many
          events, the Conflict carries them in `.tail` (list[Entry]) and the head hash in
          `.head_hash`, so the caller can catch up and retry without another read.
        - `fingerprint`: what the request asked (a short hash of it), recorded with its request
          id; a later DuplicateRequest carries it in `.fingerprint`, so the caller can tell a
          retry from another request that reused the id.
        Returns the new head (version, hash)."""
        raise NotImplementedError

    async def read_entries(self, game_id: str, after_version: int = 0, limit: int | None = None) -> list[Entry]:
        """Like read(), with each event's version and chain hash."""
        raise NotImplementedError

    async def load_newest(self, game_id: str) -> tuple[Snapshot | None, list[Entry]]:
        """What a cold load needs: the newest snapshot (None: none) and the entries from its
        own version on (inclusive; from the first when there is none). Stores may answer it
        in one round trip; this default makes two. GameNotFound for an unknown game."""
        snap = await self.snapshot_at(game_id, NEWEST)
        version = snap.version if snap is not None else 0
        return snap, await self.read_entries(game_id, after_version=max(version - 1, 0))

    async def head(self, game_id: str) -> AppendResult:
        """The log's head: its version and the hash of its last event ("" for none), e.g. for a
        watch that resumes at the head of a finished game to check the client's history.
        GameNotFound."""
        raise NotImplementedError

    async def finish(self, game_id: str, ttl: float | None = None) -> bool:
        """Mark a game finished: all its data expires `ttl` seconds from now (default: the
        store's `finished_ttl` setting). False when no TTL applies (kept forever)."""
        raise NotImplementedError

    async def delete_game(self, game_id: str, if_version: int | None = None) -> bool:
        """Operator path: delete everything of a game (only if it is at `if_version`, when
        given). True when something was deleted."""
        raise NotImplementedError

    async def export_game(self, game_id: str) -> dict[str, Any]:
        """Everything kept of a game as one JSON document
        {"game_id", "meta", "version", "first_kept", "events", "hashes", "requests", "snapshot"}."""
        raise NotImplementedError

    async def archive(self, game_id: str, write: Any) -> dict[str, Any]:
        """Operator path: export the game, `await write(document)` (e.g. to object storage),
        then delete it if it did not change meanwhile. Returns the document."""
        document = await self.export_game(game_id)
        await write(document)
        await self.delete_game(game_id, if_version=document["version"])
        return document

    async def trim(self, game_id: str) -> int:
        """Drop the events the kept snapshot covers (the snapshot's own event stays, so the
        log keeps its head); returns the first version still kept. Reads of trimmed versions
        raise Trimmed."""
        raise NotImplementedError

    @abc.abstractmethod
    async def ping(self) -> None:
        """Raise StoreError when the store is unreachable."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections."""


def chain(prev: str, event_json: str) -> str:
    """The hash of an event in the log: the same function as the Redis store's (sha1 of the
    previous hash and the event's JSON text, first 16 hex digits)."""
    return hashlib.sha1((prev + event_json).encode()).hexdigest()[:16]
