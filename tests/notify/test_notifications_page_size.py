"""`GET /v1/notifications` refuses a page size out of range (as `GET /v1/games` does) instead
of answering a page of one item for `pageSize=-1`, or silently more than the documented 100."""

from __future__ import annotations

import json
import time

import jwt

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "a-portal-secret-of-at-least-32-bytes!"


def portal(user: str) -> dict[str, str]:
    claims = {"sub": user, "exp": int(time.time()) + 600}
    return {"Authorization": "Bearer " + jwt.encode(claims, KEY, algorithm="HS256", headers={"kid": "k1"})}


def test_a_page_size_out_of_range_is_refused() -> None:
    with ServerThread(portal_keys=json.dumps({"k1": KEY})) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        alice = portal("alice")
        for size in ("-1", "101"):
            r = plainhttp.get(f"{h}/v1/notifications", params={"pageSize": size}, headers=alice)
            assert r.status_code == 400, (size, r.text)
            assert "pageSize" in r.json()["error"]["message"]
        for size in ("0", "1", "100"):  # 0: the default
            r = plainhttp.get(f"{h}/v1/notifications", params={"pageSize": size}, headers=alice)
            assert r.status_code == 200, (size, r.text)
