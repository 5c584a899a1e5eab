"""The browser client registers its push subscription again after a 503 DNS_UNAVAILABLE (docs/api.md:
the push service's host could not be resolved for a moment; retry after `retryAfter` seconds). A
player's pass: the page gave up at the first answer ("notifications could not be turned on").

Real: Chromium running the page's own registration (js/notify.js `register`, what "Notify me"
calls once Chromium has made the subscription: tests/web/test_push_subscribe.py runs that part),
and `tablero serve` with a real resolver made to fail, as tests/notify/test_push_dns.py does: in
its own mount namespace, /etc/resolv.conf names a nameserver nobody answers on (EAI_AGAIN), and its
/etc/hosts is a file of the test's, which gets the push service's name once the page has been
told to wait: the registration tried again then succeeds."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from tests import plainhttp
from tests.server.support import ServerProcess

DEAD_RESOLVER = "nameserver 127.213.47.1\noptions timeout:1 attempts:1\n"
HOST = "push.tablero-test.example"

START = """async ([request]) => {
    const m = await import('/js/notify.js');
    window.__waits = [];
    window.__done = m.register(request, null, (s) => window.__waits.push(s))
        .then((r) => ({ owners: r.owners }), (e) => ({ error: String(e && e.message || e) }));
}"""


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _server(tmp_path) -> tuple[ServerProcess, object]:
    """`tablero serve` with Web Push on, a dead resolver and an /etc/hosts of the test's (a path)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-m", "--propagation", "private", "true"], capture_output=True).returncode != 0:
        pytest.fail("needs root and unshare -m (a mount namespace), as tests/notify/test_push_dns.py")
    resolv, hosts = tmp_path / "resolv.conf", tmp_path / "hosts"
    resolv.write_text(DEAD_RESOLVER)
    hosts.write_text("127.0.0.1 localhost\n")
    vapid = Vapid()
    vapid.generate_keys()
    s = ServerProcess({"TABLERO_VAPID_PRIVATE_KEY": vapid.private_pem().decode(), "TABLERO_LOG_LEVEL": "warning",
                       "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1"})  # the name will resolve to 127.0.0.1
    s.prefix = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                'mount --bind "$0" /etc/resolv.conf && mount --bind "$1" /etc/hosts && shift && exec "$@"',
                str(resolv), str(hosts)]
    return s, hosts


def test_a_registration_refused_for_a_moment_by_dns_is_tried_again_after_retry_after(new_page, tmp_path):
    s, hosts = _server(tmp_path)
    with s:
        g = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        request = {"subscription": {"endpoint": f"https://{HOST}/wpush/v2/abc", "keys": {"p256dh": b64u(key), "auth": b64u(os.urandom(16))}},
                   "seats": [{"gameId": g["game"]["id"], "token": g["seats"][1]["token"]}]}
        page = new_page()
        page.goto(s.http + "/#/")
        page.wait_for_selector(".engines label")
        page.evaluate(START, [request])
        page.wait_for_function("() => window.__waits.length > 0", timeout=30_000)  # told: 503, wait
        with open(hosts, "a") as f:  # the same file (inode) the server's /etc/hosts is bound to
            f.write(f"127.0.0.1 {HOST}\n")
        done = page.evaluate("() => window.__done")
        waits = page.evaluate("() => window.__waits")
    assert done == {"owners": 1}, (done, waits)
    assert waits == [5], waits  # the server's Retry-After (ResolverUnavailable: 5 s), once
