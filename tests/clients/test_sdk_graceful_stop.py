"""A server stopped gracefully (SIGTERM, as in every rollout) under gRPC load: an outside operator's
callers got CANCELLED, which the SDK did not retry (grpc's server stop drops the calls it had not
started; REST callers got UNAVAILABLE and went on). The SDK now takes a server's CANCELLED, which
carries no reason, as UNAVAILABLE: the creates go on against the next server on the same address,
each acknowledged game stored once."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from tablero_client import AsyncClient

from tests.clients.test_sdk_watch_outages import _successor
from tests.server.support import ServerProcess

pytestmark = pytest.mark.slow


def test_creates_over_grpc_go_on_through_a_graceful_stop(tmp_path):
    first = ServerProcess({"TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "games.db")}).start()
    servers = [first, _successor(first), _successor(first), _successor(first)]
    made: list[str] = []
    errors: list[BaseException] = []

    async def creates(i: int, until: float) -> None:
        async with AsyncClient(grpc=first.grpc, retries=400, backoff=0.02, max_backoff=0.5) as c:
            n = 0
            while time.monotonic() < until:
                n += 1
                try:
                    made.append((await c.create("tic-tac-toe", request_id=f"graceful-{i}-{n}-0123456789")).game.id)
                except Exception as e:  # noqa: BLE001 - the test's assertion names it
                    errors.append(e)

    def stop_and_start_again() -> None:  # three stops: each drops a few calls at most
        for old, new in zip(servers, servers[1:], strict=False):
            time.sleep(1.5)
            code, err = old.terminate()
            assert code == 0, err
            new.start()

    try:
        restarter = threading.Thread(target=stop_and_start_again)
        restarter.start()

        async def run() -> None:
            until = time.monotonic() + 12
            await asyncio.gather(*(creates(i, until) for i in range(16)))

        asyncio.run(run())
        restarter.join()
        assert [repr(e) for e in errors] == []
        assert len(made) == len(set(made)) and made
        # Every acknowledged game is there, once.
        import httpx

        stored = set()
        token = None
        while True:
            r = httpx.get(f"{servers[-1].http}/v1/games", params={"pageSize": 200, **({"pageToken": token} if token else {})})
            stored |= {g["id"] for g in r.json()["games"]}
            token = r.json().get("nextPageToken")
            if not token:
                break
        assert set(made) <= stored
    finally:
        for s in servers:
            s.kill()
