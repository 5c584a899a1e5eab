"""Run the gRPC and HTTP servers in one process and one event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket

import grpc
import uvicorn
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection

from server.app import GameService
from server.auth import TokenSigner
from server.config import Config
from server.grpc.gen import games_pb2
from server.grpc.rankings import add_to_server as add_rankings
from server.grpc.service import GameServicer, add_service
from server.http.app import build_app
from server.http.common import HttpState
from server.store import open_store

log = logging.getLogger("tablero")


class _Uvicorn(uvicorn.Server):
    """uvicorn without its own signal handling: the runner owns SIGTERM/SIGINT."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield

    def install_signal_handlers(self) -> None:  # older uvicorn
        pass


READINESS_INTERVAL = 5.0


async def _store_status(games: GameService) -> int:
    try:
        await asyncio.wait_for(games.store.ping(), 2.0)
        return health_pb2.HealthCheckResponse.SERVING
    except Exception:  # any failure means not ready
        return health_pb2.HealthCheckResponse.NOT_SERVING


async def _track_readiness(health, games: GameService, services: list[str], serving: int,
                           stop: asyncio.Event) -> None:
    """Keep the gRPC health status of the API services in step with the store's reachability."""
    while not stop.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), READINESS_INTERVAL)
        if stop.is_set():
            return
        now = await _store_status(games)
        if now != serving:
            for name in services:
                await health.set(name, now)
            log.warning("readiness changed", extra={"fields": {"serving": now == health_pb2.HealthCheckResponse.SERVING}})
            serving = now


async def serve(config: Config, started: asyncio.Future | None = None, stop: asyncio.Event | None = None,
                install_signals: bool = True) -> None:
    config.warn_if_insecure()
    store = open_store(config.redis_url, config.db)
    games = GameService(store, TokenSigner(config.secret), cache_size=config.cache_size,
                        snapshot_every=config.snapshot_every)
    http_state = HttpState(games, max_body=config.max_body, max_rankings_body=config.max_rankings_body)
    stop = stop or asyncio.Event()

    # gRPC
    # The transport admits the larger rankings requests; GameService checks its own, smaller limit.
    limit = max(config.max_body, config.max_rankings_body, 64 * 1024)
    gserver = grpc.aio.server(options=[
        ("grpc.max_receive_message_length", limit),
        ("grpc.so_reuseport", 0),
        # Long-lived connections are closed now and then so clients spread over replicas the HPA adds.
        ("grpc.max_connection_age_ms", 5 * 60 * 1000),
        ("grpc.max_connection_age_grace_ms", 30 * 1000),
    ])
    service_names = [add_service(GameServicer(games, http_state.shutting_down, config.max_body), gserver, games_pb2)]
    service_names.append(add_rankings(gserver))
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, gserver)
    service_names += [health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME]
    reflection.enable_server_reflection(service_names, gserver)
    grpc_port = gserver.add_insecure_port(f"{config.host}:{config.grpc_port}")
    if grpc_port == 0:
        raise OSError(f"cannot bind gRPC port {config.grpc_port}")
    # "" (liveness) is SERVING while the process runs; the API services (readiness) are
    # SERVING only while the store answers, like /readyz.
    await health.set("", health_pb2.HealthCheckResponse.SERVING)
    serving = await _store_status(games)
    for name in service_names[:-2]:
        await health.set(name, serving)
    readiness = asyncio.create_task(_track_readiness(health, games, service_names[:-2], serving, stop))
    await gserver.start()

    # HTTP
    sock = socket.socket(socket.AF_INET6 if ":" in config.host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit TCP_NODELAY: responses go out as headers + body in two
    # writes, and Nagle + the client's delayed ACK would add ~40 ms to each reused connection.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((config.host, config.http_port))
    sock.listen(512)
    sock.setblocking(False)
    http_port = sock.getsockname()[1]
    userver = _Uvicorn(uvicorn.Config(build_app(http_state), log_config=None, access_log=False, lifespan="off",
                                      timeout_graceful_shutdown=int(config.shutdown_grace), loop="asyncio"))
    http_task = asyncio.create_task(userver.serve(sockets=[sock]))

    loop = asyncio.get_running_loop()
    if install_signals:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
    log.info("serving", extra={"fields": {"grpc_port": grpc_port, "http_port": http_port,
                                          "store": "redis" if config.redis_url else "sqlite",
                                          "db": config.db or (":memory:" if not config.redis_url else None)}})
    if started is not None and not started.done():
        started.set_result((grpc_port, http_port))
    try:
        await stop.wait()
    finally:
        log.info("shutting down", extra={"fields": {"grace_s": config.shutdown_grace}})
        http_state.shutting_down.set()
        readiness.cancel()
        await health.enter_graceful_shutdown()
        userver.should_exit = True
        await asyncio.gather(gserver.stop(config.shutdown_grace), http_task, return_exceptions=True)
        await store.close()
        if install_signals:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
        log.info("stopped")
