"""Every operation of the OpenAPI document lists the 401 a refused portal JWT gets.

The server verifies a JWT on every call that sends one (the call's user: rate limits, `mine`,
"me" seats), so a frontend that sends its user's expired JWT with every request gets 401
`TOKEN_EXPIRED` on public reads too (engines, leaderboards, players, the push key, rankings).
The document listed 401 only on the calls that need a token, so a client generated from it had
no typed answer for that refusal."""

from __future__ import annotations

import time
from collections.abc import Iterator

import jwt
import pytest

from tests import plainhttp
from tests.ratings.support import KEY, KEYS
from tests.server.support import ServerProcess


@pytest.fixture(scope="module")
def portal() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


def test_a_refused_jwt_is_a_documented_401_on_every_operation(portal):
    doc = plainhttp.get(portal.http + "/openapi.json").json()
    expired = jwt.encode({"sub": "ann", "exp": int(time.time()) - 3600}, KEY, algorithm="HS256", headers={"kid": "k1"})
    values = {"name": "tic-tac-toe", "engine": "tic-tac-toe", "gameId": "g1", "userId": "ann", "ticketId": "t1"}
    asked = 0
    for path, ops in doc["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for verb, op in ops.items():
            url = portal.http + path.format(**{k: values[k] for k in values if "{" + k + "}" in path})
            headers = {"Authorization": f"Bearer {expired}"}
            r = (plainhttp.get(url, headers=headers) if verb == "get"
                 else plainhttp.post(url, headers=headers, json={}))
            assert r.status_code == 401, (verb, path, r.status_code, r.text)
            assert r.json()["error"]["reason"] == "TOKEN_EXPIRED", (verb, path)
            assert "401" in op["responses"], f"{op['operationId']} answers 401 but its document lists no 401"
            asked += 1
    assert asked >= 20
