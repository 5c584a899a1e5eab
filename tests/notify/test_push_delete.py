"""Only a push subscription's owner removes it (POST /v1/push/subscriptions:delete,
DeletePushSubscription), as only an owner registers it: the portal user it was registered for,
or the browser that subscribed it (its keys). Found by an outside pass: the call needed no token
and removed anyone's subscription whose endpoint was known; and registering a known endpoint
with other keys took it over (then deleting it as its new owner)."""

from __future__ import annotations

import json
import time

import grpc
import jwt
from py_vapid import Vapid
from tablero.server.grpc.gen import notifications_pb2 as npb
from tablero.server.grpc.gen import notifications_pb2_grpc as npbg

from tests import plainhttp
from tests.notify.test_webpush import PushService
from tests.server.support import ServerThread

KEY = "a-portal-secret-of-at-least-32-bytes!"


def _as(user: str) -> dict[str, str]:
    claims = {"sub": user, "exp": int(time.time()) + 600}
    return {"Authorization": "Bearer " + jwt.encode(claims, KEY, algorithm="HS256", headers={"kid": "k1"})}


def test_only_the_owner_removes_a_push_subscription() -> None:
    vapid = Vapid()
    vapid.generate_keys()
    victim, thief = PushService(), PushService()
    try:
        with ServerThread(vapid_private_key=vapid.private_pem().decode(), webhooks_allow_private=True,
                          portal_keys=json.dumps({"k1": KEY})) as srv:
            h = srv.http
            sub = victim.subscription()
            endpoint_only = {"subscription": {"endpoint": sub["endpoint"]}}

            def delete(body, headers=None):
                return plainhttp.post(f"{h}/v1/push/subscriptions:delete", json=body, headers=headers or {})

            def registered() -> bool:  # whether the victim's subscription is still there (asked as its owner)
                r = plainhttp.post(f"{h}/v1/push/subscriptions", json={"subscription": sub}, headers=_as("vic"))
                return r.status_code == 200

            assert plainhttp.post(f"{h}/v1/push/subscriptions", json={"subscription": sub},
                                  headers=_as("vic")).status_code == 200
            # The pass's call: no token, the endpoint only.
            r = delete(endpoint_only)
            assert (r.status_code, r.json()["error"]["reason"]) == (401, "TOKEN_MISSING"), r.text
            # Another user, with the endpoint, or with keys of their own.
            assert delete(endpoint_only, _as("mal")).status_code == 403
            forged = {"subscription": {"endpoint": sub["endpoint"], "keys": thief.subscription()["keys"]}}
            assert delete(forged).status_code == 403 and delete(forged, _as("mal")).status_code == 403
            # Nor can they take it over by registering its endpoint with their keys.
            r = plainhttp.post(f"{h}/v1/push/subscriptions", json=forged, headers=_as("mal"))
            assert r.status_code == 403 and "other keys" in r.json()["error"]["message"], r.text
            with grpc.insecure_channel(srv.grpc) as ch:
                stub = npbg.NotificationServiceStub(ch)
                try:
                    stub.DeletePushSubscription(npb.DeletePushSubscriptionRequest(
                        subscription=npb.PushSubscription(endpoint=sub["endpoint"])), timeout=10)
                    raise AssertionError("removed over gRPC without a token")
                except grpc.RpcError as e:
                    assert e.code() == grpc.StatusCode.UNAUTHENTICATED, e
            assert registered()
            # Its user removes it; then it is gone.
            assert delete(endpoint_only, _as("vic")).json() == {"removed": True}
            assert delete(endpoint_only, _as("vic")).json() == {"removed": False}
            # Registered for a seat only (no user): the browser removes it with its keys, no token.
            g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            seat = {"gameId": g["game"]["id"], "token": g["seats"][1]["token"]}
            assert plainhttp.post(f"{h}/v1/push/subscriptions", json={"subscription": sub,
                                                                       "seats": [seat]}).status_code == 200
            assert delete(endpoint_only, _as("mal")).status_code == 403
            assert delete({"subscription": sub}).json() == {"removed": True}
    finally:
        victim.close()
        thief.close()
