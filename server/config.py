"""Server settings: command-line flags override environment variables override defaults.

Every value is checked at start-up (pydantic-settings); a bad one stops the server
with a message naming the variable, e.g. `TABLERO_SNAPSHOT_EVERY=0: must be at least 1`.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "tablero-development-secret-do-not-use-in-production"
PREFIX = "TABLERO_"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://", "redis+cluster://", "redis+sentinel://", "rediss+sentinel://")

# TABLERO_* names that are no server setting but are read elsewhere: not flagged as unknown
# (Config.warn_unknown_names). The clients' (tablero CLI, SDKs), what `serve --workers N` gives its
# workers (server/workers.py), and the test suite's own.
OTHER_NAMES = frozenset({
    "TABLERO_URL", "TABLERO_GRPC", "TABLERO_TOKEN", "TABLERO_PORTAL_JWT",  # clients
    "TABLERO_WORKER", "TABLERO_METRICS_DIR",  # set by `serve --workers N` for each worker
    # the test suite's (spelt without the prefix: no setting an operator sets, so not in docs/operations.md)
    *(PREFIX + name for name in ("TEST_CACHE", "KIT_GAMES", "SSE_SILENCE_MS", "CHROMIUM")),
})


def unknown_names(environ: Any = None) -> list[str]:
    """The TABLERO_* environment names neither a setting nor one of OTHER_NAMES (typos, a misspelt
    TABLERO_SNAPSHOT_EVERY, which would otherwise be ignored without a word)."""
    known = {PREFIX + name.upper() for name in Config.model_fields} | OTHER_NAMES
    env = os.environ if environ is None else environ
    return sorted(n for n in env if n.upper().startswith(PREFIX) and n.upper() not in known)



def _check_url_options(query: str, tls: bool) -> None:
    """The query options of a redis:// or rediss:// URL, which redis-py hands to each connection:
    an unknown one (a typo) or a TLS one on redis:// left the server half working (the lean
    connections ignore them; every redis-py client failed with a TypeError)."""
    import inspect

    from redis.asyncio.connection import URL_QUERY_ARGUMENT_PARSERS, Connection, SSLConnection

    names = {k for k, _ in parse_qsl(query, keep_blank_values=True)}
    plain = sorted(n for n in names if n.startswith("ssl"))
    if plain and not tls:
        raise ValueError(f"{', '.join(plain)} are TLS options, and redis:// is plaintext: use rediss://")
    known = set(URL_QUERY_ARGUMENT_PARSERS)
    for cls in (SSLConnection if tls else Connection).__mro__:
        if "__init__" in cls.__dict__:
            known |= set(inspect.signature(cls.__init__).parameters) - {"self", "args", "kwargs"}
    unknown = sorted(names - known)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)} in the Redis URL (redis-py's connection options, "
                         "e.g. ssl_ca_certs with rediss://)")

class ConfigError(ValueError):
    """Bad settings; the message names each bad variable."""


class Config(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=PREFIX, validate_assignment=True, extra="forbid",
                                      hide_input_in_errors=False)

    # TABLERO_HOST; unset: 0.0.0.0, but 127.0.0.1 while seat tokens are signed with the development secret
    host: str | None = Field(None, min_length=1)
    grpc_port: int = Field(50051, ge=0, le=65535)  # TABLERO_GRPC_PORT (0: any free port)
    http_port: int = Field(8080, ge=0, le=65535)  # TABLERO_HTTP_PORT (0: any free port)
    # TABLERO_METRICS_PORT: /metrics, on its own port that the Service does not publish (0: any free port)
    metrics_port: int = Field(9090, ge=0, le=65535)
    redis_url: str | None = None  # TABLERO_REDIS_URL; unset: the embedded SQLite store
    db: str | None = None  # TABLERO_DB: the SQLite file; unset: in memory
    secret: str = DEV_SECRET  # TABLERO_SECRET: signs seat tokens; the same on every replica
    max_body: int = Field(256 * 1024, ge=1024)  # TABLERO_MAX_BODY (bytes)
    max_rankings_body: int = Field(8 * 1024 * 1024, ge=1024)  # TABLERO_MAX_RANKINGS_BODY (bytes)
    snapshot_every: int = Field(100, ge=1)  # TABLERO_SNAPSHOT_EVERY (events)
    cache_size: int = Field(1000, ge=1)  # TABLERO_CACHE_SIZE (games)
    shutdown_grace: float = Field(20.0, ge=0, allow_inf_nan=False)  # TABLERO_SHUTDOWN_GRACE (seconds)
    # Slow clients: a request's headers must arrive within TABLERO_HEADER_TIMEOUT seconds of
    # its first byte, its body within TABLERO_BODY_TIMEOUT seconds (408 and close otherwise).
    header_timeout: float = Field(10.0, gt=0, le=3600, allow_inf_nan=False)  # TABLERO_HEADER_TIMEOUT
    # Addresses of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed
    # (comma-separated IPs or networks, "*" for any). Empty: none — every client is the
    # address it connects from, so no header can dodge the per-client rate limits.
    trusted_proxies: str = ""  # TABLERO_TRUSTED_PROXIES
    body_timeout: float = Field(30.0, gt=0, le=3600, allow_inf_nan=False)  # TABLERO_BODY_TIMEOUT
    # TABLERO_REQUEST_DEADLINE: seconds a unary call (REST, Connect, gRPC) may take once its
    # request has arrived; past it, UNAVAILABLE SERVER_DEADLINE (server/http/deadline.py). 0: none
    # (the store calls' own timeouts, and the client's deadline).
    request_deadline: float = Field(5.0, ge=0, le=3600, allow_inf_nan=False)
    portal_keys: str | None = None  # TABLERO_PORTAL_KEYS: JSON, key id -> HS256 secret or PEM public key
    # TABLERO_PORTAL_AUDIENCE (comma-separated) / TABLERO_PORTAL_ISSUER: the `aud` and `iss` a
    # portal JWT must carry (server.portal.identity); without an audience, a JWT with `aud` is refused.
    portal_audience: str | None = None
    portal_issuer: str | None = None
    # TABLERO_PORTAL_MAX_TOKEN_LIFETIME: the longest a portal JWT may live, in seconds (exp - iat,
    # or exp - now without iat); longer: 401 TOKEN_INVALID. 0: no cap.
    portal_max_token_lifetime: float = Field(24 * 3600, ge=0, allow_inf_nan=False)
    rate_limit: str | None = None  # TABLERO_RATE_LIMIT: calls per user or client address, e.g. 20/s or 20/s,40
    create_rate_limit: str | None = None  # TABLERO_CREATE_RATE_LIMIT: game creations, e.g. 5/m,10
    max_open_games_per_user: int = Field(20, ge=0)  # TABLERO_MAX_OPEN_GAMES_PER_USER (0: no cap)
    # TABLERO_ABANDON_AFTER: seconds without any action after which a game is ended as abandoned (0: never)
    abandon_after: float = Field(0, ge=0, allow_inf_nan=False)
    log_level: Literal["debug", "info", "warning", "error", "critical"] = "info"  # TABLERO_LOG_LEVEL
    # `tablero serve --workers N` (TABLERO_WORKERS): N server processes sharing the ports.
    workers: int = Field(1, ge=1, le=64)  # TABLERO_WORKERS
    reuse_port: bool = False  # TABLERO_REUSE_PORT: bind HTTP and gRPC with SO_REUSEPORT (set for workers)
    # Bots: turns a request plays itself (on a thread); the rest by the background bot worker.
    bot_inline_steps: int = Field(32, ge=0, le=10_000)  # TABLERO_BOT_INLINE_STEPS
    bot_steps_per_write: int = Field(32, ge=1, le=10_000)  # TABLERO_BOT_STEPS_PER_WRITE
    # Thinking bots (medium, hard): processes of the pool `tablero serve` starts (0: none; then
    # `tablero bots` processes play them), and seconds a worker holds a turn it took.
    bot_processes: int = Field(1, ge=0, le=64)  # TABLERO_BOT_PROCESSES
    bot_lease: float = Field(20.0, ge=1, le=3600, allow_inf_nan=False)  # TABLERO_BOT_LEASE
    bot_nice: int = Field(10, ge=0, le=19)  # TABLERO_BOT_NICE: the pool's priority below the server's
    bot_idle: bool = True  # TABLERO_BOT_IDLE: the pool thinks at the CPU's idle priority (server/app/idle.py)
    # Event store (see docs/operations.md, "Store settings"); Redis only unless marked.
    store_write_pool_size: int = Field(16, ge=1, le=1024)  # TABLERO_STORE_WRITE_POOL_SIZE (per node)
    store_read_pool_size: int = Field(16, ge=1, le=1024)  # TABLERO_STORE_READ_POOL_SIZE (per node)
    store_pool_timeout: float = Field(5.0, gt=0, le=300, allow_inf_nan=False)  # TABLERO_STORE_POOL_TIMEOUT (s)
    store_socket_timeout: float = Field(10.0, gt=0, le=3600, allow_inf_nan=False)  # TABLERO_STORE_SOCKET_TIMEOUT
    store_socket_connect_timeout: float = Field(5.0, gt=0, le=300, allow_inf_nan=False)
    store_health_check_interval: float = Field(2.0, ge=0, le=3600, allow_inf_nan=False)
    store_retries: int = Field(5, ge=0, le=100)  # TABLERO_STORE_RETRIES
    store_retry_backoff: float = Field(0.05, ge=0, le=10, allow_inf_nan=False)  # TABLERO_STORE_RETRY_BACKOFF (s)
    store_sweep_interval: float = Field(1.0, gt=0, le=600, allow_inf_nan=False)  # TABLERO_STORE_SWEEP_INTERVAL
    store_outage_grace: float = Field(10.0, ge=0, le=3600, allow_inf_nan=False)  # TABLERO_STORE_OUTAGE_GRACE
    store_meta_cache_size: int = Field(10000, ge=0, le=10_000_000)  # TABLERO_STORE_META_CACHE_SIZE (games)
    # The request path's scripts on a plain Redis go over the lean pipelined client
    # (server/store/lean.py); false: over redis-py's pool like every other call.
    store_lean: bool = True  # TABLERO_STORE_LEAN
    # TABLERO_REDIS_MIN_REPLICAS_ACK: replicas that must confirm (WAIT) a game's creation or a move
    # before it is acknowledged (0: asynchronous replication); TABLERO_REDIS_REPLICAS_ACK_TIMEOUT:
    # seconds to wait for them, past which the call is answered UNAVAILABLE (retry: exactly once).
    redis_min_replicas_ack: int = Field(0, ge=0, le=16)
    redis_replicas_ack_timeout: float = Field(1.0, gt=0, le=60, allow_inf_nan=False)
    store_poll_interval: float = Field(0.05, gt=0, le=60, allow_inf_nan=False)  # SQLite: cross-process poll (s)
    # Retention (both stores): seconds kept after the game ended / after its last write; unset: forever.
    finished_ttl: float | None = Field(None, gt=0, allow_inf_nan=False)  # TABLERO_FINISHED_TTL
    abandoned_ttl: float | None = Field(None, gt=0, allow_inf_nan=False)  # TABLERO_ABANDONED_TTL
    trim_on_snapshot: bool = False  # TABLERO_TRIM_ON_SNAPSHOT: drop the events a snapshot covers
    # Legal actions and views (server/app/offload.py): on a bounded thread pool ("thread") unless an
    # engine's call has proven cheaper than TABLERO_LEGAL_INLINE_BELOW seconds (0: always the pool),
    # or all on the event loop ("inline").
    legal_executor: Literal["thread", "inline"] = "thread"  # TABLERO_LEGAL_EXECUTOR
    legal_workers: int = Field(4, ge=1, le=256)  # TABLERO_LEGAL_WORKERS (threads)
    legal_inline_below: float = Field(0.001, ge=0, le=1, allow_inf_nan=False)  # TABLERO_LEGAL_INLINE_BELOW (s)
    # Notifications (server/notify, docs/webhooks.md): webhook endpoints, their delivery, Web Push.
    webhooks: str | None = None  # TABLERO_WEBHOOKS: JSON list of {"url", "secret", "events"}
    webhooks_allow_private: bool = False  # TABLERO_WEBHOOKS_ALLOW_PRIVATE: allow loopback/private destinations
    webhooks_retry_for: float = Field(86400.0, gt=0, allow_inf_nan=False)  # TABLERO_WEBHOOKS_RETRY_FOR (s)
    webhooks_backoff: float = Field(1.0, gt=0, le=3600, allow_inf_nan=False)  # TABLERO_WEBHOOKS_BACKOFF (s)
    webhooks_backoff_max: float = Field(3600.0, gt=0, allow_inf_nan=False)  # TABLERO_WEBHOOKS_BACKOFF_MAX (s)
    webhooks_timeout: float = Field(10.0, gt=0, le=300, allow_inf_nan=False)  # TABLERO_WEBHOOKS_TIMEOUT (s)
    webhooks_concurrency: int = Field(8, ge=1, le=1024)  # TABLERO_WEBHOOKS_CONCURRENCY (per endpoint)
    vapid_private_key: str | None = None  # TABLERO_VAPID_PRIVATE_KEY: Web Push's VAPID key (PEM or base64url)
    vapid_subject: str = "mailto:operator@localhost"  # TABLERO_VAPID_SUBJECT: mailto: or https: contact
    # TABLERO_NOTIFY_WORKER: derive and deliver in a child process at a lower CPU priority ("process",
    # with a shared store) or on the serving event loop ("inline"; always so with SQLite in memory)
    notify_worker: Literal["process", "inline"] = "process"
    # TABLERO_NOTIFY_SWEEP: seconds after which an open game's log is checked for writes whose
    # notify signal was lost (a replica died between commit and signal); docs/webhooks.md.
    notify_sweep: float = Field(60.0, gt=0, allow_inf_nan=False)

    @field_validator("redis_url", "db", "portal_keys", "portal_audience", "portal_issuer", "rate_limit", "create_rate_limit", "finished_ttl",
                     "abandoned_ttl", "webhooks", "vapid_private_key", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: Any) -> Any:
        return None if v == "" else v

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_addresses(cls, v: str) -> str:
        for item in (x.strip() for x in v.split(",") if x.strip()):
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    raise ValueError(f"{item!r} is not an IP address or network (or *)") from None
        return v

    @field_validator("secret")
    @classmethod
    def _secret_not_blank(cls, v: str) -> str:
        # Empty is refused, not taken as unset: an empty Secret key in a manifest served tokens
        # anyone can forge (signed with the development secret) on every interface.
        if not v.strip():
            raise ValueError("must not be empty or blank: set a long random string (unset it only for "
                             "local development, which signs with the development secret)")
        if v != v.strip():
            raise ValueError("must not be blank or start or end with whitespace")
        return v

    @field_validator("secret")
    @classmethod
    def _secret_key_ids(cls, v: str) -> str:
        from tablero.server.portal.tokens import parse_secrets

        parse_secrets(v)  # ValueError names the problem
        return v

    @field_validator("portal_keys")
    @classmethod
    def _portal_keys(cls, v: str | None) -> str | None:
        if v is None:  # (unset: nothing to check, and nothing to import for it)
            return v
        from tablero.server.portal.identity import PortalKeys

        PortalKeys.from_json(v)
        return v

    @field_validator("portal_audience")
    @classmethod
    def _portal_audience(cls, v: str | None) -> str | None:
        if v is None:  # (unset: nothing to check, and nothing to import for it)
            return v
        from tablero.server.portal.identity import audiences

        audiences(v)  # ValueError names the problem
        return v

    @field_validator("portal_issuer")
    @classmethod
    def _portal_issuer(cls, v: str | None) -> str | None:
        if v is not None and (not v.strip() or v != v.strip()):
            raise ValueError("must not be blank or start or end with whitespace")
        return v

    @field_validator("webhooks")
    @classmethod
    def _webhooks(cls, v: str | None) -> str | None:
        if v is None:  # (unset: nothing to check, and nothing to import for it)
            return v
        from tablero.server.notify.webhooks import parse_endpoints

        parse_endpoints(v)  # ValueError names the problem
        return v

    @field_validator("vapid_subject")
    @classmethod
    def _vapid_subject(cls, v: str) -> str:
        if not v.startswith(("mailto:", "https://")):
            raise ValueError("must be a mailto: or https: URL (the operator's contact, for push services)")
        return v

    @field_validator("vapid_private_key")
    @classmethod
    def _vapid(cls, v: str | None) -> str | None:
        if v is not None:
            from tablero.server.notify.webpush import load_vapid

            try:
                load_vapid(v)
            except Exception:  # noqa: BLE001 - whatever py-vapid refuses
                raise ValueError("not a VAPID private key (PEM, or base64url as `vapid --gen` writes)") from None
        return v

    @field_validator("rate_limit", "create_rate_limit")
    @classmethod
    def _rate(cls, v: str | None) -> str | None:
        from tablero.server.portal.ratelimit import Rate

        if v is not None:
            Rate.parse(v, "limit")
        return v

    @property
    def bind_host(self) -> str:
        """--host / TABLERO_HOST, else 127.0.0.1 with the development secret (nobody else can
        forge its tokens then), else every interface."""
        if self.host is not None:
            return self.host
        return "127.0.0.1" if self.secret == DEV_SECRET else "0.0.0.0"

    @field_validator("db")
    @classmethod
    def _db_folder_exists(cls, v: str | None) -> str | None:
        if v is None or v == ":memory:":
            return v
        path = Path(v).expanduser().resolve()
        if not path.parent.is_dir():
            raise ValueError(f"the folder {str(Path(v).parent)!r} does not exist")
        # A folder or another kind of file stopped the start-up with sqlite3's traceback.
        if path.exists() and not path.is_file():
            raise ValueError("is not a file (a folder, a device or a pipe): name the SQLite file")
        if path.is_file():
            try:
                with path.open("rb") as f:
                    head = f.read(16)
            except OSError as e:
                raise ValueError(f"cannot be read ({e.strerror or e})") from None
            if head and head != b"SQLite format 3\x00":  # (an empty file is a new database)
                raise ValueError("is not a SQLite database (give the server's own file, or a new name)")
        return v

    @field_validator("log_level", "legal_executor", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.lower() if isinstance(v, str) else v

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(REDIS_SCHEMES):
            raise ValueError(f"must start with one of {', '.join(REDIS_SCHEMES)}")
        if v is not None and v.startswith("redis+cluster://"):
            from tablero.server.store.redis_clients import _seeds

            seeds: dict[tuple[str, int], None] = {}
            first = _seeds(v.removeprefix("redis+cluster://"), seeds)  # each seed node host:port (ValueError names a bad one)
            bad = [f"{h}:{p}" for h, p in seeds if not 0 < p < 65536]
            if bad:
                raise ValueError(f"the port of {bad[0]!r} is out of range (1-65535)")
            db = urlsplit("redis://" + first).path.strip("/")
            if db not in ("", "0"):
                raise ValueError(f"a Redis Cluster has only database 0, not {db!r}")
        if v is not None and "+sentinel://" in v:
            from tablero.server.store.redis_sentinel import parse

            parse(v)  # the Sentinels' host:port and the master's name (ValueError names what is wrong)
        if v is not None and v.startswith(("redis://", "rediss://")):
            url = urlsplit(v)
            try:
                port = url.port  # (urllib checks the port when it is read)
            except ValueError:
                port = 0
            if port == 0:
                raise ValueError(f"the port of {url.netloc.rpartition('@')[2]!r} is not a number from 1 to 65535")
            db = url.path.strip("/")
            if db and not db.isdigit():
                raise ValueError(f"the database after the host must be a number (redis://host:6379/0), not {db!r}")
            _check_url_options(url.query, tls=v.startswith("rediss://"))
        return v

    def store_options(self) -> dict[str, Any]:
        """The keyword settings of open_store() (each adapter takes the ones it knows)."""
        return {
            "write_pool_size": self.store_write_pool_size, "read_pool_size": self.store_read_pool_size,
            "pool_timeout": self.store_pool_timeout, "socket_timeout": self.store_socket_timeout,
            "socket_connect_timeout": self.store_socket_connect_timeout,
            "health_check_interval": self.store_health_check_interval, "retries": self.store_retries,
            "retry_backoff": self.store_retry_backoff, "sweep_interval": self.store_sweep_interval,
            "outage_grace": self.store_outage_grace, "meta_cache_size": self.store_meta_cache_size,
            "poll_interval": self.store_poll_interval, "finished_ttl": self.finished_ttl,
            "abandoned_ttl": self.abandoned_ttl, "trim_on_snapshot": self.trim_on_snapshot,
            "min_replicas_ack": self.redis_min_replicas_ack or None, "lean": self.store_lean,
            "replicas_ack_timeout": self.redis_replicas_ack_timeout,
        }

    def engine_calls_options(self) -> dict[str, Any]:
        """The keyword settings of server.app.offload.EngineCalls."""
        return {"mode": self.legal_executor, "workers": self.legal_workers, "inline_below": self.legal_inline_below}

    def check_workers(self) -> None:
        """--workers N > 1 needs a store the processes share."""
        if self.workers > 1 and not self.redis_url and self.db in (None, ":memory:"):
            raise ConfigError(f"TABLERO_WORKERS={self.workers}: more than one worker needs a shared store "
                              "(TABLERO_REDIS_URL, or TABLERO_DB naming a SQLite file); the in-memory "
                              "SQLite store lives in one process")

    def check_store(self) -> None:
        """Settings a store refuses together, said before it is opened."""
        if self.redis_min_replicas_ack and self.redis_url and self.redis_url.startswith("redis+cluster://"):
            raise ConfigError(f"TABLERO_REDIS_MIN_REPLICAS_ACK={self.redis_min_replicas_ack} is not supported on "
                              "Redis Cluster (TABLERO_REDIS_URL=redis+cluster://…): a cluster's WAIT covers one "
                              "shard's replicas; use it with one master and its replicas, or Sentinel")

    def check_webhooks(self) -> None:
        """The retry backoff's cap is not below its first delay (the delays would never grow)."""
        if self.webhooks_backoff_max < self.webhooks_backoff:
            raise ConfigError(f"TABLERO_WEBHOOKS_BACKOFF_MAX={self.webhooks_backoff_max:g} is below "
                              f"TABLERO_WEBHOOKS_BACKOFF={self.webhooks_backoff:g}: the cap of the retry delays must be "
                              "at least the first delay")

    def check_ports(self) -> None:
        """The HTTP, gRPC and metrics ports are three different ports (0, any free one, excepted):
        said before anything binds, rather than as a traceback from the second bind."""
        ports = [("TABLERO_HTTP_PORT", "--http-port", self.http_port), ("TABLERO_GRPC_PORT", "--grpc-port", self.grpc_port),
                 ("TABLERO_METRICS_PORT", "--metrics-port", self.metrics_port)]
        clashes = [f"{a} ({fa}) and {b} ({fb}) are both {pa}" for i, (a, fa, pa) in enumerate(ports)
                   for b, fb, pb in ports[i + 1:] if pa and pa == pb]
        if clashes:
            raise ConfigError("; ".join(clashes) + ": the HTTP, gRPC and metrics ports must differ")

    @classmethod
    def load(cls, **overrides: Any) -> Config:
        """The environment's settings with `overrides` (flags) on top; ConfigError names
        every bad value."""
        given = {k: v for k, v in overrides.items() if v is not None}
        hidden = _bad_environment_under_flags(given)
        try:
            config = cls(**given)
        except ValidationError as e:
            raise ConfigError("bad settings: " + "; ".join(_explain_lines(e) + hidden)) from None
        if hidden:
            raise ConfigError("bad settings: " + "; ".join(hidden))
        config.check_workers()
        config.check_store()
        config.check_webhooks()
        config.check_ports()
        return config

    def warn_if_insecure(self) -> None:
        """At start: a warning for the development secret or a weak one, and for unknown names."""
        self.warn_unknown_names()
        if self.secret == DEV_SECRET:
            logging.getLogger("tablero").warning(
                "TABLERO_SECRET is not set: seat tokens are signed with the development secret"
                + ("" if self.host is not None else  # say why a container's published port answers nothing
                   "; so the server listens on 127.0.0.1 only (set TABLERO_SECRET, or --host / TABLERO_HOST)")
            )
        elif self.secret.upper().startswith("CHANGE-ME") or len(self.secret) < 16:
            logging.getLogger("tablero").warning(
                "TABLERO_SECRET looks like a placeholder or is shorter than 16 characters: replace it"
            )


    @staticmethod
    def warn_unknown_names(environ: Any = None) -> None:
        """One warning naming every unknown TABLERO_* environment name (under `serve --workers N`,
        by worker 0 only)."""
        env = os.environ if environ is None else environ
        if env.get("TABLERO_WORKER", "0") != "0":
            return
        unknown = unknown_names(env)
        if unknown:
            logging.getLogger("tablero").warning(
                "unknown TABLERO_* environment names (ignored; a typo?): %s", ", ".join(unknown),
                extra={"fields": {"unknown": unknown}})


def unknown_names_warning(environ: Any = None) -> str | None:
    """The warning naming the unknown TABLERO_* environment names (the server's log line's words),
    or None: for the operator tools, which print it on stderr rather than log it."""
    unknown = unknown_names(environ)
    return f"unknown TABLERO_* environment names (ignored; a typo?): {', '.join(unknown)}" if unknown else None


def check_redis_url(value: str) -> None:
    """A Redis URL checked as `tablero serve` checks TABLERO_REDIS_URL (the scheme, the port, a
    Sentinel URL's master name, the URL's options): ConfigError in the server's words."""
    try:
        Config.model_construct().redis_url = value  # (validate_assignment: that field's validators only)
    except ValidationError as e:
        raise ConfigError(_explain(e)) from None


def operator_store(redis_url: str | None, db: str | None, environ: Any = None) -> tuple[str | None, str | None]:
    """The store `tablero admin` opens: --redis-url / --db over TABLERO_REDIS_URL / TABLERO_DB, the
    URL checked as the server checks it (the environment's too when the flag is given: it would
    stop the server all the same), and, without Redis, a SQLite file that exists. ConfigError says
    what is wrong in one line (exit 2); a bad URL was a traceback and exit 1 ("no such game")."""
    env = os.environ if environ is None else environ
    for value in (env.get(PREFIX + "REDIS_URL"), redis_url):
        if value:
            check_redis_url(value)
    redis_url = redis_url or env.get(PREFIX + "REDIS_URL") or None
    db = db or env.get(PREFIX + "DB") or None
    if not redis_url and (not db or db == ":memory:"):
        raise ConfigError("no store configured: set TABLERO_REDIS_URL or TABLERO_DB (or --redis-url / --db) as for "
                          "the server (a server without them keeps its games in its own memory only)")
    if not redis_url:
        assert db is not None
        path = Path(db).expanduser()
        if path.is_dir():
            raise ConfigError(f"TABLERO_DB (--db) {db!r} is a folder: name the server's SQLite file")
        if not path.is_file():  # (opening it would make an empty database there)
            raise ConfigError(f"no SQLite file {db!r}")
        try:  # the server's own check: a file that is no SQLite database was "the store is unreachable" (exit 3)
            Config.model_construct().db = db  # (validate_assignment: that field's validators only)
        except ValidationError as e:
            raise ConfigError(_explain(e)) from None
    return redis_url, db


def _bad_environment_under_flags(given: dict[str, Any]) -> list[str]:
    """The environment's values of the settings flags override, checked as they would be without
    the flag (a bad one was ignored without a word, though "every value is checked at start-up":
    `TABLERO_HTTP_PORT=abc tablero serve --http-port 8081` started). One line each, naming the
    variable and the flag."""
    from pydantic_settings import EnvSettingsSource

    environment = EnvSettingsSource(Config)()  # as the settings read it (names in any case)
    lines = []
    for name in given.keys() & environment.keys():
        try:
            setattr(Config.model_construct(), name, environment[name])  # (that field's validators only)
        except ValidationError as e:
            flag = "--" + name.replace("_", "-")
            lines += [f"{line} (the environment's value, which {flag} overrides: fix or unset it)"
                      for line in _explain_lines(e)]
    return sorted(lines)


def _explain(e: ValidationError) -> str:
    return "bad settings: " + "; ".join(_explain_lines(e))


def _explain_lines(e: ValidationError) -> list[str]:
    lines = []
    for err in e.errors():
        name = PREFIX + str(err["loc"][0]).upper() if err["loc"] else "settings"
        value = err.get("input")
        msg = err["msg"].removeprefix("Value error, ")
        secret = name in (PREFIX + "SECRET", PREFIX + "PORTAL_KEYS",  # never echo key material
                          PREFIX + "WEBHOOKS", PREFIX + "VAPID_PRIVATE_KEY")
        shown = "<hidden>" if secret else repr(value)
        if name == PREFIX + "REDIS_URL" and isinstance(value, str):  # a password in the URL: not echoed
            shown = repr(re.sub(r"(//[^/@:]*:)[^/@]*@", r"\1***@", value))
        lines.append(f"{name}: {msg}" if isinstance(value, dict) else f"{name}={shown}: {msg}")
    return lines
