"""A Reset from the store reaches clients: SSE as a named `tablero-reset` message (after its
`reset` copy under the former name, until v2) with its version
(and `id:`, so a reconnect resumes there); gRPC as ABORTED naming the version."""

from __future__ import annotations

import asyncio

from tablero.server.api.watch import WatchItem, items
from tablero.server.http.sse import frame
from tablero.server.store import Reset


async def _events():
    yield {"gameId": "g", "version": 3, "event": {"cell": 4}}
    yield Reset(2)
    yield {"gameId": "g", "version": 3, "event": {"cell": 8}}


async def test_a_reset_is_a_named_sse_message_between_the_events():
    out = [frame(i) async for i in items(_events(), asyncio.Event())]
    assert out[0].startswith(b"id: 3\n")
    assert out[1] == b'id: 2\nevent: reset\ndata: {"version":2}\n\nevent: tablero-reset\ndata: {"version":2}\n\n'
    assert out[2].startswith(b"id: 3\n") and b'"cell":8' in out[2]
    assert out[3].startswith(b"retry: 3600000\nevent: end\n")
    assert out[3].endswith(b'event: tablero-end\ndata: {"status":"GAME_STATUS_FINISHED"}\n\n')
    # An EventSource's stream (legacy=False): the tablero-* names only.
    assert frame(WatchItem("reset", {"version": 2}), legacy=False) == b'id: 2\nevent: tablero-reset\ndata: {"version":2}\n\n'
