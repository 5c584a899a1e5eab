"""A request's addresses (scope "client" and "server", which the request log and the rate
limits read) come from what the transport already holds: the guard's transport hands uvicorn no
socket object, so uvicorn does not ask the kernel again (uvloop builds a temporary socket per
question: five system calls per connection), and gives the addresses as (host, port) pairs, the
only form uvicorn takes (an IPv6 address is a 4-tuple). Checked on a real uvicorn server with the
guard, on uvloop as `tablero serve` runs it, over IPv4 and IPv6."""

from __future__ import annotations

import asyncio
import socket

import pytest
import uvicorn
import uvloop
from tablero.server.http.slow_clients import _Requests, _Unchunked, http_protocol


async def _echo(scope, receive, send):
    if scope["type"] != "http":
        return
    body = repr((scope["client"], scope["server"])).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _served(family: int, host: str) -> tuple:
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.bind((host, 0))
    srv = uvicorn.Server(uvicorn.Config(_echo, http=http_protocol("httptools", 5), log_config=None, lifespan="off"))
    task = asyncio.get_running_loop().create_task(srv.serve(sockets=[sock]))
    while not srv.started:
        await asyncio.sleep(0.01)
    port = sock.getsockname()[1]
    try:
        r, w = await asyncio.open_connection(host, port)
        mine = w.get_extra_info("sockname")
        w.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        head = await asyncio.wait_for(r.readuntil(b"\r\n\r\n"), 5)
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        seen = eval(await asyncio.wait_for(r.readexactly(length), 5))  # noqa: S307 - our own repr
        w.close()
        return seen, (mine[0], mine[1]), (host, port)
    finally:
        srv.should_exit = True
        await task


def _run(family: int, host: str) -> tuple:
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(_served(family, host))


def test_a_request_knows_both_ends_over_ipv4() -> None:
    (client, server), mine, listening = _run(socket.AF_INET, "127.0.0.1")
    assert client == mine and server == listening


def test_a_request_knows_both_ends_over_ipv6() -> None:
    if not socket.has_ipv6:
        pytest.skip("this machine has no IPv6")
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")
    (client, server), mine, listening = _run(socket.AF_INET6, "::1")
    assert client == mine and server == listening


def test_the_guard_hands_out_addresses_not_the_socket() -> None:
    async def main() -> None:
        listener = socket.create_server(("127.0.0.1", 0))
        b = socket.create_connection(listener.getsockname())
        a, _ = listener.accept()
        transport, _ = await asyncio.get_running_loop().connect_accepted_socket(asyncio.Protocol, a)
        try:
            w = _Unchunked(transport, _Requests(), asyncio.get_running_loop())
            assert transport.get_extra_info("socket") is not None
            assert w.get_extra_info("socket") is None  # uvicorn then reads sockname/peername
            assert w.get_extra_info("nothing", "default") == "default"
            assert w.get_extra_info("sockname") == listener.getsockname()
            assert w.get_extra_info("peername") == b.getsockname()
        finally:
            transport.close()
            b.close()
            listener.close()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())
