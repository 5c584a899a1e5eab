"""A quiet SSE watch is let go as soon as its client leaves: the protocol tells the stream
(server.http.slow_clients.Disconnect), no task per watch waits for it, and the watch's store
watcher goes with it — long before the next keep-alive would have found the socket closed."""

import socket
import time

import pytest

from tests import plainhttp
from tests.server.support import ServerThread, scrape


def _streams(base: str) -> float:
    for line in scrape(base).splitlines():
        if line.startswith("tablero_watch_streams "):
            return float(line.split()[1])
    raise AssertionError("no tablero_watch_streams in /metrics")


def _open_watch(port: int, gid: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /v1/games/{gid}/watch HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    got = b""
    while b": watching" not in got:
        chunk = s.recv(4096)
        assert chunk, got
        got += chunk
    return s


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_a_quiet_watch_ends_when_its_client_leaves(store, request):
    extra = {"redis_url": request.getfixturevalue("redis_url")} if store == "redis" else {}
    with ServerThread(**extra) as server:  # keep-alives every 15 s: none finds the close in time
        created = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid = created["game"]["id"]
        before = _streams(server.http)
        socks = [_open_watch(server.http_port, gid) for _ in range(3)]
        assert _streams(server.http) == before + 3
        for s in socks:
            s.close()
        deadline = time.monotonic() + 5
        while _streams(server.http) != before:
            assert time.monotonic() < deadline, f"watch streams still open: {_streams(server.http)} > {before}"
            time.sleep(0.05)
        # The server goes on serving watches and moves on the same game.
        s = _open_watch(server.http_port, gid)
        r = plainhttp.post(f"{server.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                       headers={"authorization": f"Bearer {created['seats'][0]['token']}"})
        assert r.status_code == 200, r.text
        got = b""
        while b"id: 2" not in got and b"id: 1" not in got:
            chunk = s.recv(4096)
            assert chunk
            got += chunk
        s.close()
