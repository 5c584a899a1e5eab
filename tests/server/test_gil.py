"""The GIL switch interval is shortened while any thread-side work is in flight and restored
when the last of overlapping users finishes (the engine pool and the SQLite thread overlap)."""

import sys

from tablero.server import gil


def test_overlapping_users_restore_the_interval_once_the_last_one_is_done():
    before = sys.getswitchinterval()
    a, b = gil.handing_over(), gil.handing_over()
    a.__enter__()
    assert sys.getswitchinterval() == min(before, gil.SWITCH_INTERVAL)
    b.__enter__()
    a.__exit__(None, None, None)  # the first one ends while the second still runs
    assert sys.getswitchinterval() == min(before, gil.SWITCH_INTERVAL)
    b.__exit__(None, None, None)
    assert sys.getswitchinterval() == before
