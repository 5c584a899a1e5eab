"""`tablero bots`: a bot-worker process. It takes thinking bots' turns (levels medium and hard)
from the store's bot queue, thinks in this process and commits each move through the ordinary
compare-and-set write (server/app/thinkers.py). Run as many as the queue needs (k8s: the
bot-worker Deployment, scaled on `tablero_bot_queue_depth`, served at `--metrics-port`).

    tablero bots --redis-url redis://host:6379/0 [--concurrency 1] [--metrics-port 9090]
    tablero bots --db games.sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

log = logging.getLogger("tablero.bots")


async def run(config, concurrency: int = 1, metrics_port: int | None = None,
              stop: asyncio.Event | None = None, started: asyncio.Future | None = None) -> None:
    from tablero.server.app import GameService
    from tablero.server.app.thinkers import Thinkers
    from tablero.server.auth import TokenSigner
    from tablero.server.runner import _portal_parts, bot_queue
    from tablero.server.store import open_store

    from tablero import engines

    engines.names()
    store = open_store(config.redis_url, config.db, **config.store_options())
    lobby, clocks, _, _ = _portal_parts(config, store)
    service = GameService(store, TokenSigner(config.secret), cache_size=config.cache_size,
                          snapshot_every=config.snapshot_every, lobby=lobby, clocks=clocks)
    service.bot_queue = bot_queue(config, store)
    thinkers = Thinkers(service, service.bot_queue, processes=0, concurrency=concurrency,
                        lease=config.bot_lease, in_process=True)
    if metrics_port is not None:
        from prometheus_client import start_http_server

        start_http_server(metrics_port)
    stop = stop or asyncio.Event()
    thinkers.start()
    log.info("bot worker running", extra={"fields": {"concurrency": concurrency,
                                                     "store": "redis" if config.redis_url else "sqlite"}})
    if started is not None and not started.done():
        started.set_result(thinkers)
    try:
        await stop.wait()
    finally:
        await thinkers.close()
        await service.bots.close()
        await service.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(service.games.drain(), 5)
        await store.close()


def main(argv: list[str]) -> int:
    from tablero.server import logs
    from tablero.server.config import Config, ConfigError

    parser = argparse.ArgumentParser(prog="tablero bots", description="run a bot worker (medium and hard bots)")
    parser.add_argument("--redis-url", help="Redis URL (env TABLERO_REDIS_URL)")
    parser.add_argument("--db", help="SQLite file (env TABLERO_DB); the server's own file")
    parser.add_argument("--log-level", help="debug, info, warning (env TABLERO_LOG_LEVEL)")
    parser.add_argument("--concurrency", type=int, default=1, help="turns thought at once (default 1)")
    parser.add_argument("--metrics-port", type=int, help="serve /metrics (the queue depth) on this port")
    ns = parser.parse_args(argv)
    try:
        config = Config.load(redis_url=ns.redis_url, db=ns.db, log_level=ns.log_level)
    except ConfigError as e:
        print(f"tablero bots: {e}", file=sys.stderr)
        return 2
    if not config.redis_url and config.db in (None, ":memory:"):
        print("tablero bots: a bot worker needs the server's store: --redis-url, or --db naming its SQLite file",
              file=sys.stderr)
        return 2
    if ns.concurrency < 1:
        print("tablero bots: --concurrency must be at least 1", file=sys.stderr)
        return 2
    logs.setup(config.log_level)

    async def go() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await run(config, ns.concurrency, ns.metrics_port, stop)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(go())
    return 0
