"""What the tests of the services' Lua scripts share (tests/*/test_*_lua.py): a client of a
throwaway redis-server that reads text, and a script run as shipped (EVAL of the .lua file's
text, server/luafiles.py). A module makes its fixture of `text_client`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import redis
from tablero.server import luafiles


def text_client(fresh_redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(fresh_redis_url, decode_responses=True)
    try:
        yield client
    finally:
        client.close()


def run_script(r: redis.Redis, package: str, name: str, keys: list[str], *args: Any) -> Any:
    """The package's shipped script `name` with these keys and arguments."""
    return r.eval(luafiles.source(package, name), len(keys), *keys, *args)
