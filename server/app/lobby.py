"""The lobby as the use cases use it: ListGames's pages, and what runs one at a time per
portal user (a join to one game; with TABLERO_MAX_OPEN_GAMES_PER_USER, any create or join,
checked against the user's running games). The lobby itself (its entries, holds and pages) is
server.portal.lobby, shared by every replica through the store."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from tablero.server.errors import AppError, InvalidArgument, NotFound, OverQuota, Unauthenticated, Unavailable, outage
from tablero.server.pagesize import page_size
from tablero.server.portal.lobby import BadPageToken, Filter

from . import commands as cmd
from .paging import UNSIGNED, PageTokens
from .paging import BadPageToken as BadPage
from .replies import rfc3339
from .repository import GameRepository
from .seats import seat_reply

LOBBY_PAGE, MAX_LOBBY_PAGE = 20, 100
_STATUS = {"GAME_STATUS_RUNNING": "RUNNING", "GAME_STATUS_FINISHED": "FINISHED"}
UNSPECIFIED = "GAME_STATUS_UNSPECIFIED"  # ListGames: no filter
# What runs one at a time per portal user (a join to one game; with a cap, any create or join)
# holds (game or "*", user) in the lobby for at most USER_HOLD seconds (a replica that dies
# meanwhile lets it lapse); another request of theirs waits up to USER_HOLD_WAIT for it.
USER_HOLD = 10.0
USER_HOLD_WAIT = 5.0
OTHER_FILTERS = ("it was handed out for other filters (engine, status, openSeats, mine) than this request's: "
                 "ask for the first page with these")


class GameLobby:
    """`lobby`: server.portal.lobby's (Memory/SQLite/Redis); `max_open_games`: running games a
    portal user may play at once (0: any number)."""

    def __init__(self, games: GameRepository, lobby: Any, max_open_games: int, pages: PageTokens) -> None:
        self.games = games
        self.pages = pages  # signs ListGames' page tokens, bound to the request's filters
        self.lobby = lobby
        self.max_open_games = max_open_games

    async def list_games(self, c: cmd.ListGames) -> dict[str, Any]:
        size = page_size(c.page_size, LOBBY_PAGE, MAX_LOBBY_PAGE)
        if c.mine and c.user is None:
            raise Unauthenticated("mine=true needs a portal JWT: Authorization: Bearer <jwt>", "TOKEN_MISSING")
        # GAME_STATUS_UNSPECIFIED (0) is no filter, the protobuf convention: a proto3 enum's zero
        # is its default, which gRPC and Connect cannot tell from an absent field (docs/api.md).
        status = None if c.status in (None, "", UNSPECIFIED) else c.status
        if status is not None and status not in _STATUS:
            raise InvalidArgument("status must be GAME_STATUS_RUNNING or GAME_STATUS_FINISHED "
                                  "(or GAME_STATUS_UNSPECIFIED, or none, for every game)")
        f = Filter(engine=c.engine or None, status=_STATUS.get(status or ""),
                   open_seats=c.open_seats, user=c.user.id if c.mine and c.user else None)
        # The lobby's own cursor (where the next page starts), signed and bound to the filters.
        of = [f.engine, f.status, f.open_seats, f.user]
        try:
            after = self.pages.bound(c.page_token, "ListGames", of, OTHER_FILTERS) if c.page_token else None
        except BadPage as e:
            said = "" if str(e) == UNSIGNED else f": {e}"
            raise InvalidArgument(f"pageToken is not a token this server issued{said}", "PAGE_TOKEN_INVALID") from None
        if after is not None and not isinstance(after, str):
            raise InvalidArgument("pageToken is not a token this server issued", "PAGE_TOKEN_INVALID")
        try:
            entries, token = await self.lobby.list(f, size, after)
            token = self.pages.bind("ListGames", of, token) if token else ""
        except BadPageToken as e:
            raise InvalidArgument(str(e), "PAGE_TOKEN_INVALID") from None
        except AppError:
            raise
        except Exception as e:  # the store behind the lobby
            raise outage("the lobby's store", e) from None
        versions = await asyncio.gather(*(self.games.version(e["gameId"]) for e in entries), return_exceptions=True)
        games = []
        for e, v in zip(entries, versions, strict=True):
            if isinstance(v, NotFound):
                continue  # deleted since
            if isinstance(v, BaseException):
                raise v
            games.append({
                "id": e["gameId"], "engine": e["engine"], "players": e["players"], "version": v,
                "status": "GAME_STATUS_" + e["status"], "createTime": e["created"],
                "createTimestamp": rfc3339(e["created"]),
                "seats": [seat_reply(s) for s in e["seats"]],
            })
        return {"games": games, "nextPageToken": token}

    @contextlib.asynccontextmanager
    async def one_at_a_time(self, key: str, user_id: str, what: str) -> AsyncIterator[None]:
        """Holds (`key`, `user_id`) in the lobby, shared by every replica, while the body runs;
        another holder's body waits up to USER_HOLD_WAIT for it (a holder that died lets it
        lapse after USER_HOLD)."""
        waited = 0.0
        while not await self.lobby.hold(key, user_id, USER_HOLD):
            if waited >= USER_HOLD_WAIT:
                raise Unavailable(f"another {what} is under way; retry", "BUSY")
            await asyncio.sleep(0.02)
            waited += 0.02
        try:
            yield
        finally:
            with contextlib.suppress(Exception):  # else it lapses after USER_HOLD
                await self.lobby.release(key, user_id)

    async def _still_playing(self, seated: list[tuple[str, list[int] | None]]) -> None:
        """Drops from `seated` the games whose every seat of the user was forfeited (the lobby
        entry does not say) or that are over (seats None: a game of bots only the user started,
        which counts until it is over)."""
        kept = []
        for game_id, seats in seated:
            try:
                game = await self.games.current(game_id)
            except Exception:  # noqa: BLE001 - gone since the listing: it does not count
                continue
            if not game.finished and (seats is None or any(s not in game.table.forfeited for s in seats)):
                kept.append((game_id, seats))
        seated[:] = kept

    @contextlib.asynccontextmanager
    async def capped(self, user_id: str | None) -> AsyncIterator[None]:
        """The body adds a running game to `user_id`'s count: with a cap, checked and added one
        at a time for each user (else creates or joins that race would all pass the check)."""
        if not self.max_open_games or user_id is None:
            yield
            return
        async with self.one_at_a_time("*", user_id, "game creation or join of this user"):
            await self.check_open_games(user_id)
            yield

    async def check_open_games(self, user_id: str) -> None:
        """OverQuota when `user_id` already plays the most running games allowed."""
        if not self.max_open_games:
            return
        # Games the user created or joined; seats others reserved for them (invitations) don't count,
        # nor seats the user has left (a bot plays them on, or they forfeited: the lobby entry says
        # the first, the game's log the second, read only for a user at the cap). A game of bots
        # only the user started (its entry's `owner`) counts until it is over.
        token, seated = None, []
        while True:
            page, token = await self.lobby.list(Filter(status="RUNNING", counted_for=user_id), MAX_LOBBY_PAGE, token)
            for e in page:
                mine = [s["seat"] for s in e["seats"] if (s.get("user") or {}).get("id") == user_id
                        and not s.get("invited") and s.get("kind") != "bot"]
                if mine or e.get("owner") == user_id:
                    seated.append((e["gameId"], mine or None))
            if len(seated) >= self.max_open_games:
                await self._still_playing(seated)
            if len(seated) >= self.max_open_games or not token:
                break
        playing = len(seated)
        if playing >= self.max_open_games:
            raise OverQuota(f"user {user_id!r} already plays {playing} running games (games of bots only they "
                            "started count too), the most allowed "
                            f"(TABLERO_MAX_OPEN_GAMES_PER_USER={self.max_open_games}); finish one first")
