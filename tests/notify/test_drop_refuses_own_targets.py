"""`tablero admin webhooks drop` is for targets no server sends to any more. It refused an endpoint
TABLERO_WEBHOOKS still names, but dropped the notification list's queue (`inbox`) or Web Push's
(`push`) with the portal keys or the VAPID key still set: every user's pending notifications gone
(lead's review of the drop command). Refused before the store is even opened."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.server.support import ROOT

SETTINGS = {"inbox": {"TABLERO_PORTAL_KEYS": '{"k1": "a-portal-secret-of-32-bytes-or-more!!"}'},
            "push": {"TABLERO_VAPID_PRIVATE_KEY": "any-key: not read by drop"}}


def _drop(target: str, env: dict[str, str], db: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
    return subprocess.run([sys.executable, "-m", "tablero.server", "admin", "webhooks", "drop", target, "--db", db],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, env={**base, **env})


@pytest.mark.parametrize("target", ["inbox", "push"])
def test_drop_refuses_a_queue_its_settings_still_send_to(tmp_path, target):
    out = _drop(target, SETTINGS[target], str(tmp_path / "missing.db"))
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert f"{target} is still sent to by these settings" in out.stderr
    # without the setting it goes on to the store (here: none at that path)
    out = _drop(target, {}, str(tmp_path / "missing.db"))
    assert out.returncode == 2 and "no SQLite file" in out.stderr, out.stderr
