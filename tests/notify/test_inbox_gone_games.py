"""A game that expires (TABLERO_ABANDONED_TTL) while a portal user is to act: its "turn" item
stayed in the user's notification list for good (outside operator pass): `pendingTurns` counted a
turn of a game that answered 404 and that "My games" no longer listed. Now a listing drops the
turn items of games that are gone (real server, real Redis)."""

from __future__ import annotations

import json
import time

import jwt
import redis

from tests import plainhttp
from tests.notify.test_webpush import _wait
from tests.server.support import ServerProcess

KEY = "a-portal-secret-of-at-least-32-bytes!"


def _user(sub: str) -> dict[str, str]:
    token = jwt.encode({"sub": sub, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})
    return {"Authorization": f"Bearer {token}"}


def _expire_now(redis_url: str, game_id: str) -> None:
    """The game's TTL runs out: its keys expire (the hour of TABLERO_ABANDONED_TTL, passed)."""
    r = redis.Redis.from_url(redis_url)
    keys = list(r.scan_iter(match=f"tablero:{{{game_id}}}:*"))
    assert keys and all(r.ttl(k) > 0 for k in keys)  # the server set the TTL on each
    for k in keys:
        r.pexpire(k, 1)


def test_a_turn_of_an_expired_game_leaves_the_list(fresh_redis_url):
    env = {"TABLERO_REDIS_URL": fresh_redis_url, "TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY}),
           "TABLERO_ABANDONED_TTL": "3600"}
    alice, bob = _user("alice"), _user("bob")
    with ServerProcess(env) as srv:
        h = srv.http

        def listed(who: dict[str, str]) -> dict:
            return plainhttp.get(f"{h}/v1/notifications", headers=who, timeout=10).json()

        gid = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]},
                             headers=alice).json()["game"]["id"]
        plainhttp.post(f"{h}/v1/games/{gid}/join", json={}, headers=bob).raise_for_status()
        plainhttp.post(f"{h}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                       headers=alice).raise_for_status()
        # (the notify worker's child process may take a while to start on a loaded machine)
        assert _wait(lambda: listed(bob)["pendingTurns"] == 1, 60), listed(bob)
        kept = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]},
                              headers=bob).json()["game"]["id"]  # bob's own turn, in a game that lives on
        assert _wait(lambda: listed(bob)["pendingTurns"] == 2, 30), listed(bob)
        _expire_now(fresh_redis_url, gid)
        assert _wait(lambda: plainhttp.get(f"{h}/v1/games/{gid}", timeout=10).status_code == 404, 10)
        page = listed(bob)
        assert [(n["kind"], n["gameId"]) for n in page["notifications"]] == [("turn", kept)], page
        assert page["pendingTurns"] == 1 and page["unread"] == 1
