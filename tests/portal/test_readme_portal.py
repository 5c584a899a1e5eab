"""The README's portal example runs as written against a real server with a portal key."""

import re
import subprocess
import sys
from pathlib import Path

from tests.server.support import ServerThread

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_readme_portal_example_runs():
    part = README.split("## Behind a game portal", 1)[1]
    key = re.search(r"TABLERO_PORTAL_KEYS='(.*?)'", part).group(1)
    script = re.search(r"```python\n(.*?)```", part, re.S).group(1)
    with ServerThread(portal_keys=key) as s:
        r = subprocess.run([sys.executable, "-c", script], env={"H": s.http}, capture_output=True, text=True,
                           timeout=60)
    assert r.returncode == 0, r.stderr
    assert "bob joins seat 1" in r.stdout
    assert "GAME_STATUS_FINISHED winners [0] ['Alice', 'Bob']" in r.stdout
