"""SIGTERM while a REST call waits on a frozen Redis for longer than TABLERO_SHUTDOWN_GRACE
(outside operator pass): uvicorn cancels what still runs when the grace is over, and the call was
answered `500 Internal Server Error` (plain text), logged at error level with a traceback
("Exception in ASGI application") and counted as code INTERNAL, which the error-budget alerts
count and whose runbook says "a defect: roll back". It is the stop the operator asked for: the
call is answered 503 UNAVAILABLE, reason SHUTTING_DOWN (clients retry it elsewhere, with its
requestId), and logged as such without a traceback."""

from __future__ import annotations

import json
import threading
import time

import httpx

from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ServerProcess

GRACE = 2


def test_a_call_still_running_when_the_grace_is_over_is_refused_503_not_500() -> None:
    with FaultyRedis(fsync="always") as redis_server, \
            ServerProcess({"TABLERO_REDIS_URL": redis_server.url, "TABLERO_SHUTDOWN_GRACE": str(GRACE),
                           "TABLERO_STORE_SOCKET_TIMEOUT": "30"}) as server:
        http = httpx.Client(base_url=server.http, timeout=60)
        created = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]})
        assert created.status_code == 200, created.text
        game = created.json()["game"]["id"]
        redis_server.pause()
        try:
            answers: list[httpx.Response] = []
            caller = threading.Thread(target=lambda: answers.append(
                http.post(f"/v1/games/{game}/join", json={"requestId": "join-request-000000000001"})))
            caller.start()
            time.sleep(1.0)  # the join waits on Redis
            code, log = server.terminate(timeout=GRACE + 15)
            caller.join(timeout=10)
        finally:
            redis_server.resume()
        assert code == 0, log
        (answer,) = answers
        assert answer.status_code == 503, (answer.status_code, answer.text)
        error = answer.json()["error"]
        assert (error["code"], error["reason"]) == ("UNAVAILABLE", "SHUTTING_DOWN"), error
        lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
        (joined,) = [e for e in lines if e.get("rpc") == "JoinGame"]
        assert (joined["code"], joined["status"]) == ("UNAVAILABLE", 503), joined
        assert not [e for e in lines if "Exception in ASGI application" in e["msg"] or "exc" in e], log
