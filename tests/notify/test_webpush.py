"""Web Push to a local push service that does what a browser's does: it decrypts each message
(RFC 8291, with `http-ece` and the subscription's private key) and checks its VAPID
signature (RFC 8292: an ES256 JWT whose key is the server's public key, for this origin)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from tests import plainhttp
from tests.server.support import ServerThread


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """One browser's subscription and the push service in front of it."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.received: list[dict] = []
        self.refused: list[str] = []
        self.gone = False
        svc = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                status = svc.accept(self.headers, body)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscription(self) -> dict:
        pub = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.origin + "/push/abc", "keys": {"p256dh": b64u(pub), "auth": b64u(self.auth)}}

    def accept(self, headers, body: bytes) -> int:
        if self.gone:
            return 410
        auth = headers.get("authorization", "")
        try:
            assert auth.startswith("vapid "), auth
            parts = dict(p.strip().split("=", 1) for p in auth[6:].split(","))
            raw_key = unb64u(parts["k"])
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw_key)
            claims = jwt.decode(parts["t"], public, algorithms=["ES256"], audience=self.origin)
            assert claims["exp"] > time.time() and claims["sub"].startswith("mailto:")
            assert headers.get("content-encoding") == "aes128gcm" and int(headers.get("ttl", "0")) > 0
            plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        except Exception as e:  # noqa: BLE001 - anything wrong is a refusal the test sees
            self.refused.append(f"{type(e).__name__}: {e}")
            return 400
        self.received.append({"k": parts["k"], "message": json.loads(plain)})
        return 201

    def close(self) -> None:
        self.server.shutdown()


def _wait(pred, timeout: float = 10) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def test_your_turn_is_pushed_encrypted_and_vapid_signed_not_to_a_live_tab_and_gone_is_removed() -> None:
    vapid = Vapid()
    vapid.generate_keys()
    pem = vapid.private_pem().decode()
    push = PushService()
    try:
        with ServerThread(vapid_private_key=pem, webhooks_allow_private=True) as srv:
            h = f"http://127.0.0.1:{srv.http_port}"
            key = plainhttp.get(f"{h}/v1/push/key").json()["publicKey"]
            assert key == b64u(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
            g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            gid, x, o = g["game"]["id"], g["seats"][0]["token"], g["seats"][1]["token"]
            r = plainhttp.post(f"{h}/v1/push/subscriptions",
                           json={"subscription": push.subscription(), "seats": [{"gameId": gid, "token": o}]})
            assert r.status_code == 200, r.text
            bad = plainhttp.post(f"{h}/v1/push/subscriptions",
                             json={"subscription": push.subscription(), "seats": [{"gameId": gid, "token": "nope"}]})
            assert (bad.status_code, bad.json()["error"]["reason"]) == (401, "TOKEN_INVALID")  # as on a game call
            other = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            bad = plainhttp.post(f"{h}/v1/push/subscriptions", json={"subscription": push.subscription(), "seats": [
                {"gameId": gid, "token": other["seats"][0]["token"]}]})
            assert (bad.status_code, bad.json()["error"]["reason"]) == (403, "WRONG_GAME")

            def move(tok: str, cell: int) -> None:
                plainhttp.post(f"{h}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tok}"},
                           json={"action": {"type": "place", "cell": cell}}).raise_for_status()

            move(x, 4)  # O's turn: pushed
            assert _wait(lambda: len(push.received) == 1), push.refused
            msg = push.received[0]
            assert msg["k"] == key
            assert msg["message"]["title"] == "Your turn in Tic Tac Toe"
            assert msg["message"]["gameId"] == gid and msg["message"]["seat"] == 1
            assert msg["message"]["url"] == f"/#/g/{gid}"
            # O watches the game in an open tab: nothing is sent for its next turn.
            assert plainhttp.post(f"{h}/v1/push/live", json={"gameId": gid, "token": o, "live": True}).json()["live"]
            move(o, 0)
            move(x, 8)
            time.sleep(1.0)
            assert len(push.received) == 1
            plainhttp.post(f"{h}/v1/push/live", json={"gameId": gid, "token": o, "live": False}).raise_for_status()
            move(o, 1)
            push.gone = True  # the browser unsubscribed: the push service says 410
            move(x, 2)
            assert _wait(lambda: srv_metric(h, "tablero_notify_push_gone_total") == 1)
            push.gone = False
            move(o, 6)
            move(x, 5)  # O's turn again: the subscription is gone, nothing is sent
            time.sleep(1.0)
            assert len(push.received) == 1 and not push.refused
            # Private destinations are refused at subscription unless allowed (here they are).
    finally:
        push.close()


def srv_metric(h: str, name: str) -> float:
    from tests.server.support import scrape

    for line in scrape(h).splitlines():  # /metrics has its own port (TABLERO_METRICS_PORT)
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_a_subscription_to_a_private_address_is_refused() -> None:
    vapid = Vapid()
    vapid.generate_keys()
    with ServerThread(vapid_private_key=vapid.private_pem().decode()) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        sub = {"endpoint": "http://127.0.0.1:1/push", "keys": {"p256dh": "x", "auth": "y"}}
        r = plainhttp.post(f"{h}/v1/push/subscriptions",
                       json={"subscription": sub, "seats": [{"gameId": g["game"]["id"], "token": g["seats"][0]["token"]}]})
        assert r.status_code == 400 and "private or loopback" in r.json()["error"]["message"]


def test_the_notification_service_over_grpc() -> None:
    import grpc
    from tablero.server.grpc.gen import notifications_pb2 as npb
    from tablero.server.grpc.gen import notifications_pb2_grpc as npbg

    vapid = Vapid()
    vapid.generate_keys()
    with ServerThread(vapid_private_key=vapid.private_pem().decode()) as srv, \
            grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}") as ch:
        stub = npbg.NotificationServiceStub(ch)
        key = stub.GetPushKey(npb.GetPushKeyRequest()).public_key
        assert key == b64u(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
        with pytest.raises(grpc.RpcError) as e:  # the list needs a signed-in portal user
            stub.ListNotifications(npb.ListNotificationsRequest())
        assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with ServerThread() as srv, grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}") as ch:
        with pytest.raises(grpc.RpcError) as e:  # a server without notifications
            npbg.NotificationServiceStub(ch).GetPushKey(npb.GetPushKeyRequest())
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
