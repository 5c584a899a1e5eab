"""A real `tablero serve` (SQLite in memory) for the client tests, and a helper to run the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.support import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


# Session scope (used by this folder only): a package fixture was stopped and started again each
# time an xdist worker came back to this folder from another one.
@pytest.fixture(scope="session")
def server() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


@pytest.fixture(params=["rest", "grpc"])
def target(request, server: ServerProcess) -> dict[str, str]:
    """Client keyword arguments for each transport."""
    return {"rest": server.http} if request.param == "rest" else {"grpc": server.grpc}


def cli(*args: str, timeout: float = 60, check: bool = True,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python -m tablero_client ARGS` as a user runs it (`env`: more environment variables)."""
    env = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1", **(env or {})}
    p = subprocess.run([sys.executable, "-m", "tablero_client", *args], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT, env=env)
    if check and p.returncode != 0:
        raise AssertionError(f"exit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


@pytest.fixture
def tmux(tmp_path):
    """A terminal: a tmux session of its own (test_play_tmux.Tmux), closed after the test."""
    from .test_play_tmux import Tmux

    t = Tmux(tmp_path)
    yield t
    t.close()
