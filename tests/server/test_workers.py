"""`tablero serve --workers 2` on a real Redis: two processes share the HTTP and gRPC ports
(SO_REUSEPORT), play one game between them, /metrics sums the workers, SIGTERM stops all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from tests import plainhttp
from tests.redis_server import _free_port


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def test_two_workers_share_the_ports_and_stop_together(redis_url):
    http, grpc, mport = _free_port(), _free_port(), _free_port()
    env = dict(os.environ, TABLERO_LOG_LEVEL="warning", TABLERO_SHUTDOWN_GRACE="2")
    proc = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--workers", "2", "--redis-url", redis_url,
                             "--host", "127.0.0.1", "--http-port", str(http), "--grpc-port", str(grpc),
                             "--metrics-port", str(mport)], env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if plainhttp.get(f"http://127.0.0.1:{http}/readyz", timeout=1).status_code == 200 and \
                        len(_children(proc.pid)) == 2:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "workers did not start"
            time.sleep(0.2)
        workers = _children(proc.pid)
        assert len(workers) == 2
        # Fresh connections spread over both workers; a game played across them stays exact.
        created = plainhttp.post(f"http://127.0.0.1:{http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        for i, cell in enumerate([0, 3, 1, 4, 2]):
            with httpx.Client(base_url=f"http://127.0.0.1:{http}") as c:  # a new connection each move
                r = c.post(f"/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                           headers={"authorization": f"Bearer {tokens[i % 2]}"})
                assert r.status_code == 200, r.text
        final = plainhttp.get(f"http://127.0.0.1:{http}/v1/games/{gid}").json()
        assert final["status"] == "GAME_STATUS_FINISHED"
        # The sum over both workers, from either (each publishes its counts once a second).
        deadline = time.monotonic() + 5
        while True:
            metrics = plainhttp.get(f"http://127.0.0.1:{mport}/metrics").text
            assert "tablero_actions_total" in metrics
            ok = [line for line in metrics.splitlines()
                  if line.startswith("tablero_actions_total") and 'result="ok"' in line]
            if (ok and float(ok[0].rsplit(" ", 1)[1]) == 5.0) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert ok and float(ok[0].rsplit(" ", 1)[1]) == 5.0
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    assert all(subprocess.run(["ps", "-p", str(w)], capture_output=True).returncode != 0 for w in workers)


def test_more_than_one_worker_is_refused_on_the_in_memory_store():
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--workers", "2"], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 2 and "more than one worker needs a shared store" in r.stderr


def test_workers_metrics_merge_counts_of_all_and_gauges_of_the_live(tmp_path):
    """Under --workers each process counts in its own registry and publishes it to the shared
    directory; a scrape merges: counters and histograms summed over every worker (a dead one's
    too), gauges over the live ones (summed, or their maximum for GAUGE_MAX)."""
    code = """
import os, sys
from pathlib import Path
from tablero.server import metrics, metrics_workers
where = Path(sys.argv[1])
metrics.CONFLICTS.inc(int(sys.argv[2]))
metrics.WATCH_STREAMS.set(int(sys.argv[2]))
metrics.BOT_QUEUE_DEPTH.set(7)
metrics.child(metrics.STORE_LATENCY, "append").observe(0.003)
if sys.argv[3] == "publish":
    metrics_workers.publish(where)
    print(os.getpid())
else:
    print(metrics.exposition()[0].decode())
"""

    def run(*args: str) -> str:
        return subprocess.run([sys.executable, "-c", code, str(tmp_path), *args], capture_output=True, text=True,
                              timeout=60, env=dict(os.environ, TABLERO_METRICS_DIR=str(tmp_path)), check=True).stdout

    live, dead = int(run("2", "publish")), int(run("5", "publish"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"{live}.prom", f"{dead}.prom"])
    from tablero.server import metrics_workers

    metrics_workers.retire(tmp_path, dead)
    out = run("10", "scrape")  # a third worker scrapes: its own registry and both files

    def value(name: str, labels: str = "") -> float:
        (line,) = [x for x in out.splitlines() if x.startswith(name + labels + " ")]
        return float(line.rsplit(" ", 1)[1])

    assert value("tablero_append_conflicts_total") == 17.0  # 10 + 2 + 5: the dead worker's count stays
    assert value("tablero_watch_streams") == 12.0  # 10 + 2: the dead worker's gauge left
    assert value("tablero_bot_queue_depth") == 7.0  # the maximum, not 14
    assert value("tablero_store_latency_seconds_count", '{op="append"}') == 3.0
    assert value("tablero_store_latency_seconds_bucket", '{le="0.005",op="append"}') == 3.0
    assert out.count("# TYPE tablero_append_conflicts_total counter") == 1
    assert value("process_start_time_seconds") < 4e9  # the scraping worker's own, not a sum of three
    (info,) = [x for x in out.splitlines() if x.startswith("python_info{")]
    assert float(info.rsplit(" ", 1)[1]) == 1.0


def _gauge(mport: int, name: str) -> float:
    for line in plainhttp.get(f"http://127.0.0.1:{mport}/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def test_a_dead_workers_open_streams_leave_the_gauge(redis_url):
    """SIGKILL a worker that holds SSE watches: the supervisor restarts it and drops its live
    gauges, so tablero_watch_streams counts only the streams still open."""
    import socket

    http, grpc, mport = _free_port(), _free_port(), _free_port()
    env = dict(os.environ, TABLERO_LOG_LEVEL="warning", TABLERO_SHUTDOWN_GRACE="2")
    proc = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--workers", "2", "--redis-url", redis_url,
                             "--host", "127.0.0.1", "--http-port", str(http), "--grpc-port", str(grpc),
                             "--metrics-port", str(mport)], env=env)
    socks: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 30
        while len(_children(proc.pid)) != 2 or not _ready(http):
            assert time.monotonic() < deadline and proc.poll() is None, "workers did not start"
            time.sleep(0.2)
        gid = plainhttp.post(f"http://127.0.0.1:{http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}
                         ).json()["game"]["id"]
        owners: dict[int, int] = {}
        while len(socks) < 40 and len(owners) < 2:  # watches on both workers
            s = socket.create_connection(("127.0.0.1", http))
            s.sendall(f"GET /v1/games/{gid}/watch HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
            got = b""
            while b": watching" not in got:
                got += s.recv(4096)
            socks.append(s)
            out = subprocess.run(["ss", "-Htnp", "state", "established", f"( sport = :{http} )"],
                                 capture_output=True, text=True).stdout
            owners = {}
            for line in out.splitlines():
                if "pid=" in line:
                    pid = int(line.split("pid=")[1].split(",")[0])
                    owners[pid] = owners.get(pid, 0) + 1
        assert len(owners) == 2, owners
        deadline = time.monotonic() + 5
        while _gauge(mport, "tablero_watch_streams") != len(socks):
            assert time.monotonic() < deadline, _gauge(mport, "tablero_watch_streams")
            time.sleep(0.05)
        victim = next(iter(owners))
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while len(_children(proc.pid)) != 2 or victim in _children(proc.pid) or not _ready(http):
            assert time.monotonic() < deadline, "the worker was not restarted"
            time.sleep(0.2)
        for s in socks:
            s.close()
        deadline = time.monotonic() + 10
        while _gauge(mport, "tablero_watch_streams") != 0:
            assert time.monotonic() < deadline, f"streams still counted: {_gauge(mport, 'tablero_watch_streams')}"
            time.sleep(0.1)
    finally:
        for s in socks:
            s.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def _ready(http: int) -> bool:
    try:
        return plainhttp.get(f"http://127.0.0.1:{http}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_a_second_pod_of_workers_on_taken_ports_is_refused_and_workers_die_with_their_supervisor(redis_url):
    """Workers bind with SO_REUSEPORT: a second `serve --workers 2` on the same ports would share
    them (and half the traffic) instead of failing, so the supervisor checks the ports first.
    A supervisor killed outright takes its workers with it (no orphans serving the ports)."""
    http, grpc, mport = _free_port(), _free_port(), _free_port()
    args = [sys.executable, "-m", "tablero.server", "serve", "--workers", "2", "--redis-url", redis_url,
            "--host", "127.0.0.1", "--http-port", str(http), "--grpc-port", str(grpc), "--metrics-port", str(mport)]
    env = dict(os.environ, TABLERO_LOG_LEVEL="warning", TABLERO_SHUTDOWN_GRACE="2")
    proc = subprocess.Popen(args, env=env)
    try:
        deadline = time.monotonic() + 30
        while len(_children(proc.pid)) != 2 or not _ready(http):
            assert time.monotonic() < deadline and proc.poll() is None, "workers did not start"
            time.sleep(0.2)
        second = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1 and f"cannot listen on 127.0.0.1:{http} for HTTP" in second.stderr
        workers = _children(proc.pid)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 30
        while any(subprocess.run(["ps", "-p", str(w)], capture_output=True).returncode == 0 for w in workers):
            assert time.monotonic() < deadline, "workers outlived their supervisor"
            time.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
