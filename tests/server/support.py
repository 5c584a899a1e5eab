"""Real servers for the tests: in a thread of this process, or as `tablero serve` subprocesses."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import httpx
from tablero.server.config import Config
from tablero.server.runner import serve

from tests import plainhttp

ROOT = Path(__file__).resolve().parents[2]


METRICS: dict[str, str] = {}  # a test server's HTTP base URL -> its /metrics URL (own port)


def scrape(http: httpx.Client | str) -> str:
    """The /metrics text of the test server whose HTTP base URL (or client) is given."""
    base = http if isinstance(http, str) else str(http.base_url)
    return plainhttp.get(METRICS[base.rstrip("/")], timeout=10).text


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(n: int) -> list[int]:
    """`n` distinct free ports: each socket stays bound until all are picked (ports asked for one
    at a time can come back equal once the first socket is closed)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _listening_inodes(port: int) -> set[str]:
    """The inodes of the sockets listening on `port` (TCP, IPv4 and IPv6) in this namespace."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                    found.add(cols[9])
    return found


def _children(pids: set[int]) -> set[int]:
    """`pids` and every process descended from them."""
    parent: dict[int, int] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat") as f:
                parent[int(pid)] = int(f.read().rsplit(")", 1)[1].split()[1])
    found, grew = set(pids), True
    while grew:
        more = {p for p, pp in parent.items() if pp in found} - found
        found |= more
        grew = bool(more)
    return found


def holds_port(pid: int, port: int) -> bool:
    """Whether process `pid` or one of its descendants (a server's workers and pools) holds a
    socket listening on `port`. Under parallel tests, a port picked free can be taken by another
    test's server before this one binds it: that other server then answers /readyz, and a test
    talks to the wrong server (one without its settings)."""
    wanted = {f"socket:[{i}]" for i in _listening_inodes(port)}
    if not wanted:
        return False
    for p in _children({pid}):
        with contextlib.suppress(OSError):
            if any(os.readlink(f"/proc/{p}/fd/{fd}") in wanted for fd in os.listdir(f"/proc/{p}/fd")):
                return True
    return False


def small_bot_budgets(monkeypatch) -> None:
    """Medium and hard bots think briefly in a test (their budgets are engine data)."""
    from tablero.engines.core import search

    real = search.evaluation

    def small(engine):  # type: ignore[no-untyped-def]
        ev = real(engine)
        return search.Evaluation(ev.standing, search.Budget(medium_seconds=0.01, hard_seconds=0.05,
                                                            hard_candidates=3, rollout_plies=2))
    monkeypatch.setattr(search, "evaluation", small)


class ServerThread:
    """`serve()` in its own event loop on a background thread, on free ports."""

    def __init__(self, **overrides) -> None:
        self.config = Config(host="127.0.0.1", grpc_port=0, http_port=0, metrics_port=free_port(),
                             secret="test-secret", shutdown_grace=2.0)
        for k, v in overrides.items():
            setattr(self.config, k, v)
        self._started: Future = Future()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        self.stop_event = None

        async def main() -> None:
            self.stop_event = asyncio.Event()
            started = loop.create_future()
            task = asyncio.create_task(serve(self.config, started, self.stop_event, install_signals=False))
            done, _ = await asyncio.wait({started, task}, return_when=asyncio.FIRST_COMPLETED)
            if started in done:
                self._started.set_result(started.result())
            else:
                self._started.set_exception(task.exception() or RuntimeError("server did not start"))
            await task

        loop.run_until_complete(main())
        loop.close()

    def __enter__(self) -> ServerThread:
        self._thread.start()
        self.grpc_port, self.http_port = self._started.result(timeout=20)
        self.http = f"http://127.0.0.1:{self.http_port}"
        self.grpc = f"127.0.0.1:{self.grpc_port}"
        self.metrics = f"http://127.0.0.1:{self.config.metrics_port}/metrics"
        METRICS[self.http] = self.metrics
        return self

    def __exit__(self, *exc) -> None:
        self.loop.call_soon_threadsafe(self.stop_event.set)
        self._thread.join(timeout=20)


class ServerProcess:
    """`python -m tablero.server serve` as a child process (a replica)."""

    def __init__(self, env: dict[str, str] | None = None, *args: str) -> None:
        self.grpc_port, self.http_port, self.metrics_port = free_ports(3)
        self.env = {**os.environ, "TABLERO_SECRET": "test-secret", "TABLERO_SHUTDOWN_GRACE": "5",
                    "TABLERO_METRICS_PORT": str(self.metrics_port), **(env or {})}
        self.args = args
        self.prefix: list[str] = []  # a command the server runs under (e.g. unshare: tests/notify/test_push_dns.py)
        self.http = f"http://127.0.0.1:{self.http_port}"
        self.grpc = f"127.0.0.1:{self.grpc_port}"
        self.metrics = f"http://127.0.0.1:{self.metrics_port}/metrics"
        METRICS[self.http] = self.metrics
        self.proc: subprocess.Popen | None = None

    def start(self) -> ServerProcess:
        for attempt in range(3):
            try:
                return self._start()
            except RuntimeError as e:
                # A port picked free was taken meanwhile by another test's process (parallel runs):
                # the server said so and exited. Free ports again, and start again.
                if attempt == 2 or "cannot listen on" not in str(e):
                    raise
                self._new_ports()
        raise AssertionError("unreachable")

    def _new_ports(self) -> None:
        METRICS.pop(self.http, None)
        self.grpc_port, self.http_port, self.metrics_port = free_ports(3)
        self.env["TABLERO_METRICS_PORT"] = str(self.metrics_port)
        self.http = f"http://127.0.0.1:{self.http_port}"
        self.grpc = f"127.0.0.1:{self.grpc_port}"
        self.metrics = f"http://127.0.0.1:{self.metrics_port}/metrics"
        METRICS[self.http] = self.metrics

    def _start(self) -> ServerProcess:
        # Its log to a file: a pipe read only when the server stops fills up under load (64 KiB of
        # info lines) and stalls the server's writes, then the server.
        self.err = tempfile.TemporaryFile()  # noqa: SIM115 - the process writes it; closed when the test ends
        self.proc = subprocess.Popen(
            [*self.prefix, sys.executable, "-m", "tablero.server", "serve", "--host", "127.0.0.1",
             "--grpc-port", str(self.grpc_port), "--http-port", str(self.http_port), *self.args],
            env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.err,
            # Its own process group: kill() takes the bot pool with it, as a dead container would
            # (a pool process still importing when its server is SIGKILLed has not yet armed its
            # parent-death signal, and would hold the server's stderr pipe open for seconds).
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.stderr()}")
            try:
                r = plainhttp.get(self.http + "/readyz", timeout=0.5)
                # Its own answer: under parallel tests another process (another server's metrics
                # port) can take a free port picked here before this server binds it, answer 200,
                # and a test then talked to it while this server had exited on the busy port.
                if r.status_code == 200 and r.headers.get("content-type", "").startswith("application/json") \
                        and self.proc.poll() is None and self._owns_port():
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not become ready")

    def _owns_port(self) -> bool:
        """This server (or one of its processes) listens on its HTTP port: the /readyz that
        answered was its own."""
        assert self.proc is not None
        return holds_port(self.proc.pid, self.http_port)

    def stderr(self) -> str:
        """What the server has written to its stderr so far (its log)."""
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def terminate(self, timeout: float = 20) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=timeout)
        return self.proc.returncode, self.stderr()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                if os.getpgid(self.proc.pid) == self.proc.pid:  # its own group (start() above)
                    os.killpg(self.proc.pid, signal.SIGKILL)
                else:  # a subclass's start() without a group of its own
                    self.proc.kill()
            self.proc.wait(timeout=10)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.kill()


def post_and_drop_the_answer(base_url: str, path: str, body: bytes) -> None:
    """POST `body` (JSON) whole, wait until the server has begun its answer, then close the
    connection unread: a request whose answer the client lost."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        s.recv(1)
