"""A fault of the server over Connect is `internal` with the reason INTERNAL (docs/api.md
"Error reasons": every refusal carries a reason, INTERNAL for a fault), as REST's
`error.reason` says; the message tells nothing of the fault."""

from __future__ import annotations

import base64

import httpx
from google.rpc import error_details_pb2
from tablero.server.http.connect import connect_app


class _FaultyApi:
    max_body = max_rankings_body = 1 << 20

    def body_limit(self, rpc: str) -> int:
        return self.max_body

    async def unary(self, rpc, wire):
        raise RuntimeError("a secret detail of the fault")


async def test_a_fault_is_internal_with_its_reason():
    app = connect_app(_FaultyApi())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        r = await client.post("/tablero.v1.GameService/GetGame", json={"gameId": "g"})
    assert r.status_code == 500
    err = r.json()
    assert err["code"] == "internal" and "secret" not in err["message"]
    (detail,) = err["details"]
    raw = base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4))
    assert error_details_pb2.ErrorInfo.FromString(raw).reason == "INTERNAL"
