"""REST calls have a deadline (TABLERO_REQUEST_DEADLINE, 5 s by default; server/http/deadline.py).
With Redis frozen (SIGSTOP: the connection stays open, no answer comes) a GetGame waited about
20 s and a CreateGame about 24 s for their 503 (two store calls, each with the 10 s socket
timeout), longer than clients and proxies wait. Now each answers 503 UNAVAILABLE, reason
SERVER_DEADLINE, at the deadline, and nothing is lost: a create and a move retried with their
requestId once Redis answers again are each applied once, with the default store settings."""

from __future__ import annotations

import httpx

from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerThread

DEADLINE = 5.0  # the default
FROZEN_FOR = DEADLINE + 3  # longer than the deadline, shorter than one socket timeout (10 s)
CREATE = {"engine": "tic-tac-toe", "players": 2, "requestId": "deadline-create-0123456789"}
MOVE = {"action": {"type": "place", "cell": 4}, "requestId": "deadline-move-0123456789"}


def test_a_frozen_redis_gives_rest_calls_503_at_the_deadline_and_their_retries_land_once() -> None:
    redis_server = FaultyRedis(fsync="always").start()
    try:
        with ServerThread(redis_url=redis_server.url) as server:
            assert server.config.request_deadline == DEADLINE
            http = httpx.Client(base_url=server.http, timeout=60)
            game = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            gid, token, v0 = game["game"]["id"], game["seats"][0]["token"], game["game"]["version"]
            auth = {"Authorization": f"Bearer {token}"}
            calls = {"get": lambda: http.get(f"/v1/games/{gid}"),
                     "create": lambda: http.post("/v1/games", json=CREATE),
                     "move": lambda: http.post(f"/v1/games/{gid}/actions", json=MOVE, headers=auth)}
            answers = redis_server.calls_while_frozen(calls, FROZEN_FOR)
            for name, (r, took) in answers.items():
                assert r.status_code == 503, (name, r.status_code, round(took, 1), r.text)
                err = r.json()["error"]
                assert (err["code"], err["reason"]) == ("UNAVAILABLE", "SERVER_DEADLINE"), (name, err)
                assert "TABLERO_REQUEST_DEADLINE" in err["message"] and "requestId" in err["message"], err
                assert DEADLINE - 0.5 < took < DEADLINE + 2, (name, round(took, 2))
            # Redis answers again: the retries land, each exactly once, whatever the first attempts did.
            first = http.post("/v1/games", json=CREATE)
            assert first.status_code == 200, first.text
            again = http.post("/v1/games", json=CREATE)
            assert again.json()["game"]["id"] == first.json()["game"]["id"]
            assert again.json()["seats"] == first.json()["seats"]
            moved = http.post(f"/v1/games/{gid}/actions", json=MOVE, headers=auth)
            assert moved.status_code == 200 and moved.json()["version"] == v0 + 1, moved.text
            assert http.post(f"/v1/games/{gid}/actions", json=MOVE, headers=auth).json()["version"] == v0 + 1
            game = http.get(f"/v1/games/{gid}").json()
            assert game["version"] == v0 + 1 and game["toAct"] == [1], game
            assert len(http.get(f"/v1/games/{gid}/events").json()["events"]) == v0 + 1
    finally:
        redis_server.kill()
