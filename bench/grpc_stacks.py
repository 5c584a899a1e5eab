"""gRPC on other HTTP/2 stacks: server CPU per unary call, and how many calls one connection
carries (issue 39; docs/design.md, "HTTP and gRPC stacks").

Three echo servers of one unary method (`/e.E/Echo`, the request's bytes back), each on its own
port, driven by `h2load` (nghttp2-client: the client costs little, so the server's share is
what is read, from /proc):

- `grpcio`: a grpc.aio server, as `tablero serve` runs its gRPC port;
- `grpcio-redis`: the same, the handler awaiting two Redis PINGs first (a handler that awaits
  I/O, as every Tablero call does), beside
- `rest-redis`: uvicorn with httptools (Tablero's HTTP stack) answering the same POST the same
  way over HTTP/1.1;
- `zttp`: uvicorn's HTTP/2 (`http="zttp"`, uvicorn >= 0.55 with the `zttp` package), an ASGI
  app that answers gRPC itself (5-byte message prefix, `grpc-status` as an HTTP/2 trailer);
- `zttp-redis`: the same with the two PINGs.

It also plays N calls on ONE connection to each HTTP/2 server and reports how many succeed
(`--per-connection`, default 10,000): a gRPC channel is one long-lived connection.

uvicorn 0.55 and zttp are not Tablero's pins, so run this in a separate virtualenv:

    python3 -m venv /tmp/stacks && /tmp/stacks/bin/pip install uvicorn==0.55.0 zttp==0.0.35 \\
        grpcio==1.85.3 uvloop==0.22.1 httptools==0.7.1 redis==8.1.0 hiredis==3.5.0
    /tmp/stacks/bin/python bench/grpc_stacks.py            # needs h2load and redis-server

Measured 2026-12-06 (this machine kind, 2 shared cores; 20,000-40,000 calls, 32 in flight):
server CPU per call grpcio 108 µs, zttp 15 µs; with two awaited PINGs grpcio 232 µs, REST 112 µs
(zttp with PINGs: about REST's). zttp 0.0.35 ends every HTTP/2 connection after 4,096 streams
(its fixed `max_streams` bound against stream churn, not settable from Python or uvicorn in that
release) with GOAWAY ENHANCE_YOUR_CALM, and calls in flight then fail UNAVAILABLE: so it cannot
carry gRPC channels yet.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time

ECHO = "/e.E/Echo"
BODY = b"\x00\x00\x00\x00\x2d" + b"x" * 45  # one gRPC message of 45 bytes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the servers (run as `grpc_stacks.py serve KIND PORT REDIS_PORT`) ----

def serve_grpcio(port: int, redis_port: int | None) -> None:
    import grpc
    import uvloop

    async def main() -> None:
        r = None
        if redis_port:
            import redis.asyncio as aioredis
            r = aioredis.Redis(port=redis_port)

        async def echo(request: bytes, context: object) -> bytes:
            if r is not None:
                await r.ping()
                await r.ping()
            return request

        server = grpc.aio.server()
        handler = grpc.method_handlers_generic_handler("e.E", {"Echo": grpc.unary_unary_rpc_method_handler(echo)})
        server.add_generic_rpc_handlers((handler,))
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        await server.wait_for_termination()

    uvloop.run(main())


def serve_asgi(port: int, redis_port: int | None, grpc_framing: bool) -> None:
    import uvicorn
    r = None

    async def app(scope: dict, receive, send) -> None:  # noqa: ANN001
        nonlocal r
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if redis_port:
            if r is None:
                import redis.asyncio as aioredis
                r = aioredis.Redis(port=redis_port)
            await r.ping()
            await r.ping()
        if grpc_framing:
            await send({"type": "http.response.start", "status": 200, "trailers": True,
                        "headers": [(b"content-type", b"application/grpc")]})
            await send({"type": "http.response.body", "body": body})
            await send({"type": "http.response.trailers", "headers": [(b"grpc-status", b"0")]})
        else:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})

    if grpc_framing:
        uvicorn.run(app, host="127.0.0.1", port=port, http="zttp", http2=True, loop="uvloop",
                    log_level="error", access_log=False)
    else:
        uvicorn.run(app, host="127.0.0.1", port=port, http="httptools", loop="uvloop",
                    log_level="error", access_log=False)


# ---- the driver ----

def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def h2load(port: int, calls: int, clients: int, streams: int, http1: bool, body: str) -> tuple[int, str]:
    args = ["h2load", "-n", str(calls), "-c", str(clients), "-d", body]
    if http1:
        args += ["--h1"]
    else:
        args += ["-m", str(streams), "-H", "content-type: application/grpc", "-H", "te: trailers"]
    out = subprocess.run(args + [f"http://127.0.0.1:{port}{ECHO}"], capture_output=True, text=True).stdout
    line = next((x for x in out.splitlines() if x.startswith("requests:")), "")
    succeeded = int(line.split(",")[3].split()[0]) if line else 0
    return succeeded, line


def wait_port(port: int) -> None:
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        kind, port, redis_port = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) or None
        if kind == "grpcio":
            serve_grpcio(port, redis_port)
        else:
            serve_asgi(port, redis_port, grpc_framing=kind == "zttp")
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--calls", type=int, default=20_000)
    p.add_argument("--per-connection", type=int, default=10_000)
    args = p.parse_args()
    import tempfile
    body = tempfile.NamedTemporaryFile(suffix=".bin", delete=False)
    body.write(BODY)
    body.close()
    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL)
    rows = [("grpcio", "grpcio", False, False), ("grpcio-redis", "grpcio", True, False),
            ("rest-redis", "rest", True, True), ("zttp", "zttp", False, False), ("zttp-redis", "zttp", True, False)]
    try:
        wait_port(redis_port)
        print("| server | calls answered | server CPU µs per call |\n|---|---|---|")
        cap = {}
        for label, kind, with_redis, http1 in rows:
            port = free_port()
            proc = subprocess.Popen([sys.executable, __file__, "serve", kind, str(port),
                                     str(redis_port if with_redis else 0)])
            try:
                wait_port(port)
                h2load(port, 2000, 4, 8, http1, body.name)  # warm-up (connections of its own)
                before = cpu_seconds(proc.pid)
                done, _ = h2load(port, args.calls, 32 if http1 else 4, 8, http1, body.name)
                spent = cpu_seconds(proc.pid) - before
                print(f"| {label} | {done} of {args.calls} | {spent / max(done, 1) * 1e6:.0f} |")
                if not http1 and not with_redis:
                    cap[label] = h2load(port, args.per_connection, 1, 1, False, body.name)[0]
            finally:
                proc.terminate()
                proc.wait()
        for label, done in cap.items():
            print(f"{label}: {done} of {args.per_connection} calls answered on one connection")
    finally:
        redis.terminate()
        os.unlink(body.name)


if __name__ == "__main__":
    main()
