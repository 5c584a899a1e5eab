"""A "your turn" push whose delivery failed (the push service was down) is not sent on a retry
once the turn is over: the player moved meanwhile. It used to arrive late, on the phone, as
"Your turn in Tic Tac Toe" for a game waiting for the other player. A turn still running gets
its push as before (real server, real Redis: the notify worker in its child process)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from py_vapid import Vapid

from tests import plainhttp
from tests.notify.test_webpush import PushService, _wait
from tests.server.support import ServerProcess


class FlakyPushService(PushService):
    def __init__(self) -> None:
        super().__init__()
        self.down = True
        self.attempts = 0

    def accept(self, headers, body: bytes) -> int:
        self.attempts += 1
        return 503 if self.down else super().accept(headers, body)


@contextlib.contextmanager
def o_subscribed(redis_url: str, push: PushService, **env: str) -> Iterator[tuple[ServerProcess, str, str, str]]:
    """A server (real Redis, the notify worker in its child process, short webhook backoffs) and a
    Tic-Tac-Toe game whose seat O (1) has a push subscription: (server, game id, X's token, O's)."""
    vapid = Vapid()
    vapid.generate_keys()
    env = {"TABLERO_REDIS_URL": redis_url, "TABLERO_VAPID_PRIVATE_KEY": vapid.private_pem().decode(),
           "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1", "TABLERO_WEBHOOKS_BACKOFF": "0.2",
           "TABLERO_WEBHOOKS_BACKOFF_MAX": "0.4", **env}
    with ServerProcess(env) as srv:
        h = srv.http
        g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, x, o = g["game"]["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        r = plainhttp.post(f"{h}/v1/push/subscriptions",
                           json={"subscription": push.subscription(), "seats": [{"gameId": gid, "token": o}]})
        assert r.status_code == 200, r.text
        yield srv, gid, x, o


def test_a_push_for_a_turn_that_is_over_is_dropped_not_sent_late(fresh_redis_url):
    push = FlakyPushService()
    try:
        with o_subscribed(fresh_redis_url, push) as (srv, gid, x, o):
            h = srv.http

            def move(tok: str, cell: int) -> None:
                plainhttp.post(f"{h}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tok}"},
                               json={"action": {"type": "place", "cell": cell}}).raise_for_status()

            move(x, 4)  # O's turn: its push fails, and is retried
            assert _wait(lambda: push.attempts >= 2, 15), push.attempts
            move(o, 0)  # O has moved: that turn is over
            time.sleep(1.0)  # (an attempt already under way when O moved ends, refused, first)
            push.down = False
            seen = push.attempts
            time.sleep(3.0)  # many retry periods
            assert push.received == [], push.received  # nothing stale arrived
            assert push.attempts == seen, (seen, push.attempts)
            move(x, 8)  # O's turn again: pushed
            assert _wait(lambda: len(push.received) == 1, 15), (push.attempts, push.refused)
            assert push.received[0]["message"]["seat"] == 1 and not push.refused
    finally:
        push.close()
