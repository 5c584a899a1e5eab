"""The Python SDK over gRPC reaches a server back from an outage as soon as it answers (an outside
pass: a gRPC watch gave up one second after the server was back from a 27 s restart, within its
30 s `watch_patience`; it had not tried the server since it came back).

A gRPC channel whose server is away backs off its reconnections by itself (gRPC's defaults: 1 s,
times 1.6 each time, up to 120 s) and fails every call at once meanwhile, so the SDK's own
retries and backoff never reached a server that came back between two of the channel's tries:
after a 30 s outage the next try came about 15 s later. The SDK's channels now reconnect at most
1 s apart, its own backoff doing the rest."""

from __future__ import annotations

import threading
import time

import pytest
from tablero_client import Client

from tests.clients.test_sdk import DIAGONAL, _restartable

pytestmark = pytest.mark.slow  # a 30 s outage between two server processes

OUTAGE = 30.0  # long enough for gRPC's own backoff to reach ~17 s between tries
PATIENT = {"retries": 10_000, "backoff": 0.05, "max_backoff": 0.2, "watch_patience": 300.0}


def test_a_grpc_watch_is_back_within_seconds_of_the_server(tmp_path):
    first, second = _restartable(tmp_path)
    try:
        with Client(rest=first.http) as c:
            created = c.create("tic-tac-toe", 2)
        seen: list[tuple[int, float]] = []
        errors: list[BaseException] = []

        def watch() -> None:
            try:
                with Client(grpc=first.grpc, **PATIENT) as c:
                    seen.extend((ev.version, time.monotonic()) for ev in c.watch(created.game.id))
            except BaseException as e:  # noqa: BLE001 - surfaced by the assertions
                errors.append(e)

        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        time.sleep(2)  # the stream is open
        first.kill()
        time.sleep(OUTAGE)  # the watch tries again and again meanwhile
        second.start()
        back = time.monotonic()
        with Client(rest=second.http) as c:
            for seat, cell in DIAGONAL:
                c.act(created.game.id, created.token(seat), {"type": "place", "cell": cell})
        thread.join(60)
        assert not errors, errors
        assert [v for v, _ in seen] == list(range(1, 8))  # the start, five moves, the win
        late = seen[1][1] - back  # the first move after the server came back
        assert late < 4.0, f"the watch saw the server {late:.1f} s after it was back"
    finally:
        first.kill()
        second.kill()
