"""`POST /v1/push/subscriptions` takes the subscription as a browser gives it:
`JSON.stringify(subscription)` (PushSubscription.toJSON()) has `expirationTime` beside `endpoint`
and `keys` — `null` in Chromium and Firefox, a number of milliseconds where the push service sets
an expiry. A page that sends it as it is must not get 400 "unknown field"; the other unknown
fields are still refused, and so is an `expirationTime` that is not a number or null."""

from __future__ import annotations

import base64
import os

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from tests import plainhttp
from tests.server.support import ServerThread


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.fixture(scope="module")
def server():
    vapid = Vapid()
    vapid.generate_keys()
    with ServerThread(vapid_private_key=vapid.private_pem().decode(), webhooks_allow_private=True) as srv:
        yield f"http://127.0.0.1:{srv.http_port}"


def browser_subscription(expiration) -> dict:
    pub = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    return {"endpoint": f"http://127.0.0.1:1/push/{b64u(os.urandom(6))}", "expirationTime": expiration,
            "keys": {"p256dh": b64u(pub), "auth": b64u(os.urandom(16))}}


def seats(h: str) -> list[dict]:
    g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    return [{"gameId": g["game"]["id"], "token": g["seats"][0]["token"]}]


@pytest.mark.parametrize("expiration", [None, 1767225600000], ids=["null", "a-time"])
def test_a_browsers_subscription_json_is_taken_as_it_is(server, expiration):
    r = plainhttp.post(f"{server}/v1/push/subscriptions",
                   json={"subscription": browser_subscription(expiration), "seats": seats(server)})
    assert r.status_code == 200, r.text
    assert r.json()["owners"] == 1


@pytest.mark.parametrize("sub_extra", [{"expirationTime": "soon"}, {"options": {}}], ids=["bad-time", "unknown"])
def test_other_fields_are_still_checked(server, sub_extra):
    sub = {**browser_subscription(None), **sub_extra}
    r = plainhttp.post(f"{server}/v1/push/subscriptions", json={"subscription": sub, "seats": seats(server)})
    assert r.status_code == 400, r.text
