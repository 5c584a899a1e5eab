"""A webhook endpoint removed from TABLERO_WEBHOOKS leaves its queued deliveries in the store,
which nothing claims. A server started without it says so at start (the endpoint's id and how
many are queued; with no notifier at all too), its /metrics gauge them
(`tablero_notify_queue_depth{target=...}`), and `tablero admin webhooks drop` deletes them
(refused for an endpoint the shell's TABLERO_WEBHOOKS still names); the gauge's series then go.
Before: no warning, no series (the gauges covered only the configured targets), no way to drop
them but by hand in Redis or SQLite."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import time

import pytest
from tablero.server.notify import open_queue

from tests import plainhttp
from tests.notify.receiver import Receiver, secret
from tests.redis_server import RedisServer
from tests.server.support import ServerProcess, ServerThread, scrape


def _hooks(hook_id: str, url: str) -> str:
    return json.dumps([{"id": hook_id, "url": url, "secret": secret()}])


def _admin(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}, **env}
    return subprocess.run([sys.executable, "-m", "tablero.server", "admin", "webhooks", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def _depth(http: str, target: str) -> float | None:
    for line in scrape(http).splitlines():
        if line.startswith(f'tablero_notify_queue_depth{{target="{target}"}}'):
            return float(line.split()[-1])
    return None


def _queued(target: str, where: dict[str, str]) -> int:
    async def count() -> int:
        q = open_queue(where.get("redis_url"), where.get("db"))
        try:
            return (await q.stats([target]))[target][0]
        finally:
            await q.close()

    return asyncio.run(count())


def _until(predicate, timeout: float = 30.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.2)
    return predicate()


@pytest.mark.parametrize("store", ["redis", "sqlite"])
def test_an_endpoint_removed_from_the_settings_is_said_gauged_and_dropped(tmp_path, store) -> None:
    with contextlib.ExitStack() as stack:
        old = stack.enter_context(Receiver(secret(), fail_rate=1.0))  # its deliveries stay queued
        new = stack.enter_context(Receiver(secret()))
        if store == "redis":
            where = {"redis_url": stack.enter_context(RedisServer()).url}
            env = {"TABLERO_REDIS_URL": where["redis_url"]}
        else:
            where = {"db": str(tmp_path / "t.db")}
            env = {"TABLERO_DB": where["db"]}
        with ServerThread(**where, webhooks=_hooks("old-hook", old.url), webhooks_allow_private=True,
                          webhooks_retry_for=600.0) as first:
            plainhttp.post(f"{first.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}, timeout=10)
            assert _until(lambda: old.attempts > 0, 30)  # derived and queued; its first attempt refused
        queued = _queued("old-hook", where)
        assert queued > 0

        said = f"old-hook ({queued} queued)"
        bare = stack.enter_context(ServerProcess(env))  # no notifier at all: said once all the same
        assert _until(lambda: said in bare.stderr()), bare.stderr()
        bare.kill()

        now = {**env, "TABLERO_WEBHOOKS": _hooks("new-hook", new.url), "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1"}
        server = stack.enter_context(ServerProcess(now))
        assert _until(lambda: said in server.stderr()), server.stderr()
        line = next(x for x in server.stderr().splitlines() if said in x)
        assert "new-hook" not in line and "tablero admin webhooks drop old-hook" in line, line
        assert _until(lambda: _depth(server.http, "old-hook") == queued), scrape(server.http)
        assert _depth(server.http, "new-hook") == 0

        refused = _admin(now, "drop", "new-hook")
        assert refused.returncode == 2 and "is still sent to by these settings" in refused.stderr, refused
        dropped = _admin(now, "drop", "old-hook")
        assert dropped.returncode == 0 and re.fullmatch(rf"old-hook\s+{queued} dropped\n", dropped.stdout), dropped
        assert _queued("old-hook", where) == 0 and _admin(now, "drop", "old-hook").returncode == 1  # nothing left
        assert _until(lambda: _depth(server.http, "old-hook") is None), scrape(server.http)
        assert server.stderr().count(said) == 1  # said once, not every stats round
