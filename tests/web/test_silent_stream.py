"""A live stream that dies without saying so (a laptop that slept, a proxy or NAT that dropped
the connection): no close, no error, just nothing more. The server sends a keep-alive comment
every 15 s, so a page that hears nothing for longer drops the stream and watches again from
the last version it holds; the moves made meanwhile arrive once each, without a reload."""

from __future__ import annotations

import re
import socket
import threading

import httpx

from .api_play import ApiGame

_WATCH = re.compile(rb"(?m)^GET [^ ?]*/watch[ ?]")


class FreezingProxy:
    """A TCP relay to the server in which the watch connections open at `freeze()` go silent:
    what either side sends is read and dropped, and neither side is told (the connection stays
    open). Connections opened afterwards relay as usual."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.watches: list[dict] = []
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            link = {"frozen": False, "watch": False}
            with self.lock:
                self.sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, link, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, link, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, link: dict, from_client: bool) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                if not link["frozen"]:
                    dst.close()
                return
            if from_client and not link["watch"] and _WATCH.search(data):
                # (a kept-alive connection may carry other requests before its watch)
                link["watch"] = True
                with self.lock:
                    self.watches.append(link)
            if link["frozen"]:
                continue  # swallowed: the other side hears nothing, and is not told
            try:
                dst.sendall(data)
            except OSError:
                return

    def freeze(self) -> int:
        with self.lock:
            for link in self.watches:
                link["frozen"] = True
            return len(self.watches)

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                s.close()


def test_a_stream_that_goes_silent_is_dropped_and_the_page_catches_up(server, new_page):
    proxy = FreezingProxy(int(server.url.rsplit(":", 1)[1]))
    try:
        game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
        page = new_page()
        page.add_init_script("globalThis.TABLERO_SSE_SILENCE_MS = 1500")
        game.hold(page, [1])
        page.goto(f"http://127.0.0.1:{proxy.port}/#/g/{game.id}")
        page.wait_for_selector(".live.live")
        assert proxy.freeze() >= 1  # the page's stream is now dead without knowing it
        auth = {"Authorization": f"Bearer {game.tokens[0]}"}
        for cell, version in ((0, 1), (8, 3)):
            r = httpx.post(f"{game.path}/actions", headers=auth,
                           json={"action": {"type": "place", "cell": cell}, "expectedVersion": version})
            assert r.status_code == 200, r.text
            # The page hears nothing on the frozen stream; after 1.5 s of silence it watches again.
            page.wait_for_selector(f'.ttt-cell[data-cell="{cell}"].mark-X', timeout=15_000)
            page.click('.ttt-cell.pickable[data-cell="4"]' if cell == 0 else '.ttt-cell.pickable[data-cell="2"]')
            page.wait_for_selector(f'.ttt-cell[data-cell="{4 if cell == 0 else 2}"].mark-O')
            proxy.freeze()
        assert [e["type"] for e in game.events()].count("mark_placed") == 4  # each move once
        page.wait_for_selector(".live.live")
    finally:
        proxy.close()
