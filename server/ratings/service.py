"""Rating finished games exactly once, and the leaderboards and profiles (docs/ratings.md).

How a finished game gets rated, whichever replica finished it:
- At creation, a game that may be rated is put in the store's *pending* set (before the lobby
  hears of it and before anyone gets a seat token, so no rated game can finish unregistered).
- The replica that appends the last event rates it at once (`on_finished`).
- Every replica sweeps the pending set (`sweep`): a game found finished is rated, a running one
  is looked at again later (backing off up to 10 minutes), a gone one is dropped. So a replica
  dying right after the last append delays the rating until the next sweep, never loses it.
- Rating is one atomic step keyed by the game id (Redis: a Lua script; SQLite: a transaction):
  the game is in the journal already -> nothing; a player's rating moved since it was read ->
  read again and retry; else the new ratings, the leaderboards, the journal entry (with the next
  sequence number) and the removal from pending, all at once. Two replicas racing apply it once.
- `rebuild` replays the journal in sequence order from the games' logs: the same numbers.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from tablero.server import metrics
from tablero.server.app.paging import BadPageToken, PageTokens
from tablero.server.app.replies import rfc3339
from tablero.server.errors import InvalidArgument, NotFound
from tablero.server.pagesize import page_size as clamped

from tablero import engines

from .model import Rating, placements, rate
from .store import Change

log = logging.getLogger("tablero.ratings")

FIRST_CHECK = 30.0  # seconds after creation the sweep first looks at a registered game
MAX_CHECK = 600.0
MAX_PAGE, DEFAULT_PAGE, RECENT = 100, 20, 10


class Ratings:
    def __init__(self, store: Any, games: Any) -> None:
        self.store = store
        self.games = games  # server.app.GameService

    # --- rating ----------------------------------------------------------------------------
    async def register(self, game_id: str) -> None:
        await self.store.pending_put(game_id, time.time() + FIRST_CHECK)

    async def on_finished(self, game: Any) -> None:
        """The game just finished here: rate it now (the sweep would, later)."""
        if not game.meta.get("ratable"):
            return  # never registered: no portal user, or "rated": false
        try:
            await self.rate(game)
        except Exception as e:  # noqa: BLE001 - the sweep rates it later
            log.warning("game %s finished; rating it failed (%s: %s); the sweep retries", game.id,
                        type(e).__name__, e)

    async def _players(self, game: Any) -> list[Any] | None:
        meta = game.meta
        if meta.get("rated") is False:
            return None
        seats = await self.games.seats.directory(game.id, meta)
        users = [s.get("user") for s in seats] or list(meta.get("users") or [])
        kinds = list(meta["seats"])
        if meta.get("rated") is None and (len(users) != len(kinds) or any(
                u is None for u in users) or "bot" in kinds):
            return None  # by default only games whose every seat is a portal user are rated
        # A game some portal user never made a move in is not rated (as an aborted game): an
        # invitee who never came, a timeout or a resignation before one's first move. Else a
        # user could be made to lose (or win) a rated game by a clock, without ever playing.
        entry = await self.games.lobby.get(game.id)
        if entry is not None and entry.get("acting") and any(
                s.get("user") and not s.get("acted") for s in entry["seats"]):
            return None
        return placements(game.outcome, users, kinds)

    async def rate(self, game: Any, replay: bool = False) -> int:
        """Rate a finished game once. Returns its sequence number, 0 when it was rated
        already, or -2 when it is not a rated game."""
        players = await self._players(game)
        engine = game.engine.name
        if players is None:
            if not replay:
                await self.store.pending_remove(game.id)
            return -2
        for _ in range(50):
            raw = await self.store.get(engine, [p.user for p in players])
            before = {u: Rating.loads(r) for u, r in raw.items()}
            after = rate(players, before)
            changes = [Change(p.user, raw[p.user], after[p.user].dumps(), after[p.user].score, p.name, json.dumps({
                "gameId": game.id, "engine": engine, "place": p.rank, "won": p.won, "players": len(players),
                "ratingBefore": before[p.user].score, "ratingAfter": after[p.user].score,
                "createTime": game.meta.get("created")})) for p in players]
            seq = await self.store.commit(game.id, engine, changes, replay)
            if seq != -1:
                return seq
        raise RuntimeError(f"game {game.id}: its players' ratings kept moving; rated later")

    async def sweep(self, now: float | None = None, limit: int = 100) -> int:
        """Look at the pending games that are due; returns how many were rated."""
        now = time.time() if now is None else now
        rated = 0
        for game_id in await self.store.pending_due(now, limit):
            try:
                meta = await self.games.games.meta(game_id)
                game = await self.games.games.current(game_id, meta)
            except NotFound:
                await self.store.pending_remove(game_id)
                continue
            if game.finished:
                rated += (await self.rate(game)) > 0
            else:
                age = now - float(game.meta.get("created", now))
                await self.store.pending_put(game_id, now + min(MAX_CHECK, max(FIRST_CHECK, age / 4)))
        metrics.RATINGS_PENDING.set(await self.store.pending_count())
        return rated

    async def rebuild(self) -> dict[str, int]:
        """Every rating again, from the logs of the journal's games in sequence order."""
        order = await self.store.journal()
        await self.store.reset()
        done = missing = 0
        for game_id in order:
            try:
                meta = await self.games.games.meta(game_id)
                game = await self.games.games.current(game_id, meta)
            except NotFound:
                missing += 1
                log.error("rebuild: game %s is rated in the journal but its log is gone", game_id)
                continue
            done += (await self.rate(game, replay=True)) > 0
        return {"games": done, "missing": missing}

    # --- reads -----------------------------------------------------------------------------
    async def leaderboard(self, engine: str, page_size: int | None, page_token: str,
                          around: str) -> dict[str, Any]:
        if engine not in engines.names():  # the path names it: 404, as GetEngine (docs/api.md)
            raise NotFound(f"unknown engine {engine!r}", "ENGINE_NOT_FOUND")
        size = clamped(page_size, DEFAULT_PAGE, MAX_PAGE)
        until = None
        if page_token:
            start, until = _offset(self.games.pages, page_token, engine)
        elif around:
            rank = await self.store.rank(engine, around)
            if rank is None:
                raise NotFound(f"user {around!r} has no {engine} rating yet", "PLAYER_NOT_FOUND")
            # U in the page's middle, the page kept full at either end of the board (a page
            # near the bottom starts earlier, as one near the top ends later).
            start = max(0, min(rank - size // 2, await self.store.size(engine) - size))
        else:
            start = 0
        rows = await self.store.top(engine, start, size if until is None else min(size, until - start))
        names = await self.store.names([u for u, _ in rows])
        raws = await self.store.get(engine, [u for u, _ in rows]) if rows else {}
        entries = []
        for i, (u, s) in enumerate(rows):
            r = Rating.loads(raws.get(u))
            entries.append({"rank": start + i + 1, "userId": u, **({"userName": names[u]} if names.get(u) else {}),
                            "rating": s, "mu": r.mu, "sigma": r.sigma, "gamesPlayed": r.games, "wins": r.wins})
        end = start + len(rows)
        # Counted after the page is read, so a rating committed between the reads is in both
        # (counted before, a page could list players the total did not count yet).
        total = await self.store.size(engine)
        total = max(total, end) if rows else total
        # The page before ends where this one starts (from the top, it may be shorter: a page kept
        # full at the bottom of the board starts anywhere).
        pages = self.games.pages
        prev = "" if start == 0 else _token(pages, engine, start - size) if start >= size \
            else _token(pages, engine, 0, start)
        return {"engine": engine, "entries": entries, "totalPlayers": total,
                "nextPageToken": _token(pages, engine, end) if end < total else "", "previousPageToken": prev}

    async def player(self, user_id: str) -> dict[str, Any]:
        if not user_id:
            raise InvalidArgument("userId is required")
        snap = await self.store.player(user_id, RECENT)  # one moment: totals and recent games agree
        recent = [_recent(json.loads(x)) for x in snap.recent]
        if not snap.profile and not recent:
            raise NotFound(f"user {user_id!r} has played no rated game", "PLAYER_NOT_FOUND")
        out = []
        for engine in sorted(snap.profile):
            r = Rating.loads(snap.profile[engine])
            out.append({"engine": engine, **r.reply(), "rank": snap.ranks.get(engine, 0) + 1})
        name = snap.name
        return {"player": {"userId": user_id, **({"userName": name} if name else {}), "ratings": out,
                           "gamesPlayed": sum(r["gamesPlayed"] for r in out),
                           "wins": sum(r["wins"] for r in out), "recentGames": recent}}


def _token(pages: PageTokens, engine: str, offset: int, until: int | None = None) -> str:
    """A page token, signed as the API's others (server.app.paging) and bound to its list (the
    engine's leaderboard): the page's start `offset` and, for a previous page that reaches the
    top and is shorter than the page size, its end `until`."""
    return pages.seal([LEADERBOARD, engine, offset] + ([] if until is None else [until]))


# Ranks are int32 in the API: a token beyond them was never issued (and would overflow SQLite / Redis).
MAX_OFFSET = 2**31 - 1 - MAX_PAGE
LEADERBOARD = "lb"


def _offset(pages: PageTokens, token: str, engine: str) -> tuple[int, int | None]:
    """The page a token of `engine`'s leaderboard names: its start, and its end when the token
    gives one. A token the server did not sign (forged, altered, unsigned from before) or one of
    another engine's board is refused, saying why."""
    bad = "pageToken is not a token this server issued"
    try:
        raw = pages.open(token)
    except BadPageToken as e:
        raise InvalidArgument(f"{bad}: {e}", "PAGE_TOKEN_INVALID") from None
    try:
        kind, of, o, *rest = raw
        if kind != LEADERBOARD or not isinstance(of, str) or len(rest) > 1:
            raise ValueError
        if of != engine:
            bad = f"pageToken is a token of the {of[:40]!r} leaderboard, not {engine!r}'s: ask for its first page"
            raise ValueError
        u = rest[0] if rest else None
        if not isinstance(o, int) or isinstance(o, bool) or not 0 <= o <= MAX_OFFSET:
            raise ValueError
        if u is not None and (not isinstance(u, int) or isinstance(u, bool) or not o < u <= o + MAX_PAGE):
            raise ValueError
        return o, u
    except (ValueError, TypeError):
        raise InvalidArgument(bad, "PAGE_TOKEN_INVALID") from None


def _recent(game: dict[str, Any]) -> dict[str, Any]:
    """A recent game as stored, with its creation time as a Timestamp too (when it is known)."""
    created = game.get("createTime")
    return {**game, "createTimestamp": rfc3339(created)} if isinstance(created, int | float) else game
