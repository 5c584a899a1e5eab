"""A slot migration under load made redis-py's cluster client give up with
`ClusterError("TTL exhausted.")` (16 ASK/TRYAGAIN redirections in a row while the slot's keys
were half moved: nothing ran), which the store did not retry: the action got a 503 in the
middle of a routine migration (found by test_app_faults.py's slot migration scenario:
`POST /v1/games/…/actions: 503 UNAVAILABLE "event store unavailable: redis: TTL exhausted."`).
It is the same transient condition as the TryAgainError the store already retries."""

from __future__ import annotations

import pytest
import redis
from tablero.server.store import StoreError
from tablero.server.store.redis import RedisStore


async def test_a_cluster_client_out_of_redirections_is_retried_like_tryagain() -> None:
    store = RedisStore("redis://127.0.0.1:1/0", retry_backoff=0)
    calls = []

    async def make() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise redis.exceptions.ClusterError("TTL exhausted.")
        return "ok"

    try:
        assert await store._call(store._writes, make) == "ok"
        assert len(calls) == 3
    finally:
        await store.close()


async def test_other_cluster_errors_are_still_not_retried() -> None:
    store = RedisStore("redis://127.0.0.1:1/0", retry_backoff=0)
    calls = []

    async def make() -> str:
        calls.append(1)
        raise redis.exceptions.ClusterError("something else")

    try:
        with pytest.raises(StoreError):
            await store._call(store._writes, make)
        assert len(calls) == 1
    finally:
        await store.close()
