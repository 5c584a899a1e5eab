"""Thinking bots run in processes of their own (issue 34 item 3): `tablero bots` workers beside
`tablero serve` on a shared SQLite file, a worker killed mid-game loses its turn (after the lease)
to another worker, and the default `tablero serve` thinks on a child process pool."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest
from tablero.server.app.thinkers import BOT_ONLY_LANE

from tests import plainhttp
from tests.server.support import ROOT, ServerProcess, scrape

pytestmark = pytest.mark.slow


def _version(server, gid) -> int:
    return plainhttp.get(f"{server.http}/v1/games/{gid}", timeout=5).json()["version"]


def _wait(cond, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def _bots(db: str) -> subprocess.Popen:
    env = {**os.environ, "TABLERO_SECRET": "test-secret", "TABLERO_BOT_LEASE": "2"}
    return subprocess.Popen([sys.executable, "-m", "tablero.server", "bots", "--db", db], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def test_bot_workers_take_turns_from_the_queue_and_a_dead_ones_turn_goes_to_another(tmp_path):
    db = str(tmp_path / "games.sqlite")
    env = {"TABLERO_DB": db, "TABLERO_BOT_PROCESSES": "0", "TABLERO_BOT_LEASE": "2"}
    with ServerProcess(env) as server:
        created = plainhttp.post(f"{server.http}/v1/games", json={
            "engine": "riverboat", "seatSpecs": [{"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "medium"}],
            "clock": {"moveSeconds": 1}},  # half a second per thought at most, however busy the machine
            timeout=10).json()
        gid = created["game"]["id"]
        start = created["game"]["version"]
        time.sleep(1.0)
        assert _version(server, gid) == start  # nobody thinks in the serving process
        first = _bots(db)
        try:
            _wait(lambda: _version(server, gid) > start + 2)
        finally:
            first.kill()  # mid-game, likely mid-thought
            first.communicate(timeout=10)
        stopped = _version(server, gid)
        time.sleep(0.5)
        assert _version(server, gid) <= stopped + 1  # at most the commit in flight landed
        second = _bots(db)
        try:
            _wait(lambda: _version(server, gid) > stopped + 2)
        finally:
            second.terminate()
            _, err = second.communicate(timeout=20)
        assert second.returncode == 0, err


def test_serve_thinks_on_a_pool_of_child_processes():
    with ServerProcess({"TABLERO_BOT_PROCESSES": "1", "TABLERO_BOT_NICE": "0"}) as server:
        time.sleep(1.0)
        assert not _children(server.proc.pid), "the pool started before any bot had to think"
        created = plainhttp.post(f"{server.http}/v1/games", json={
            "engine": "tic-tac-toe", "seats": ["human", "bot:hard"], "clock": {"moveSeconds": 1}}, timeout=10).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        plainhttp.post(f"{server.http}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"action": {"type": "place", "cell": 4}}, timeout=10).raise_for_status()
        _wait(lambda: _version(server, gid) == 3)
        assert _children(server.proc.pid), "the thought ran without a child process"
        metrics = scrape(server.http)
        assert "tablero_bot_queue_depth" in metrics


def test_a_sigterm_to_the_whole_process_group_stops_serve_and_its_pool():
    """`timeout`, systemd and many supervisors signal the whole process group: the pool's
    processes die with the server's own SIGTERM, and the server must still drain and exit (an
    outside tester saw it hang for good after "Finished server process")."""
    import signal

    from tests.redis_server import _free_port

    http = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--host", "127.0.0.1",
                             "--http-port", str(http), "--grpc-port", "0", "--metrics-port", "0"],
                            env={**os.environ, "TABLERO_BOT_PROCESSES": "1", "TABLERO_LOG_LEVEL": "warning"},
                            cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait(lambda: _ready(http), timeout=60)
        # The pool starts with the first thought: a hard bot moves first.
        plainhttp.post(f"http://127.0.0.1:{http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["bot:hard", "human"]},
                       timeout=10).raise_for_status()
        _wait(lambda: subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True).stdout.strip() != b"",
              timeout=60)  # the pool's process is up
        os.killpg(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _children(pid: int) -> list[str]:
    return subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()


def _ready(port: int) -> bool:
    try:
        return plainhttp.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_a_pool_process_killed_while_idle_does_not_stop_the_bots():
    """An outside acceptance pass: `kill -9` of the pool's process while it waited for a task
    (an OOM kill does the same) left the pool's queue lock held, and medium and hard bots never
    moved again on that server. The next thought now finds the pool short of a process and
    starts it again; the lease (60 s here) is not what saves the turn."""
    import signal

    with ServerProcess({"TABLERO_BOT_PROCESSES": "1", "TABLERO_BOT_NICE": "0", "TABLERO_BOT_LEASE": "60"}) as server:
        def bot_game() -> str:
            return plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["bot:hard", "human"]},
                                  timeout=10).json()["game"]["id"]

        first = bot_game()
        _wait(lambda: _version(server, first) >= 2, timeout=60)  # the pool is up and has thought
        pool = [p for p in _children(server.proc.pid)
                if "multiprocessing.spawn" in open(f"/proc/{p}/cmdline").read().replace("\0", " ")]
        assert len(pool) == 1, pool
        os.kill(int(pool[0]), signal.SIGKILL)
        time.sleep(1.0)  # the pool has started its replacement, which finds the queue's lock held
        second = bot_game()
        started = time.monotonic()
        _wait(lambda: _version(server, second) >= 2, timeout=40)
        assert time.monotonic() - started < 40


def test_serve_without_a_pool_on_the_in_memory_store_says_its_thinking_bots_will_never_move(tmp_path):
    """TABLERO_BOT_PROCESSES=0 leaves thinking to `tablero bots` workers, which need the store's queue:
    with the in-memory store none can reach it, and a hard bot's game waited for ever, silently."""
    with ServerProcess({"TABLERO_BOT_PROCESSES": "0", "TABLERO_LOG_LEVEL": "warning"}) as server:
        _code, err = server.terminate()
    assert "TABLERO_BOT_PROCESSES=0 with the in-memory store" in err and "never move" in err, err
    with ServerProcess({"TABLERO_BOT_PROCESSES": "0", "TABLERO_LOG_LEVEL": "warning"}, "--db", ":memory:") as server:
        _code, err = server.terminate()
    assert "never move" in err, err
    with ServerProcess({"TABLERO_BOT_PROCESSES": "0", "TABLERO_LOG_LEVEL": "warning",
                        "TABLERO_DB": str(tmp_path / "games.db")}) as server:  # workers can share the file
        _code, err = server.terminate()
    assert "never move" not in err, err


def test_a_bot_worker_stopped_mid_game_hands_its_turn_back_at_once(tmp_path):
    """A SIGTERM (a rollout or a scale-down of the bot workers) mid-thought left the turn leased
    to the stopped worker: its game stood still for TABLERO_BOT_LEASE seconds (20 by default)
    before another worker could take it. The stopping worker now makes the turn due again."""
    import sqlite3

    db = str(tmp_path / "games.sqlite")
    with ServerProcess({"TABLERO_DB": db, "TABLERO_BOT_PROCESSES": "0"}) as server:
        created = plainhttp.post(f"{server.http}/v1/games", json={
            "engine": "new-bedford", "seatSpecs": [{"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "hard"}]},
            timeout=10).json()
        gid, start = created["game"]["id"], created["game"]["version"]
        env = {**os.environ, "TABLERO_SECRET": "test-secret", "TABLERO_BOT_LEASE": "60"}
        worker = subprocess.Popen([sys.executable, "-m", "tablero.server", "bots", "--db", db], env=env, cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _wait(lambda: _version(server, gid) > start + 3)  # thinking, turn after turn
        finally:
            worker.terminate()
            _, err = worker.communicate(timeout=30)
        assert worker.returncode == 0, err
        with sqlite3.connect(db) as conn:
            (ready,) = conn.execute("SELECT ready FROM bot_queue WHERE game_id = ?", (gid,)).fetchone()
        # A bot-only game: handed back in its own lane (scored BOT_ONLY_LANE past its time).
        assert ready >= BOT_ONLY_LANE, "handed back as a person's turn"
        ready -= BOT_ONLY_LANE
        assert ready <= time.time(), f"the turn is leased for {ready - time.time():.1f} s more"  # (before: ~60)


def test_a_bot_move_its_replicas_do_not_confirm_is_due_again_at_once_and_logged_in_one_line(fresh_redis_url):
    """TABLERO_REDIS_MIN_REPLICAS_ACK with no replica to confirm: each bot move is written and
    answered NOT_REPLICATED. The worker said so with an ERROR and a traceback and left the turn
    leased for TABLERO_BOT_LEASE (20 s) a move (an operator's pass); now one warning line and the
    turn is due again after a second (the game moved on: the next move is the next bot's)."""
    plain = {"TABLERO_REDIS_URL": fresh_redis_url, "TABLERO_BOT_PROCESSES": "0"}
    acked = {**plain, "TABLERO_REDIS_MIN_REPLICAS_ACK": "1", "TABLERO_REDIS_REPLICAS_ACK_TIMEOUT": "0.05",
             "TABLERO_BOT_PROCESSES": "1", "TABLERO_BOT_NICE": "0"}
    with ServerProcess(plain) as front:  # creates the game (its writes need no replica)
        created = plainhttp.post(f"{front.http}/v1/games", json={
            "engine": "tic-tac-toe", "seatSpecs": [{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "medium"}]},
            timeout=10).json()
        gid = created["game"]["id"]
        start = created["game"]["version"]
        worker = ServerProcess(acked).start()  # the only one that thinks
        try:
            _wait(lambda: _version(front, gid) >= start + 4, timeout=15)  # 20 s a move before
        finally:
            _, err = worker.terminate()
    assert "bot turn not completed" in err and "NOT_REPLICATED" in err, err[-2000:]
    assert "Traceback" not in err and "thinking bot turn failed" not in err, err[-2000:]
