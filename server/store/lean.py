"""A lean Redis client for the store's scripts on a plain Redis server (issue 10).

redis-py spends about 150 µs of Python per command on the way (connection pool and its
lock, retry and timeout wrappers, observability hooks, argument encoders, a reply parser
per connection); the store's request path sends one script call per accepted action. This
client sends the same commands over one pipelined connection with hiredis parsing the
replies: a command is one write and one future, resolved in order as replies arrive.

It raises redis-py's exception classes (ConnectionError, TimeoutError, NoScriptError,
ReadOnlyError, BusyLoadingError, ResponseError), so `RedisStore._call` retries and maps
failures exactly as it does for redis-py:

- a lost connection fails every command in flight with ConnectionError (whether each ran
  is unknown: the store only retries what is safe to repeat) and the next command opens a
  new connection; a closed connection is noticed when it closes (the connection is always
  being read), so a restarted server costs no stale-connection failure;
- a reply that takes longer than `socket_timeout` fails the connection with TimeoutError;
- replies are what redis-py gives without decode_responses: bytes, ints, lists, None.

Plain `redis://` URLs only (host, port, db, username, password): TLS, Unix sockets and
clusters stay on redis-py.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import socket
import time
from typing import Any

import hiredis
import redis.exceptions as rex
from redis.asyncio.connection import parse_url

_ERRORS = {
    "NOSCRIPT": rex.NoScriptError,
    "LOADING": rex.BusyLoadingError,
    "READONLY": rex.ReadOnlyError,
    "TRYAGAIN": rex.TryAgainError,
    "NOAUTH": rex.AuthenticationError,
    "WRONGPASS": rex.AuthenticationError,
}


def _error(reply: Exception) -> Exception:
    """An error reply as redis-py raises it: a known prefix picks the class (and is dropped)."""
    prefix, _, rest = str(reply).partition(" ")
    cls = _ERRORS.get(prefix)
    return cls(rest or prefix) if cls is not None else rex.ResponseError(str(reply))


def _arg(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bool):
        raise rex.DataError("a bool is not a Redis argument")
    if isinstance(value, (int, float)):
        return repr(value).encode()
    raise rex.DataError(f"{type(value).__name__} is not a Redis argument")


def pack(args: tuple[Any, ...]) -> bytes:
    """One command in RESP, by hiredis (`pack_command`, C: a third of the time of the same
    loop in Python, and the store packs about three commands a move). hiredis refuses what
    is not str, bytes, int or float (a bool, None, a list) with a TypeError: then the loop
    below says which argument, with redis-py's DataError."""
    try:
        return hiredis.pack_command(args if type(args) is tuple else tuple(args))
    except TypeError:
        return _pack(args)


def _pack(args: tuple[Any, ...]) -> bytes:
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        t = type(a)
        b = a.encode() if t is str else a if t is bytes else b"%d" % a if t is int else _arg(a)
        out.append(b"$%d\r\n" % len(b))
        out.append(b)
        out.append(b"\r\n")
    return b"".join(out)


def leanable(url: str) -> bool:
    """Whether `url` names a plain TCP Redis server this client can speak to."""
    try:
        kwargs = parse_url(url)
    except (ValueError, TypeError):
        return False
    return "path" not in kwargs and "connection_class" not in kwargs and "host" in kwargs


class _Connection(asyncio.Protocol):
    def __init__(self, socket_timeout: float | None) -> None:
        self.reader = hiredis.Reader(replyError=rex.ResponseError)
        self.pending: collections.deque[tuple[asyncio.Future[Any], float]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.socket_timeout = socket_timeout
        self.watchdog: asyncio.TimerHandle | None = None
        self.loop = asyncio.get_running_loop()

    # -- asyncio.Protocol ----------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while not self.closed:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as e:
                self.fail(rex.ConnectionError(f"protocol error from Redis: {e}"))
                return
            if reply is False:
                return
            self.received(reply)

    def received(self, reply: Any) -> None:
        """One reply: the oldest command in flight's."""
        if not self.pending:
            self.fail(rex.ConnectionError("a reply from Redis that nobody asked for"))
            return
        future = self.pending.popleft()[0]
        if future.done():  # its caller gave up (cancelled): the reply is dropped
            return
        if isinstance(reply, rex.ResponseError):
            future.set_exception(_error(reply))
        else:
            future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.fail(rex.ConnectionError("Connection closed by server." if exc is None else f"Connection lost: {exc}"))

    # -- commands ------------------------------------------------------------------------
    def send(self, data: bytes) -> asyncio.Future[Any]:
        future = self.loop.create_future()
        if self.closed or self.transport is None:
            future.set_exception(rex.ConnectionError("the connection to Redis is closed"))
            return future
        self.pending.append((future, time.monotonic()))
        self.transport.write(data)
        if self.watchdog is None and self.socket_timeout:
            self.watchdog = self.loop.call_later(self.socket_timeout, self._check)
        return future

    def _check(self) -> None:
        """A reply overdue by `socket_timeout` fails the connection; else look again when
        the oldest command in flight would be."""
        self.watchdog = None
        if self.closed or not self.pending:
            return
        assert self.socket_timeout
        due = self.pending[0][1] + self.socket_timeout - time.monotonic()
        if due <= 0:
            self.fail(rex.TimeoutError("Timeout reading from Redis"))
        else:
            self.watchdog = self.loop.call_later(due, self._check)

    def fail(self, error: Exception) -> None:
        self.closed = True
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        while self.pending:
            future = self.pending.popleft()[0]
            if not future.done():
                future.set_exception(error)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()


class LeanRedis:
    """One pipelined connection to a plain Redis server (opened on first use, reopened
    after a loss)."""

    def __init__(self, url: str, *, socket_timeout: float | None = 10.0, socket_connect_timeout: float = 5.0) -> None:
        kwargs = parse_url(url)
        self.host, self.port = kwargs.get("host", "localhost"), int(kwargs.get("port", 6379))
        self.db = int(kwargs.get("db", 0) or 0)
        self.username, self.password = kwargs.get("username"), kwargs.get("password")
        self.socket_timeout, self.connect_timeout = socket_timeout, socket_connect_timeout
        self._conn: _Connection | None = None
        self._connecting: asyncio.Future[_Connection] | None = None
        self._closed = False

    @property
    def connected(self) -> int:
        return 1 if self._conn is not None and not self._conn.closed else 0

    async def open(self, factory: Any, *, select: bool = True) -> Any:
        """A new connection made by `factory()`, authenticated (and on the URL's database)."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.connect_timeout):
                _, conn = await loop.create_connection(factory, self.host, self.port)
        except TimeoutError:
            raise rex.TimeoutError(f"Timeout connecting to Redis at {self.host}:{self.port}") from None
        except OSError as e:
            raise rex.ConnectionError(f"Error connecting to Redis at {self.host}:{self.port}: {e}") from None
        setup = []
        if self.password is not None:
            auth = ("AUTH", self.username, self.password) if self.username else ("AUTH", self.password)
            setup.append(conn.send(pack(auth)))
        if self.db and select:
            setup.append(conn.send(pack(("SELECT", self.db))))
        try:
            for future in setup:
                await future
        except BaseException:
            conn.fail(rex.ConnectionError("connection setup failed"))
            raise
        return conn

    async def _connect(self) -> _Connection:
        return await self.open(lambda: _Connection(self.socket_timeout))

    async def _connection(self) -> _Connection:
        while True:
            if self._closed:
                raise rex.ConnectionError("the Redis client is closed")
            conn = self._conn
            if conn is not None and not conn.closed:
                return conn
            if self._connecting is None:
                self._connecting = asyncio.get_running_loop().create_future()
                try:
                    conn = await self._connect()
                except BaseException as e:
                    connecting, self._connecting = self._connecting, None
                    connecting.set_exception(e if isinstance(e, Exception) else rex.ConnectionError("cancelled"))
                    connecting.exception()  # retrieved: no "never retrieved" warning when nobody waits
                    raise
                self._conn = conn
                connecting, self._connecting = self._connecting, None
                connecting.set_result(conn)
                return conn
            await asyncio.shield(self._connecting)

    async def execute(self, *args: Any) -> Any:
        conn = self._conn
        if conn is None or conn.closed:
            conn = await self._connection()
        return await conn.send(pack(args))

    async def pipeline(self, *commands: tuple[Any, ...]) -> list[Any]:
        """`commands` written back to back on one connection (so that a WAIT among them follows
        the writes before it on the same connection), their replies or errors in order."""
        conn = self._conn
        if conn is None or conn.closed:
            conn = await self._connection()
        futures = [conn.send(pack(c)) for c in commands]
        return list(await asyncio.gather(*futures, return_exceptions=True))

    def register_script(self, source: str) -> LeanScript:
        """As redis-py's clients have it: `await script(keys=[...], args=[...])`."""
        return LeanScript(self, source)

    async def aclose(self) -> None:
        self._closed = True
        if self._conn is not None:
            self._conn.fail(rex.ConnectionError("the Redis client is closed"))
            self._conn = None


class LeanScript:
    """A Lua script called like redis-py's AsyncScript: `await script(keys=[...], args=[...])`.
    EVALSHA, and EVAL when the server does not know it (a restarted or new server)."""

    def __init__(self, client: LeanRedis, source: str) -> None:
        self.client, self.source = client, source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    async def __call__(self, keys: list[Any] | tuple[Any, ...] = (), args: list[Any] | tuple[Any, ...] = ()) -> Any:
        try:
            return await self.client.execute("EVALSHA", self.sha, len(keys), *keys, *args)
        except rex.NoScriptError:
            return await self.client.execute("EVAL", self.source, len(keys), *keys, *args)


class _Push(_Connection):
    """A connection in pub/sub mode: every reply is a push (message, (un)subscription,
    pong), handed to `on_push` as it arrives; commands are written without waiting."""

    def __init__(self, on_push: Any) -> None:
        super().__init__(None)
        self.on_push = on_push
        self.lost: asyncio.Future[None] = self.loop.create_future()
        self.last_seen = time.monotonic()

    def data_received(self, data: bytes) -> None:
        self.last_seen = time.monotonic()
        super().data_received(data)

    def received(self, reply: Any) -> None:
        if self.pending:  # the AUTH of the setup
            super().received(reply)
        else:
            self.on_push(reply)

    def command(self, *args: Any) -> None:
        if not self.closed and self.transport is not None:
            self.transport.write(pack(args))

    def fail(self, error: Exception) -> None:
        super().fail(error)
        if not self.lost.done():
            self.lost.set_result(None)


async def open_push(client: LeanRedis, on_push: Any) -> _Push:
    """A pub/sub connection to `client`'s server (authenticated; channels span databases);
    `on_push(reply)` gets each push: [b"smessage", channel, data], [b"ssubscribe", channel, n], ..."""
    return await client.open(lambda: _Push(on_push), select=False)
