"""A lean HTTP/1.1 keep-alive connection for the load tester's unary REST calls.

httpx costs about a millisecond of client CPU per request, which on a small machine shared with
the server measures the client more than the server. This speaks just what Tablero's REST API
answers (Content-Length or chunked bodies) over one plain-TCP connection, one request at a time,
with TCP_NODELAY and the whole request in one write. Watches still use httpx (SSE streams).
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any
from urllib.parse import urlencode, urlsplit

from ._rest import AsyncRestTransport, _error
from .errors import TableroError, Unavailable

JSON = dict[str, Any]


class LeanConnection:
    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, target: str, headers: dict[str, str], body: bytes) -> tuple[int, bytes]:
        async with self.lock:
            try:
                return await asyncio.wait_for(self._request(method, target, headers, body), self.timeout)
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as e:
                self.close()
                raise Unavailable(f"{type(e).__name__}: {e}") from e

    async def _request(self, method: str, target: str, headers: dict[str, str], body: bytes) -> tuple[int, bytes]:
        if self.writer is None or self.writer.is_closing():
            await self._connect()
        assert self.reader is not None and self.writer is not None
        head = [f"{method} {target} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split(b" ", 2)[1])
        length, chunked, close = None, False, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                close = True
        if chunked:
            data = bytearray()
            while True:
                size = int((await self.reader.readline()).split(b";")[0].strip(), 16)
                if size == 0:
                    await self.reader.readline()
                    break
                data += await self.reader.readexactly(size)
                await self.reader.readexactly(2)
            payload = bytes(data)
        elif length is not None:
            payload = await self.reader.readexactly(length)
        else:
            payload = await self.reader.read()
            close = True
        if close:
            self.close()
        return status, payload


class LeanRestTransport(AsyncRestTransport):
    """AsyncRestTransport whose unary calls go over one LeanConnection (http:// only)."""

    def __init__(self, url: str, timeout: float = 30.0, http: Any = None) -> None:
        super().__init__(url, timeout, http=http)  # httpx (`http`, may be shared) serves the watches
        u = urlsplit(self.url)
        if u.scheme != "http" or not u.hostname:
            raise ValueError("the lean transport speaks plain http:// only")
        self.conn = LeanConnection(u.hostname, u.port or 80, timeout)
        self.prefix = u.path.rstrip("/")

    async def close(self) -> None:
        self.conn.close()  # the httpx client is its owner's to close

    async def _call(self, method: str, path: str, token: str | None = None, body: JSON | None = None,
                    params: JSON | None = None) -> JSON:
        target = self.prefix + path + (("?" + urlencode(params)) if params else "")
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body, separators=(",", ":")).encode() if body is not None else b""
        status, payload = await self.conn.request(method, target, headers, data)
        if status == 200:
            try:
                return json.loads(payload)
            except ValueError as e:
                raise TableroError(f"undecodable answer: {e}", http_status=status) from e
        raise _error(status, payload.decode("utf-8", "replace"))
