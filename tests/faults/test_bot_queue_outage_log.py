"""A bot worker whose Redis is away (outside operator pass): it logged "bot queue unavailable" once
a second from each of its loops, for as long as the outage lasted (a flood from every server and
every `tablero bots` process). Now: one line when the outage starts, one a minute while it lasts,
and "bot queue works again" with its length when it is over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from tests import plainhttp
from tests.faults.redis_proc import FaultyRedis
from tests.server.support import ROOT, ServerProcess


def _until(done, timeout: float) -> None:
    """Waits until done() (what the test then checks is said), polling, at most `timeout` s."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        time.sleep(0.2)


def test_a_redis_outage_is_three_lines_not_one_a_second() -> None:
    with FaultyRedis(fsync="always") as redis_server, tempfile.TemporaryFile() as err:
        bots = subprocess.Popen([sys.executable, "-m", "tablero.server", "bots", "--redis-url", redis_server.url,
                                 "--concurrency", "2"], cwd=ROOT, env={**os.environ, "TABLERO_SECRET": "test-secret"},
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + 60  # running, on an empty queue (a loaded machine is slow to start it)
            while b"bot worker running" not in (err.seek(0) or err.read()) and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1)
            redis_server.kill()
            time.sleep(6)
            redis_server.start()
            _until(lambda: (err.seek(0) or err.read()).count(b"bot queue works again") >= 2, 10)
        finally:
            bots.send_signal(signal.SIGTERM)
            bots.wait(timeout=20)
        err.seek(0)
        lines = [json.loads(line) for line in err.read().decode().splitlines() if line.startswith("{")]
    said = [e["msg"] for e in lines if e["msg"].startswith("bot queue")]
    # Two loops (--concurrency 2): each says when its outage starts and when it is over.
    assert said.count("bot queue unavailable") == 2, said
    assert said.count("bot queue works again") == 2, said
    assert len(said) == 4, said
    over = [e for e in lines if e["msg"] == "bot queue works again"]
    assert all(4 <= e["failed_for_s"] <= 12 for e in over), over


def test_a_servers_background_loops_say_an_outage_once_not_every_round() -> None:
    """The same for `tablero serve`: its bot queue (every second), matchmaking rounds (every ~2.5 s)
    and ratings sweep (every 5 s) each logged every round of a Redis outage."""
    with FaultyRedis(fsync="always") as redis_server:
        server = ServerProcess({"TABLERO_REDIS_URL": redis_server.url}).start()
        try:
            redis_server.kill()
            time.sleep(12)
            redis_server.start()
            backs = ("bot queue works again", "matching rounds work again", "ratings sweep works again")
            _until(lambda: all(b in server.stderr() for b in backs), 20)  # the sweep's round is 5 s
        finally:
            code, log = server.terminate()
            server.kill()
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    said = [e["msg"] for e in lines]
    for failed, back in (("bot queue unavailable", "bot queue works again"),
                         ("matching round failed", "matching rounds work again"),
                         ("ratings sweep failed", "ratings sweep works again")):
        assert said.count(failed) == 1 and said.count(back) == 1, (failed, [m for m in said if m[:8] == failed[:8]])


def test_the_notification_workers_loops_say_an_outage_once_not_every_round() -> None:
    """The notification worker (webhooks configured) logged "notification derivation failed" and
    "notification claim failed" about once a second each, and "notification sweep failed" every
    5 s, for as long as Redis was away (outside operator pass: 130 lines a minute per replica)."""
    hooks = json.dumps([{"url": "http://127.0.0.1:9/hooks", "secret": "whsec_" + "A" * 32}])
    with FaultyRedis(fsync="always") as redis_server:
        server = ServerProcess({"TABLERO_REDIS_URL": redis_server.url, "TABLERO_WEBHOOKS": hooks,
                                "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1"}).start()
        try:
            # The worker process is up once it has tried a delivery (refused: nothing listens there).
            plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe"}, timeout=10).raise_for_status()
            deadline = time.monotonic() + 60
            while "failed (retried" not in server.stderr() and time.monotonic() < deadline:
                time.sleep(0.2)
            redis_server.kill()
            time.sleep(12)
            redis_server.start()
            backs = ("notification derivation works again", "notification claims work again",
                     "notification sweep works again")
            _until(lambda: all(b in server.stderr() for b in backs), 20)
            log = server.stderr()  # (what the stopping worker says as its store closes is not the outage's)
        finally:
            server.terminate()
            server.kill()
    said = [json.loads(line)["msg"] for line in log.splitlines() if line.startswith("{")]
    for failed, back in (("notification derivation failed", "notification derivation works again"),
                         ("notification claim failed", "notification claims work again"),
                         ("notification sweep failed", "notification sweep works again")):
        assert said.count(failed) == 1 and said.count(back) == 1, (failed, [m for m in said if m[:15] == failed[:15]])
