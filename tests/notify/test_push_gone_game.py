"""A "your turn" push being retried (the push service was down) whose game is then deleted by the
operator (`tablero admin delete`) or expires (TABLERO_FINISHED_TTL / TABLERO_ABANDONED_TTL): each
attempt raised NOT_FOUND reading the game, outside the send, so the delivery was never settled:
"delivery on push failed to settle" at every lease (about 35 s) for good, the push queue's depth
and oldest-pending age never went down (TableroWebhookQueueStalled fired for a game that no longer
exists). Outside operator pass. Now a push for a game that is gone is dropped, as one whose turn is
over is (real server, real Redis, the notify worker in its child process)."""

from __future__ import annotations

import subprocess
import sys
import time

from tests import plainhttp
from tests.notify.test_push_stale_turn import FlakyPushService, o_subscribed
from tests.notify.test_webpush import _wait
from tests.server.support import ROOT


def _push_queued(metrics: str) -> float:
    for line in plainhttp.get(metrics).text.splitlines():
        if line.startswith('tablero_notify_queue_depth{target="push"}'):
            return float(line.split()[-1])
    return -1.0


def test_a_push_for_a_deleted_game_is_dropped_not_retried_forever(fresh_redis_url):
    push = FlakyPushService()
    try:
        with o_subscribed(fresh_redis_url, push, TABLERO_WEBHOOKS_TIMEOUT="1") as (srv, gid, x, _o):
            h = srv.http
            plainhttp.post(f"{h}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {x}"},
                           json={"action": {"type": "place", "cell": 4}}).raise_for_status()
            assert _wait(lambda: push.attempts >= 2, 60), push.attempts  # O's push fails, and is retried
            deleted = subprocess.run([sys.executable, "-m", "tablero.server", "admin", "--redis-url",
                                      fresh_redis_url, "delete", gid], cwd=ROOT, capture_output=True, text=True)
            assert deleted.returncode == 0, deleted.stderr
            push.down = False
            # The delivery is settled (dropped): the push queue empties, within a few retry periods
            # (the stats loop refreshes the gauge every 5 s).
            assert _wait(lambda: _push_queued(srv.metrics) == 0, 20), _push_queued(srv.metrics)
            assert push.received == []
            time.sleep(0.5)
            code, log = srv.terminate()
    finally:
        push.close()
    assert "failed to settle" not in log, [line for line in log.splitlines() if "failed to settle" in line]
