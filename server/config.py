"""Server configuration: flags override environment variables override defaults."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

DEV_SECRET = "tablero-development-secret-do-not-use-in-production"


@dataclass
class Config:
    host: str = "0.0.0.0"
    grpc_port: int = 50051
    http_port: int = 8080
    redis_url: str | None = None
    db: str | None = None  # SQLite file; None = in memory
    secret: str = DEV_SECRET
    max_body: int = 256 * 1024
    max_rankings_body: int = 8 * 1024 * 1024
    snapshot_every: int = 100
    cache_size: int = 1000
    shutdown_grace: float = 20.0
    log_level: str = "info"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        c = cls()
        c.host = env.get("TABLERO_HOST", c.host)
        c.grpc_port = int(env.get("TABLERO_GRPC_PORT", c.grpc_port))
        c.http_port = int(env.get("TABLERO_HTTP_PORT", c.http_port))
        c.redis_url = env.get("TABLERO_REDIS_URL") or None
        c.db = env.get("TABLERO_DB") or None
        c.secret = env.get("TABLERO_SECRET") or DEV_SECRET
        c.max_body = int(env.get("TABLERO_MAX_BODY", c.max_body))
        c.max_rankings_body = int(env.get("TABLERO_MAX_RANKINGS_BODY", c.max_rankings_body))
        c.snapshot_every = int(env.get("TABLERO_SNAPSHOT_EVERY", c.snapshot_every))
        c.cache_size = int(env.get("TABLERO_CACHE_SIZE", c.cache_size))
        c.shutdown_grace = float(env.get("TABLERO_SHUTDOWN_GRACE", c.shutdown_grace))
        c.log_level = env.get("TABLERO_LOG_LEVEL", c.log_level)
        return c

    def warn_if_insecure(self) -> None:
        if self.secret == DEV_SECRET:
            logging.getLogger("tablero").warning(
                "TABLERO_SECRET is not set: seat tokens are signed with the development secret"
            )
        elif self.secret.upper().startswith("CHANGE-ME") or len(self.secret) < 16:
            logging.getLogger("tablero").warning(
                "TABLERO_SECRET looks like a placeholder or is shorter than 16 characters: replace it"
            )
