"""The metrics listener: `/metrics` on its own port (TABLERO_METRICS_PORT, default 9090).

Kept off the public HTTP port so that the Service and the Ingress never publish it: only
Prometheus, from inside the cluster, scrapes it (k8s/base/networkpolicy-server.yaml admits
the port from the monitoring namespace only). A deliberately small HTTP/1.1 responder:
`GET /metrics` (the exposition, summed over the workers under `--workers N`) and
`GET /healthz`; anything else 404, a request that takes longer than READ_TIMEOUT is closed.

A port that cannot be bound (taken by another process) is logged as an error and the server
runs without it: losing the metrics must not take the game service down (the scrape then
fails, and the TableroTargetDown alert says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time

from tablero.server import metrics

log = logging.getLogger("tablero")

READ_TIMEOUT = 10.0
MAX_HEADER = 16 * 1024


def _response(status: str, body: bytes, ctype: str) -> bytes:
    head = (f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n")
    return head.encode() + body


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        async with asyncio.timeout(READ_TIMEOUT):
            head = await reader.readuntil(b"\r\n\r\n")
        started = time.perf_counter()
        if len(head) > MAX_HEADER:
            raise ValueError("headers too large")
        method, _, rest = head.split(b"\r\n", 1)[0].decode("latin-1").partition(" ")
        path = rest.partition(" ")[0].partition("?")[0]
        if method not in ("GET", "HEAD"):
            status, out = 405, _response("405 Method Not Allowed", b"GET only\n", "text/plain")
        elif path == "/metrics":
            body, ctype = metrics.exposition()
            status, out = 200, _response("200 OK", b"" if method == "HEAD" else body, ctype)
        elif path == "/healthz":
            status, out = 200, _response("200 OK", b'{"status":"ok"}', "application/json")
        else:
            status, out = 404, _response("404 Not Found", b"only /metrics here\n", "text/plain")
        writer.write(out)
        await writer.drain()
        # One line per scrape, as the HTTP port's probes have (docs/operations.md, "Logs").
        if log.isEnabledFor(logging.INFO):
            log.info("request", extra={"fields": {"transport": "metrics", "method": method, "path": path[:200],
                                                  "status": status, "duration_ms":
                                                  round((time.perf_counter() - started) * 1000, 2)}})
    except (TimeoutError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        pass
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def start(host: str, port: int, reuse_port: bool = False) -> tuple[asyncio.AbstractServer | None, int | None]:
    """The listener on (host, port), and the port it got (None, None when it cannot bind)."""
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:  # `serve --workers N`: any worker answers, with the sum over all of them
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        log.error("metrics port not served: the server runs without /metrics",
                  extra={"fields": {"metrics_port": port, "error": str(e)}})
        return None, None
    server = await asyncio.start_server(_handle, sock=sock, limit=MAX_HEADER)
    return server, sock.getsockname()[1]
