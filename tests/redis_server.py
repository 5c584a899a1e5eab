"""A throwaway redis-server for tests and benchmarks (never the machine's Redis on 6379).

    with RedisServer() as server:
        url = server.url            # redis://127.0.0.1:PORT/0
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

DEFAULT_PORT = 6379  # the machine's own Redis: never started on, never talked to


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


def _free_port() -> int:
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port != DEFAULT_PORT:
            return port


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """Start `redis-server` on a free port with no persistence, in a temp dir; stop() kills it."""

    def __init__(self, *, startup_timeout: float = 10.0) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary = binary
        self.startup_timeout = startup_timeout
        self.port = 0
        self.dir: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.dir = Path(tempfile.mkdtemp(prefix="tablero-redis-"))
        for _attempt in range(5):  # another process may grab the free port before redis binds it
            self.port = _free_port()
            log = open(self.dir / "redis.log", "wb")  # noqa: SIM115 - closed with the process below
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port", str(self.port),
                    "--bind", "127.0.0.1",
                    "--save", "",
                    "--appendonly", "no",
                    "--dir", str(self.dir),
                    "--daemonize", "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            log.close()
            deadline = time.monotonic() + self.startup_timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                if _answers_ping(self.port):
                    return self
                time.sleep(0.02)
            self._kill()
        log_text = (self.dir / "redis.log").read_text(errors="replace")
        self.stop()
        raise RuntimeError(f"redis-server did not start:\n{log_text}")

    def _kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def stop(self) -> None:
        self._kill()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
