"""A Web Push subscription whose endpoint host does not resolve: a name that does not exist is
400 INVALID_ARGUMENT (the subscription can never work), but a temporary DNS failure (EAI_AGAIN:
the resolver did not answer) is 503 UNAVAILABLE, reason DNS_UNAVAILABLE, with Retry-After, so a
page retries instead of dropping the subscription for good (it was 400 either way).

The server runs with a real resolver made to fail, not a patched getaddrinfo: `tablero serve` in
its own mount namespace (unshare, as root) with /etc/resolv.conf naming a nameserver nobody
answers on (glibc: EAI_AGAIN), or /etc/nsswitch.conf looking names up in /etc/hosts only
(glibc: EAI_NONAME, no DNS asked)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from py_vapid import Vapid

from tests import plainhttp
from tests.server.support import ServerProcess

# No DNS server listens on this loopback address: every query is refused at once (ICMP).
DEAD_RESOLVER = "nameserver 127.213.47.1\noptions timeout:1 attempts:1\n"
HOSTS_ONLY = "hosts: files\n"
ENDPOINT = "https://push.tablero-test.example/wpush/v2/abc"


def _can_unshare() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not _can_unshare(), reason="needs root and unshare -m (a mount namespace)")


def _server(tmp_path, target: str, text: str) -> ServerProcess:
    """`tablero serve` with `target` (an /etc file) replaced by `text` for it alone."""
    f = tmp_path / os.path.basename(target)
    f.write_text(text)
    vapid = Vapid()
    vapid.generate_keys()
    s = ServerProcess({"TABLERO_VAPID_PRIVATE_KEY": vapid.private_pem().decode(), "TABLERO_LOG_LEVEL": "warning"})
    s.prefix = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                f'mount --bind "$0" {target} && exec "$@"', str(f)]
    return s


def _register(s: ServerProcess):
    g = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    sub = {"endpoint": ENDPOINT, "keys": {"p256dh": "x", "auth": "y"}}
    return plainhttp.post(f"{s.http}/v1/push/subscriptions",
                          json={"subscription": sub, "seats": [{"gameId": g["game"]["id"],
                                                                "token": g["seats"][0]["token"]}]})


def test_a_temporary_dns_failure_is_503_with_a_reason_and_retry_after(tmp_path):
    with _server(tmp_path, "/etc/resolv.conf", DEAD_RESOLVER) as s:
        r = _register(s)
    assert r.status_code == 503, r.text
    err = r.json()["error"]
    assert (err["code"], err["reason"]) == ("UNAVAILABLE", "DNS_UNAVAILABLE")
    assert "push.tablero-test.example" in err["message"] and "retry" in err["message"]
    assert int(r.headers["retry-after"]) >= 1 and float(err["metadata"]["retryAfter"]) >= 1


def test_a_name_that_does_not_exist_stays_400(tmp_path):
    with _server(tmp_path, "/etc/nsswitch.conf", HOSTS_ONLY) as s:
        r = _register(s)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["reason"] == "INVALID_ARGUMENT" and "does not resolve" in err["message"]
