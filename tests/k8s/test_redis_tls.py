"""The ha overlay's Redis, Sentinels, exporter, backup and servers speak TLS only (issue 36):
the certificates come from the Secret redis-tls (created out of band), and the TLS directives
the start scripts write are accepted by a real redis-server that then serves TLS and refuses
plaintext."""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import redis
from tablero.server.store.redis_sentinel import parse

from tests.k8s.support import K8S, find, one, render
from tests.redis_server import _free_port, redis_server_binary
from tests.store.test_redis_tls import make_ca_and_cert

HA = K8S / "overlays" / "ha"


def server_container(objs: list[dict]) -> dict:
    pod = _pod_spec(one(objs, "Deployment", "tablero"))
    return next(c for c in pod["containers"] if c["name"] == "server")


def _pod_spec(o: dict) -> dict:
    spec = o["spec"]
    if o["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return spec["template"]["spec"]


def _tls_mounts(pod: dict, container: dict) -> dict[str, dict]:
    """mountPath -> the Secret volume (redis-tls) mounted there."""
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    out = {}
    for m in container.get("volumeMounts", []):
        secret = volumes.get(m["name"], {}).get("secret")  # (volumeClaimTemplates are not here)
        if secret and secret["secretName"] == "redis-tls":
            out[m["mountPath"]] = secret
    return out


def test_every_redis_client_and_server_of_the_ha_overlay_uses_tls_from_the_secret():
    objs = render("overlays/ha")
    assert not [o for o in find(objs, "Secret") if o["metadata"]["name"] == "redis-tls"], "the TLS Secret is created out of band"
    redis_set = one(objs, "StatefulSet", "redis")
    pod = _pod_spec(redis_set)
    containers = {c["name"]: c for c in pod["containers"]}
    for name in ("redis", "sentinel", "exporter"):
        assert "/tls" in _tls_mounts(pod, containers[name]), name
    for name in ("redis", "sentinel"):  # probes ask over TLS, checking the CA
        probe = " ".join(containers[name]["readinessProbe"]["exec"]["command"])
        assert "redis-cli --tls --cacert /tls/ca.crt" in probe, name
    exporter = {e["name"]: e.get("value") for e in containers["exporter"]["env"]}
    assert exporter["REDIS_ADDR"].startswith("rediss://")
    assert exporter["REDIS_EXPORTER_TLS_CA_CERT_FILE"] == "/tls/ca.crt"
    backup = one(objs, "CronJob", "redis-backup")
    bpod = _pod_spec(backup)
    assert "redis-cli --tls --cacert /tls/ca.crt" in bpod["containers"][0]["command"][-1]
    assert "/tls" in _tls_mounts(bpod, bpod["containers"][0])
    server = server_container(objs)
    url = parse({e["name"]: e for e in server["env"]}["TABLERO_REDIS_URL"]["value"])
    ca = Path(dict(url.tls_options)["ssl_ca_certs"])
    mounts = _tls_mounts(_pod_spec(one(objs, "Deployment", "tablero")), server)
    assert str(ca.parent) in mounts and ca.name in {i["path"] for i in mounts[str(ca.parent)].get("items", [])}
    for script in ("start-redis.sh", "start-sentinel.sh"):
        text = (HA / script).read_text()
        assert "redis-cli -h" not in text and text.count("redis-cli --tls --cacert /tls/ca.crt") == 1, script


def _directives(script: str) -> list[str]:
    """The TLS lines (and `port 0`) the script writes into the config file."""
    text = (HA / script).read_text()
    lines = [m for m in re.findall(r'^\s*(?:echo ")?((?:tls-[a-z-]+|port) [^"\n]*)"?$', text, re.M)]
    return [line for line in lines if line.startswith("tls-") or line == "port 0"]


@pytest.mark.parametrize("script", ["start-redis.sh", "start-sentinel.sh"])
def test_the_scripts_tls_directives_run_on_a_real_redis_server(script):
    binary = redis_server_binary()
    assert binary, "redis-server is not installed"
    lines = _directives(script)
    assert "port 0" in lines and "tls-replication yes" in lines
    assert any(line.startswith("tls-port ") for line in lines)
    d = Path(tempfile.mkdtemp(prefix="tablero-k8s-tls-"))
    make_ca_and_cert(d, "tls")
    port = _free_port()
    conf = [line.replace("/tls/", f"{d}/") for line in lines if not line.startswith("tls-port ")]
    conf += [f"tls-port {port}", "bind 127.0.0.1", f"dir {d}", "save ''"]
    if script == "start-sentinel.sh":
        conf.append("sentinel monitor tablero 127.0.0.1 1 1")  # a master that is not there: enough
    (d / "r.conf").write_text("\n".join(conf) + "\n")
    args = [binary, str(d / "r.conf"), *(["--sentinel"] if script == "start-sentinel.sh" else [])]
    with open(d / "log", "wb") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with redis.Redis(port=port, ssl=True, ssl_ca_certs=str(d / "ca.crt"), socket_timeout=1) as c:
                    assert c.ping()
                    break
            except redis.ConnectionError:
                assert proc.poll() is None, (d / "log").read_text()
                assert time.monotonic() < deadline, (d / "log").read_text()
                time.sleep(0.05)
        with redis.Redis(port=port, socket_timeout=0.5, retry=None) as c, \
                pytest.raises((redis.ConnectionError, redis.TimeoutError)):
            c.ping()
    finally:
        proc.kill()
        proc.wait()
