"""The Redis store's Lua scripts: one `.lua` file each in server/store/lua/, shipped as
package data and read once, at import (server/luafiles.py, which every package's scripts use).

    from tablero.server.store import redis_scripts
    redis_scripts.SCRIPTS["append"]   # the text RedisStore registers (EVALSHA) for appends

Every script that needs them starts with the helpers of `lua/lib.lua` (head, hash_at,
first_kept, trimmed, chain, expire_all, ttl_of): Redis has no shared script library that
runs unchanged on Redis Cluster and every version we support, so the text is prepended.
Each script's KEYS, ARGV and reply are described at the top of its file.
"""

from __future__ import annotations

from tablero.server import luafiles

# The scripts that call none of lib.lua's helpers (sent without them).
STANDALONE = frozenset({"get_meta", "expire", "touch_request", "touch_game", "snapshot_at"})
NAMES = ("create", "append", "claim_seat", "put_snapshot", "trim", "read", "load", "head", "heads",
         "get_meta", "expire", "delete", "touch_request", "touch_game", "snapshot_at")


def source(name: str) -> str:
    """The text of lua/<name>.lua as shipped."""
    return luafiles.source(__package__, name)


def script(name: str) -> str:
    """The script `name` as sent to Redis: lib.lua's helpers first, unless it is STANDALONE."""
    text = source(name)
    return text if name in STANDALONE else source("lib") + text


def constant(name: str, var: str) -> int:
    """The number a script declares as `local <var> = <n>` (read by the Python side that
    must agree with it, e.g. PUSH_EVENTS_MAX)."""
    value = luafiles.constant(__package__, name, var)
    if not isinstance(value, int):
        raise LookupError(f"lua/{name}.lua declares `local {var}` as text, not a number")
    return value


SCRIPTS: dict[str, str] = {name: script(name) for name in NAMES}
