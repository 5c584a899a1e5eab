"""`tablero admin webhooks` takes `--redis-url` / `--db` after the verb too, as an operator
types it (`tablero admin webhooks dead-letters --db tablero.db`), not only before it."""

from __future__ import annotations

import subprocess
import sys


def _admin(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablero.server", "admin", "webhooks", *args],
                          capture_output=True, text=True, timeout=60)


def test_store_flags_after_the_verb(tmp_path) -> None:
    db = str(tmp_path / "t.db")
    before = _admin("--db", db, "dead-letters")
    assert before.returncode == 0, before.stderr
    for verb in (["dead-letters"], ["dead-letters", "--json"], ["stats"]):
        r = _admin(*verb, "--db", db)
        assert r.returncode == 0, (verb, r.stderr)
    r = _admin("replay", "--all", "--db", db)
    assert r.returncode == 1 and "unrecognized" not in r.stderr, r.stderr  # nothing to replay: 1
