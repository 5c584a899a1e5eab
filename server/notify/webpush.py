"""Web Push (RFC 8030) with RFC 8291 encryption and RFC 8292 VAPID, through `pywebpush`.

The server's VAPID key pair is the setting TABLERO_VAPID_PRIVATE_KEY (PEM, or the base64url
raw/DER key `vapid --gen` writes); its public half is what browsers subscribe with
(`GET /v1/push/key`). TABLERO_VAPID_SUBJECT (a mailto: or https: URL) names the operator to
push services.

Subscriptions are kept in the notification store's key-value space `push` (id -> the
browser's subscription and its owners: `seat:<game>:<seat>` or `user:<portal user id>`) and
`owner` (owner -> subscription ids). A push service answering 404 or 410 means the
subscription is gone: it is removed.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from typing import Any
from urllib.parse import urlsplit

GONE = (404, 410)
MAX_OWNERS = 64  # games or users one subscription may follow


def load_vapid(private_key: str) -> Any:
    from py_vapid import Vapid  # imported where Web Push is used (with pywebpush's requests stack)

    text = private_key.strip()
    if "BEGIN" in text:
        return Vapid.from_pem(text.encode())
    return Vapid.from_string(private_key=text)


def public_key(vapid: Any) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def check_subscription(sub: Any) -> dict[str, Any]:
    """A browser PushSubscription's JSON, checked; ValueError names what is wrong."""
    if not isinstance(sub, dict) or not isinstance(sub.get("endpoint"), str):
        raise ValueError('"subscription" must be a PushSubscription JSON: {"endpoint", "keys": {"p256dh", "auth"}}')
    keys = sub.get("keys")
    if urlsplit(sub["endpoint"]).scheme not in ("https", "http") or len(sub["endpoint"]) > 2048:
        raise ValueError("the subscription's endpoint must be an http(s) URL")
    if not isinstance(keys, dict) or not all(isinstance(keys.get(k), str) for k in ("p256dh", "auth")):
        raise ValueError('the subscription needs "keys": {"p256dh", "auth"}')
    return {"endpoint": sub["endpoint"], "keys": {"p256dh": keys["p256dh"], "auth": keys["auth"]}}


def subscription_id(sub: dict[str, Any]) -> str:
    return "sub_" + hashlib.sha256(sub["endpoint"].encode()).hexdigest()[:20]


class Subscriptions:
    """Subscriptions and their owners in the queue's key-value space."""

    def __init__(self, queue: Any) -> None:
        self.q = queue

    async def add(self, sub: dict[str, Any], owners: list[str]) -> str:
        sid = subscription_id(sub)
        old = json.loads(await self.q.kv_get("push", sid) or "null") or {"owners": []}
        merged = list(dict.fromkeys([*old["owners"], *owners]))[-MAX_OWNERS:]
        await self.q.kv_set("push", sid, json.dumps({"subscription": sub, "owners": merged}))
        for owner in owners:
            ids = json.loads(await self.q.kv_get("owner", owner) or "[]")
            if sid not in ids:
                await self.q.kv_set("owner", owner, json.dumps([*ids, sid][-MAX_OWNERS:]))
        return sid

    async def get(self, sid: str) -> dict[str, Any] | None:
        raw = await self.q.kv_get("push", sid)
        return None if raw is None else json.loads(raw)

    async def of(self, owners: list[str]) -> list[str]:
        out: list[str] = []
        for owner in owners:
            out += json.loads(await self.q.kv_get("owner", owner) or "[]")
        return list(dict.fromkeys(out))

    async def remove(self, sid: str) -> None:
        doc = await self.get(sid)
        await self.q.kv_del("push", sid)
        for owner in (doc or {}).get("owners", ()):
            ids = [i for i in json.loads(await self.q.kv_get("owner", owner) or "[]") if i != sid]
            if ids:
                await self.q.kv_set("owner", owner, json.dumps(ids))
            else:
                await self.q.kv_del("owner", owner)


class Pusher:
    def __init__(self, private_key: str, subject: str, timeout: float) -> None:
        self.vapid = load_vapid(private_key)
        self.private_key, self.subject, self.timeout = private_key.strip(), subject, timeout
        self.public_key = public_key(self.vapid)

    def _send(self, sub: dict[str, Any], data: bytes) -> int:
        from pywebpush import WebPushException, webpush

        origin = "{0.scheme}://{0.netloc}".format(urlsplit(sub["endpoint"]))
        try:
            resp = webpush(sub, data=data, vapid_private_key=self.vapid,
                           vapid_claims={"sub": self.subject, "aud": origin}, timeout=self.timeout, ttl=86400)
            return resp.status_code
        except WebPushException as e:
            if e.response is not None:
                return e.response.status_code
            raise

    async def send(self, sub: dict[str, Any], message: dict[str, Any]) -> int:
        """The push service's status (201 sent; 404/410 gone; others: retry)."""
        data = json.dumps(message, separators=(",", ":")).encode()
        return await asyncio.to_thread(self._send, sub, data)
