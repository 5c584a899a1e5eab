"""The rankings use case: the pure `rankings` package, off the event loop."""

from __future__ import annotations

import asyncio
from typing import Any

from tablero.rankings import RankingError, aggregate
from tablero.server.errors import InvalidArgument


async def aggregate_rankings(body: dict[str, Any]) -> dict[str, Any]:
    try:
        # In a worker thread: a large aggregation must not stall the game traffic on this loop.
        return await asyncio.to_thread(aggregate, body)
    except RankingError as e:
        raise InvalidArgument(str(e)) from None
