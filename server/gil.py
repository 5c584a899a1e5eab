"""A shorter GIL switch interval while work runs on threads beside the event loop.

A thread that releases the GIL (SQLite, a C call) must win it back from a busy event loop,
which holds it for whole switch intervals (Python's default: 5 ms). While such threads have
work in flight, `handing_over()` shortens the interval, so they wait less and do not make the
loop's requests queue behind them; it is restored when the last one finishes. Counted, so
that several users (the engine pool, the SQLite thread) can nest and overlap.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

SWITCH_INTERVAL = 0.0005  # seconds

_holders = 0
_saved = sys.getswitchinterval()


@contextlib.contextmanager
def handing_over() -> Iterator[None]:
    global _holders, _saved
    if _holders == 0:
        _saved = sys.getswitchinterval()
        sys.setswitchinterval(min(_saved, SWITCH_INTERVAL))
    _holders += 1
    try:
        yield
    finally:
        _holders -= 1
        if _holders == 0:
            sys.setswitchinterval(_saved)
