"""Issue 32's fault test: two replicas on one Redis play 500 tic-tac-toe games to the end
while the webhook receiver fails 20 % of the deliveries at random and one replica is
SIGKILLed halfway. Every webhook the games imply arrives (each webhook-id at least once), no
two ids carry the same event, they arrive in order per game, and every signature verifies
with the `standardwebhooks` package (the receiver refuses any that does not)."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict

import pytest

from tests.faults.app_load import Replica
from tests.notify.play import expected_ids, play_many
from tests.notify.receiver import Receiver, endpoints_json, secret
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.slow]

GAMES = 500


def _env(redis_url: str, hooks: str) -> dict[str, str]:
    return {"TABLERO_REDIS_URL": redis_url, "TABLERO_WEBHOOKS": hooks, "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1",
            "TABLERO_WEBHOOKS_BACKOFF": "0.05", "TABLERO_WEBHOOKS_BACKOFF_MAX": "0.5",
            "TABLERO_WEBHOOKS_TIMEOUT": "2", "TABLERO_WEBHOOKS_CONCURRENCY": "16",
            "TABLERO_NOTIFY_SWEEP": "10"}  # a signal the kill lost is swept up within the wait


def check(games: list, accepted: list[dict]) -> dict[str, int]:
    """The audit; returns its counts."""
    by_game: dict[str, list[dict]] = defaultdict(list)
    for doc in accepted:
        by_game[doc["data"]["gameId"]].append(doc)
    missing, out_of_order, dups = 0, 0, 0
    for p in games:
        want = expected_ids(p)
        got = [d["id"] for d in by_game.get(p.id, [])]
        assert set(got) == set(want), f"game {p.id}: missing {set(want) - set(got)}, extra {set(got) - set(want)}"
        rank = {i: n for n, i in enumerate(want)}
        seen = [rank[i] for i in got]
        # In order: each arrival is the next event or a repeat of the one before (a retry
        # whose answer was lost is sent again before anything after it).
        assert all(b >= a for a, b in zip(seen, seen[1:], strict=False)), f"game {p.id}: out of order {got}"
        dups += len(got) - len(set(got))
    # No two different ids carry the same event: (game, kind, version) -> one id, one body.
    carried: dict[tuple, set[str]] = defaultdict(set)
    bodies: dict[str, set[str]] = defaultdict(set)
    for doc in accepted:
        carried[(doc["data"]["gameId"], doc["type"], doc["data"]["version"], str(doc["data"].get("seat")))].add(
            doc["id"])
        bodies[doc["id"]].add(repr(sorted(doc["data"].items())))
    assert all(len(ids) == 1 for ids in carried.values())
    assert all(len(b) == 1 for b in bodies.values())
    return {"missing": missing, "out_of_order": out_of_order, "duplicates": dups}


def test_500_games_two_replicas_one_killed_receiver_failing_20_percent() -> None:
    with RedisServer() as redis, Receiver(secret(), fail_rate=0.2) as rec:
        env = _env(redis.url, endpoints_json((rec.url, secret())))
        a, b = Replica(env).start(), Replica(env).start()
        try:
            killed_at: list[float] = []

            def during(done: int) -> None:
                if done == GAMES // 2 and not killed_at:
                    a.kill()
                    killed_at.append(time.monotonic())

            t0 = time.monotonic()
            games = asyncio.run(play_many([a.http, b.http], GAMES, concurrency=48, during=during))
            played = time.monotonic() - t0
            want = sum(len(expected_ids(p)) for p in games)
            ids = {i for p in games for i in expected_ids(p)}
            # (no bound on the time is claimed: the wait only has to outlast a starved CPU; CI's 2 shared
            # cores, three workers beside this test, once left 201 of 5,329 still on their way at 90 s)
            arrived = rec.wait_for(lambda acc: ids <= {d["id"] for d in acc}, timeout=240)
            settled = time.monotonic() - t0
            with rec.lock:
                accepted = list(rec.accepted)
            assert arrived, f"{len(ids - {d['id'] for d in accepted})} of {want} webhooks never arrived"
            counts = check(games, accepted)
            assert rec.bad_signatures == 0, rec.refusals[:5]
            assert killed_at and all(p.finished for p in games) and len(games) == GAMES
            print(f"\n{GAMES} games played in {played:.1f} s; all {want} webhooks arrived {settled:.1f} s "
                  f"after the start; attempts {rec.attempts}, failed on purpose {rec.failed}, "
                  f"duplicates {counts['duplicates']}, cut off by the kill {rec.truncated}, "
                  f"bad signatures {rec.bad_signatures}")
            assert not b.errors(), b.errors()
        finally:
            a.close()
            b.close()
