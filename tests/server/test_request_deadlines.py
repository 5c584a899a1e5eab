"""The REST calls' deadline (server/http/deadline.py) on its own: one watchdog timer for every call
in flight cancels each past its deadline, and only those; a call that is done in time is not
touched. Over a real server with a frozen Redis: tests/faults/test_request_deadline.py."""

from __future__ import annotations

import asyncio
import time

from tablero.server.http.deadline import CANCEL_MESSAGE, RequestDeadlines


async def _call(deadlines: RequestDeadlines, seconds: float) -> tuple[str, float]:
    task = asyncio.current_task()
    assert task is not None
    t = time.monotonic()
    deadlines.enter(task)
    try:
        await asyncio.sleep(seconds)
        return "done", time.monotonic() - t
    except asyncio.CancelledError as e:
        if not deadlines.expired(task):
            raise  # not the deadline's
        task.uncancel()
        assert e.args == (CANCEL_MESSAGE,)
        return "expired", time.monotonic() - t
    finally:
        deadlines.leave(task)


async def test_calls_past_the_deadline_are_cancelled_at_it_and_the_others_are_not():
    deadlines = RequestDeadlines(0.3)
    quick = asyncio.create_task(_call(deadlines, 0.05))
    slow = asyncio.create_task(_call(deadlines, 5))
    await asyncio.sleep(0.15)
    later = asyncio.create_task(_call(deadlines, 5))  # its deadline comes 0.15 s after the first ones'
    also_quick = asyncio.create_task(_call(deadlines, 0.2))
    results = await asyncio.gather(quick, slow, later, also_quick)
    assert [r[0] for r in results] == ["done", "expired", "expired", "done"]
    assert 0.28 < results[1][1] < 0.6 and 0.28 < results[2][1] < 0.6, results
    assert not deadlines._due and not deadlines._expired  # nothing kept after the calls
    # Idle, then a call again: the watchdog is armed anew.
    await asyncio.sleep(0.4)
    assert (await _call(deadlines, 5))[0] == "expired"


async def test_a_task_cancelled_by_something_else_is_not_taken_for_expired():
    deadlines = RequestDeadlines(5)
    task = asyncio.create_task(_call(deadlines, 5))
    await asyncio.sleep(0.05)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    else:
        raise AssertionError("the cancellation was taken for the deadline's")
    assert not deadlines._due
