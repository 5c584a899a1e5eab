"""Every Python example of clients/python/README.md runs against a real server, as a user runs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 4


@pytest.fixture(scope="module")
def portal():
    from tests.ratings.support import KEYS
    from tests.server.support import ServerProcess

    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(request, server, tmp_path, index):
    script = tmp_path / "example.py"
    script.write_text(BLOCKS[index])
    env = {**os.environ, "TABLERO_URL": server.http, "TABLERO_GRPC": server.grpc}
    if "TABLERO_PORTAL_JWT" in BLOCKS[index]:  # a portal's calls: a server with a portal, a user's JWT
        from tests.ratings.support import token

        s = request.getfixturevalue("portal")
        env.update(TABLERO_URL=s.http, TABLERO_GRPC=s.grpc, TABLERO_PORTAL_JWT=token("readme-user", "Reader"))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180, cwd=tmp_path,
                       env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip(), "the example printed nothing"
