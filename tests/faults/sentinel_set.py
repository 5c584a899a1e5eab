"""A Redis master, its replicas and a set of Sentinels, as real processes on free ports (issue 36).

    with SentinelSet(replicas=2, sentinels=3) as s:
        s.url                # redis+sentinel://127.0.0.1:A,127.0.0.1:B,127.0.0.1:C/tablero
        s.kill_master()      # SIGKILL; the Sentinels promote a replica
        s.wait_for_new_master(old_port)
        s.cut_replication()  # the replicas stop receiving the master's writes (lagging replicas)

Sentinels are `redis-server <conf> --sentinel` (Debian's redis-server binary; `redis-sentinel`
is the same program). down-after-milliseconds is 1000 and failover-timeout 5000, so a failover
takes about two to four seconds.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.redis_server import _answers_ping, _free_port, redis_server_binary

MASTER_NAME = "tablero"


class SentinelSet:
    def __init__(self, *, replicas: int = 2, sentinels: int = 3, password: str | None = None,
                 down_after_ms: int = 1000) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary, self.password, self.down_after_ms = binary, password, down_after_ms
        self.dir = Path(tempfile.mkdtemp(prefix="tablero-sentinel-"))
        self.n_replicas, self.n_sentinels = replicas, sentinels
        self.nodes: dict[int, subprocess.Popen[bytes]] = {}  # Redis servers by port
        self.sentinels: dict[int, subprocess.Popen[bytes]] = {}
        self.master_port = 0

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinels)
        return f"redis+sentinel://{auth}{hosts}/{MASTER_NAME}/0"

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.dir / f"{name}.log", "ab")  # noqa: SIM115 - the process keeps it
        try:
            return subprocess.Popen([self.binary, *args], stdout=log, stderr=subprocess.STDOUT)
        finally:
            log.close()

    def _node(self, port: int, replica_of: int | None) -> subprocess.Popen[bytes]:
        data = self.dir / f"node-{port}"
        data.mkdir()
        args = ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(data), "--save", "",
                "--appendonly", "no", "--daemonize", "no"]
        if self.password:
            args += ["--requirepass", self.password, "--masterauth", self.password]
        if replica_of is not None:
            args += ["--replicaof", "127.0.0.1", str(replica_of)]
        return self._spawn(f"node-{port}", args)

    def client(self, port: int, **kw: object) -> redis.Redis:
        return redis.Redis(port=port, password=self.password, **kw)  # type: ignore[arg-type]

    def start(self) -> SentinelSet:
        try:
            self.master_port = _free_port()
            self.nodes[self.master_port] = self._node(self.master_port, None)
            for _ in range(self.n_replicas):
                port = _free_port()
                self.nodes[port] = self._node(port, self.master_port)
            self._wait(lambda: all(self._up(p) for p in self.nodes), "the Redis servers did not start")
            self._wait(lambda: self._synced(), "the replicas did not sync")
            for i in range(self.n_sentinels):
                port = _free_port()
                conf = self.dir / f"sentinel-{i}.conf"
                lines = [f"port {port}", "bind 127.0.0.1", f"dir {self.dir}",
                         f"sentinel monitor {MASTER_NAME} 127.0.0.1 {self.master_port} {min(2, self.n_sentinels)}",
                         f"sentinel down-after-milliseconds {MASTER_NAME} {self.down_after_ms}",
                         f"sentinel failover-timeout {MASTER_NAME} 5000",
                         f"sentinel parallel-syncs {MASTER_NAME} 1"]
                if self.password:
                    lines.append(f"sentinel auth-pass {MASTER_NAME} {self.password}")
                conf.write_text("\n".join(lines) + "\n")
                self.sentinels[port] = self._spawn(f"sentinel-{i}", [str(conf), "--sentinel"])
            self._wait(lambda: all(_answers_ping(p) for p in self.sentinels), "the Sentinels did not start")
            # every Sentinel knows every replica and the other Sentinels (hello messages, ~2 s)
            self._wait(self._sentinels_know_all, "the Sentinels did not discover each other", timeout=30)
            return self
        except BaseException:
            self.stop()
            raise

    def _up(self, port: int) -> bool:
        try:
            with self.client(port, socket_timeout=0.5) as c:
                return bool(c.ping())
        except redis.RedisError:
            return False

    def _synced(self) -> bool:
        with self.client(self.master_port) as c:
            info = c.info("replication")
        return int(info.get("connected_slaves", 0)) == self.n_replicas and all(
            info[f"slave{i}"]["state"] == "online" for i in range(self.n_replicas))

    def _sentinels_know_all(self) -> bool:
        for port in self.sentinels:
            with redis.Redis(port=port, socket_timeout=0.5) as s:
                master = s.execute_command("SENTINEL", "MASTER", MASTER_NAME)
                fields = dict(zip(master[::2], master[1::2], strict=False)) if isinstance(master, list) else master
                replicas = int(fields.get(b"num-slaves", fields.get("num-slaves", 0)))
                others = int(fields.get(b"num-other-sentinels", fields.get("num-other-sentinels", 0)))
                if replicas != self.n_replicas or others != self.n_sentinels - 1:
                    return False
        return True

    @staticmethod
    def _wait(ok, what: str, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while True:
            try:
                if ok():
                    return
            except (redis.RedisError, OSError, KeyError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(what)
            time.sleep(0.05)

    def current_master(self) -> int:
        """The master's port as the Sentinels' majority reports it."""
        seen: dict[int, int] = {}
        for port in self.sentinels:
            try:
                with redis.Redis(port=port, socket_timeout=0.5) as s:
                    _host, p = s.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)
                    seen[int(p)] = seen.get(int(p), 0) + 1
            except (redis.RedisError, OSError):
                continue
        return max(seen, key=seen.__getitem__) if seen else 0

    def cut_replication(self) -> None:
        """Every replica stops receiving the master's writes (a wrong masterauth, then its link
        killed: it keeps failing the handshake), so the master acknowledges what no replica has."""
        for port in self.nodes:
            if port == self.master_port or self.nodes[port].poll() is not None:
                continue
            with self.client(port) as c:
                c.config_set("masterauth", "not-the-password")
                c.execute_command("CLIENT KILL TYPE master")
        for port in self.nodes:
            if port != self.master_port:
                self._wait(lambda p=port: self._link_down(p), "a replica's link never went down", timeout=5)

    def _link_down(self, port: int) -> bool:
        with self.client(port) as c:
            return c.info("replication").get("master_link_status") != "up"

    def heal_replication(self) -> None:
        for port, proc in self.nodes.items():
            if proc.poll() is None and port != self.master_port:
                with self.client(port) as c:
                    c.config_set("masterauth", self.password or "")

    def pause(self, port: int) -> None:
        self.nodes[port].send_signal(signal.SIGSTOP)

    def resume(self, port: int) -> None:
        self.nodes[port].send_signal(signal.SIGCONT)

    @property
    def replica_ports(self) -> list[int]:
        return [p for p, proc in self.nodes.items() if p != self.master_port and proc.poll() is None]

    def kill_master(self) -> int:
        old = self.master_port
        proc = self.nodes[old]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        return old

    def wait_for_new_master(self, old: int, timeout: float = 30.0) -> int:
        self._wait(lambda: self.current_master() not in (0, old) and self._is_master(self.current_master()),
                   "the Sentinels never promoted a replica", timeout=timeout)
        self.master_port = self.current_master()
        return self.master_port

    def _is_master(self, port: int) -> bool:
        with self.client(port, socket_timeout=0.5) as c:
            return c.info("replication").get("role") == "master"

    def stop(self) -> None:
        for proc in (*self.sentinels.values(), *self.nodes.values()):
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
                proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> SentinelSet:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
