"""`POST /v1/push/subscriptions` checks the subscription's keys: a `p256dh` that is not a
P-256 public key or an `auth` that is not 16 bytes (base64url) gets 400 at once, instead of
being stored and failing at every send."""

from __future__ import annotations

import base64
import os

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from tests import plainhttp
from tests.server.support import ServerThread


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_bad_subscription_keys_are_refused() -> None:
    vapid = Vapid()
    vapid.generate_keys()
    pub = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    good = {"p256dh": b64u(pub), "auth": b64u(os.urandom(16))}
    with ServerThread(vapid_private_key=vapid.private_pem().decode(), webhooks_allow_private=True) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        seats = [{"gameId": g["game"]["id"], "token": g["seats"][0]["token"]}]
        bad_point = b"\x04" + b"\x01" * 64  # 65 bytes, not on the curve
        for keys in ({"p256dh": "bad", "auth": "bad"}, {**good, "auth": "x"}, {**good, "p256dh": b64u(bad_point)},
                     {**good, "auth": b64u(os.urandom(15))}, {**good, "p256dh": "!!!"}):
            sub = {"endpoint": "http://127.0.0.1:1/push", "keys": keys}
            r = plainhttp.post(f"{h}/v1/push/subscriptions", json={"subscription": sub, "seats": seats})
            assert r.status_code == 400, (keys, r.text)
            assert "p256dh" in r.json()["error"]["message"] or "auth" in r.json()["error"]["message"]
        sub = {"endpoint": "http://127.0.0.1:1/push", "keys": good}
        r = plainhttp.post(f"{h}/v1/push/subscriptions", json={"subscription": sub, "seats": seats})
        assert r.status_code == 200, r.text
