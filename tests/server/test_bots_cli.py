"""`tablero bots` refuses a --metrics-port it cannot serve in one line, before it starts (it
ended in a traceback from prometheus_client's bind after the store was opened), and a --db file
that does not exist (it made an empty database there and waited on its queue for ever)."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.server.support import ROOT


def _bots(tmp_path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "games.db").touch()  # the server's file (an empty one is a new database)
    return subprocess.run([sys.executable, "-m", "tablero.server", "bots", "--db", str(tmp_path / "games.db"), *args],
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=60)


def test_a_metrics_port_another_process_holds_is_said_in_one_line(tmp_path):
    with socket.socket() as held:
        held.bind(("0.0.0.0", 0))
        held.listen()
        port = held.getsockname()[1]
        r = _bots(tmp_path, "--metrics-port", str(port))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr == (f"tablero bots: cannot listen on port {port} for /metrics (Address already in use); "
                        "another process may hold it: choose another with --metrics-port\n")


def test_a_metrics_port_out_of_range_is_a_usage_error(tmp_path):
    r = _bots(tmp_path, "--metrics-port", "70000")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "--metrics-port must be a port number from 0 to 65535, not 70000" in r.stderr


def test_a_db_file_that_does_not_exist_is_refused(tmp_path):
    missing = tmp_path / "typo.db"
    r = subprocess.run([sys.executable, "-m", "tablero.server", "bots", "--db", str(missing)], cwd=ROOT,
                       env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and f"no SQLite file {str(missing)!r}" in r.stderr, r.stderr
    assert not missing.exists()
