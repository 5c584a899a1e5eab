"""Server settings: command-line flags override environment variables override defaults.

Every value is checked at start-up (pydantic-settings); a bad one stops the server
with a message naming the variable, e.g. `TABLERO_SNAPSHOT_EVERY=0: must be at least 1`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "tablero-development-secret-do-not-use-in-production"
PREFIX = "TABLERO_"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://", "redis+cluster://")

class ConfigError(ValueError):
    """Bad settings; the message names each bad variable."""


class Config(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=PREFIX, validate_assignment=True, extra="forbid",
                                      hide_input_in_errors=False)

    # TABLERO_HOST; unset: 0.0.0.0, but 127.0.0.1 while seat tokens are signed with the development secret
    host: str | None = Field(None, min_length=1)
    grpc_port: int = Field(50051, ge=0, le=65535)  # TABLERO_GRPC_PORT (0: any free port)
    http_port: int = Field(8080, ge=0, le=65535)  # TABLERO_HTTP_PORT (0: any free port)
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
    body_timeout: float = Field(30.0, gt=0, le=3600, allow_inf_nan=False)  # TABLERO_BODY_TIMEOUT
    portal_keys: str | None = None  # TABLERO_PORTAL_KEYS: JSON, key id -> HS256 secret or PEM public key
    rate_limit: str | None = None  # TABLERO_RATE_LIMIT: calls per user or client address, e.g. 20/s or 20/s,40
    create_rate_limit: str | None = None  # TABLERO_CREATE_RATE_LIMIT: game creations, e.g. 5/m,10
    max_open_games_per_user: int = Field(20, ge=0)  # TABLERO_MAX_OPEN_GAMES_PER_USER (0: no cap)
    # TABLERO_ABANDON_AFTER: seconds without any action after which a game is ended as abandoned (0: never)
    abandon_after: float = Field(0, ge=0, allow_inf_nan=False)
    log_level: Literal["debug", "info", "warning", "error", "critical"] = "info"  # TABLERO_LOG_LEVEL

    @field_validator("redis_url", "db", "portal_keys", "rate_limit", "create_rate_limit", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: Any) -> Any:
        return None if v == "" else v

    @field_validator("secret", mode="before")
    @classmethod
    def _empty_secret_is_the_dev_one(cls, v: Any) -> Any:
        return DEV_SECRET if v in ("", None) else v

    @field_validator("secret")
    @classmethod
    def _secret_not_blank(cls, v: str) -> str:
        if not v.strip() or v != v.strip():
            raise ValueError("must not be blank or start or end with whitespace")
        return v

    @field_validator("secret")
    @classmethod
    def _secret_key_ids(cls, v: str) -> str:
        from server.portal.tokens import parse_secrets

        parse_secrets(v)  # ValueError names the problem
        return v

    @field_validator("portal_keys")
    @classmethod
    def _portal_keys(cls, v: str | None) -> str | None:
        from server.portal.identity import PortalKeys

        PortalKeys.from_json(v)
        return v

    @field_validator("rate_limit", "create_rate_limit")
    @classmethod
    def _rate(cls, v: str | None) -> str | None:
        from server.portal.ratelimit import Rate

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
        if v is not None and v != ":memory:" and not Path(v).expanduser().resolve().parent.is_dir():
            raise ValueError(f"the folder {str(Path(v).parent)!r} does not exist")
        return v

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.lower() if isinstance(v, str) else v

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(REDIS_SCHEMES):
            raise ValueError(f"must start with one of {', '.join(REDIS_SCHEMES)}")
        return v

    @classmethod
    def load(cls, **overrides: Any) -> Config:
        """The environment's settings with `overrides` (flags) on top; ConfigError names
        every bad value."""
        try:
            return cls(**{k: v for k, v in overrides.items() if v is not None})
        except ValidationError as e:
            raise ConfigError(_explain(e)) from None

    def warn_if_insecure(self) -> None:
        if self.secret == DEV_SECRET:
            logging.getLogger("tablero").warning(
                "TABLERO_SECRET is not set: seat tokens are signed with the development secret"
            )
        elif self.secret.upper().startswith("CHANGE-ME") or len(self.secret) < 16:
            logging.getLogger("tablero").warning(
                "TABLERO_SECRET looks like a placeholder or is shorter than 16 characters: replace it"
            )


def _explain(e: ValidationError) -> str:
    lines = []
    for err in e.errors():
        name = PREFIX + str(err["loc"][0]).upper() if err["loc"] else "settings"
        value = err.get("input")
        msg = err["msg"].removeprefix("Value error, ")
        secret = name in (PREFIX + "SECRET", PREFIX + "PORTAL_KEYS")  # never echo key material
        shown = "<hidden>" if secret else repr(value)
        lines.append(f"{name}: {msg}" if isinstance(value, dict) else f"{name}={shown}: {msg}")
    return "bad settings: " + "; ".join(lines)
