"""What a game portal needs to put Tablero behind its site: its users' identity
(portal-signed JWTs) and abuse controls (rate limits). Pure building blocks; the
transports and use cases wire them in."""

from .identity import IdentityError, PortalKeys, User
from .ratelimit import InProcessLimiter, Rate, RedisLimiter

__all__ = ["IdentityError", "PortalKeys", "User", "InProcessLimiter", "Rate", "RedisLimiter"]
