"""Issue 32: the browser client's "Notify me when it's my turn" really subscribes, in Chromium.

Chromium's `PushManager.subscribe` asks Google's GCM/FCM servers for a registration, which this
closed network cannot reach; `tests/web/push_fakes.py` stands in for them and Chromium is
pointed at it with its own switches (`--gcm-checkin-url`, `--gcm-registration-url`,
`--gcm-mcs-endpoint`). Push needs a regular profile (Playwright's contexts are off the record,
where subscribe is refused), so the browser runs with `launch_persistent_context` on a fresh
profile. What is real: Debian's Chromium, its GCM client (check-in, registration), its
service worker and push subscription (keys made by Chromium), the Tablero page and server, and
the server's encrypted, VAPID-signed push to the subscription's endpoint. What is faked: Google's
servers, and the name lookup of the push service's host in the server (to the fake, over TLS
with a throwaway CA the server is told to trust). Not covered: delivery from the push service
to the browser (Chromium's MCS channel); test_push.py feeds the service worker through DevTools.
"""

from __future__ import annotations

import base64
import shutil
import socket
import time

import httpx
import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from tests.server.support import ServerThread
from tests.web.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from tests.web.push_fakes import PUSH_HOSTS, FakeGCM, FakePushService, resolve_push_hosts

pytestmark = pytest.mark.slow


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait(pred, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.1)
    return pred()


def test_the_page_subscribes_through_its_service_worker_and_the_server_pushes_to_it(tmp_path, monkeypatch) -> None:
    from playwright.sync_api import sync_playwright

    vapid = Vapid()
    vapid.generate_keys()
    server_key = b64u(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    gcm = FakeGCM()
    push = FakePushService(tmp_path / "tls")
    resolve_push_hosts(monkeypatch, push.port)  # the server runs in this process
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(push.ca))  # pywebpush's requests trusts the fake's CA
    profile = tmp_path / "profile"
    args = [a for a in CHROMIUM_ARGS if a != "--disable-background-networking"] + gcm.switches(closed_port())
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        with ServerThread(vapid_private_key=vapid.private_pem().decode(), webhooks_allow_private=True) as srv, \
                sync_playwright() as p:
            h = srv.http
            assert httpx.get(f"{h}/v1/push/key").json()["publicKey"] == server_key
            g = httpx.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            gid, x, o = g["game"]["id"], g["seats"][0]["token"], g["seats"][1]["token"]
            # Playwright adds --disable-background-networking by default; it is left out (GCM is background networking).
            ctx = p.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, args=args, permissions=["notifications"],
                ignore_default_args=["--disable-background-networking"])
            try:
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.set_default_timeout(15_000)
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(h + "/")
                page.evaluate("""([gid, token]) => localStorage.setItem('tablero.games.v1', JSON.stringify(
                    {[gid]: {engine: 'tic-tac-toe', seats: [{seat: 1, token}], at: Date.now()}}))""", [gid, o])
                page.goto(f"{h}/#/g/{gid}")
                page.click("#notify-me")
                page.wait_for_function("() => !document.querySelector('.push-status').textContent.includes('subscribing')",
                                       timeout=60_000)
                status = page.text_content(".push-status").strip()
                sub = page.evaluate("""async () => {
                    const r = await navigator.serviceWorker.getRegistration();
                    const s = r && await r.pushManager.getSubscription();
                    return s && {json: s.toJSON(), sw: r.active && r.active.scriptURL}; }""")
                page.screenshot(path=str(ARTIFACTS / "push-subscribed.png"))
            finally:
                ctx.close()
            print(f"\nthe page says: {status}; subscription: {sub}")
            assert status == "you will be notified when it is your turn.", (status, gcm.registrations)
            assert not errors, errors
            # Chromium checked in and registered with "FCM" for this origin, with the server's VAPID key.
            assert len(gcm.checkins) >= 1 and gcm.checkins[0][14] == [3]  # AndroidCheckinRequest version 3
            web = [r for r in gcm.registrations if r.get("sender") == server_key]
            assert len(web) == 1, gcm.registrations
            assert web[0]["X-subtype"].startswith(f"wp:{h}/#") and web[0]["scope"] == "GCM"
            assert web[0]["_authorization"] == f"AidLogin {gcm.android_id}:{gcm.security_token}"
            token = gcm.tokens[gcm.registrations.index(web[0])]
            # The subscription the page got, through its service worker: the push service's endpoint
            # for the token the registration returned, and keys Chromium made.
            assert sub["sw"] == f"{h}/sw.js"
            endpoint = sub["json"]["endpoint"]
            assert endpoint in [f"https://{host}/{path}/{token}" for host in PUSH_HOSTS for path in ("fcm/send", "wp")]
            p256dh, auth = unb64u(sub["json"]["keys"]["p256dh"]), unb64u(sub["json"]["keys"]["auth"])
            assert len(p256dh) == 65 and p256dh[0] == 4 and len(auth) == 16
            # The server stored it for O's seat: O's turn is pushed there, encrypted and VAPID-signed.
            assert not push.received
            httpx.post(f"{h}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {x}"},
                       json={"action": {"type": "place", "cell": 4}}).raise_for_status()
            assert wait(lambda: push.received or push.refused), "no push reached the push service"
            assert not push.refused, push.refused
            got = push.received[0]
            assert f"https://{got['host'].split(':')[0]}{got['path']}" == endpoint
            assert got["k"] == server_key and got["ciphertext"] > 16
            removed = httpx.post(f"{h}/v1/push/subscriptions:delete",
                                 json={"subscription": {"endpoint": endpoint}}).json()
            assert removed == {"removed": True}
    finally:
        push.stop()
        gcm.stop()
        shutil.rmtree(profile, ignore_errors=True)
