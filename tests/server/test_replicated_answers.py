"""Acknowledged means replicated (TABLERO_REDIS_MIN_REPLICAS_ACK), for every answer that says a
write happened: an outside operator's retried create was answered 200 from the game its first,
refused attempt had left on the master, and a join 200 at its first attempt, with no replica to
confirm either (only moves waited). Here no replica exists: every such answer is 503
NOT_REPLICATED on the server that asks for one, and the same requests succeed, exactly once, on a
server that does not."""

from __future__ import annotations

from tests import plainhttp
from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess


def _refused(r) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["error"]["reason"] == "NOT_REPLICATED", r.text


def test_a_retried_create_and_a_join_wait_for_replicas_as_a_move_does(fresh_redis_url):
    env = {"TABLERO_REDIS_URL": fresh_redis_url, "TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}
    with ServerProcess(env) as plain, ServerProcess({**env, "TABLERO_REDIS_MIN_REPLICAS_ACK": "1",
                                                     "TABLERO_REDIS_REPLICAS_ACK_TIMEOUT": "0.2"}) as acked:
        create = {"engine": "tic-tac-toe", "seats": ["human", "open"], "requestId": "replicated-create-0001"}
        _refused(plainhttp.post(f"{acked.http}/v1/games", json=create))
        _refused(plainhttp.post(f"{acked.http}/v1/games", json=create))  # the retry: still not confirmed
        made = plainhttp.post(f"{plain.http}/v1/games", json=create)
        assert made.status_code == 200, made.text
        game = made.json()["game"]["id"]
        assert plainhttp.post(f"{plain.http}/v1/games", json=create).json()["game"]["id"] == game  # one game

        # An anonymous join with a requestId, and its retry: refused; then its one seat.
        join = {"requestId": "replicated-join-00001"}
        _refused(plainhttp.post(f"{acked.http}/v1/games/{game}/join", json=join))
        _refused(plainhttp.post(f"{acked.http}/v1/games/{game}/join", json=join))
        seat = plainhttp.post(f"{plain.http}/v1/games/{game}/join", json=join)
        assert seat.status_code == 200 and seat.json()["seat"] == 1, seat.text

        # A portal user's seat, asked for again (another device): the answer waits for replicas too.
        other = plainhttp.post(f"{plain.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]})
        other_id = other.json()["game"]["id"]
        ann = {"authorization": f"Bearer {token('replicated-ann')}"}
        held = plainhttp.post(f"{plain.http}/v1/games/{other_id}/join", json={}, headers=ann)
        assert held.status_code == 200 and held.json()["seat"] == 1, held.text
        _refused(plainhttp.post(f"{acked.http}/v1/games/{other_id}/join", json={}, headers=ann))
        again = plainhttp.post(f"{plain.http}/v1/games/{other_id}/join", json={}, headers=ann)
        assert again.status_code == 200 and again.json()["seat"] == 1, again.text
