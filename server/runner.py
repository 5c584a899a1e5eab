"""Run the gRPC and HTTP servers in one process and one event loop, under one Lifecycle."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import time

import grpc
import uvicorn
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection
from tablero.server import metrics, metrics_server, metrics_workers
from tablero.server.api.edge import OUTAGES, Api
from tablero.server.app import GameService, rules
from tablero.server.app.offload import EngineCalls
from tablero.server.app.thinkers import MemoryBotQueue, RedisBotQueue, SQLiteBotQueue, Thinkers
from tablero.server.auth import TokenSigner
from tablero.server.config import Config
from tablero.server.errors import Unavailable
from tablero.server.grpc.service import SERVER_OPTIONS, add_services
from tablero.server.http.app import build_app
from tablero.server.http.slow_clients import http_protocol
from tablero.server.lifecycle import Lifecycle
from tablero.server.portal.clock import MemoryClocks, RedisClocks, SQLiteClocks
from tablero.server.portal.identity import PortalKeys
from tablero.server.portal.lobby import MemoryLobby, RedisLobby, SQLiteLobby
from tablero.server.portal.ratelimit import InProcessLimiter, Rate, RedisLimiter
from tablero.server.ratings.setup import attach, background
from tablero.server.store import open_store

from tablero import engines

log = logging.getLogger("tablero")

READINESS_INTERVAL = 5.0
CLOCK_SWEEP_INTERVAL = 0.5
CLOCK_SWEEP_LOG_EVERY = 60.0  # seconds between "still failing" lines during an outage
# Seconds between two steps of the lobby index's cleanup (RedisLobby.prune, each at most about
# lobby.PRUNE_BATCH members: one script in Redis, or on a cluster one ZSCAN and one pipelined
# round trip), on every replica.
LOBBY_PRUNE_INTERVAL = 2.0
SERVING, NOT_SERVING = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING


class _Uvicorn(uvicorn.Server):
    """uvicorn without its own signal handling: the runner owns SIGTERM/SIGINT."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield

    def install_signal_handlers(self) -> None:  # older uvicorn
        pass


async def _status(lifecycle: Lifecycle) -> int:
    return SERVING if await lifecycle.not_ready() is None else NOT_SERVING


async def _track_readiness(health, lifecycle: Lifecycle, services: list[str], serving: int) -> None:
    """Keep the gRPC health status of the API services in step with the lifecycle's readiness."""
    while not lifecycle.shutting_down.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(lifecycle.shutting_down.wait(), READINESS_INTERVAL)
        if lifecycle.shutting_down.is_set():
            return
        now = await _status(lifecycle)
        if now != serving:
            for name in services:
                await health.set(name, now)
            log.warning("readiness changed", extra={"fields": {"serving": now == SERVING}})
            serving = now


def _http_socket(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:  # `serve --workers N`: the kernel spreads connections over the workers
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    # Accepted connections inherit TCP_NODELAY: responses go out as headers + body in two
    # writes, and Nagle + the client's delayed ACK would add ~40 ms to each reused connection.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(512)
    sock.setblocking(False)
    return sock


# libuv accepts ONE connection per loop turn on a listening handle, so a busy loop accepts
# far fewer new connections per second than it can serve: with a live watch per seat (two
# new connections per game) the listen queue held 30-60 connections, and each waited ~45 ms.
# Duplicates of the listening socket (the same socket, more handles) accept one each per
# turn; an idle turn costs the others one EAGAIN accept each.
ACCEPTORS = 8


def _acceptors(sock: socket.socket) -> list[socket.socket]:
    socks = [sock]
    for _ in range(ACCEPTORS - 1):
        dup = sock.dup()
        dup.setblocking(False)
        socks.append(dup)
    return socks


def _portal_parts(config: Config, store) -> tuple:
    """The lobby and the rate limiters, where the store keeps things every replica shares:
    in Redis with Redis; beside the SQLite file (lobby) or in this process otherwise."""
    client = getattr(store, "_client", None) if config.redis_url else None
    if client is not None and not config.redis_url.startswith("redis+cluster"):
        # Its own bounded pool that waits for a free connection (the store's pools are gated
        # by the store itself; a bare client on them fails with "Too many connections").
        # Like the store's: idle connections are PINGed before use, and a command that meets a
        # dropped connection (Redis restarted) goes again on a new one, so a restart costs the
        # lobby, clocks and limits no error beyond the outage. (Their commands are reads,
        # idempotent writes, or a rate count that at worst counts one call twice.)
        import redis.asyncio as aioredis
        import redis.exceptions
        from redis.backoff import ExponentialBackoff
        from tablero.server.store.redis_clients import RefusalRetry

        # The store's socket timeouts too (without, a frozen Redis hung every rate-limited call and
        # lobby listing for as long as it stayed frozen); a command that timed out is not sent
        # again (as the store's own: UNAVAILABLE after one timeout, not one per retry). A refused
        # connection (Redis stopped) is retried only briefly, as the store's (RefusalRetry).
        options = dict(max_connections=16, timeout=5, socket_keepalive=True,
                       socket_timeout=config.store_socket_timeout,
                       socket_connect_timeout=config.store_socket_connect_timeout,
                       health_check_interval=config.store_health_check_interval,
                       retry=RefusalRetry(ExponentialBackoff(cap=1.0, base=max(config.store_retry_backoff, 0.01)),
                                          config.store_retries, supported_errors=(redis.exceptions.ConnectionError,)))
        if "+sentinel://" in config.redis_url:  # the current master, through the Sentinels
            from tablero.server.store.redis_sentinel import master_client

            client = master_client(config.redis_url, blocking=True, **options)
        else:
            client = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
                config.redis_url, **options))
    if client is not None:
        lean = getattr(store, "_lean", None)
        lobby, clocks = RedisLobby(client, fast=lean[0] if lean else None), RedisClocks(client)
    elif config.db and config.db != ":memory:":
        lobby, clocks = SQLiteLobby(config.db), SQLiteClocks(config.db)
    else:
        lobby, clocks = MemoryLobby(), MemoryClocks()

    def limiter(text: str | None, prefix: str):
        if text is None:
            return None
        rate = Rate.parse(text)
        return RedisLimiter(client, rate, prefix) if client is not None else InProcessLimiter(rate)

    return lobby, clocks, limiter(config.rate_limit, "calls"), limiter(config.create_rate_limit, "create")


def bot_queue(config: Config, store):
    """The thinking bots' durable queue where the store keeps shared things (Redis, the SQLite
    file), else in this process."""
    client = getattr(store, "_client", None) if config.redis_url else None
    if client is not None:
        return RedisBotQueue(client)
    if config.db and config.db != ":memory:":
        return SQLiteBotQueue(config.db)
    return MemoryBotQueue()


async def _sweep_clocks(games: GameService, lifecycle: Lifecycle) -> None:
    """Apply due turn-clock timeouts, on every replica (each timeout applies once: CAS + request id)."""
    failing_since: float | None = None  # an outage is logged when it starts, then once a minute
    last_logged = 0.0
    while not lifecycle.shutting_down.is_set():
        try:
            await games.sweep_clocks()
            if failing_since is not None:
                log.warning("clock sweep works again", extra={"fields": {
                    "failed_for_s": round(time.monotonic() - failing_since, 1)}})
                failing_since = None
        except Exception as e:  # the store is down: try again next round
            now = time.monotonic()
            if failing_since is None:
                failing_since = last_logged = now
                # An outage (the store unreachable) is one line; anything else, a defect, has
                # its traceback.
                outage = isinstance(e, (*OUTAGES, Unavailable, OSError))
                log.warning("clock sweep failed", exc_info=not outage, extra={"fields": {
                    "error": f"{type(e).__name__}: {str(e)[:200]}"}})
            elif now - last_logged >= CLOCK_SWEEP_LOG_EVERY:
                last_logged = now
                log.warning("clock sweep still failing", extra={"fields": {
                    "failing_for_s": round(now - failing_since, 1), "error": str(e)[:200]}})
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(lifecycle.shutting_down.wait(), CLOCK_SWEEP_INTERVAL)


async def _prune_lobby(lobby: RedisLobby, lifecycle: Lifecycle) -> None:
    """Walk the lobby's index step by step and drop the members of games that are gone
    (expired or deleted): the index then does not grow without anyone listing the lobby."""
    logged: float | None = None  # when a failure was last logged (an outage: then once a minute)
    while not lifecycle.shutting_down.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(lifecycle.shutting_down.wait(), LOBBY_PRUNE_INTERVAL)
        if lifecycle.shutting_down.is_set():
            return
        try:
            removed = await lobby.prune()
            if removed:
                log.debug("lobby index: %d members of gone games removed", removed)
            logged = None
        except Exception as e:  # the store is down (an outage, not a defect: one line, no traceback)
            now = time.monotonic()
            if logged is None or now - logged >= CLOCK_SWEEP_LOG_EVERY:
                logged = now
                log.warning("lobby index cleanup failed; trying again", extra={"fields": {
                    "error": f"{type(e).__name__}: {str(e)[:200]}"}})


GAMES_RUNNING_INTERVAL = 5.0

# HTTP/2 keep-alive (issue 36): the server pings an idle connection every 30 s and drops it when
# the ping is not answered within 10 s (a client or proxy gone without a word: its watches end);
# clients may ping as often as every 5 s, with or without calls (the SDK pings every 10 s), and
# a client pinging faster than that gets GOAWAY after two strikes.
GRPC_KEEPALIVE_OPTIONS = [
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.ping_timeout_ms", 10_000),  # gRPC >= 1.6x times a keep-alive ping out by this one
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
    ("grpc.http2.max_pings_without_data", 0),
    ("grpc.http2.max_ping_strikes", 2),
]


async def _count_running(games: GameService, lifecycle: Lifecycle) -> None:
    """Keep the running-games gauge current (cheap: one outcome check per cached game)."""
    while not lifecycle.shutting_down.is_set():
        metrics.GAMES_RUNNING.set(games.games.running())
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(lifecycle.shutting_down.wait(), GAMES_RUNNING_INTERVAL)


def _services(config: Config, store, shutting_down: asyncio.Event) -> tuple[GameService, Api, object]:
    """The use cases (with the portal's lobby, clocks and limits) and the shared edge over them."""
    lobby, clocks, call_limit, create_limit = _portal_parts(config, store)
    games = GameService(store, TokenSigner(config.secret), cache_size=config.cache_size,
                        snapshot_every=config.snapshot_every, lobby=lobby,
                        max_open_games_per_user=config.max_open_games_per_user, clocks=clocks,
                        abandon_after=config.abandon_after, engine_calls=EngineCalls(**config.engine_calls_options()))
    api = Api(games, shutting_down, max_body=config.max_body, max_rankings_body=config.max_rankings_body,
              portal_keys=PortalKeys.from_json(config.portal_keys, config.portal_audience, config.portal_issuer,
                                                config.portal_max_token_lifetime),
              call_limit=call_limit, create_limit=create_limit)
    attach(games, lobby._r if isinstance(lobby, RedisLobby) else None,
           config.db if config.db and config.db != ":memory:" and not config.redis_url else None)
    return games, api, lobby


def _grpc_server(config: Config, api: Api) -> tuple[grpc.aio.Server, list[str], health_aio.HealthServicer, int]:
    """The gRPC server with every API service, health and reflection, bound (not started).
    The transport admits the larger rankings requests; the edge checks each RPC's own limit."""
    limit = max(config.max_body, config.max_rankings_body, 64 * 1024)
    gserver = grpc.aio.server(options=[
        ("grpc.max_receive_message_length", limit),
        ("grpc.so_reuseport", 1 if config.reuse_port else 0),
        # Long-lived connections are closed now and then so clients spread over replicas the HPA adds.
        ("grpc.max_connection_age_ms", 5 * 60 * 1000),
        ("grpc.max_connection_age_grace_ms", 30 * 1000),
        *GRPC_KEEPALIVE_OPTIONS,
        *SERVER_OPTIONS,  # gzip for the clients that accept it
    ])
    api_services = add_services(gserver, api, config.request_deadline)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, gserver)
    reflection.enable_server_reflection(
        [*api_services, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME], gserver)
    host = f"[{config.bind_host}]" if ":" in config.bind_host else config.bind_host  # an IPv6 address: [::]:port
    grpc_port = gserver.add_insecure_port(f"{host}:{config.grpc_port}")
    if grpc_port == 0:
        raise OSError(f"cannot bind gRPC port {config.grpc_port}")
    return gserver, api_services, health, grpc_port


def _http_server(config: Config, api: Api, lifecycle: Lifecycle) -> _Uvicorn:
    """uvicorn on httptools, wrapped so that headers trickling in slower than header_timeout get a 408."""
    return _Uvicorn(uvicorn.Config(build_app(api, lifecycle, body_timeout=config.body_timeout,
                                          request_deadline=config.request_deadline), log_config=None,
                                   access_log=False, lifespan="off", loop="asyncio", server_header=False,
                                   proxy_headers=bool(config.trusted_proxies.strip()),
                                   forwarded_allow_ips=config.trusted_proxies.strip() or None,
                                   http=http_protocol("httptools", config.header_timeout),
                                   timeout_graceful_shutdown=int(config.shutdown_grace)))


def _bots(config: Config, store, games: GameService) -> Thinkers | None:
    """The bot queue, and the small pool of bot-worker processes (thinking off this one)."""
    games.bots.steps_per_write = config.bot_steps_per_write
    rules.INLINE_BOT_STEPS = config.bot_inline_steps
    games.bot_queue = bot_queue(config, store)
    if config.bot_processes <= 0:
        if not config.redis_url and (not config.db or config.db == ":memory:"):
            # No `tablero bots` worker can reach a queue held in this process's memory: a game with a
            # medium or hard bot would wait for its move for ever, without a word.
            log.warning("TABLERO_BOT_PROCESSES=0 with the in-memory store: no bot worker can reach its queue, "
                        "so medium and hard bots never move (give --db FILE or --redis-url for `tablero bots` "
                        "workers, or keep TABLERO_BOT_PROCESSES at 1 or more)")
        # No thinking here, but the queue's gauges still: with every `tablero bots` worker down
        # the servers are the only ones left to report the waiting turns (TableroBotQueueStalled).
        gauges = Thinkers(games, games.bot_queue, processes=0, think=False)
        gauges.start()
        return gauges
    thinkers = Thinkers(games, games.bot_queue, processes=config.bot_processes, lease=config.bot_lease,
                        nice=config.bot_nice, idle_priority=config.bot_idle)
    thinkers.start()
    return thinkers


def _notifications(config: Config, games: GameService):  # type: ignore[no-untyped-def]
    """Notifications (issue 32): the notifier (None when off) and, on a shared store, the child
    process that derives and delivers them at a lower CPU priority."""
    from tablero.server.notify import build as build_notifier

    notifier = build_notifier(config, games)
    worker = None
    if notifier is not None and config.notify_worker == "process" and (
            config.redis_url or config.db not in (None, ":memory:")):
        from tablero.server.notify import process as notify_process

        worker = notify_process.spawn(config)
    return notifier, worker


async def serve(config: Config, started: asyncio.Future | None = None, stop: asyncio.Event | None = None,
                install_signals: bool = True) -> None:
    config.warn_if_insecure()
    engines.names()  # every engine imported now, not by the first request that names one
    metrics.set_build_info("redis" if config.redis_url else "sqlite")
    store = open_store(config.redis_url, config.db, **config.store_options())
    lifecycle = Lifecycle(store)
    if hasattr(store, "warm"):
        await store.warm()
    games, api, lobby = _services(config, store, lifecycle.shutting_down)
    notifier, worker = _notifications(config, games)
    thinkers = _bots(config, store, games)
    stop = stop or asyncio.Event()

    gserver, api_services, health, grpc_port = _grpc_server(config, api)
    # "" (liveness) is SERVING while the process runs; the API services (readiness) are
    # SERVING only while the lifecycle says ready, like /readyz.
    await health.set("", SERVING)
    serving = await _status(lifecycle)
    for name in api_services:
        await health.set(name, serving)
    tasks = [asyncio.create_task(_track_readiness(health, lifecycle, api_services, serving)),
             asyncio.create_task(_sweep_clocks(games, lifecycle)),
             asyncio.create_task(_count_running(games, lifecycle)),
             *background(games, lifecycle.shutting_down)]  # ratings sweep, matchmaking (issue 33)
    if (metrics_dir := metrics_workers.directory()) is not None:  # `--workers N`: counts for the others' scrapes
        tasks.append(asyncio.create_task(metrics_workers.publish_every(metrics_dir)))
    if isinstance(lobby, RedisLobby):
        tasks.append(asyncio.create_task(_prune_lobby(lobby, lifecycle)))
    await gserver.start()
    mserver, metrics_port = await metrics_server.start(config.bind_host, config.metrics_port, config.reuse_port)

    sock = _http_socket(config.bind_host, config.http_port, config.reuse_port)
    http_port = sock.getsockname()[1]
    if notifier is not None:
        await notifier.start(work=worker is None)
    elif config.redis_url or config.db not in (None, ":memory:"):  # deliveries left queued by a former setting
        from tablero.server.notify.worker import say_orphans_once

        tasks.append(asyncio.create_task(say_orphans_once(config.redis_url, config.db)))
    userver = _http_server(config, api, lifecycle)
    http_task = asyncio.create_task(userver.serve(sockets=_acceptors(sock)))

    loop = asyncio.get_running_loop()
    if install_signals:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
    log.info("serving", extra={"fields": {"host": config.bind_host, "grpc_port": grpc_port, "http_port": http_port,
                                          "metrics_port": metrics_port,
                                          "store": "redis" if config.redis_url else "sqlite",
                                          "db": config.db or (":memory:" if not config.redis_url else None)}})
    if install_signals:  # a server process of its own (not one embedded in a test or tool)
        # What is loaded by now (engines, protos, the app) lives as long as the process: out of
        # the collector's way, so that its full collections stay short (tail latency).
        gc.collect()
        gc.freeze()
    if started is not None and not started.done():
        started.set_result((grpc_port, http_port))
    try:
        await stop.wait()
    finally:
        log.info("shutting down", extra={"fields": {"grace_s": config.shutdown_grace}})
        lifecycle.shut_down()
        for task in tasks:
            task.cancel()
        if mserver is not None:
            mserver.close()
        await health.enter_graceful_shutdown()
        userver.should_exit = True
        await asyncio.gather(gserver.stop(config.shutdown_grace), http_task, return_exceptions=True)
        await _close(config, store, games, thinkers, notifier, worker)
        if metrics_dir is not None:  # the drain's last counts, for the workers still running
            with contextlib.suppress(OSError):
                metrics_workers.publish(metrics_dir)
        if install_signals:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
        log.info("stopped")


async def _close(config: Config, store, games: GameService, thinkers: Thinkers | None,  # type: ignore[no-untyped-def]
                 notifier, worker) -> None:
    """After the servers: bots, the use cases, notifications, the engine calls, the store."""
    await games.bots.close()
    if thinkers is not None:
        await thinkers.close()
    await games.close()
    if notifier is not None:
        await notifier.close()
    if worker is not None:
        from tablero.server.notify import process as notify_process

        await asyncio.to_thread(notify_process.stop, worker)
    games.engine_calls.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(games.games.drain(), 5)  # snapshots and finish() in flight
    await store.close()
