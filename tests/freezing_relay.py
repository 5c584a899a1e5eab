"""A TCP relay in which live watch connections can be silenced (tests of clients that must notice
a stream that died without saying so)."""

from __future__ import annotations

import re
import socket
import threading

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
