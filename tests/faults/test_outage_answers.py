"""With its Redis gone, a server answers every call UNAVAILABLE (503 over REST), which
clients retry, never 500 INTERNAL: the store's calls, the lobby's (create, join, list) and
the seat directory's alike. When Redis is back, the same calls work again."""

from __future__ import annotations

import httpx

from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerThread


def test_every_call_on_a_dead_redis_is_unavailable_not_internal() -> None:
    with FaultyRedis(fsync="always") as redis_server, \
            ServerThread(redis_url=redis_server.url, store_retries=0) as server:
        http = httpx.Client(base_url=server.http, timeout=30)
        created = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]})
        assert created.status_code == 200, created.text
        game = created.json()["game"]["id"]
        x = created.json()["seats"][0]["token"]
        redis_server.kill()
        calls = {
            "create": lambda: http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}),
            "join": lambda: http.post(f"/v1/games/{game}/join", json={}),
            "list": lambda: http.get("/v1/games"),
            "act": lambda: http.post(f"/v1/games/{game}/actions", json={"action": {"type": "place", "cell": 4},
                                                                          "requestId": "r1"},
                                     headers={"Authorization": f"Bearer {x}"}),
        }
        for name, call in calls.items():
            r = call()
            assert r.status_code == 503, (name, r.status_code, r.text)
            assert r.json()["error"]["code"] == "UNAVAILABLE", (name, r.text)
            assert "127.0.0.1" not in r.text, (name, r.text)  # no internal address in the answer
        redis_server.start()
        for name, call in calls.items():
            r = call()
            assert r.status_code == 200, (name, r.status_code, r.text)
