"""Ratings and matchmaking beside a GameService: in Redis when the server has Redis, else
beside the SQLite file, else in this process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from tablero.server.logs import Outage
from tablero.server.matchmaking.service import Matchmaking
from tablero.server.matchmaking.store import MemoryTickets, RedisTickets, SQLiteTickets

from .service import Ratings
from .store import RedisRatings, SQLiteRatings

log = logging.getLogger("tablero.ratings")
SWEEP_INTERVAL = 2.0


def attach(games: Any, client: Any = None, db: str | None = None) -> tuple[Ratings, Matchmaking]:
    """`client`: the Redis client the lobby uses, or None."""
    if client is not None:
        ratings_store, tickets = RedisRatings(client), RedisTickets(client)
    elif db:  # a SQLite file: shared by the processes of `serve --workers N`
        ratings_store, tickets = SQLiteRatings(db), SQLiteTickets(db)
    else:
        ratings_store, tickets = SQLiteRatings(":memory:"), MemoryTickets()
    games.ratings = Ratings(ratings_store, games)
    games.matchmaking = Matchmaking(tickets, games)
    return games.ratings, games.matchmaking


async def sweep_ratings(ratings: Ratings, stopping: asyncio.Event) -> None:
    """Rate the finished games of the pending set (every replica; each game once)."""
    outage = Outage(log, "ratings sweep failed", "ratings sweep works again")
    while not stopping.is_set():
        try:
            await ratings.sweep()
            outage.over()
        except Exception as e:  # noqa: BLE001 - the store is down: next round
            outage.failed(e)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stopping.wait(), SWEEP_INTERVAL)


def background(games: Any, stopping: asyncio.Event) -> list[asyncio.Task]:
    return [asyncio.create_task(sweep_ratings(games.ratings, stopping), name="tablero-ratings-sweep"),
            asyncio.create_task(games.matchmaking.run(stopping), name="tablero-matchmaking")]


async def rebuild(store: Any, redis_url: str | None, db: str | None) -> dict[str, int]:
    """`tablero admin ratings rebuild`: every rating again from the finished games' logs."""
    from tablero.server.app import GameService
    from tablero.server.auth import TokenSigner
    from tablero.server.portal.lobby import RedisLobby, SQLiteLobby

    client = store._client if redis_url else None
    lobby = RedisLobby(client) if client is not None else SQLiteLobby(db)
    games = GameService(store, TokenSigner("rebuild-only-no-tokens-are-issued"), lobby=lobby)
    ratings, _ = attach(games, client, db)
    return await ratings.rebuild()
