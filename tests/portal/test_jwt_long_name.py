"""A portal JWT's `name` is the user's display name, signed as the portal has it: one longer
than 64 characters is shortened, not a reason to refuse every call the user makes (it was 401
TOKEN_INVALID on create, join, moves, "My games" and notifications alike). Control characters
are still refused (docs/api.md, "Portal")."""

import json
import time
import unicodedata

import jwt
import pytest
from tablero.server.portal.identity import MAX_NAME, IdentityError, PortalKeys

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "k1-" + "a" * 40
LONG = "María de los Ángeles Fernández-Villaverde y Rodríguez de la Concepción del Valle"


def _jwt(**claims) -> str:
    body = {"sub": "maria", "exp": int(time.time()) + 600, **claims}
    return jwt.encode(body, KEY, algorithm="HS256", headers={"kid": "k1"})


def test_a_long_name_is_shortened_and_a_decomposed_one_counted_by_letters():
    keys = PortalKeys.from_json(json.dumps({"k1": KEY}))
    user = keys.verify(_jwt(name=LONG))
    assert user.id == "maria" and len(user.name) == MAX_NAME, user.name
    assert user.name.endswith("\u2026") and LONG.startswith(user.name[:-1].rstrip())
    # 40 accented letters sent decomposed (NFD, as macOS gives them) are 80 code points.
    nfd = unicodedata.normalize("NFD", "é" * 40)
    assert keys.verify(_jwt(name=nfd)).name == "é" * 40
    assert keys.verify(_jwt(name="x" * MAX_NAME)).name == "x" * MAX_NAME
    with pytest.raises(IdentityError, match="control character"):
        keys.verify(_jwt(name="B\u0000ob" + "x" * 100))


def test_a_user_with_a_long_name_plays_and_is_seated_under_the_shortened_name():
    with ServerThread(portal_keys=json.dumps({"k1": KEY})) as s:
        auth = {"Authorization": f"Bearer {_jwt(name=LONG)}"}
        r = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]},
                           headers=auth)
        assert r.status_code == 200, r.text
        seat = r.json()["game"]["seats"][0]
        assert seat["userId"] == "maria" and len(seat["userName"]) == MAX_NAME, seat
        mine = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers=auth)
        assert mine.status_code == 200 and [g["id"] for g in mine.json()["games"]] == [r.json()["game"]["id"]]
