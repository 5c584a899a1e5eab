"""`tablero` command line: `tablero serve` runs the server; `tablero rank` aggregates ranked lists."""

from __future__ import annotations

import argparse
import asyncio
import sys

from server.config import Config


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="tablero", description="Tablero board-game service")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="run the gRPC + REST server")
    s.add_argument("--host", help="address to bind (env TABLERO_HOST, default 0.0.0.0)")
    s.add_argument("--grpc-port", type=int, help="gRPC port (env TABLERO_GRPC_PORT, default 50051)")
    s.add_argument("--http-port", type=int, help="HTTP port (env TABLERO_HTTP_PORT, default 8080)")
    s.add_argument("--redis-url", help="Redis URL (env TABLERO_REDIS_URL); without it: embedded SQLite")
    s.add_argument("--db", help="SQLite file (env TABLERO_DB); default in memory")
    s.add_argument("--log-level", help="debug, info, warning (env TABLERO_LOG_LEVEL)")
    r = sub.add_parser("rank", help="merge ranked game lists (JSON/CSV files) into one ranking",
                       add_help=False)
    r.add_argument("args", nargs=argparse.REMAINDER)
    if argv[:1] == ["rank"]:
        from rankings.cli import main as rank_main

        return rank_main(argv[1:])
    ns = parser.parse_args(argv)
    if ns.command == "serve":
        from server import logs
        from server.runner import serve

        config = Config.from_env()
        for key in ("host", "grpc_port", "http_port", "redis_url", "db", "log_level"):
            if getattr(ns, key) is not None:
                setattr(config, key, getattr(ns, key))
        logs.setup(config.log_level)
        try:
            asyncio.run(serve(config))
        except KeyboardInterrupt:
            pass
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
