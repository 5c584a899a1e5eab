"""WatchGame: redacted events after a version, then live ones the store pushes, until the
last event of a finished game; and the watchers of one game on this replica following it
together (one evolves each new entry's state, the others take it).

The store's watch (server.store: `EventStore.watch`) pushes entries from every replica; the
repository (`GameRepository.watch`, `.events`, `.head`, `.trims`) is all this module asks of it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from tablero.engines.core import clone
from tablero.server import metrics
from tablero.server.errors import FailedPrecondition, InvalidArgument, NotFound, Unavailable
from tablero.server.portal.table import is_platform
from tablero.server.store.base import POKED, Entry, GameNotFound, Reset, Trimmed

from . import commands as cmd
from .replies import event_reply, event_view, public_event
from .repository import GameRepository, LoadedGame

# A watch may start from a cached game this replica found current at most this many seconds ago.
RECENT_CACHE = 5.0


def _trimmed_watch(e: Exception) -> str:
    """Why a watch cannot start where it asked: the events before the first kept one are gone."""
    first = getattr(e, "first_kept", None) or getattr(getattr(e, "__cause__", None), "first_kept", None)
    if first is None:
        return str(e)
    return (f"versions before {first} of this game are no longer kept (a snapshot covers them); "
            f"watch from afterVersion {first - 1} or later "
            f"(GET the game with ?version={first} for its state there)")


class Watching:
    # Entries of a watched game kept for its watchers here (_follow): an append of several
    # events reaches each watcher as a batch, so the first watcher is a few entries ahead.
    FOLLOWED_ENTRIES = 4

    def __init__(self, games: GameRepository, public_hash: Callable[[str], str]) -> None:
        self.games = games
        # The hash a client is shown of an entry's (replies.public_hash): what afterHash names.
        self.public_hash = public_hash
        # Per game watched here: its watchers, and the newest entries they reached (_follow).
        self._watching: dict[str, int] = {}
        self._followed: OrderedDict[str, dict[int, tuple[str, Any, list[dict[str, Any]], bool]]] = OrderedDict()
        # Per game watched here by more than one watcher: the reply each audience (a seat, or
        # None: the spectators) is sent for an entry, made once and handed to every watcher of
        # that audience, so that the transports encode it once too (server.api.fanout).
        self._replies: dict[str, dict[tuple[int, str, int | None], dict[str, Any]]] = {}

    async def watch_game(self, c: cmd.WatchGame) -> AsyncIterator[dict[str, Any]]:
        """Redacted events after `after_version`, then live ones pushed by the store; ends
        after the last event of a finished game. Refusals are raised here, before streaming."""
        if c.after_version < 0:
            raise InvalidArgument("afterVersion must be a non-negative integer")
        # A watch opened right after this replica wrote or read the game (a player's page
        # after a create or a move) starts from the cache without a store call: the watch
        # itself reads what follows after_version, and the game state it keeps only tells
        # when the game is over.
        meta = await self.games.meta(c.game_id)
        at: Entry | None = None  # the entry at after_version, when read
        if self.games.trims or (c.after_hash and c.after_version > 0):
            # Entries a snapshot covers may be gone: a start before them is refused now, with
            # its status (FAILED_PRECONDITION), not as an error item after a 200 that an
            # EventSource would retry for ever. (Stores that never trim need no read here.)
            # The watch reads from its start's own entry (its hash tells whether the client's
            # history is still the store's), so that entry must be kept too. A client's
            # afterHash is the hash it was shown: checked here against the entry's own.
            try:
                got = await self.games.events(c.game_id, max(c.after_version - 1, 0), 1)
            except FailedPrecondition as e:
                return await self._from_first_kept(c, meta, e)
            at = got[0] if got and got[0].version == c.after_version else None
        game = self.games.recent(c.game_id, meta, RECENT_CACHE)
        if game is None and c.after_version == 0:
            if not self.games.holds(c.game_id):
                # A replica that does not hold the game reads it now (a page opened on another
                # replica than the one that created it): that seat's moves, which follow at
                # once, then find it here instead of each paying that read before deciding.
                game = await self.games.hold(c.game_id, meta)
            if game is None:
                # From the first event on a replica that holds the game but has not just seen
                # its head: no store read for the state; the watcher folds every event it
                # sends from the start.
                return self._watch(LoadedGame(c.game_id, meta, self.games.engine_of(meta), 0, None, []), c.seat, 0)
        if game is None or c.after_version > game.version:
            game = await self.games.current(c.game_id, meta)
        rewound = False
        if c.after_version > game.version:
            if not c.after_hash:
                raise InvalidArgument(
                    f"afterVersion {c.after_version} is beyond the game's current version {game.version}")
            rewound = True  # the client saw events the log no longer holds (Redis lost them)
        elif c.after_hash and c.after_version > 0 and c.after_version == game.version and game.finished:
            # Nothing follows, so the store's watch would check nothing: check the head here.
            head = await self.games.head(c.game_id)
            rewound = bool(head.hash) and head.version == c.after_version and self.public_hash(head.hash) != c.after_hash
        # The store's watch checks the client's history by the entry's own hash: the one whose
        # shown hash is afterHash, else one that is not the log's (the histories differ).
        after_hash = None
        if c.after_hash and c.after_version > 0:
            after_hash = at.hash if at is not None and at.hash and self.public_hash(at.hash) == c.after_hash \
                else "!" + c.after_hash
        # The watcher keeps its own copy of the state to know when the game is over.
        mine = LoadedGame(game.id, game.meta, game.engine, game.version, clone(game.state),
                          list(game.platform))
        return self._watch(mine, c.seat, c.after_version, after_hash, rewound)

    async def _from_first_kept(self, c: cmd.WatchGame, meta: dict[str, Any],
                               e: FailedPrecondition) -> AsyncIterator[dict[str, Any]]:
        """A watch whose start's entry a snapshot trimmed: refused, unless it starts just
        before the first kept event (where a listing of the kept log starts): that event is
        sent from here, and the store's watch goes on after it, from its hash, as a watch
        that had it would."""
        first = getattr(e.__cause__, "first_kept", None)
        if first is None or c.after_version != first - 1:
            raise FailedPrecondition(_trimmed_watch(e), "HISTORY_TRIMMED") from None
        head = await self.games.events(c.game_id, c.after_version, 1)
        if c.after_hash or not head:
            # The client's last event is gone, and with it its hash: the history the client
            # holds cannot be checked against the log's (the next entry's hash chains it, but
            # a client is shown only a keyed function of it, replies.public_hash). It is told
            # to start again from the kept state (not to resume where it just asked).
            raise FailedPrecondition(
                f"afterHash names event {c.after_version}, which is no longer kept (a snapshot "
                f"covers the events before {first}), so this game's log cannot tell whether the "
                f"events you hold are its own: GET the game with ?version={first} and watch from "
                f"afterVersion {first}", "HISTORY_TRIMMED") from None
        game = await self.games.current(c.game_id, meta)
        mine = LoadedGame(game.id, game.meta, game.engine, game.version, clone(game.state),
                          list(game.platform))
        return self._watch(mine, c.seat, head[0].version, head[0].hash, head=head)

    async def _watch(self, game: LoadedGame, seat: int | None, after: int, after_hash: str | None = None,
                     rewound: bool = False, head: Sequence[Entry] = ()) -> AsyncIterator[dict[str, Any]]:
        """`head`: entries up to `after` sent first (read by the caller), before the store's watch."""
        engine, known = game.engine, game.version
        for entry in head:
            yield event_reply(game.id, entry.version, event_view(engine, entry.event, seat), self.public_hash(entry.hash))
        finished = known > 0 and game.finished  # version 0: nothing folded yet (no state)
        if rewound:
            # Every event the client holds is void: it starts again from the first.
            metrics.WATCH_RESETS.inc()
            yield Reset(0)
            after, after_hash = 0, None
            game.state, game.version, game.platform = None, 0, []
            known, finished = 0, False
        if finished and after >= known:
            return
        metrics.WATCH_STREAMS.inc()
        # The hash of the entry before the next one (None: not known), for the repository to
        # follow the game with what this watcher is sent (GameRepository.observed).
        prev: str | None = after_hash or ("" if after == 0 else None)
        held = False  # game.state is one kept for the other watchers here (_follow): never changed in place
        self._watching[game.id] = self._watching.get(game.id, 0) + 1
        try:
            async for item in self.games.watch(game.id, after, after_hash):
                if item is POKED:  # the consumer's nudge (keep-alive, shutdown): passed up
                    yield item
                    continue
                if isinstance(item, Reset):
                    # The store lost events this watcher was sent: the client is told to drop
                    # them (a `Reset` passes through as a control message) and the stream goes
                    # on with the new history after item.version.
                    metrics.WATCH_RESETS.inc()
                    yield item
                    prev = None
                    known = item.version
                    back = await self.games.at(game.id, known, game.meta) if known else None
                    game.state, game.platform = (back.state, list(back.platform)) if back else (None, [])
                    game.version, held = known, False
                    finished = known > 0 and engine.outcome(game.state) is not None
                    continue
                version, event = item
                hash_ = getattr(item, "hash", "")
                self.games.observed(game.id, engine, version, hash_, prev, event)
                prev = hash_ or None
                yield self._reply(game, version, hash_, event, seat)
                if version > known:
                    finished, held = self._follow(game, version, hash_, event, held)
                    known = version
                if finished and version >= known:
                    return
            raise Unavailable("the event store ended the watch; watch again from the last version")
        except GameNotFound as e:  # deleted or expired under a replica that had it cached
            self.games.forget(game.id)
            raise NotFound(f"no game {game.id!r}", "GAME_NOT_FOUND") from e
        except Trimmed as e:  # a watcher that fell behind a snapshot that trimmed what it needs
            raise FailedPrecondition(_trimmed_watch(e), "HISTORY_TRIMMED") from e
        finally:
            metrics.WATCH_STREAMS.dec()
            left = self._watching.pop(game.id, 1) - 1
            if left > 0:
                self._watching[game.id] = left
            else:
                self._followed.pop(game.id, None)
                self._replies.pop(game.id, None)

    # Replies kept per game: a few entries' worth for every audience of a table.
    REPLIES_KEPT = 32

    def _reply(self, game: LoadedGame, version: int, hash_: str, event: dict[str, Any],
               seat: int | None) -> dict[str, Any]:
        """The reply to send for an entry to `seat`'s audience: the one made for the first of
        its watchers here (never changed after, by anyone), or a new one."""
        kept = self._replies.get(game.id)
        if kept is None:
            if not hash_ or self._watching.get(game.id, 0) < 2:  # one watcher: nothing to share
                return event_reply(game.id, version, event_view(game.engine, event, seat), self.public_hash(hash_))
            kept = self._replies[game.id] = {}
        elif not hash_:
            return event_reply(game.id, version, event_view(game.engine, event, seat))
        if seat is not None and public_event(game.engine, event):
            seat = None  # every seat sees it as a spectator does: one reply (and encoding) for all
        key = (version, hash_, seat)
        reply = kept.get(key)
        if reply is None:
            reply = kept[key] = event_reply(game.id, version, event_view(game.engine, event, seat),
                                            self.public_hash(hash_))
            if len(kept) > self.REPLIES_KEPT:
                del kept[next(iter(kept))]  # the oldest
        return reply

    def _follow(self, game: LoadedGame, version: int, hash_: str, event: dict[str, Any],
                held: bool) -> tuple[bool, bool]:
        """A watcher's copy of the game moves on to the entry `version`: whether the game is over
        then, and whether the watcher's state is now one kept for the others (`held`).

        The watchers of one game on this replica follow it together: the first to reach a new
        entry evolves the state and keeps it in `_followed` (version -> (hash, state, platform
        events, over)); the others take it as it is instead of each evolving a copy. A kept
        state is never changed in place: moving it on starts from a copy. A game watched once
        here keeps nothing (its watcher evolves its own copy, as one catching up on a history
        older than what is kept does)."""
        entries = self._followed.get(game.id)
        if entries is not None and hash_:
            kept = entries.get(version)
            if kept is not None and kept[0] == hash_:
                # the same entry of the same history (the hash chains every event before it)
                _, game.state, game.platform, finished = kept
                game.version = version
                return finished, True
        state, platform = (clone(game.state), list(game.platform)) if held else (game.state, game.platform)
        if is_platform(event):
            platform.append(event)
        else:
            state = game.engine.evolve(state, event)
        game.state, game.platform, game.version = state, platform, version
        finished = state is not None and game.finished
        if not hash_ or self._watching.get(game.id, 0) < 2 or (entries and version <= max(entries)):
            return finished, False
        if entries is None:
            entries = self._followed[game.id] = {}
            while len(self._followed) > self.games.cache_size:
                self._followed.popitem(last=False)
        else:
            self._followed.move_to_end(game.id)
        entries[version] = (hash_, state, platform, finished)
        if len(entries) > self.FOLLOWED_ENTRIES:
            del entries[min(entries)]
        return finished, True
