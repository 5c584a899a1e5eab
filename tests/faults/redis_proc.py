"""A real redis-server for fault injection: AOF on, restartable on the same port, killable,
pausable, with its AOF copyable and restorable (to roll it back past acknowledged writes).

    with FaultyRedis(fsync="always") as server:
        server.kill()            # SIGKILL
        server.start()           # same port, same data directory: replays the AOF
        copy = server.copy_aof()
        server.restore_aof(copy) # (stopped) the data directory as it was at the copy
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import redis

from tests.redis_server import _answers_ping, _free_port, redis_server_binary


class FaultyRedis:
    def __init__(self, *, fsync: str = "always", startup_timeout: float = 20.0) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary, self.fsync, self.startup_timeout = binary, fsync, startup_timeout
        self.dir = Path(tempfile.mkdtemp(prefix="tablero-faults-"))
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.copies: list[Path] = []
        self.running_fsync: str | None = None  # the appendfsync policy the running server has

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def aof_dir(self) -> Path:
        return self.dir / "appendonlydir"

    def start(self) -> FaultyRedis:
        log = open(self.dir / "redis.log", "ab")  # noqa: SIM115 - the process keeps it
        self.process = subprocess.Popen(
            [
                self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
                "--save", "", "--appendonly", "yes", "--appendfsync", self.fsync,
                "--aof-use-rdb-preamble", "no", "--auto-aof-rewrite-percentage", "0", "--daemonize", "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + self.startup_timeout
        while not _answers_ping(self.port):  # +PONG only once the AOF is loaded
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("redis-server did not start:\n" + (self.dir / "redis.log").read_text(errors="replace"))
            time.sleep(0.01)
        self.running_fsync = self.fsync
        return self

    def set_fsync(self, policy: str) -> None:
        """Change the running server's appendfsync policy (CONFIG SET), as an operator would."""
        client = redis.Redis(port=self.port)
        try:
            client.config_set("appendfsync", policy)
        finally:
            client.close()
        self.running_fsync = policy

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            if sig == signal.SIGKILL:
                self.process.send_signal(signal.SIGCONT)  # a paused server dies as well
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None

    def pause(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def calls_while_frozen(self, calls: dict, seconds: float) -> dict:
        """Each of `calls` (name -> function) started at once while the server is frozen
        (SIGSTOP) for `seconds`, then resumed: name -> (its result, the seconds it took)."""

        def timed(call):
            t = time.monotonic()
            r = call()
            return r, time.monotonic() - t

        self.pause()
        try:
            with ThreadPoolExecutor(len(calls)) as pool:
                futures = {name: pool.submit(timed, call) for name, call in calls.items()}
                time.sleep(seconds)
                self.resume()
                return {name: f.result() for name, f in futures.items()}
        finally:
            self.resume()

    def copy_aof(self) -> Path:
        """A copy of the AOF as it is on disk now (what a crash right now would leave)."""
        target = Path(tempfile.mkdtemp(prefix="aof-copy-", dir=self.dir)) / "appendonlydir"
        shutil.copytree(self.aof_dir, target)
        self.copies.append(target)
        return target

    def restore_aof(self, copy: Path) -> None:
        assert self.process is None, "stop the server first"
        shutil.rmtree(self.aof_dir)
        shutil.copytree(copy, self.aof_dir)

    def stop(self) -> None:
        self.kill(signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> FaultyRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
