"""Shared fixtures: a throwaway Redis server for the whole session (never the machine's 6379)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from tests import markers
from tests.redis_server import RedisClusterServers, RedisServer, redis_server_binary

# The suite's own caches, even where PYTHONDONTWRITEBYTECODE=1 is set (as on the CI machines):
# without them every xdist worker rewrites and compiles all ~390 test modules again (collection
# 8.7 s CPU a worker; 2.9 s with the cache), and every `tablero serve` the tests start compiles
# the server's ~100 modules again (0.06 s CPU each, a few hundred starts). The files go to
# __pycache__/, which .gitignore lists; nothing a test checks depends on them.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Servers the tests start (threads and `tablero serve` subprocesses) serve /metrics on a free
# port unless the test picks one: never the shared default 9090.
os.environ.setdefault("TABLERO_METRICS_PORT", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    markers.apply(items)
    markers.longest_files_first(items)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    if redis_server_binary() is None:
        pytest.fail("redis-server is not installed: apt-get install redis-server (.ci/run does)")
    with RedisServer() as server:
        yield server


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    """URL of the session's throwaway Redis, e.g. redis://127.0.0.1:PORT/0."""
    return redis_server.url


@pytest.fixture
def fresh_redis_url(redis_url: str) -> str:
    """Like redis_url, with the database flushed first."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()
    return redis_url


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """URL of a throwaway 3-master Redis Cluster, e.g. redis+cluster://127.0.0.1:PORT."""
    if redis_server_binary() is None:
        pytest.fail("redis-server is not installed: apt-get install redis-server (.ci/run does)")
    with RedisClusterServers() as cluster:
        yield cluster.url
