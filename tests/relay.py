"""TCP relays between a test's client and a real server: one that counts what the server sends
back, one in which live watch connections can be silenced (for clients that must notice a stream
that died without saying so)."""

from __future__ import annotations

import re
import socket
import threading
from typing import Any


class Relay:
    """Each connection accepted is joined to a new one to the server; each direction is copied
    in its own thread through `forward` (whether to pass the data on)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.address = f"127.0.0.1:{self.port}"
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            link: dict[str, Any] = {}
            with self.lock:
                self.sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, False, link), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, True, link), daemon=True).start()

    def forward(self, data: bytes, down: bool, link: dict[str, Any]) -> bool:
        return True

    def _pipe(self, src: socket.socket, dst: socket.socket, down: bool, link: dict[str, Any]) -> None:
        try:
            while data := src.recv(65536):
                if self.forward(data, down, link):
                    dst.sendall(data)
        except OSError:
            pass
        if not link.get("frozen"):  # the end passes on too (a silenced link tells nobody)
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                s.close()


class CountingRelay(Relay):
    """Counts the bytes the server sends back (what is on the wire)."""

    down = 0

    def forward(self, data: bytes, down: bool, link: dict[str, Any]) -> bool:
        if down:
            with self.lock:
                self.down += len(data)
        return True


# A watch: the REST/SSE route, or the Connect / gRPC-Web stream (@tablero/client, the web page).
_WATCH = re.compile(rb"(?m)^(GET [^ ?]*/watch[ ?]|POST [^ ?]*\.GameService/WatchGame )")


class FreezingRelay(Relay):
    """The watch connections open at `freeze()` go silent: what either side sends is read and
    dropped, and neither side is told (the connection stays open). Connections opened
    afterwards relay as usual."""

    def __init__(self, port: int) -> None:
        super().__init__("127.0.0.1", port)
        self.watches: list[dict[str, Any]] = []

    def forward(self, data: bytes, down: bool, link: dict[str, Any]) -> bool:
        if not down and not link.get("watch") and _WATCH.search(data):
            # (a kept-alive connection may carry other requests before its watch)
            link["watch"] = True
            with self.lock:
                self.watches.append(link)
        return not link.get("frozen")  # swallowed: the other side hears nothing, and is not told

    def freeze(self) -> int:
        with self.lock:
            for link in self.watches:
                link["frozen"] = True
            return len(self.watches)


class SilencingRelay(Relay):
    """Every connection open at `silence()` goes silent (gRPC: one HTTP/2 connection carries all
    of a channel's calls): what either side sends is dropped, and neither side is told.
    Connections opened afterwards relay as usual."""

    def __init__(self, port: int) -> None:
        super().__init__("127.0.0.1", port)
        self.links: list[dict[str, Any]] = []

    def forward(self, data: bytes, down: bool, link: dict[str, Any]) -> bool:
        if not link.get("seen"):
            link["seen"] = True
            with self.lock:
                self.links.append(link)
        return not link.get("frozen")

    def silence(self) -> int:
        with self.lock:
            for link in self.links:
                link["frozen"] = True
            return len(self.links)
