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
from pathlib import Path

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


def _metrics_port_refused(port: int | None) -> str | None:
    """Why --metrics-port cannot be served (out of range, or another process holds it), or None."""
    import socket

    if port is None:
        return None
    if not 0 <= port <= 65535:
        return f"--metrics-port must be a port number from 0 to 65535, not {port}"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))  # where prometheus_client's start_http_server listens
        except OSError as e:
            return (f"cannot listen on port {port} for /metrics ({e.strerror or e}); another process may "
                    "hold it: choose another with --metrics-port")
    return None


def main(argv: list[str]) -> int:
    from tablero.server import logs
    from tablero.server.config import Config, ConfigError

    parser = argparse.ArgumentParser(prog="tablero bots", description="run a bot worker (medium and hard bots)")
    parser.add_argument("--redis-url", help="Redis URL (env TABLERO_REDIS_URL)")
    parser.add_argument("--db", help="SQLite file (env TABLERO_DB); the server's own file")
    parser.add_argument("--log-level", help="debug, info, warning, error or critical (env TABLERO_LOG_LEVEL)")
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
    if not config.redis_url and not Path(config.db).expanduser().is_file():
        # (it made a new, empty database there and waited on its queue for ever: a typo'd path
        # gave a worker that never played a turn, without a word)
        print(f"tablero bots: no SQLite file {config.db!r}: give the server's own file (start the server first)",
              file=sys.stderr)
        return 2
    if ns.concurrency < 1:
        print("tablero bots: --concurrency must be at least 1", file=sys.stderr)
        return 2
    busy = _metrics_port_refused(ns.metrics_port)
    if busy:  # said in one line before the store opens (it was a traceback from the bind)
        print(f"tablero bots: {busy}", file=sys.stderr)
        return 2 if "--metrics-port must" in busy else 1
    logs.setup(config.log_level)

    config.warn_unknown_names()

    async def go() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def stopping(sig: signal.Signals) -> None:
            if not stop.is_set():
                log.info("bot worker stopping", extra={"fields": {"signal": sig.name}})
            stop.set()

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping, sig)
        await run(config, ns.concurrency, ns.metrics_port, stop)
        log.info("bot worker stopped")

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(go())
    return 0
