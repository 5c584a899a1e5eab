"""What an operator reads, against real servers (an outside SRE pass):

- a client too slow to send its request (REST 408, header or body timeout) is logged in one
  line and counted as CLIENT_TIMEOUT / `tablero_http_client_timeouts_total`, never as
  DEADLINE_EXCEEDED, which the SLO rules count as the server's failure (it paged for slow
  mobile clients; a 408 from the header timeout left no line and no count);
- a failed call (5xx) is logged at warning, so `--log-level warning` keeps it (it was at info);
- every line names its process (`pid`) and, under `--workers N`, the worker (`worker`);
- `tablero bots` says that it stops on SIGTERM (it stopped without a word).
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time

from tests import plainhttp
from tests.redis_server import RedisServer
from tests.server.support import ROOT, ServerProcess, free_port


def _lines(err: str) -> list[dict]:
    return [json.loads(line) for line in err.splitlines() if line.startswith("{")]


def _requests(err: str) -> list[dict]:
    return [line for line in _lines(err) if line.get("msg") == "request"]


def _sample(metrics: str, name: str, **labels: str) -> float:
    """One series' value in an exposition (0 when absent)."""
    for line in metrics.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def _send_then_wait(server: ServerProcess, data: bytes, wait: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", server.http_port)) as s:
        s.sendall(data)
        s.settimeout(wait)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def test_a_slow_body_is_the_clients_timeout_logged_and_counted_not_deadline_exceeded():
    server = ServerProcess({"TABLERO_BODY_TIMEOUT": "1", "TABLERO_LOG_LEVEL": "info"}).start()
    try:
        out = _send_then_wait(server, b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                      b"Content-Length: 50\r\n\r\n{\"engine\":")
        assert out.startswith(b"HTTP/1.1 408") and b"DEADLINE_EXCEEDED" in out and b"REQUEST_TIMEOUT" in out, out
        metrics = plainhttp.get(server.metrics, timeout=10).text
    finally:
        _, err = server.terminate()
    assert _sample(metrics, "tablero_rpc_requests_total", code="CLIENT_TIMEOUT", method="CreateGame",
                   transport="http") == 1, metrics
    assert _sample(metrics, "tablero_rpc_requests_total", code="DEADLINE_EXCEEDED") == 0
    assert _sample(metrics, "tablero_http_client_timeouts_total", phase="body") == 1
    [line] = [r for r in _requests(err) if r.get("rpc") == "CreateGame"]
    assert (line["code"], line["status"], line["level"]) == ("CLIENT_TIMEOUT", 408, "info"), line


def test_slow_headers_are_logged_and_counted_as_the_clients_timeout():
    server = ServerProcess({"TABLERO_HEADER_TIMEOUT": "1", "TABLERO_LOG_LEVEL": "info"}).start()
    try:
        out = _send_then_wait(server, b"POST /v1/games?access_token=secret HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert out.startswith(b"HTTP/1.1 408"), out
        # a connection that never sent a byte is closed without an answer: no request, no line
        with socket.create_connection(("127.0.0.1", server.http_port)) as s:
            s.settimeout(10)
            assert s.recv(100) == b""
        time.sleep(0.2)
        metrics = plainhttp.get(server.metrics, timeout=10).text
    finally:
        _, err = server.terminate()
    assert _sample(metrics, "tablero_http_client_timeouts_total", phase="headers") == 1, metrics
    timeouts = [r for r in _requests(err) if r.get("status") == 408]
    assert len(timeouts) == 1, err
    line = timeouts[0]
    assert (line["code"], line["level"], line["method"], line["path"]) == ("CLIENT_TIMEOUT", "info", "POST",
                                                                          "/v1/games"), line
    assert "secret" not in json.dumps(line) and line["timeout"] == "headers"


def test_a_failed_call_is_logged_at_warning_and_a_clients_error_at_info():
    with RedisServer() as redis:
        server = ServerProcess({"TABLERO_REDIS_URL": redis.url, "TABLERO_LOG_LEVEL": "warning",
                                "TABLERO_STORE_RETRIES": "0", "TABLERO_BOT_PROCESSES": "0",
                                "TABLERO_NOTIFY_WORKER": "inline"}).start()
        try:
            assert plainhttp.get(f"{server.http}/v1/games/nope", timeout=10).status_code == 404
            redis.stop()
            r = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe"},
                               headers={"X-Request-Id": "outage-1"}, timeout=30)
            assert r.status_code == 503, r.text
        finally:
            _, err = server.terminate()
    lines = _requests(err)
    failed = [r for r in lines if r.get("x_request_id") == "outage-1"]
    assert len(failed) == 1, err
    assert (failed[0]["level"], failed[0]["code"], failed[0]["status"]) == ("warning", "UNAVAILABLE", 503)
    assert not [r for r in lines if r.get("status") == 404], "a client's 404 is at info, below --log-level warning"


def test_every_line_names_its_process_and_worker():
    with RedisServer() as redis:
        server = ServerProcess({"TABLERO_REDIS_URL": redis.url, "TABLERO_LOG_LEVEL": "info",
                                "TABLERO_WORKERS": "2", "TABLERO_BOT_PROCESSES": "0",
                                "TABLERO_NOTIFY_WORKER": "inline"}).start()
        try:
            for _ in range(6):
                plainhttp.get(f"{server.http}/healthz", timeout=10)
        finally:
            _, err = server.terminate()
    lines = _lines(err)
    assert lines and all(isinstance(line.get("pid"), int) for line in lines), err
    supervisor = [line for line in lines if line["msg"] == "workers started"]
    assert len(supervisor) == 1 and "worker" not in supervisor[0]
    # the supervisor says it stops, on which signal, and that its workers have (an outside pass:
    # it logged nothing on SIGTERM, its workers alone did)
    stops = [line for line in lines if line["msg"] in ("workers stopping", "workers stopped")]
    assert [line["msg"] for line in stops] == ["workers stopping", "workers stopped"], stops
    assert stops[0]["signal"] == "SIGTERM" and all(line["pid"] == supervisor[0]["pid"] for line in stops)
    served = [line for line in lines if line["msg"] == "request"]
    assert served and all(line["worker"] in (0, 1) and line["pid"] != supervisor[0]["pid"] for line in served)
    assert {line["pid"] for line in lines if line.get("worker") == 0}.isdisjoint(
        {line["pid"] for line in lines if line.get("worker") == 1})


def test_the_bot_worker_logs_that_it_stops_on_sigterm(tmp_path):
    db = tmp_path / "games.db"
    with ServerProcess({"TABLERO_DB": str(db), "TABLERO_BOT_PROCESSES": "0"}):
        port = free_port()
        worker = subprocess.Popen([sys.executable, "-m", "tablero.server", "bots", "--db", str(db),
                                   "--metrics-port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    if plainhttp.get(f"http://127.0.0.1:{port}/metrics", timeout=1).status_code == 200:
                        break
                except Exception:  # noqa: BLE001 - not listening yet
                    time.sleep(0.1)
            time.sleep(0.5)
            worker.send_signal(signal.SIGTERM)
            _, err = worker.communicate(timeout=30)
        finally:
            if worker.poll() is None:
                worker.kill()
    assert worker.returncode == 0, err
    msgs = [(line["msg"], line.get("signal")) for line in _lines(err)]
    assert ("bot worker stopping", "SIGTERM") in msgs and ("bot worker stopped", None) in msgs, err
    assert re.search(r'"pid":\d+', err)
