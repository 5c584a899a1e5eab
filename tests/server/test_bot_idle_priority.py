"""The bot pool thinks at the CPU's idle priority (server/app/idle.py): a pool process's main
thread runs SCHED_IDLE with its nice value, and a thought that starves finishes at the ordinary
priority, then goes back to idle. Real kernel calls (sched_setscheduler) on real threads."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest
from tablero.server.app import idle, thinkers

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")


def _policy_and_nice() -> tuple[int, int, bool]:
    return os.sched_getscheduler(0), os.nice(0), idle.THOUGHTS is not None


@pytest.mark.parametrize("idle_priority", [True, False])
def test_a_pool_process_thinks_at_idle_priority_with_its_nice_value(idle_priority: bool):
    pool = multiprocessing.get_context("spawn").Pool(1, initializer=thinkers._warm, initargs=(7, idle_priority))
    try:
        policy, nice, guarded = pool.apply(_policy_and_nice)
    finally:
        pool.terminate()
        pool.join()
    assert nice == min(19, os.nice(0) + 7)  # 7 more than this process's (a test run under `nice` starts higher)
    if idle_priority and idle.can_leave_idle():
        assert (policy, guarded) == (os.SCHED_IDLE, True)
    else:  # asked not to, or a process that could not come back from idle: nice only
        assert (policy, guarded) == (os.SCHED_OTHER, False)


def _on_a_thread(body):  # noqa: ANN001, ANN202 - runs body(tid) on a fresh thread, returns its result
    out: list = []
    thread = threading.Thread(target=lambda: out.append(body(threading.get_native_id())))
    thread.start()
    thread.join()
    return out[0]


@pytest.mark.skipif(not idle.can_leave_idle(), reason="this process may not leave SCHED_IDLE (no CAP_SYS_NICE)")
def test_a_starving_thought_is_raised_to_the_ordinary_priority_and_lowered_after():
    def body(tid: int) -> list:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        thoughts = idle.IdleThoughts(tid)
        seen = []
        thoughts.begin()
        seen.append(thoughts.check())  # just begun: not starving
        wall, cpu = thoughts.started
        thoughts.started = (wall - idle.STARVED - 0.5, cpu)  # waited STARVED + 0.5 s without running
        seen.append(thoughts.check())
        seen.append(os.sched_getscheduler(tid) == os.SCHED_OTHER)
        seen.append(thoughts.check())  # raised once
        thoughts.end()
        seen.append(os.sched_getscheduler(tid) == os.SCHED_IDLE)
        seen.append(thoughts.starving)
        return seen

    assert _on_a_thread(body) == [False, True, True, False, True, 1]


@pytest.mark.skipif(not idle.can_leave_idle(), reason="this process may not leave SCHED_IDLE (no CAP_SYS_NICE)")
def test_a_thought_that_ran_all_along_stays_idle():
    def body(tid: int) -> list:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        thoughts = idle.IdleThoughts(tid)
        thoughts.begin()
        wall, cpu = thoughts.started
        thoughts.started = (wall - 5.0, cpu - 5.0 + idle.STARVED / 2)  # 5 s in, all but STARVED/2 on the CPU
        raised = thoughts.check()
        thoughts.end()
        return [raised, os.sched_getscheduler(tid) == os.SCHED_IDLE]

    assert _on_a_thread(body) == [False, True]
