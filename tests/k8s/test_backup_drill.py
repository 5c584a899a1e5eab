"""The restore drill of docs/operations.md ("Backups and restore"), on real redis-server
processes: what the backup CronJob runs (`redis-cli --rdb`), more writes after it, then the
documented restore (the RDB loaded with AOF off, AOF switched on at runtime, restarted with the
original flags): exactly the backed-up games come back, and the AOF holds them."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis
from tablero.server.store.redis import RedisStore

from tests.redis_server import _answers_ping, _free_port, redis_server_binary

FLAGS = ["--appendonly", "yes", "--appendfsync", "everysec", "--save", ""]


class _Redis:
    def __init__(self, data: Path, port: int, flags: list[str]) -> None:
        binary = redis_server_binary()
        assert binary, "redis-server is not installed"
        self.port = port
        self.proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
                                      *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not _answers_ping(port):
            assert time.monotonic() < deadline and self.proc.poll() is None, "redis-server did not start"
            time.sleep(0.02)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True)

    def stop(self) -> None:  # SIGTERM: Redis fsyncs and exits
        self.proc.terminate()
        self.proc.wait(timeout=20)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    return d


async def test_backup_then_restore_brings_back_exactly_the_backed_up_games(data: Path, tmp_path: Path) -> None:
    cli = shutil.which("redis-cli")
    assert cli, "redis-cli is not installed (Debian package redis-tools)"
    port = _free_port()
    server = _Redis(data, port, FLAGS)
    url = f"redis://127.0.0.1:{port}/0"
    store = RedisStore(url)
    try:
        await store.create("kept", {"engine": "x"}, [{"type": "start"}])
        await store.append("kept", 1, [{"n": 1}], request_id="a")
        # the CronJob's command
        backup = tmp_path / "tablero-backup.rdb"
        subprocess.run([cli, "-h", "127.0.0.1", "-p", str(port), "--rdb", str(backup)], check=True,
                       capture_output=True, timeout=60)
        # after the backup: more writes, which the restore must not bring back
        await store.append("kept", 2, [{"n": "after"}], request_id="b")
        await store.create("later", {"engine": "x"}, [{"type": "start"}])
    finally:
        await store.close()
    # 1-2: writes stopped; the backup copied in under a name of its own, Redis stopped
    shutil.copy(backup, data / "restore.rdb")
    server.stop()
    # 3: started with AOF off, loading the backup
    server = _Redis(data, port, ["--appendonly", "no", "--dbfilename", "restore.rdb", "--save", ""])
    with server.client() as c:
        assert c.dbsize() > 0
        # 4: AOF on at runtime: a fresh AOF is written from the loaded data
        c.config_set("appendonly", "yes")
        deadline = time.monotonic() + 30
        while True:
            info = c.info("persistence")
            if info["aof_enabled"] == 1 and info["aof_rewrite_in_progress"] == 0 and \
                    info["aof_rewrite_scheduled"] == 0 and info["aof_last_bgrewrite_status"] == "ok":
                break
            assert time.monotonic() < deadline, info
            time.sleep(0.05)
    server.stop()
    (data / "restore.rdb").unlink()
    # 5: the original flags: Redis loads the new AOF
    server = _Redis(data, port, FLAGS)
    store = RedisStore(url)
    try:
        assert await store.read("kept") == [{"type": "start"}, {"n": 1}]
        assert await store.version("kept") == 2
        with pytest.raises(Exception, match="later"):
            await store.read("later")
        # and it takes writes again, its request ids intact
        assert await store.append("kept", 2, [{"n": 2}], request_id="c") == 3
    finally:
        await store.close()
        server.stop()


def test_the_backup_jobs_script_clears_what_a_failed_run_left(tmp_path: Path) -> None:
    """Outside operator pass: the CronJob streams into `<name>.rdb.part` and renames it when done;
    a run that failed midway (Redis restarted, the volume full, the job's deadline) left its
    `.part` behind, which the newest-48 rotation (`*.rdb`) never removed, and every failed retry
    added one: partial snapshots as large as the data set until the backup volume was full and
    every backup failed. The job's own script, run against a real redis-server."""
    from tests.k8s.support import find, render

    (job,) = find(render("base"), "CronJob", "redis-backup")
    (container,) = job["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"]
    script = container["command"][-1]
    backup = tmp_path / "backup"
    backup.mkdir()
    (backup / "tablero-20260101T000000Z.rdb.part").write_bytes(b"x" * 1024)  # a failed run's
    port = _free_port()
    server = _Redis(tmp_path, port, FLAGS)
    try:
        server.client().set("k", "v")
        run = script.replace("/backup", str(backup)).replace("-p 6379", f"-p {port}")
        r = subprocess.run(["sh", "-ec", run], env={"PATH": "/usr/bin:/bin", "REDIS_HOST": "127.0.0.1"},
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    finally:
        server.stop()
    names = sorted(p.name for p in backup.iterdir())
    assert len(names) == 1 and names[0].endswith(".rdb") and not names[0].endswith(".part"), names
