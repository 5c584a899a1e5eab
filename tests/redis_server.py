"""A throwaway redis-server for tests and benchmarks (never the machine's Redis on 6379).

Example::

    with RedisServer() as server:
        url = server.url  # redis://127.0.0.1:PORT/0
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
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.dir),
                    "--daemonize",
                    "no",
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


class RedisClusterServers:
    """A throwaway Redis Cluster: `nodes` masters on free ports, the 16384 slots split between them.

    Example::

        with RedisClusterServers() as cluster:
            url = cluster.url  # redis+cluster://127.0.0.1:PORT
    """

    SLOTS = 16384

    def __init__(self, nodes: int = 3, *, startup_timeout: float = 20.0) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary = binary
        self.count = nodes
        self.startup_timeout = startup_timeout
        self.ports: list[int] = []
        self.bus_ports: list[int] = []  # cluster bus (node-to-node) ports
        self.dir: Path | None = None
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self) -> RedisClusterServers:
        import redis

        self.dir = Path(tempfile.mkdtemp(prefix="tablero-redis-cluster-"))
        try:
            for i in range(self.count):
                port, bus_port = _free_port(), _free_port()
                node_dir = self.dir / str(i)
                node_dir.mkdir()
                log = open(node_dir / "redis.log", "wb")  # noqa: SIM115 - the process keeps it
                self.processes.append(
                    subprocess.Popen(
                        [
                            self.binary,
                            "--port",
                            str(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no",
                            "--dir",
                            str(node_dir),
                            "--daemonize",
                            "no",
                            "--cluster-enabled",
                            "yes",
                            "--cluster-port",
                            str(bus_port),
                            "--cluster-config-file",
                            "nodes.conf",
                            "--cluster-node-timeout",
                            "5000",
                        ],
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
                log.close()
                self.ports.append(port)
                self.bus_ports.append(bus_port)
            deadline = time.monotonic() + self.startup_timeout
            for port in self.ports:
                while not _answers_ping(port):
                    if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                        raise RuntimeError("a redis cluster node did not start")
                    time.sleep(0.02)
            clients = [redis.Redis(port=port) for port in self.ports]
            per_node = -(-self.SLOTS // self.count)
            for i, client in enumerate(clients):
                first = i * per_node
                client.execute_command("CLUSTER ADDSLOTSRANGE", first, min(first + per_node, self.SLOTS) - 1)
            for client in clients[1:]:
                client.execute_command("CLUSTER MEET", "127.0.0.1", self.ports[0], self.bus_ports[0])
            while not all(self._ready(client) for client in clients):
                if time.monotonic() > deadline:
                    raise RuntimeError("the redis cluster did not become ready")
                time.sleep(0.05)
            for client in clients:
                client.close()
            return self
        except BaseException:
            self.stop()
            raise

    def _ready(self, client: object) -> bool:
        info = client.execute_command("CLUSTER INFO")  # type: ignore[attr-defined]  # parsed into a dict
        return str(info.get("cluster_state")) == "ok" and int(info.get("cluster_known_nodes", 0)) == self.count

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes = []
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> RedisClusterServers:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
