"""Issue 32: the browser client's "Notify me when it's my turn", for real in Chromium, end to end.

Chromium's `PushManager.subscribe` registers with Google's GCM/FCM servers, and pushes reach it
over GCM's connection server (MCS); this closed network reaches neither, so
`tests/web/push_fakes.py` stands in for them and Chromium is pointed at the fakes with its own
switches (`--gcm-checkin-url`, `--gcm-registration-url`, `--gcm-mcs-endpoint`). Push needs a
regular profile (Playwright's contexts are off the record, where subscribe is refused), so the
browser runs with `launch_persistent_context` on a fresh profile.

Real: Debian's Chromium with its GCM client (check-in, registration, MCS login), the page's
service worker and push subscription (keys made by Chromium), the Tablero page and server, the
server's encrypted and VAPID-signed push to the subscription's endpoint, Chromium's decryption
of it, and the service worker's notification. Faked: Google's servers (check-in, registration,
push service, MCS), and, in the server, the name lookup of the push service's host (pointed at
the fake, over TLS with a throwaway CA the server is told to trust).
"""

from __future__ import annotations

import base64
import shutil
import time

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from tests import plainhttp
from tests.browsers import CHROMIUM_FULL
from tests.server.support import ServerThread
from tests.web.conftest import ARTIFACTS, CHROMIUM_ARGS
from tests.web.push_fakes import PUSH_HOSTS, FakeGCM, FakeMCS, FakePushService, resolve_push_hosts, spki_hash

pytestmark = pytest.mark.slow

NOTIFICATIONS = """async () => (await (await navigator.serviceWorker.getRegistration()).getNotifications())
    .map((n) => [n.title, n.body, n.data.url])"""


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def wait(pred, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return bool(pred())


def _fakes(tmp_path, monkeypatch):
    """The server's VAPID key, Google's servers faked (GCM check-in and registration, the push
    service, the MCS connection), and the Chromium switches that point the browser at them."""
    vapid = Vapid()
    vapid.generate_keys()
    server_key = b64u(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    gcm = FakeGCM()
    push = FakePushService(tmp_path / "tls")
    mcs = FakeMCS(push.cert, push.key, gcm)
    push.forward = mcs.deliver
    resolve_push_hosts(monkeypatch, push.port)  # the server runs in this process
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(push.ca))  # pywebpush's requests trusts the fake's CA
    # Playwright adds --disable-background-networking by default: left out, GCM is background networking.
    args = [a for a in CHROMIUM_ARGS if a != "--disable-background-networking"] + gcm.switches(mcs.port) + [
        f"--ignore-certificate-errors-spki-list={spki_hash(push.cert)}"]  # the fake MCS's certificate
    return vapid, server_key, gcm, push, mcs, args


def _subscribe(page, h: str, gid: str, token: str) -> tuple[str, dict]:
    """The page opens the game's table as seat O and asks to be notified: the status it shows
    and the subscription its service worker holds."""
    page.goto(h + "/")
    page.evaluate("""([gid, token]) => localStorage.setItem('tablero.games.v1', JSON.stringify(
        {[gid]: {engine: 'tic-tac-toe', seats: [{seat: 1, token}], at: Date.now()}}))""", [gid, token])
    page.goto(f"{h}/#/g/{gid}")
    page.click("#notify-me")
    page.wait_for_function(
        "() => !document.querySelector('.push-status').textContent.includes('subscribing')", timeout=60_000)
    status = page.text_content(".push-status").strip()
    sub = page.evaluate("""async () => {
        const r = await navigator.serviceWorker.getRegistration();
        const s = r && await r.pushManager.getSubscription();
        return s && {json: s.toJSON(), sw: r.active && r.active.scriptURL}; }""")
    return status, sub


def _registered(gcm, server_key: str, h: str, sub: dict) -> tuple[str, str]:
    """Chromium checked in and registered with "FCM" for this origin, with the server's VAPID
    key; the subscription is the push service's endpoint for that registration's token, with
    keys Chromium made. Returns the endpoint and the token."""
    assert len(gcm.checkins) >= 1 and gcm.checkins[0][14] == [3]  # AndroidCheckinRequest version 3
    web = [r for r in gcm.registrations if r.get("sender") == server_key]
    assert len(web) == 1, gcm.registrations
    assert web[0]["X-subtype"].startswith(f"wp:{h}/#") and web[0]["scope"] == "GCM"
    assert web[0]["_authorization"] == f"AidLogin {gcm.android_id}:{gcm.security_token}"
    assert sub["sw"] == f"{h}/sw.js"
    endpoint = sub["json"]["endpoint"]
    token = web[0]["_token"]
    assert endpoint in [f"https://{host}/{path}/{token}" for host in PUSH_HOSTS for path in ("fcm/send", "wp")]
    p256dh, auth = unb64u(sub["json"]["keys"]["p256dh"]), unb64u(sub["json"]["keys"]["auth"])
    assert len(p256dh) == 65 and p256dh[0] == 4 and len(auth) == 16
    return endpoint, token


def _errors_of(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text else None)
    return errors


def test_the_page_subscribes_through_its_service_worker_and_its_turn_is_shown(browser, tmp_path, monkeypatch) -> None:
    # One Playwright per process (the package's, under `browser`): its chromium type launches the profile.
    vapid, server_key, gcm, push, mcs, args = _fakes(tmp_path, monkeypatch)
    profile = tmp_path / "profile"
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        with ServerThread(vapid_private_key=vapid.private_pem().decode(), webhooks_allow_private=True) as srv:
            h = srv.http
            assert plainhttp.get(f"{h}/v1/push/key").json()["publicKey"] == server_key
            g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            gid, x, o = g["game"]["id"], g["seats"][0]["token"], g["seats"][1]["token"]
            ctx = browser.browser_type.launch_persistent_context(
                str(profile), executable_path=CHROMIUM_FULL, args=args, permissions=["notifications"],
                ignore_default_args=["--disable-background-networking"])
            try:
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.set_default_timeout(15_000)
                errors = _errors_of(page)
                status, sub = _subscribe(page, h, gid, o)
                assert status == "you will be notified when it is your turn.", (status, gcm.registrations)
                endpoint, token = _registered(gcm, server_key, h, sub)
                assert mcs.wait_settled(), (mcs.events, mcs.errors)  # Chromium is logged in to the fake MCS
                # O leaves the table for the lobby: the service worker shows turns of games not on screen.
                page.goto(h + "/")
                # The table had marked O's seat as watched live; a closed table stops renewing it and
                # the mark runs out after 30 s. The test ends it at once (the API the page uses).
                plainhttp.post(f"{h}/v1/push/live", json={"gameId": gid, "token": o, "live": False}).raise_for_status()
                assert not push.received and page.evaluate(NOTIFICATIONS) == []
                moved = time.monotonic()
                plainhttp.post(f"{h}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {x}"},
                           json={"action": {"type": "place", "cell": 4}}).raise_for_status()
                # The server pushes to the stored subscription, encrypted and VAPID-signed ...
                assert wait(lambda: push.received or push.refused), "no push reached the push service"
                assert not push.refused, push.refused
                got = push.received[0]
                assert f"https://{got['host'].split(':')[0]}{got['path']}" == endpoint
                assert got["k"] == server_key and got["ciphertext"] > 16
                assert mcs.delivered == [token]
                # ... which Chromium decrypts with the subscription's key, and the service worker shows.
                page.wait_for_function(f"async () => ({NOTIFICATIONS})().then((n) => n.length > 0)", timeout=20_000)
                shown_after = time.monotonic() - moved
                shown = page.evaluate(NOTIFICATIONS)
                page.screenshot(path=str(ARTIFACTS / "push-subscribed.png"))
            finally:
                ctx.close()
            print(f"\nsubscription {endpoint}; move -> notification shown in {shown_after:.2f} s: {shown}")
            assert shown == [["Your turn in Tic Tac Toe", f"Game {gid}: it is your move.", f"/#/g/{gid}"]]
            assert not errors, errors
            assert not mcs.errors, mcs.errors
            removed = plainhttp.post(f"{h}/v1/push/subscriptions:delete",  # as its browser: with its keys
                                     json={"subscription": {"endpoint": endpoint, "keys": sub["json"]["keys"]}})
            assert removed.json() == {"removed": True}  # it was stored
    finally:
        mcs.stop()
        push.stop()
        gcm.stop()
        shutil.rmtree(profile, ignore_errors=True)
