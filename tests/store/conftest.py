"""Fixtures of the store tests: `backend` (every adapter) and `shared_backend` (the adapters
whose data several store instances — replicas — can share)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.store.backends import Backend


def _redis_target(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url")


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "redis", "redis-cluster"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param.startswith("redis"):
        target = _redis_target(request)
    elif request.param == "sqlite-file":
        target = str(tmp_path / "games.db")
    else:
        target = ":memory:"
    b = Backend(request.param, target)
    yield b
    await b.close()


@pytest.fixture(params=["sqlite-file", "redis", "redis-cluster"])
async def shared_backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    target = _redis_target(request) if request.param.startswith("redis") else str(tmp_path / "games.db")
    b = Backend(request.param, target)
    yield b
    await b.close()
