"""Bot thoughts at the CPU's idle priority (Linux SCHED_IDLE), guarded against starvation.

A pool process of `tablero serve` thinks while its server answers people. At nice 10 alone, a
person's move that wakes the server while a thought runs on the other core still waits for the
thought's time slice: `bench/bots.py --latency` measured human moves' p99 at 1.5-2.0x of the run
without bots (the server is not busier; it is woken later). A SCHED_IDLE thread is preempted by
any other at once: 0.8-1.3x in the same bench, the bots advancing as far.

SCHED_IDLE leaves a thought almost no CPU while other tasks want all of it, so on a saturated host
every bot would stall. The guard: a thread at the pool's ordinary priority looks at the thought
in progress every GUARD_EVERY seconds, and a thought that has waited STARVED seconds more than it
ran finishes at the ordinary priority (its nice value); the process then goes back to idle.
Leaving SCHED_IDLE needs CAP_SYS_NICE or an RLIMIT_NICE of at least 20 - nice (sched(7)); a
process that may not (probed once, on a throwaway thread) keeps its nice value only.
"""

from __future__ import annotations

import os
import threading
import time

STARVED = 0.25  # seconds a thought may wait for the CPU beyond what it ran, before it is raised
GUARD_EVERY = 0.1  # seconds between the guard's looks


def _policy(tid: int, idle: bool) -> None:
    os.sched_setscheduler(tid, os.SCHED_IDLE if idle else os.SCHED_OTHER, os.sched_param(0))


class IdleThoughts:
    """The thinking thread's priority: idle between and during thoughts, ordinary for the rest
    of a thought found starving."""

    def __init__(self, tid: int) -> None:
        self.tid = tid
        self.lock = threading.Lock()
        self.started: tuple[float, float] | None = None  # (wall, process CPU) at the thought's start
        self.raised = False
        self.starving = 0  # thoughts finished at the ordinary priority

    def begin(self) -> None:
        with self.lock:
            self.started = (time.monotonic(), time.process_time())

    def end(self) -> None:
        with self.lock:
            self.started = None
            if self.raised:
                self.raised = False
                _policy(self.tid, idle=True)

    def check(self) -> bool:
        """Raise the thought in progress if it starves; whether it was raised now."""
        with self.lock:
            if self.started is None or self.raised:
                return False
            wall, cpu = self.started
            if (time.monotonic() - wall) - (time.process_time() - cpu) < STARVED:
                return False
            try:
                _policy(self.tid, idle=False)
            except OSError:
                return False
            self.raised = True
            self.starving += 1
            return True

    def guard(self) -> None:
        while True:
            time.sleep(GUARD_EVERY)
            self.check()


def can_leave_idle() -> bool:
    """Whether a thread of this process may go back from SCHED_IDLE (tried on a throwaway one)."""
    if not hasattr(os, "SCHED_IDLE"):
        return False
    answer: list[bool] = []

    def probe() -> None:
        try:
            _policy(0, idle=True)
            _policy(0, idle=False)
            answer.append(True)
        except OSError:
            answer.append(False)

    thread = threading.Thread(target=probe, name="tablero-idle-probe")
    thread.start()
    thread.join()
    return answer == [True]


THOUGHTS: IdleThoughts | None = None  # set in a pool process that thinks at idle priority


def enter() -> IdleThoughts | None:
    """In a pool process's main thread (after its nice): think at idle priority from now on,
    guarded. None where the process could not leave the idle priority again."""
    global THOUGHTS
    if not can_leave_idle():
        return None
    thoughts = IdleThoughts(threading.get_native_id())
    # Started before the switch: the guard keeps the ordinary priority (a new thread inherits its
    # creator's policy, and sched_setscheduler(0, ...) changes the calling thread only).
    threading.Thread(target=thoughts.guard, name="tablero-idle-guard", daemon=True).start()
    _policy(0, idle=True)
    THOUGHTS = thoughts
    return thoughts
