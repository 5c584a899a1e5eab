"""A gRPC watch whose connection dies without a word (a relay that goes silent: no FIN, no RST,
nothing) is noticed by the SDK's HTTP/2 keep-alive pings within KEEPALIVE_TIME_MS +
KEEPALIVE_TIMEOUT_MS, and watch() reconnects after the last version it saw (issue 36)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from tablero_client import AsyncClient, Client, _grpc

from tests.relay import SilencingRelay

DIAGONAL = [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]  # X wins on 2-4-6


@pytest.mark.slow
@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_silent_grpc_watch_is_detected_and_reconnected_within_the_bound(server, monkeypatch, asynchronous):
    # The server admits a client ping every 5 s or more (GRPC_KEEPALIVE_OPTIONS): 6 s, and a
    # short timeout, instead of the SDK's 10 s + 5 s, to keep the test short.
    monkeypatch.setattr(_grpc, "KEEPALIVE_TIME_MS", 6_000)
    monkeypatch.setattr(_grpc, "KEEPALIVE_TIMEOUT_MS", 1_000)
    bound = (6_000 + 1_000) / 1000
    relay = SilencingRelay(server.grpc_port)
    got: list[tuple[int, float]] = []
    try:
        with Client(rest=server.http) as direct:
            created = direct.create("tic-tac-toe", 2)
            seats = [created.seat(0), created.seat(1)]

            def watch() -> None:
                if asynchronous:
                    async def main() -> None:
                        async with AsyncClient(grpc=relay.address) as c:
                            async for ev in c.watch(created.game.id, created.token(1), after_version=1):
                                got.append((ev.version, time.monotonic()))
                    asyncio.run(main())
                else:
                    with Client(grpc=relay.address) as c:
                        for ev in c.watch(created.game.id, created.token(1), after_version=1):
                            got.append((ev.version, time.monotonic()))

            t = threading.Thread(target=watch, daemon=True)
            t.start()
            seats[0].act({"type": "place", "cell": DIAGONAL[0][1]})
            deadline = time.monotonic() + 10
            while not got:  # the stream is live (an event came through the relay)
                assert time.monotonic() < deadline, "the watch never got its first event"
                time.sleep(0.02)
            assert relay.silence() >= 1
            silenced = time.monotonic()
            for seat, cell in DIAGONAL[1:]:
                seats[seat].act({"type": "place", "cell": cell})
            t.join(timeout=bound + 10)
            assert not t.is_alive(), "the watch hung on its silent connection"
            assert [v for v, _ in got] == list(range(2, 8))
            resumed = got[1][1] - silenced  # the first event after the silence came on a new connection
            print(f"[keepalive] silent gRPC watch resumed after {resumed:.2f} s (bound {bound:.0f} s + backoff)")
            assert resumed < bound + 3, resumed
    finally:
        relay.close()
