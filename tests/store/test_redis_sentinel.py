"""Redis with Sentinel (`redis+sentinel://`) and replicated acknowledgement (min_replicas_ack),
on real redis-server processes (issue 36)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from tablero.server.config import Config, ConfigError
from tablero.server.store import DuplicateRequest, NotReplicated, StoreError
from tablero.server.store.redis import RedisStore
from tablero.server.store.redis_sentinel import parse

from tests.faults.sentinel_set import SentinelSet


def test_the_url_form() -> None:
    u = parse("redis+sentinel://:s3cret@a:26379,b:26380,[::1]:1/mymaster/2?sentinel_password=x%40y")
    assert u.sentinels == (("a", 26379), ("b", 26380), ("::1", 1))
    assert (u.master, u.db, u.username, u.password, u.sentinel_password, u.tls) == ("mymaster", 2, None, "s3cret", "x@y", False)
    u = parse("rediss+sentinel://user:pw@h/m")
    assert (u.sentinels, u.master, u.db, u.username, u.password, u.tls) == ((("h", 26379),), "m", 0, "user", "pw", True)
    for bad, why in [("redis+sentinel://h:1", "names no master"), ("redis+sentinel://h:x/m", "bad Sentinel address"),
                     ("redis+sentinel://h:1/m/x", "bad path"), ("redis+sentinel://h:1/m?foo=1", "unknown option")]:
        with pytest.raises(ValueError, match=why):
            parse(bad)
    assert Config(redis_url="redis+sentinel://h:1,h:2/m").redis_url
    with pytest.raises(ConfigError, match="TABLERO_REDIS_URL=.*names no master"):
        Config.load(redis_url="redis+sentinel://h:1")
    with pytest.raises(ConfigError, match="TABLERO_REDIS_MIN_REPLICAS_ACK"):
        Config.load(redis_min_replicas_ack=-1)


async def _next(it, timeout: float = 10.0):  # noqa: ANN001, ANN202
    return await asyncio.wait_for(it.__anext__(), timeout)


@pytest.mark.slow
async def test_sentinel_store_keeps_cas_push_and_follows_a_failover() -> None:
    """CAS appends, pushed watch events and request ids through the Sentinels; the master is
    SIGKILLed, a replica promoted (the other one follows it), and the same store (and its
    watch) carries on, still confirming each append on a replica."""
    with SentinelSet(replicas=2, sentinels=3) as s:
        store = RedisStore(s.url, min_replicas_ack=1, replicas_ack_timeout=2.0, socket_timeout=2.0, retries=8,
                           retry_backoff=0.1, sweep_interval=0.2, outage_grace=60)
        try:
            await store.create("g", {"engine": "x"}, [{"type": "start"}])
            watch = store.watch("g", 1)
            assert await store.append("g", 1, [{"n": 1}], request_id="r1") == 2
            assert await _next(watch) == (2, {"n": 1})
            with pytest.raises(StoreError):  # CAS: not at version 1 any more
                await store.append("g", 1, [{"n": "x"}], request_id="other")
            with pytest.raises(DuplicateRequest) as dup:
                await store.append("g", 1, [{"n": 1}], request_id="r1")
            assert dup.value.version == 2
            old = s.kill_master()
            new = await asyncio.to_thread(s.wait_for_new_master, old)
            assert new != old
            version = None
            for _ in range(60):  # the client's retry loop (same request id) through the failover
                try:
                    version = await store.append("g", 2, [{"n": 2}], request_id="r2")
                    break
                except DuplicateRequest as d:
                    version = d.version
                    break
                except StoreError:
                    await asyncio.sleep(0.2)
            assert version == 3
            assert await _next(watch, 20) == (3, {"n": 2})
            assert await store.read("g") == [{"type": "start"}, {"n": 1}, {"n": 2}]
            await watch.aclose()
        finally:
            await store.close()


async def test_min_replicas_ack_refuses_then_lands_exactly_once() -> None:
    """A replica that does not confirm: the append raises NotReplicated (it is on the master
    only); retries with the same request id keep saying so, then, once the replica is back,
    answer DuplicateRequest with the first version: one copy in the log."""
    with SentinelSet(replicas=1, sentinels=0) as s:
        url = f"redis://127.0.0.1:{s.master_port}/0"
        # The refusals wait 0.3 s each; what must be confirmed gets 10 s (a loaded machine's
        # replica may take more than 0.3 s to confirm even when it is up).
        store = RedisStore(url, min_replicas_ack=1, replicas_ack_timeout=0.3)
        patient = RedisStore(url, min_replicas_ack=1, replicas_ack_timeout=10)
        plain = RedisStore(url)
        try:
            await patient.create("g", {}, [{"type": "start"}])
            assert await patient.append("g", 1, [{"n": 1}], request_id="a") == 2
            replica = s.replica_ports[0]
            s.pause(replica)
            try:
                with pytest.raises(NotReplicated, match="confirmed by 0 of the 1 replica"):
                    await store.append("g", 2, [{"n": 2}], request_id="b")
                with pytest.raises(NotReplicated):  # the retry: still not confirmed
                    await store.append("g", 2, [{"n": 2}], request_id="b")
                with pytest.raises(NotReplicated):  # nor is an answer given from the request's record
                    await store.request_version("g", "b")
                assert await plain.append("g", 3, [{"n": "async"}]) == 4  # without the setting: acknowledged
                # A join, and an answer given from what the store holds (a retried create or join).
                await plain.create("j", {"seats": ["human", "open"], "claimed": [0]}, [{"type": "start"}])
                with pytest.raises(NotReplicated):
                    await store.claim_seat("j", [1], "c1")
                with pytest.raises(NotReplicated):
                    await store.confirm_replicated("g")
            finally:
                s.resume(replica)
            with pytest.raises(DuplicateRequest) as dup:
                await patient.append("g", 2, [{"n": 2}], request_id="b")
            assert dup.value.version == 3
            assert await patient.request_version("g", "b") == 3
            assert await patient.claim_seat("j", [1], "c1") == 1  # the claim it had made: its seat, once
            await patient.confirm_replicated("g")
            assert await store.read("g") == [{"type": "start"}, {"n": 1}, {"n": 2}, {"n": "async"}]
            with s.client(replica) as c:  # and the replica has it
                assert c.xlen("tablero:{g}:events") == 4
        finally:
            with contextlib.suppress(Exception):
                s.resume(s.replica_ports[0])
            await store.close()
            await patient.close()
            await plain.close()


def test_min_replicas_ack_is_refused_on_a_cluster() -> None:
    with pytest.raises(ValueError, match="not supported on Redis Cluster"):
        RedisStore("redis+cluster://127.0.0.1:7000", min_replicas_ack=1)
