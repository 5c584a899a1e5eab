"""`redis+sentinel://` URLs: Redis with Sentinel high availability (issue 36).

    redis+sentinel://[[user]:password@]host:port[,host:port...]/<master name>[/db][?sentinel_password=...]
    rediss+sentinel://...same...[?ssl_ca_certs=/path/ca.crt&ssl_certfile=...&ssl_keyfile=...]

- the hosts are the Sentinels (port 26379 when left out), tried in the order given;
- `<master name>` is the name the Sentinels monitor (`sentinel monitor <name> ...`);
- `/db` the database number (0 when left out);
- the password (and user) are the Redis master's (and replicas'), sent with AUTH on every
  connection to them; the Sentinels are asked without one unless `sentinel_password` is given
  (percent-encoded, like the password);
- `rediss+sentinel://` speaks TLS to the Redis servers and to the Sentinels, checking their
  certificates (and that they name the host asked for) against `ssl_ca_certs` (a PEM file; the
  system's CAs when left out); `ssl_certfile` (+ `ssl_keyfile`) give a client certificate (for
  servers with `tls-auth-clients yes`); `ssl_check_hostname=false` and `ssl_cert_reqs=none`
  loosen the checks (tests only). These options are refused on `redis+sentinel://`.

Clients are redis-py's public `redis.asyncio.sentinel.Sentinel(...).master_for(...)`: every new
connection asks the Sentinels for the current master, a connection to a demoted master fails
with a connection error (redis-py turns its READONLY into one) and is reopened on the new
master, so the store's retries ride out a failover exactly as they ride out a restart.
The lean pipelined connections (server/store/lean.py) are not used in this mode: they speak to
one fixed address.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote

SCHEMES = ("redis+sentinel", "rediss+sentinel")
SENTINEL_PORT = 26379
_TLS_OPTIONS = ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile", "ssl_cert_reqs", "ssl_check_hostname")
_CERT_REQS = ("none", "optional", "required")


@dataclass(frozen=True)
class SentinelUrl:
    sentinels: tuple[tuple[str, int], ...]
    master: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None
    tls: bool = False
    tls_options: tuple[tuple[str, Any], ...] = ()  # redis-py ssl_* keyword arguments

    def redacted(self) -> str:
        hosts = ",".join(f"{h}:{p}" for h, p in self.sentinels)
        return f"{'rediss' if self.tls else 'redis'}+sentinel://{hosts}/{self.master}/{self.db}"


def is_sentinel(url: str | None) -> bool:
    return bool(url) and url.partition("://")[0] in SCHEMES  # type: ignore[union-attr]


def parse(url: str) -> SentinelUrl:
    """The parts of a `redis+sentinel://` URL; ValueError says what is wrong."""
    scheme, sep, rest = url.partition("://")
    if scheme not in SCHEMES or not sep:
        raise ValueError(f"not a {' or '.join(s + '://' for s in SCHEMES)} URL")
    rest, _, query = rest.partition("?")
    netloc, _, path = rest.partition("/")
    auth, at, hosts = netloc.rpartition("@")
    username = password = None
    if at:
        user, colon, secret = auth.partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon else None
        if not colon:  # "password@" alone: the password (as redis:// reads ":password@")
            username, password = None, unquote(user)
    sentinels = []
    for item in hosts.split(","):
        host, colon, port = item.strip().rpartition(":")
        if not colon:
            host, port = item.strip(), str(SENTINEL_PORT)
        host = host.strip("[]")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"bad Sentinel address {item!r} in the Redis URL (want host:port)")
        sentinels.append((host, int(port)))
    parts = [p for p in path.split("/") if p]
    if not parts:
        raise ValueError("the Redis URL names no master: redis+sentinel://host:port[,host:port...]/<master name>[/db]")
    if len(parts) > 2 or (len(parts) == 2 and not parts[1].isdigit()):
        raise ValueError(f"bad path {'/' + path!r} in the Redis URL (want /<master name>[/db])")
    options = parse_qs(query, keep_blank_values=True)
    known = ("sentinel_password", *_TLS_OPTIONS)
    unknown = set(options) - set(known)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} in the Redis URL (known: {', '.join(known)})")
    sentinel_password = options.get("sentinel_password", [None])[-1]
    tls = scheme == "rediss+sentinel"
    tls_options = _tls_options({k: v[-1] for k, v in options.items() if k in _TLS_OPTIONS}, tls)
    return SentinelUrl(tuple(sentinels), unquote(parts[0]), int(parts[1]) if len(parts) == 2 else 0,
                       username, password, sentinel_password, tls, tls_options)


def _tls_options(given: dict[str, str], tls: bool) -> tuple[tuple[str, Any], ...]:
    if given and not tls:
        raise ValueError(f"{', '.join(sorted(given))} need TLS: the URL must start rediss+sentinel://")
    out: list[tuple[str, Any]] = []
    for name, value in sorted(given.items()):
        if name == "ssl_check_hostname":
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"ssl_check_hostname={value!r} in the Redis URL: want true or false")
            out.append((name, value.lower() in ("true", "1", "yes")))
        elif name == "ssl_cert_reqs":
            if value.lower() not in _CERT_REQS:
                raise ValueError(f"ssl_cert_reqs={value!r} in the Redis URL: want one of {', '.join(_CERT_REQS)}")
            out.append((name, value.lower()))
        else:
            if not value:
                raise ValueError(f"{name} in the Redis URL is empty: want a file path")
            out.append((name, value))
    return tuple(out)


def master_client(url: str | SentinelUrl, *, blocking: bool = False, **options: Any) -> Any:
    """A redis-py asyncio client of the current master (found through the Sentinels).
    `options` are redis-py connection options (socket timeouts, max_connections, retry...).
    `blocking`: a call waits for a free connection (up to `timeout`) rather than failing."""
    from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

    u = parse(url) if isinstance(url, str) else url
    common: dict[str, Any] = {k: options[k] for k in ("socket_connect_timeout", "socket_timeout",
                                                      "socket_keepalive") if k in options}
    if u.tls:
        common.update(ssl=True, **dict(u.tls_options))
    sentinel_kwargs = {**common, "socket_timeout": options.get("socket_connect_timeout", 5.0)}
    if u.sentinel_password is not None:
        sentinel_kwargs["password"] = u.sentinel_password
    sentinel = Sentinel(list(u.sentinels), sentinel_kwargs=sentinel_kwargs, **common)
    kwargs = {**options, "db": u.db}
    if u.username is not None:
        kwargs["username"] = u.username
    if u.password is not None:
        kwargs["password"] = u.password
    if u.tls:
        kwargs.update(ssl=True, **dict(u.tls_options))
    timeout = kwargs.pop("timeout", None)
    pool_class: type = SentinelConnectionPool
    if blocking:
        pool_class = _blocking_pool_class()
        kwargs["timeout"] = timeout if timeout is not None else 5.0
    client = sentinel.master_for(u.master, connection_pool_class=pool_class, **kwargs)
    _SENTINELS[client] = sentinel  # closed with the client (see close_client)
    return client


# The Sentinel object behind each client made by master_for (its connections to the Sentinels
# are closed with the client's), without writing onto redis-py's object.
_SENTINELS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def sentinel_of(client: object) -> object | None:
    """The Sentinel a client from `client_for` was made by (None: not a Sentinel client)."""
    try:
        return _SENTINELS.get(client)
    except TypeError:  # not weakly referenceable: not one of ours
        return None


def _blocking_pool_class() -> type:
    """SentinelConnectionPool whose get_connection waits for a free connection (as redis-py's
    BlockingConnectionPool does) instead of raising "Too many connections"."""
    import asyncio

    from redis.asyncio.sentinel import SentinelConnectionPool
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import MaxConnectionsError

    class _Blocking(SentinelConnectionPool):
        def __init__(self, service_name: str, sentinel_manager: Any, **kwargs: Any) -> None:
            self._wait = float(kwargs.pop("timeout", 5.0))
            super().__init__(service_name, sentinel_manager, **kwargs)
            self._free = asyncio.Condition()

        async def get_connection(self, *args: Any, **kwargs: Any) -> Any:
            try:
                async with asyncio.timeout(self._wait):
                    while True:
                        try:
                            return await super().get_connection(*args, **kwargs)
                        except MaxConnectionsError:
                            pass
                        async with self._free:
                            await self._free.wait()
            except TimeoutError:
                raise RedisConnectionError("no free connection to Redis in time") from None

        async def release(self, connection: Any) -> None:
            await super().release(connection)
            async with self._free:
                self._free.notify()

    return _Blocking
