"""A frozen Redis (SIGSTOP: the connection stays open, no answer comes) and the lobby, the rate
limiter and the turn clocks, which use a Redis client of their own beside the store's (outside
operator pass). That client had no socket timeout: with TABLERO_RATE_LIMIT set, every call (even
ListEngines) and every lobby listing hung for as long as Redis was frozen, however long that was,
where docs/operations.md promises 503 UNAVAILABLE after the store's retries (a call that times out:
within two socket timeouts). Now they answer 503 within about one socket timeout."""

from __future__ import annotations

import httpx

from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerThread

SOCKET_TIMEOUT = 1.0
FROZEN_FOR = 15.0  # far longer than any answer may take


def test_a_frozen_redis_gives_limited_calls_and_the_lobby_503_not_a_hang() -> None:
    with FaultyRedis(fsync="always") as redis_server, \
            ServerThread(redis_url=redis_server.url, rate_limit="1000/s", store_socket_timeout=SOCKET_TIMEOUT,
                         store_retries=2) as server:
        http = httpx.Client(base_url=server.http, timeout=FROZEN_FOR + 20)
        for _ in range(3):
            assert http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).status_code == 200
        assert http.get("/v1/games").status_code == 200
        calls = {"engines": lambda: http.get("/v1/engines"), "list": lambda: http.get("/v1/games")}
        answers = redis_server.calls_while_frozen(calls, FROZEN_FOR)
        for name, (r, took) in answers.items():
            assert r.status_code == 503, (name, r.status_code, round(took, 1), r.text)
            assert r.json()["error"]["code"] == "UNAVAILABLE", (name, r.text)
            assert took < 4 * SOCKET_TIMEOUT + 2, (name, took)
        for name, call in calls.items():  # and once Redis answers again, so do they
            assert call().status_code == 200, name
