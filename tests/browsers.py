"""Which Chromium the browser tests drive (Playwright, executable_path).

Debian's `chromium-headless-shell` (the old headless shell, `.ci/run` installs it) runs pages with
no browser UI of its own: about a quarter less CPU a test than the full browser's headless mode,
whose UI processes (`--top-chrome-webui`) run even with no window (tests/web/
test_seats_secrets_and_move_builder.py: 85 s against 109 s, 2026-12-07). The full browser stays for
what only it has: Web Push's subscription through its push service (tests/web/test_push_subscribe.py).
TABLERO_CHROMIUM names one binary for both."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM_FULL = os.environ.get("TABLERO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM = os.environ.get("TABLERO_CHROMIUM") or next(
    (p for p in ("/usr/bin/chromium-headless-shell",) if Path(p).exists()), CHROMIUM_FULL)
