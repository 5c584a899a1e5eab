"""A store outage is logged once when it starts (one line: the fault suites and operators read
a traceback as a defect), then at most once a minute, and once when it ends: not a traceback
every half second per worker. A failure that is not an outage keeps its traceback."""

from __future__ import annotations

import asyncio
import logging

import pytest
from tablero.server import runner
from tablero.server.lifecycle import Lifecycle
from tablero.server.store import StoreError


class _Games:
    def __init__(self, error: Exception) -> None:
        self.calls = 0
        self.down = True
        self.error = error

    async def sweep_clocks(self) -> int:
        self.calls += 1
        if self.down:
            raise self.error
        return 0


@pytest.mark.parametrize(("error", "traceback"), [
    (ConnectionError("redis: Connection refused"), False),  # an outage: one line
    (StoreError("redis: Connection refused"), False),
    (KeyError("seats"), True),  # a defect: its traceback
])
async def test_a_failing_clock_sweep_logs_the_outage_once_and_its_end(monkeypatch, caplog, error, traceback):
    monkeypatch.setattr(runner, "CLOCK_SWEEP_INTERVAL", 0.005)
    games, lifecycle = _Games(error), Lifecycle(None)
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
    lines = [(r.getMessage(), bool(r.exc_info)) for r in caplog.records if "clock sweep" in r.getMessage()]
    assert lines == [("clock sweep failed", traceback), ("clock sweep works again", False)]
