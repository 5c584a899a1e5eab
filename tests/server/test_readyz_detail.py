"""/readyz during a store outage says why: a Redis that stops answering (a paused or
partitioned node) is `no answer within 2 s`, not `store unreachable: ` with nothing after it
(the timeout's text is empty); a refused connection keeps its own text."""

import os
import signal

from tests import plainhttp
from tests.redis_server import RedisServer
from tests.server.support import ServerProcess


def test_readyz_names_why_the_store_is_unreachable():
    with RedisServer() as redis, ServerProcess({"TABLERO_REDIS_URL": redis.url}) as server:
        os.kill(redis.process.pid, signal.SIGSTOP)  # the node stops answering, its port stays open
        try:
            r = plainhttp.get(server.http + "/readyz", timeout=20)
        finally:
            os.kill(redis.process.pid, signal.SIGCONT)
        assert r.status_code == 503 and r.json()["status"] == "store unreachable: no answer within 2 s", r.text
        redis.stop()
        r = plainhttp.get(server.http + "/readyz", timeout=20)
        status = r.json()["status"]
        assert r.status_code == 503 and status.startswith("store unreachable: "), r.text
        assert status.removeprefix("store unreachable: ").strip(), r.text
