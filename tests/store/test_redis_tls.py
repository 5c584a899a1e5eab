"""Redis over TLS (issue 36): a real redis-server with `port 0` + `tls-port` and
`tls-replication yes`, a TLS replica and a TLS Sentinel, certificates from a throwaway CA made
with openssl; the store reaches them through `rediss+sentinel://...?ssl_ca_certs=` and
`rediss://...?ssl_ca_certs=`, and refuses a server its CA did not sign."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import redis
from tablero.server.store import DuplicateRequest, StoreError
from tablero.server.store.redis import RedisStore
from tablero.server.store.redis_sentinel import parse

from tests.redis_server import _free_port, redis_server_binary

PASSWORD = "tls-test-pw"

def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca_and_cert(d: Path, name: str = "server", san: str = "IP:127.0.0.1,DNS:localhost") -> None:
    """ca.crt/ca.key (a fresh CA) and <name>.crt/<name>.key signed by it for `san`: the
    commands docs/operations.md gives the operator."""
    if not (d / "ca.crt").exists():
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
                 "-days", "2", "-subj", "/CN=tablero-test-ca", cwd=d)
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
             "-subj", f"/CN={name}", cwd=d)
    (d / f"{name}.ext").write_text(f"subjectAltName={san}\n")
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", f"{name}.crt", "-days", "2", "-extfile", f"{name}.ext", cwd=d)


class TlsRedisSet:
    """A TLS-only master, one TLS replica and one TLS Sentinel (quorum 1) on free ports."""

    def __init__(self) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="tablero-tls-"))
        self.procs: list[subprocess.Popen[bytes]] = []
        self.master = self.replica = self.sentinel = 0

    @property
    def ca(self) -> str:
        return str(self.dir / "ca.crt")

    def _tls(self, port: int) -> list[str]:
        return ["port 0", f"tls-port {port}", f"tls-cert-file {self.dir / 'server.crt'}",
                f"tls-key-file {self.dir / 'server.key'}", f"tls-ca-cert-file {self.ca}",
                "tls-auth-clients no", "tls-replication yes", "bind 127.0.0.1 127.0.0.2"]

    def _spawn(self, name: str, lines: list[str], *extra: str) -> None:
        conf = self.dir / f"{name}.conf"
        conf.write_text("\n".join(lines) + "\n")
        with open(self.dir / f"{name}.log", "ab") as log:
            self.procs.append(subprocess.Popen([self.binary, str(conf), *extra], stdout=log,
                                               stderr=subprocess.STDOUT))

    def client(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, password=PASSWORD, ssl=True, ssl_ca_certs=self.ca, socket_timeout=1)

    def start(self) -> TlsRedisSet:
        make_ca_and_cert(self.dir)
        self.master, self.replica, self.sentinel = _free_port(), _free_port(), _free_port()
        node = [f"requirepass {PASSWORD}", f"masterauth {PASSWORD}", "save ''", "appendonly no"]
        self._spawn("master", [*self._tls(self.master), *node, f"dir {self.dir}"])
        self._spawn("replica", [*self._tls(self.replica), *node, f"dir {self.dir}",
                                f"replicaof 127.0.0.1 {self.master}"])
        self._wait(self._synced, "the TLS replica did not sync")
        self._spawn("sentinel", [*self._tls(self.sentinel), f"dir {self.dir}",
                                 f"sentinel monitor tablero 127.0.0.1 {self.master} 1",
                                 f"sentinel auth-pass tablero {PASSWORD}"], "--sentinel")
        self._wait(self._sentinel_sees_replica, "the TLS Sentinel did not find the replica")
        return self

    def _synced(self) -> bool:
        with self.client(self.master) as c:
            info = c.info("replication")
        return info.get("connected_slaves") == 1 and info["slave0"]["state"] == "online"

    def _sentinel_sees_replica(self) -> bool:
        with redis.Redis(port=self.sentinel, ssl=True, ssl_ca_certs=self.ca, socket_timeout=1) as s:
            return len(s.execute_command("SENTINEL", "REPLICAS", "tablero")) == 1

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

    def stop(self) -> None:
        for p in self.procs:
            p.kill()
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> TlsRedisSet:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture(scope="module")
def tls_set():  # noqa: ANN201
    with TlsRedisSet() as s:
        yield s


def test_the_tls_url_options() -> None:
    u = parse("rediss+sentinel://:pw@h:1/m?ssl_ca_certs=/tls/ca.crt&ssl_check_hostname=false&sentinel_password=x")
    assert u.tls and dict(u.tls_options) == {"ssl_ca_certs": "/tls/ca.crt", "ssl_check_hostname": False}
    for bad, why in [("redis+sentinel://h:1/m?ssl_ca_certs=/ca", "need TLS: the URL must start rediss"),
                     ("rediss+sentinel://h:1/m?ssl_cert_reqs=maybe", "want one of none, optional, required"),
                     ("rediss+sentinel://h:1/m?ssl_check_hostname=perhaps", "want true or false"),
                     ("rediss+sentinel://h:1/m?ssl_ca_certs=", "is empty: want a file path")]:
        with pytest.raises(ValueError, match=why):
            parse(bad)


async def _cas_appends(store: RedisStore, game: str) -> None:
    await store.create(game, {"engine": "x"}, [{"type": "start"}])
    assert await store.append(game, 1, [{"n": 1}], request_id="r1") == 2
    with pytest.raises(StoreError):  # CAS: the game is not at version 1 any more
        await store.append(game, 1, [{"n": "late"}], request_id="r-late")
    with pytest.raises(DuplicateRequest) as dup:  # the retry of r1: its version, no second copy
        await store.append(game, 1, [{"n": 1}], request_id="r1")
    assert dup.value.version == 2
    assert await store.append(game, 2, [{"n": 2}]) == 3
    assert await store.read(game) == [{"type": "start"}, {"n": 1}, {"n": 2}]


@pytest.mark.slow  # a master, a replica and a Sentinel over TLS: seconds to start
async def test_store_over_tls_through_a_tls_sentinel(tls_set: TlsRedisSet) -> None:
    """The Sentinel is asked over TLS, names the master, the store speaks TLS to it; an append
    is acknowledged only once the replica (fed over TLS) has it."""
    url = f"rediss+sentinel://:{PASSWORD}@127.0.0.1:{tls_set.sentinel}/tablero/0?ssl_ca_certs={tls_set.ca}"
    store = RedisStore(url, min_replicas_ack=1, replicas_ack_timeout=2.0, socket_timeout=2.0)
    try:
        await _cas_appends(store, "tls-sentinel")
    finally:
        await store.close()
    with tls_set.client(tls_set.replica) as c:  # replicated over TLS
        TlsRedisSet._wait(lambda: c.xlen("tablero:{tls-sentinel}:events") == 3, "the replica lacks the appends", 5)


@pytest.mark.slow  # a master, a replica and a Sentinel over TLS: seconds to start
async def test_store_over_plain_rediss(tls_set: TlsRedisSet) -> None:
    store = RedisStore(f"rediss://:{PASSWORD}@127.0.0.1:{tls_set.master}/0?ssl_ca_certs={tls_set.ca}")
    try:
        await _cas_appends(store, "tls-direct")
    finally:
        await store.close()


@pytest.mark.slow  # a master, a replica and a Sentinel over TLS: seconds to start
async def test_a_certificate_from_another_ca_is_refused(tls_set: TlsRedisSet) -> None:
    other = tls_set.dir / "other"
    other.mkdir(exist_ok=True)
    make_ca_and_cert(other)
    bad_ca = other / "ca.crt"
    direct = RedisStore(f"rediss://:{PASSWORD}@127.0.0.1:{tls_set.master}/0?ssl_ca_certs={bad_ca}",
                        socket_timeout=1.0, retries=0)
    # through the Sentinel: redis-py reports the refused Sentinel as "No master found"
    sentinel = RedisStore(f"rediss+sentinel://:{PASSWORD}@127.0.0.1:{tls_set.sentinel}/tablero/0?ssl_ca_certs={bad_ca}",
                          socket_timeout=1.0, retries=0)
    try:
        with pytest.raises(StoreError, match="certificate verify failed"):
            await direct.create("refused", {}, [{"type": "start"}])
        with pytest.raises(StoreError, match="No master found"):
            await sentinel.create("refused", {}, [{"type": "start"}])
    finally:
        await direct.close()
        await sentinel.close()
    with tls_set.client(tls_set.master) as c:
        assert not c.exists("tablero:{refused}:meta", "tablero:{refused}:events")


@pytest.mark.slow  # a master, a replica and a Sentinel over TLS: seconds to start
async def test_a_certificate_for_another_name_is_refused(tls_set: TlsRedisSet) -> None:
    """The right CA, but the server is reached as 127.0.0.2, a name its certificate does not
    carry (it names 127.0.0.1 and localhost): refused, unless the check is switched off."""
    base = f"rediss://:{PASSWORD}@127.0.0.2:{tls_set.master}/0?ssl_ca_certs={tls_set.ca}"
    store = RedisStore(base, socket_timeout=1.0, retries=0)
    loose = RedisStore(base + "&ssl_check_hostname=false", socket_timeout=1.0, retries=0)
    try:
        with pytest.raises(StoreError, match="mismatch|doesn't match|not valid for"):
            await store.create("misnamed", {}, [{"type": "start"}])
        await loose.create("misnamed", {}, [{"type": "start"}])
    finally:
        await store.close()
        await loose.close()


@pytest.mark.slow  # a master, a replica and a Sentinel over TLS: seconds to start
def test_plaintext_is_not_served(tls_set: TlsRedisSet) -> None:
    """`port 0`: the TLS port answers no plaintext client."""
    with redis.Redis(port=tls_set.master, password=PASSWORD, socket_timeout=0.5, retry=None) as c, \
            pytest.raises((redis.ConnectionError, redis.TimeoutError)):
        c.ping()
