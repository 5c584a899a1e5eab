"""Webhook endpoints (`TABLERO_WEBHOOKS`), Standard Webhooks signing, and a guarded send.

    TABLERO_WEBHOOKS='[{"url": "https://portal.example/hooks", "secret": "whsec_...",
                        "events": ["turn.started", "game.finished"]}]'

`secret` is a Standard Webhooks secret (`whsec_` + base64, at least 24 bytes) or a list of
two while one is rotated: every delivery then carries one `v1,` signature per secret in
`webhook-signature`, so a receiver holding either verifies it. `events` (default: all kinds)
filters what the endpoint gets; `id` (default: a hash of the URL) names the endpoint in
metrics, lanes and dead letters: keep it when the URL changes to keep its queue. A URL's
credentials (`https://user:password@host/...`) are sent as HTTP Basic authentication, as curl and
browsers send them, and never logged (`shown`).
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import ipaddress
import json
import logging
import socket
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
from standardwebhooks.webhooks import Webhook
from tablero.server.app.replies import rfc3339

from .events import KINDS

logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per delivery
MAX_RESPONSE = 64 * 1024  # bytes of a receiver's answer read at most (the rest is dropped)


FIELDS = frozenset({"url", "secret", "events", "id"})  # an endpoint of TABLERO_WEBHOOKS
RESERVED_IDS = frozenset({"push", "inbox"})  # the delivery queue's targets besides the endpoints (worker.py)


def shown(url: str) -> str:
    """The URL as logs show it: without its credentials (user:password@) and without its query
    (which often carries a token), e.g. `https://portal.example/hooks?…`."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return parts._replace(netloc=netloc, query="…" if parts.query else "", fragment="").geturl()


def basic_auth(url: str) -> dict[str, str]:
    """The Authorization header of a URL's credentials (none without)."""
    parts = urlsplit(url)
    if parts.username is None:
        return {}
    pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
    return {"authorization": "Basic " + base64.b64encode(pair).decode()}


class Refused(Exception):
    """The destination is not allowed (private or loopback address, bad scheme)."""


@dataclasses.dataclass(frozen=True)
class Endpoint:
    id: str
    url: str
    secrets: tuple[str, ...]
    events: frozenset[str]

    def wants(self, kind: str) -> bool:
        return kind in self.events


def parse_endpoints(text: str | None) -> list[Endpoint]:
    """The endpoints of TABLERO_WEBHOOKS; ValueError names what is wrong."""
    if not text:
        return []
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(doc, list):
        raise ValueError('must be a JSON list of {"url", "secret", "events"}')
    out, seen = [], set()
    for i, item in enumerate(doc):
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            raise ValueError(f"item {i}: needs a \"url\"")
        unknown = sorted(set(item) - FIELDS)
        if unknown:  # a misspelt "events" would otherwise send every kind, a misspelt "id" lose the queue's name
            raise ValueError(f"item {i}: unknown field(s) {', '.join(map(repr, unknown))}; "
                             f"expected {', '.join(sorted(FIELDS))}")
        url = item["url"]
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"item {i}: the url must be http(s)://host/...")
        secrets = item.get("secret")
        secrets = [secrets] if isinstance(secrets, str) else secrets
        if not isinstance(secrets, list) or not 1 <= len(secrets) <= 2 or not all(isinstance(s, str) for s in secrets):
            raise ValueError(f"item {i}: \"secret\" must be a whsec_ secret or a list of two (rotation)")
        for s in secrets:
            try:
                key = s.removeprefix("whsec_")
                import base64

                if len(base64.b64decode(key + "==", validate=False)) < 24:
                    raise ValueError
                Webhook(s)
            except Exception:  # noqa: BLE001 - whatever the library refuses
                raise ValueError(f"item {i}: a secret must be whsec_ + base64 of at least 24 bytes") from None
        events = item.get("events", list(KINDS))
        if not isinstance(events, list) or not events or any(e not in KINDS for e in events):
            raise ValueError(f"item {i}: \"events\" must be a non-empty list of {', '.join(KINDS)}")
        eid = str(item.get("id") or "wh_" + hashlib.sha256(url.encode()).hexdigest()[:12])
        if eid in seen or "|" in eid:
            raise ValueError(f"item {i}: the id {eid!r} is used twice (or has a |)")
        if eid in RESERVED_IDS:  # the queue's own targets: their deliveries would be taken for theirs
            raise ValueError(f"item {i}: the id {eid!r} names the Web Push or notification-list queue; "
                             "choose another")
        seen.add(eid)
        out.append(Endpoint(eid, url, tuple(secrets), frozenset(events)))
    return out


def payload(ev: dict[str, Any]) -> bytes:
    """The body: Standard Webhooks' {"type", "timestamp", "data"} plus the event's id. The
    timestamp is RFC 3339 in UTC to the millisecond, always in one form (e.g.
    2026-12-05T13:10:00.000Z, also on a whole second), as every Timestamp of the API."""
    return json.dumps({"id": ev["id"], "type": ev["type"], "timestamp": rfc3339(ev["timestamp"]), "data": ev["data"]},
                      separators=(",", ":")).encode()


def headers(endpoint: Endpoint, msg_id: str, body: bytes, now: datetime | None = None) -> dict[str, str]:
    now = now or datetime.now(UTC)
    sigs = " ".join(Webhook(s).sign(msg_id, now, body) for s in endpoint.secrets)
    return {"webhook-id": msg_id, "webhook-timestamp": str(int(now.timestamp())), "webhook-signature": sigs,
            "content-type": "application/json", "user-agent": "tablero-webhooks/1"}


def public(ip: str) -> bool:
    a = ipaddress.ip_address(ip)
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        a = a.ipv4_mapped
    return a.is_global and not a.is_multicast


async def resolve(host: str, port: int, allow_private: bool) -> str:
    """An address of `host` to connect to: every address it resolves to must be public
    (unless allowed), checked now — at send time, not when configured (DNS may change)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addrs = [i[4][0] for i in infos]
    if not addrs:
        raise Refused(f"{host} does not resolve")
    if not allow_private:
        bad = [a for a in addrs if not public(a)]
        if bad:
            raise Refused(f"{host} resolves to a private or loopback address ({bad[0]}): refused "
                          "(TABLERO_WEBHOOKS_ALLOW_PRIVATE=1 allows it)")
    return addrs[0]


class Sender:
    """POSTs with a timeout, no redirects, a bounded answer, to the address checked."""

    def __init__(self, timeout: float, allow_private: bool) -> None:
        self.timeout, self.allow_private = timeout, allow_private
        self.client = httpx.AsyncClient(follow_redirects=False, timeout=httpx.Timeout(timeout),
                                        limits=httpx.Limits(max_connections=256, max_keepalive_connections=64),
                                        trust_env=False)

    async def post(self, url: str, body: bytes, hdrs: dict[str, str]) -> tuple[int, str]:
        """(status, first bytes of the answer). Raises Refused, httpx errors, TimeoutError."""
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        async with asyncio.timeout(self.timeout):
            ip = await resolve(parts.hostname or "", port, self.allow_private)
            host = f"[{ip}]" if ":" in ip else ip
            target = parts._replace(netloc=f"{host}:{port}").geturl()
            req = self.client.build_request("POST", target, content=body,
                                            headers={**hdrs, **basic_auth(url),
                                                     "host": parts.netloc.rsplit("@", 1)[-1]},
                                            extensions={"sni_hostname": parts.hostname})
            resp = await self.client.send(req, stream=True)
            try:
                got = b""
                async for chunk in resp.aiter_raw():
                    got += chunk
                    if len(got) >= MAX_RESPONSE:
                        break
                return resp.status_code, got[:200].decode("utf-8", "replace")
            finally:
                await resp.aclose()

    async def close(self) -> None:
        await self.client.aclose()
