"""Checking the settings imports only what the settings given need: with no webhooks and no
portal keys, neither the notification modules nor the app behind them are loaded. `tablero serve`
with a bad setting answered in 0.9 s, most of it importing the app through the webhooks check of an
unset TABLERO_WEBHOOKS; now about 0.35 s."""

from __future__ import annotations

import os
import subprocess
import sys

CHECK = """
import sys
from tablero.server.config import Config
Config.load()
print(sorted(m for m in sys.modules if m.startswith(("tablero.server.notify", "tablero.server.app",
                                                      "tablero.server.http"))))
"""


def test_the_default_settings_load_no_notification_or_app_module():
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
    r = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout


def test_webhooks_given_are_still_checked():
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}, "TABLERO_WEBHOOKS": "not-a-url"}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port", "0",
                        "--metrics-port", "0"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2 and "TABLERO_WEBHOOKS" in r.stderr, r.stderr
