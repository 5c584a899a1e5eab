"""A webhook endpoint given the id "inbox" or "push" (outside operator pass): its deliveries went
into the notification list's or Web Push's lanes and were taken for theirs, so none reached the
endpoint ("delivery on inbox failed to settle: KeyError: 'user'" at every lease, the lane stuck for
good). `tablero serve` now refuses such an id at start, as it refuses every other bad setting."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.notify.receiver import secret
from tests.server.support import ROOT, free_ports


def test_an_endpoint_id_of_the_queues_own_targets_is_refused_at_start() -> None:
    for reserved in ("inbox", "push"):
        http, grpc, metrics = map(str, free_ports(3))
        hooks = json.dumps([{"id": reserved, "url": "https://portal.example/hooks", "secret": secret()}])
        env = {**os.environ, "TABLERO_SECRET": "a-test-secret-of-some-length", "TABLERO_WEBHOOKS": hooks}
        r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", http, "--grpc-port", grpc,
                            "--metrics-port", metrics], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "TABLERO_WEBHOOKS" in r.stderr and f"the id '{reserved}'" in r.stderr, r.stderr
