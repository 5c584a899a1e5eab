"""The HTTP listener has several handles on one listening socket (`runner.ACCEPTORS`):
libuv accepts one connection per handle per loop turn, so one handle throttled a busy
server to one new connection per turn (a listen queue of 30-60 under the side-by-side's
watched load). They all close at shutdown: the port is free again."""

from __future__ import annotations

import concurrent.futures
import socket

import httpx
from tablero.server import runner

from tests.server.support import ServerThread, free_port


def test_a_burst_of_new_connections_is_served_and_the_port_is_released_at_shutdown() -> None:
    port = free_port()
    with ServerThread(http_port=port) as server:
        assert server.http_port == port and runner.ACCEPTORS > 1

        def fresh(_: int) -> int:
            with httpx.Client(base_url=server.http, timeout=10) as c:  # a new connection each
                return c.get("/healthz").status_code

        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            assert list(pool.map(fresh, range(200))) == [200] * 200
    # every handle closed with the server: the port can be listened on again at once
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(1)
    s.close()
