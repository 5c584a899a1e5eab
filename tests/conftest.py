"""Shared fixtures: a throwaway Redis server for the whole session (never the machine's 6379)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import markers
from tests.redis_server import RedisClusterServers, RedisServer, redis_server_binary

# Servers the tests start (threads and `tablero serve` subprocesses) serve /metrics on a free
# port unless the test picks one: never the shared default 9090.
os.environ.setdefault("TABLERO_METRICS_PORT", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    markers.apply(items)


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
