"""A portal JWT is short-lived (outside tester: a token valid for a year was taken, though the
docs say "short-lived"). One that lives longer than TABLERO_PORTAL_MAX_TOKEN_LIFETIME (24 h by
default) is refused, 401 TOKEN_INVALID with a message that says so: its `exp` - `iat`, or, without
`iat`, its `exp` - now (allowing the 30 s of clock-skew leeway). 0 turns the cap off."""

import json
import time

import grpc
import jwt
import pytest
from tablero.server.config import Config
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.portal.identity import LEEWAY, IdentityError, PortalKeys

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "k1-" + "a" * 40
DAY = 24 * 3600
YEAR = 365 * DAY


def _jwt(lifetime: float, iat: bool = True, **claims) -> str:
    now = int(time.time())
    body = {"sub": "ana", "exp": now + int(lifetime), **({"iat": now} if iat else {}), **claims}
    return jwt.encode(body, KEY, algorithm="HS256", headers={"kid": "k1"})


def test_the_cap_is_24_h_by_default_and_counts_from_iat_or_now():
    keys = PortalKeys.from_json(json.dumps({"k1": KEY}))
    assert Config().portal_max_token_lifetime == DAY
    for lifetime, iat in ((DAY, True), (DAY, False), (DAY + LEEWAY - 5, False), (600, True)):
        assert keys.verify(_jwt(lifetime, iat)).id == "ana"
    for lifetime, iat, says in ((YEAR, True, '365 days ("exp" - "iat")'), (YEAR, False, '("exp" - now)'),
                                (DAY + 60, True, "24.0167 h"), (DAY + LEEWAY + 60, False, "at most 24 h")):
        with pytest.raises(IdentityError) as e:
            keys.verify(_jwt(lifetime, iat))
        assert says in str(e.value) and "TABLERO_PORTAL_MAX_TOKEN_LIFETIME" in str(e.value), str(e.value)
    # an iat long before exp counts as issued then: the token has lived that long
    now = int(time.time())
    old = jwt.encode({"sub": "ana", "iat": now - 2 * DAY, "exp": now + 600}, KEY, algorithm="HS256",
                     headers={"kid": "k1"})
    with pytest.raises(IdentityError, match="lives 2.00694 days"):
        keys.verify(old)
    assert PortalKeys.from_json(json.dumps({"k1": KEY}), max_lifetime=0).verify(_jwt(YEAR)).id == "ana"
    assert PortalKeys.from_json(json.dumps({"k1": KEY}), max_lifetime=3600).verify(_jwt(3600)).id == "ana"
    with pytest.raises(IdentityError, match="at most 1 h"):
        PortalKeys.from_json(json.dumps({"k1": KEY}), max_lifetime=3600).verify(_jwt(7200))


def test_a_year_long_token_is_refused_over_rest_and_grpc_and_the_setting_moves_the_cap():
    with ServerThread(portal_keys=json.dumps({"k1": KEY})) as s:
        for token in (_jwt(YEAR), _jwt(YEAR, iat=False)):
            r = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"},
                              headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 401 and r.json()["error"]["reason"] == "TOKEN_INVALID", r.text
            assert "longer than this server accepts" in r.json()["error"]["message"], r.text
            with grpc.insecure_channel(s.grpc) as ch:
                with pytest.raises(grpc.RpcError) as e:
                    pbg.GameServiceStub(ch).ListGames(pb.ListGamesRequest(mine=True), timeout=10,
                                                      metadata=(("authorization", f"Bearer {token}"),))
            assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED and "365 days" in e.value.details()
        r = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers={"Authorization": f"Bearer {_jwt(DAY)}"})
        assert r.status_code == 200, r.text
    with ServerThread(portal_keys=json.dumps({"k1": KEY}), portal_max_token_lifetime=2 * YEAR) as s:
        r = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers={"Authorization": f"Bearer {_jwt(YEAR)}"})
        assert r.status_code == 200, r.text


def test_the_setting_is_checked_at_start(monkeypatch):
    monkeypatch.setenv("TABLERO_PORTAL_MAX_TOKEN_LIFETIME", "3600")
    assert Config().portal_max_token_lifetime == 3600
    monkeypatch.setenv("TABLERO_PORTAL_MAX_TOKEN_LIFETIME", "-1")
    with pytest.raises(ValueError, match="portal_max_token_lifetime"):
        Config()
