"""`tablero` command line: `tablero serve` runs the server; `tablero rank` aggregates ranked lists.

Verbs are a table (VERBS): name → (help, function taking the remaining arguments). A verb
with its own parser (rank, and the client verbs) gets its arguments untouched.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from collections.abc import Callable

# Allocations between young garbage collections in a server process (Python's default: 700).
# What a young collection finds alive is mostly the watches in flight (each watcher's awaiting
# generators, futures and contexts: 20,000-50,000 objects with 2,000 spectators), and it finds
# no garbage (no cycles in steady state), so its cost is about that set's, whatever the
# threshold: 20,000 gave collections of 3-100 ms that took 17-21 % of the server's CPU with 40
# spectators a game; 100,000 takes 3-4 % (moves/s +15-30 %, same run, alternated).
GC_YOUNG = 100_000

SERVE_FLAGS = [
    ("--host", str, "address to bind (env TABLERO_HOST; default 0.0.0.0, but 127.0.0.1 with the development secret)"),
    ("--grpc-port", int, "gRPC port (env TABLERO_GRPC_PORT, default 50051)"),
    ("--http-port", int, "HTTP port (env TABLERO_HTTP_PORT, default 8080)"),
    ("--metrics-port", int, "Prometheus /metrics port (env TABLERO_METRICS_PORT, default 9090)"),
    ("--redis-url", str, "Redis URL (env TABLERO_REDIS_URL); without it: embedded SQLite"),
    ("--db", str, "SQLite file (env TABLERO_DB); default in memory"),
    ("--log-level", str, "debug, info, warning, error or critical (env TABLERO_LOG_LEVEL)"),
    ("--workers", int, "server processes sharing the ports (env TABLERO_WORKERS, default 1; >1 needs "
                       "Redis or a SQLite file)"),
]


def serve(argv: list[str]) -> int:
    from tablero.server import logs
    from tablero.server.config import Config, ConfigError

    parser = argparse.ArgumentParser(prog="tablero serve", description="run the gRPC + REST server")
    for flag, kind, help_text in SERVE_FLAGS:
        parser.add_argument(flag, type=kind, help=help_text)
    ns = parser.parse_args(argv)
    try:
        config = Config.load(**vars(ns))
    except ConfigError as e:
        print(f"tablero serve: {e}", file=sys.stderr)
        return 2
    logs.setup(config.log_level)
    # Before any worker starts: under --workers the workers bind with SO_REUSEPORT, which would
    # let them share a port with another server's workers instead of failing.
    busy = _busy_port(config) or _unopenable_db(config)
    if busy is not None:
        print(f"tablero serve: {busy}", file=sys.stderr)
        return 2 if busy.startswith(("TABLERO_HOST", "TABLERO_DB")) else 1  # (a bad setting, as the config's own: exit 2)
    if config.workers > 1:
        from tablero.server.workers import supervise

        child = [a for i, a in enumerate(argv) if a != "--workers" and not a.startswith("--workers=")
                 and not (i > 0 and argv[i - 1] == "--workers")]
        return supervise(config.workers, child, config.shutdown_grace)
    from tablero.server.runner import serve as run

    # Each request allocates thousands of short-lived objects: young collections every
    # GC_YOUNG allocations instead of 700 cost less in all and pause no longer.
    gc.set_threshold(GC_YOUNG, 20, 20)
    try:
        try:
            import uvloop  # the faster event loop (issue 10); plain asyncio where it is not installed
        except ImportError:
            asyncio.run(run(config))
        else:
            uvloop.run(run(config))
    except KeyboardInterrupt:
        pass
    return 0


def _busy_port(config) -> str | None:
    """Why the HTTP or gRPC port cannot be bound (another server holds it, or the host is no address
    of this machine), or None: said in one line before anything starts, rather than as a traceback
    from deep in the start-up."""
    import errno
    import socket

    for name, port in (("HTTP", config.http_port), ("gRPC", config.grpc_port)):
        if config.reuse_port:  # workers sharing it (port 0, a free one: the address is still checked)
            continue
        host = config.bind_host
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((host, port))
            except OSError as e:
                if isinstance(e, socket.gaierror) or e.errno == errno.EADDRNOTAVAIL:  # the address, not the port
                    return (f"TABLERO_HOST={host!r} (--host): cannot listen there ({e.strerror or e}): give an "
                            "address of this machine (0.0.0.0 for every interface, 127.0.0.1 for this one only)")
                return (f"cannot listen on {host}:{port} for {name} ({e.strerror or e}); another server may "
                        f"hold it: choose another with --{name.lower()}-port")
    return None


def _unopenable_db(config) -> str | None:
    """Why the SQLite file cannot be opened or created (a folder the server may not write, such as a
    container's read-only root), or None: one line, not sqlite3's traceback from the start-up. (The
    file is created here, empty, as the server would create it a moment later.)"""
    if config.redis_url or not config.db or config.db == ":memory:":
        return None
    import sqlite3

    try:
        sqlite3.connect(config.db, timeout=30).close()
    except sqlite3.Error as e:
        return (f"TABLERO_DB={config.db!r} (--db): cannot open or create the SQLite file ({e}): name a file in "
                "a folder the server may write")
    return None


def rank(argv: list[str]) -> int:
    from tablero.rankings.cli import main as rank_main

    return rank_main(argv)


def admin(argv: list[str]) -> int:
    from tablero.server.admin import main as admin_main

    return admin_main(argv)


def bots(argv: list[str]) -> int:
    from tablero.server.botworker import main as bots_main

    return bots_main(argv)


def _client_verb(name: str) -> Callable[[list[str]], int]:
    """A verb of the client CLI (tablero_client.cli, public API only)."""

    def run(argv: list[str]) -> int:
        from tablero_client.cli import main as client_main

        return client_main([name, *argv])

    return run


# name -> (help, main(argv) -> exit code).
VERBS: dict[str, tuple[str, Callable[[list[str]], int]]] = {
    "serve": ("run the gRPC + REST server", serve),
    "bots": ("run a bot worker: plays the medium and hard bots' turns from the store's queue", bots),
    "rank": ("merge ranked game lists (JSON/CSV files) into one ranking", rank),
    "admin": ("operator tools: export, archive or delete a game; ratings rebuild; webhooks queues", admin),
    "engines": ("list the engines a server runs", _client_verb("engines")),
    "create": ("create a game; prints its id and seat tokens", _client_verb("create")),
    "join": ("claim an open seat of a game", _client_verb("join")),
    "show": ("a game as readable text", _client_verb("show")),
    "actions": ("the legal actions of a seat, numbered", _client_verb("actions")),
    "act": ("submit an action", _client_verb("act")),
    "watch": ("print a game's events as they happen", _client_verb("watch")),
    "bot": ("play a seat with random legal actions to the end", _client_verb("bot")),
    "play": ("play a whole game in the terminal", _client_verb("play")),
    "match": ("quick match for a portal user, then play the game found", _client_verb("match")),
    "loadtest": ("play many complete games against a server and report", _client_verb("loadtest")),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in VERBS:
        return VERBS[argv[0]][1](argv[1:])
    if argv[:1] and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        # The client's options before its verb (`tablero --url URL engines`), as documented
        # for `python -m tablero_client`.
        from tablero_client.cli import main as client_main

        return client_main(argv)
    parser = argparse.ArgumentParser(prog="tablero", description="Tablero board-game service")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, _) in VERBS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    parser.parse_args(argv)
    return 2


if __name__ == "__main__":
    sys.exit(main())
