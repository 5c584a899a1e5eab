"""The Redis store's connections: the bounded write and read pools (redis-py, or a Redis
Cluster client), the lean pipelined connections of the request path (server/store/lean.py),
the retrying call every store operation goes through, and the replicated acknowledgement
(WAIT) of creates and appends.

`RedisStore` (server/store/redis.py) is built on `RedisClients`: the store's operations
stay there, how they reach Redis is here.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from tablero.server.store import redis_sentinel
from tablero.server.store.base import NotReplicated, StoreError
from tablero.server.store.lean import LeanRedis, leanable

T = TypeVar("T")

_CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}

# Errors after which a call that is safe to repeat is retried (the server restarted, a
# pooled connection went stale, the server is loading its AOF, a failover is under way).
_RETRYABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.NoScriptError,  # a restarted server lost its script cache: nothing ran
    # a cluster client none of whose known nodes answers (the node it knew died): the next
    # attempt initialises it from every node the store has seen (_initialize_cluster)
    redis.exceptions.RedisClusterException,
    OSError,
)


# A refused connection (nothing listens: Redis stopped, its port closed) is retried only this
# long in all, on the request path: a restart's blip may pass in it, an outage does not, and a
# call then fails UNAVAILABLE at once instead of after seconds of backoff. (Not on a Redis
# Cluster, where a refused node is what the retry's topology refresh gets round.)
REFUSED_RETRY_FOR = 0.1


def refused(e: BaseException | None) -> bool:
    """Whether `e` (or what it wraps: redis-py and the lean client wrap the OSError) is a
    refused connection, ECONNREFUSED."""
    for _ in range(8):
        if e is None:
            return False
        if isinstance(e, ConnectionRefusedError) or getattr(e, "errno", None) == errno.ECONNREFUSED:
            return True
        e = e.__cause__ or e.__context__
    return False


class RefusalRetry(Retry):
    """redis-py's Retry (of the lobby's, ratings' and limits' client: server/runner.py), which
    gives up on a refused connection once REFUSED_RETRY_FOR has passed since the command's
    first attempt; other connection errors keep their backoff."""

    async def call_with_retry(self, do: Any, fail: Any, is_retryable: Any = None,
                              with_failure_count: bool = False) -> Any:
        started = time.monotonic()

        def retryable(e: Exception) -> bool:
            if refused(e) and time.monotonic() - started >= REFUSED_RETRY_FOR:
                return False
            return is_retryable is None or is_retryable(e)

        return await super().call_with_retry(do, fail, retryable, with_failure_count)


def _out_of_redirections(e: BaseException) -> bool:
    """redis-py's cluster client gave up after its 16 redirections (ASK, MOVED, TRYAGAIN) in a
    row, as it does while a slot's keys are half migrated: no attempt ran the command, and
    the condition is as transient as a TryAgainError."""
    return isinstance(e, redis.exceptions.ClusterError) and "TTL exhausted" in str(e)



def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _seeds(rest: str, known: dict[tuple[str, int], None]) -> str:
    """`a:1,b:2/0` -> `a:1/0`, with (a, 1) and (b, 2) added to `known`."""
    end = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    netloc, slash, path = rest[:end], "", rest[end:]
    auth, at, hosts = netloc.rpartition("@")
    first, *others = hosts.split(",")
    for host_port in (first, *others):
        host, colon, port = host_port.rpartition(":")
        if not colon or host_port.endswith("]"):
            host, port = host_port, "6379"
        if not host or not port.isdigit():
            raise ValueError(f"bad cluster node {host_port!r} in the Redis URL (want host:port)")
        known[(host.strip("[]"), int(port))] = None
    return f"{auth}{at}{first}{slash}{path}"


class _Pool:
    """A bounded pool of one kind of calls: at most `size` in flight (so at most `size`
    connections per Redis node), waiting at most `timeout` seconds for a turn."""

    def __init__(self, client: aioredis.Redis | RedisCluster, size: int, timeout: float) -> None:
        self.client, self.size, self.timeout = client, size, timeout
        self.slots = asyncio.Semaphore(size)


def _raise_if_cancelling() -> None:
    """A cancellation that redis-py turned into a connection error (Python 3.11's
    `asyncio.wait_for`, used for its socket timeouts, can lose a cancel that races the
    operation's end) is still a cancellation: never a retry, never a StoreError the caller
    might retry forever (a stopped server's shutdown hung on such a loop)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _dropped_under_us(e: Exception) -> bool:
    """redis-py 8.1's async cluster client can close a connection (resetting its topology
    after a failover) while another command is about to write on it: the command fails with
    "'NoneType' object has no attribute 'writelines'" before a byte is sent, or, under uvloop,
    with uvloop's RuntimeError "the handler is closed" from the closed transport. That is a
    lost connection, safe to retry like one, not an internal error."""
    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    in_redis = [f"{os.sep}redis{os.sep}" in name for name in frames]
    if isinstance(e, AttributeError):
        return bool(in_redis) and in_redis[-1] and "'NoneType' object has no attribute" in str(e)
    return isinstance(e, RuntimeError) and any(in_redis) and "handler is closed" in str(e)



class RedisClients:
    """The connections of one RedisStore, and how a call uses them (see `_call`).

    Settings (keyword arguments of RedisStore): write_pool_size, read_pool_size,
    pool_timeout, socket_timeout, socket_connect_timeout, health_check_interval, retries,
    retry_backoff, lean, min_replicas_ack, replicas_ack_timeout (RedisStore's docstring
    says what each does)."""

    ACK_CONNECTIONS = 8  # lean connections for creates and appends with min_replicas_ack

    def __init__(
        self,
        url: str,
        *,
        cluster: bool = False,
        write_pool_size: int = 16,
        read_pool_size: int = 16,
        pool_timeout: float = 5.0,
        socket_timeout: float | None = 10.0,
        socket_connect_timeout: float = 5.0,
        health_check_interval: float = 2.0,
        retries: int = 5,
        retry_backoff: float = 0.05,
        lean: bool = True,
        min_replicas_ack: int = 0,
        replicas_ack_timeout: float = 1.0,
    ) -> None:
        scheme, sep, rest = url.partition("://")
        self._sentinel = redis_sentinel.parse(url) if scheme in redis_sentinel.SCHEMES else None
        # Cluster nodes other than the URL's first one: `redis+cluster://a:6379,b:6379,c:6379`
        # names several seeds, and every node either client learns is remembered, so a client
        # whose only known node dies still finds the cluster (and a promoted replica).
        self._known_nodes: dict[tuple[str, int], None] = {}
        if scheme in _CLUSTER_SCHEMES:
            url, cluster = f"{_CLUSTER_SCHEMES[scheme]}{sep}{_seeds(rest, self._known_nodes)}", True
        for name, size in (("write_pool_size", write_pool_size), ("read_pool_size", read_pool_size)):
            if size < 1:
                raise ValueError(f"{name} must be at least 1, not {size}")
        self.url = url
        self.retries, self.retry_backoff = retries, retry_backoff
        self.socket_timeout = socket_timeout
        self._cluster = cluster
        if min_replicas_ack < 0 or replicas_ack_timeout <= 0:
            raise ValueError("min_replicas_ack must be >= 0 and replicas_ack_timeout > 0")
        if min_replicas_ack and cluster:
            raise ValueError("min_replicas_ack is not supported on Redis Cluster (WAIT has no key to route by)")
        self.min_replicas_ack, self.replicas_ack_timeout = min_replicas_ack, replicas_ack_timeout
        self._options: dict[str, Any] = {
            "socket_connect_timeout": socket_connect_timeout,
            "socket_keepalive": True,
            "health_check_interval": health_check_interval,
        }
        self._writes = _Pool(self._pool_client(write_pool_size), write_pool_size, pool_timeout)
        self._reads = _Pool(self._pool_client(read_pool_size), read_pool_size, pool_timeout)
        self._client = self._reads.client  # kept for tools and tests that reach for a client
        self._init_locks: dict[int, asyncio.Lock] = {}
        # The scripts (every call of the request path) go over lean pipelined connections on a
        # plain server, one for writes and one for reads (server/store/lean.py); the pools'
        # slots still bound how many are in flight. redis-py serves the rest, and clusters.
        self._lean: list[LeanRedis] = []
        self._ack_lean: list[LeanRedis] = []
        self._ack_turn = 0
        if lean and not cluster and self._sentinel is None and leanable(url):
            self._open_lean(socket_connect_timeout)
        self._closed = False

    def _pool_client(self, size: int) -> aioredis.Redis | RedisCluster:
        options = {**self._options, "socket_timeout": self.socket_timeout, "max_connections": size}
        if self._cluster:
            return RedisCluster.from_url(self.url, **options)
        # Retries are ours (_call): only calls that are safe to repeat are repeated.
        return self._plain_client(retry=Retry(NoBackoff(), 0), **options)

    @property
    def _script_clients(self) -> tuple[Any, Any]:
        """The clients that carry the scripts of writes and of reads: the lean connections
        where there are, else the pools' clients."""
        if self._lean:
            return self._lean[0], self._lean[1]
        return self._writes.client, self._reads.client

    def _open_lean(self, connect_timeout: float) -> None:
        """The lean connections (not connected yet): one for writes, one for reads, and with
        min_replicas_ack, ACK_CONNECTIONS for creates and appends and their WAIT (_acked): a
        WAIT holds back what follows it on its connection until the replicas answer."""

        def new() -> LeanRedis:
            return LeanRedis(self.url, socket_timeout=self.socket_timeout, socket_connect_timeout=connect_timeout)

        self._lean = [new(), new()]
        if self.min_replicas_ack:
            self._ack_lean = [new() for _ in range(self.ACK_CONNECTIONS)]

    def _plain_client(self, **options: Any) -> aioredis.Redis:
        """A redis-py client of the URL's server (of the current master, with Sentinel)."""
        if self._sentinel is not None:
            return redis_sentinel.master_client(self._sentinel, **options)
        return aioredis.Redis.from_url(self.url, **options)

    # -- calls -------------------------------------------------------------------------

    async def _call(
        self, pool: _Pool, make: Callable[[], Awaitable[T]], *, retry: bool = True, patient: bool = False
    ) -> T:
        """Run `make()` with a connection of `pool`. Connection loss, timeouts and server
        errors become StoreError; with `retry`, transient ones are retried with backoff
        (only for calls that are safe to repeat: reads, CAS-checked writes). `patient`
        calls (the watchers' reads) wait for a free connection as long as it takes, instead
        of `pool_timeout`: a storm of new watchers queues up rather than failing."""
        if self._closed:
            _raise_if_cancelling()
            raise StoreError("the Redis store is closed")
        attempt = 0
        started = time.monotonic()
        while True:
            try:
                if not pool.slots.locked():  # a free slot: taken at once, no timer needed
                    await pool.slots.acquire()
                else:
                    async with asyncio.timeout(None if patient else pool.timeout):
                        await pool.slots.acquire()
            except TimeoutError:
                raise StoreError(f"redis: no free connection in {pool.timeout} s (pool of {pool.size})") from None
            try:
                if self._cluster and getattr(pool.client, "_initialize", False):
                    await self._initialize_cluster(pool.client)
                return await make()
            except (*_RETRYABLE, AttributeError, RuntimeError) as e:
                if isinstance(e, (AttributeError, RuntimeError)) and not _dropped_under_us(e):
                    raise
                _raise_if_cancelling()
                # Timeouts (a frozen server) are retried only within two socket timeouts in
                # all: a call then fails (UNAVAILABLE) rather than hanging for one per retry.
                timed_out = isinstance(e, redis.exceptions.TimeoutError) and self.socket_timeout is not None \
                    and time.monotonic() - started >= 2 * self.socket_timeout
                # Nothing listening: UNAVAILABLE at once, after a short blip's retry (REFUSED_RETRY_FOR).
                timed_out = timed_out or (not self._cluster and refused(e)
                                          and time.monotonic() - started >= REFUSED_RETRY_FOR)
                if not retry or attempt >= self.retries or self._closed or timed_out:
                    lost = "the connection was closed under the command" if isinstance(e, (AttributeError, RuntimeError)) else e
                    raise StoreError(f"redis: {lost}") from e
            except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException) as e:
                _raise_if_cancelling()
                if not (retry and _out_of_redirections(e)) or attempt >= self.retries or self._closed:
                    raise StoreError(f"redis: {e}") from e
            finally:
                pool.slots.release()
            await asyncio.sleep(min(1.0, self.retry_backoff * 2**attempt) * (0.5 + random.random() / 2))
            attempt += 1

    async def _initialize_cluster(self, client: RedisCluster) -> None:
        # redis-py 8.1's async RedisCluster lets commands issued while the client is still
        # initialising use connections that the initialisation then closes ("'NoneType' object
        # has no attribute 'writelines'" under concurrent first calls). Initialise it once,
        # alone, before the first command (and again when it resets itself after a failover).
        lock = self._init_locks.setdefault(id(client), asyncio.Lock())
        async with lock:
            if getattr(client, "_initialize", False):
                await client.initialize(additional_startup_nodes_info=self._cluster_seeds())

    def _cluster_seeds(self) -> list[tuple[str, int]]:
        """Every cluster node the store has known: the URL's, and those either client has
        learnt. redis-py refreshes a client's topology only from the nodes that client knows;
        a client that knew just the URL's node (the read client of a replica serving reads
        from its cache) never found the promoted replica once that node died."""
        for client in (self._writes.client, self._reads.client):
            manager = client.nodes_manager  # type: ignore[union-attr]
            for node in (*manager.nodes_cache.values(), *manager.startup_nodes.values()):
                key = (node.host, int(node.port))
                self._known_nodes.pop(key, None)  # the most recently seen last
                self._known_nodes[key] = None
        while len(self._known_nodes) > 256:  # forget the oldest (long gone) nodes first
            del self._known_nodes[next(iter(self._known_nodes))]
        return list(self._known_nodes)

    async def _acked(self, script: Any, keys: list[str], args: list[Any]) -> tuple[Any, int]:
        """`script(keys, args)` then `WAIT min_replicas_ack timeout` on the same connection, in one
        round trip: (the script's reply, how many replicas confirmed). WAIT covers every write
        this connection made, so it confirms this script's writes (and, the replication stream
        being in order, everything written before them)."""
        wait = ("WAIT", self.min_replicas_ack, max(1, int(self.replicas_ack_timeout * 1000)))
        if self._ack_lean:
            self._ack_turn = (self._ack_turn + 1) % len(self._ack_lean)
            lean = self._ack_lean[self._ack_turn]
            reply, acked = await lean.pipeline(("EVALSHA", script.sha, len(keys), *keys, *args), wait)
            if isinstance(reply, redis.exceptions.NoScriptError):  # a restarted server: EVAL (caches it)
                source = getattr(script, "source", None) or script.script
                reply, acked = await lean.pipeline(("EVAL", source, len(keys), *keys, *args), wait)
        else:
            client = self._writes.client
            async with client.pipeline(transaction=False) as pipe:
                pipe.evalsha(script.sha, len(keys), *keys, *args)
                pipe.execute_command(*wait)
                reply, acked = await pipe.execute(raise_on_error=False)
            if isinstance(reply, redis.exceptions.NoScriptError):  # a new master: load it, then retried
                await client.script_load(script.script)
                raise reply
        for outcome in (reply, acked):
            if isinstance(outcome, Exception):
                raise outcome
        return reply, int(acked)

    def _not_replicated(self, game_id: str, acked: int) -> NotReplicated:
        from tablero.server import metrics  # here: the store stays importable without the server

        metrics.REPLICA_ACK_FAILURES.inc()
        return NotReplicated(game_id, acked, self.min_replicas_ack, self.replicas_ack_timeout)

    # -- lifecycle ---------------------------------------------------------------------

    async def warm(self) -> None:
        """Open the pooled connections now: each new one costs a few ms (redis-py reads its
        package metadata for every connection it makes) that would otherwise fall on the
        first requests. Best effort: a store that is not up yet opens them on demand."""
        if self._cluster:
            return
        await asyncio.gather(*(lean.execute("PING") for lean in self._lean), return_exceptions=True)
        for pool in (self._writes, self._reads):
            await asyncio.gather(*(pool.client.ping() for _ in range(pool.size)), return_exceptions=True)

    async def ping(self) -> None:
        await self._call(self._reads, lambda: self._reads.client.ping())

    def _pool_connections(self) -> dict[str, int]:
        """Connections the write and read pools hold now (lean ones included)."""

        def count(client: Any) -> int:
            if isinstance(client, RedisCluster):
                return sum(len(node._connections) for node in client.get_nodes())
            pool = client.connection_pool
            return len(pool._in_use_connections) + len(pool._available_connections)

        lean = [c.connected for c in self._lean] or [0, 0]
        return {
            "write": count(self._writes.client) + lean[0],
            "read": count(self._reads.client) + lean[1],
        }

    async def _close_clients(self) -> None:
        """Close every connection (the store's close(), once its watchers are told)."""
        for lean in (*self._lean, *self._ack_lean):
            await lean.aclose()
        await self._writes.client.aclose()
        await self._reads.client.aclose()
        for client in (self._writes.client, self._reads.client):
            for sentinel in getattr(redis_sentinel.sentinel_of(client), "sentinels", ()):
                with contextlib.suppress(Exception):
                    await sentinel.aclose()
