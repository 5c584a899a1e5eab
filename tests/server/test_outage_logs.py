"""A store outage is logged once when it starts (with the traceback), then at most once a
minute, and once when it ends: not a traceback every half second per worker."""

from __future__ import annotations

import asyncio
import logging

from server import runner
from server.lifecycle import Lifecycle


class _Games:
    def __init__(self) -> None:
        self.calls = 0
        self.down = True

    async def sweep_clocks(self) -> int:
        self.calls += 1
        if self.down:
            raise ConnectionError("redis: Connection refused")
        return 0


async def test_a_failing_clock_sweep_logs_the_outage_once_and_its_end(monkeypatch, caplog):
    monkeypatch.setattr(runner, "CLOCK_SWEEP_INTERVAL", 0.005)
    games, lifecycle = _Games(), Lifecycle(None)
    caplog.set_level(logging.WARNING, logger="tablero")
    task = asyncio.create_task(runner._sweep_clocks(games, lifecycle))
    while games.calls < 50:
        await asyncio.sleep(0.01)
    games.down = False
    calls = games.calls
    while games.calls < calls + 5:
        await asyncio.sleep(0.01)
    lifecycle.shutting_down.set()
    await task
    lines = [(r.getMessage(), r.exc_info is not None) for r in caplog.records if "clock sweep" in r.getMessage()]
    assert lines == [("clock sweep failed", True), ("clock sweep works again", False)]
