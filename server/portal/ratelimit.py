"""Rate limits: token buckets per subject (a portal user, or a client address).

A limit is written `RATE/UNIT[,BURST]`: `20/s` (20 calls a second, bursts of 20),
`20/s,40` (bursts of 40), `5/m,10` (5 a minute, bursts of 10). Units: s, m, h.

`RedisLimiter` keeps the buckets in Redis, so every replica shares them (the
refill is computed from Redis' own clock inside one script, so replicas' clocks
don't matter); `InProcessLimiter` keeps them in the process (the embedded store).
`take()` answers how long to wait when the bucket is empty (`Retry-After`).
"""

from __future__ import annotations

import math
import re
import time
from collections import OrderedDict
from dataclasses import dataclass

from tablero.server import luafiles

_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}
_RATE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*/\s*([smh])\s*(?:,\s*(\d+)\s*)?$")


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: int
    text: str

    @classmethod
    def parse(cls, text: str, name: str = "rate limit") -> Rate:
        """`20/s`, `20/s,40`, `5/m,10`; ValueError naming `name` otherwise."""
        m = _RATE.match(text or "")
        if not m:
            raise ValueError(f"{name}: {text!r} is not RATE/UNIT[,BURST] such as 20/s or 5/m,10")
        count, unit, burst = float(m.group(1)), m.group(2), m.group(3)
        if count <= 0:
            raise ValueError(f"{name}: the rate must be positive")
        b = int(burst) if burst is not None else max(1, math.ceil(count))
        if b < 1:
            raise ValueError(f"{name}: the burst must be at least 1")
        return cls(count / _UNITS[unit], b, text.strip())


class InProcessLimiter:
    """Token buckets in this process (bounded: the least recently used are dropped)."""

    def __init__(self, rate: Rate, max_subjects: int = 100_000) -> None:
        self.rate = rate
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._max = max_subjects

    async def take(self, subject: str, now: float | None = None) -> float:
        """0 when the call may proceed (a token is spent), else seconds to wait."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(subject, (float(self.rate.burst), now))
        tokens = min(float(self.rate.burst), tokens + (now - last) * self.rate.per_second)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate.per_second
        self._buckets[subject] = (tokens, now)
        if len(self._buckets) > self._max:
            self._buckets.popitem(last=False)
        return wait


# The bucket's one step in Redis: lua/ratelimit_take.lua (KEYS, ARGV and reply at its top).
_TAKE = luafiles.source(__package__, "ratelimit_take")


class RedisLimiter:
    """Token buckets in Redis, shared by every replica. `client` is a redis.asyncio
    client (or cluster client); keys are `tablero:rl:{<prefix>:<subject>}`."""

    def __init__(self, client, rate: Rate, prefix: str = "calls") -> None:
        self.rate = rate
        self._client = client
        self._prefix = prefix
        self._script = client.register_script(_TAKE)

    async def take(self, subject: str) -> float:
        key = f"tablero:rl:{{{self._prefix}:{subject}}}"
        micros = await self._script(keys=[key], args=[repr(self.rate.per_second), self.rate.burst])
        return int(micros) / 1_000_000
