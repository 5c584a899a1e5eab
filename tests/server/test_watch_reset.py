"""A Reset from the store reaches clients: SSE as a named `reset` message with its version
(and `id:`, so a reconnect resumes there); gRPC as ABORTED naming the version."""

from __future__ import annotations

import asyncio

from server.api.watch import items
from server.http.sse import frame
from server.store import Reset


async def _events():
    yield {"gameId": "g", "version": 3, "event": {"cell": 4}}
    yield Reset(2)
    yield {"gameId": "g", "version": 3, "event": {"cell": 8}}


async def test_a_reset_is_a_named_sse_message_between_the_events():
    out = [frame(i) async for i in items(_events(), asyncio.Event())]
    assert out[0].startswith(b"id: 3\n")
    assert out[1] == b'id: 2\nevent: reset\ndata: {"version":2}\n\n'
    assert out[2].startswith(b"id: 3\n") and b'"cell":8' in out[2]
    assert out[3].startswith(b"retry: 3600000\nevent: end")
