"""The notifier's worker process: derivation and delivery out of the serving process.

`tablero serve` starts it (with a store replicas share: Redis or a SQLite file) as a child at
a lower CPU priority (nice +10): deliveries to many or slow endpoints then never take the
event loop or the CPU from moves. Its settings come from the parent as JSON on stdin; it
exits when the parent goes (stdin closes) — a SIGKILLed replica's child ends too, and what it
had claimed is claimed again by another replica's after the lease.

    python -m tablero.server.notify.process   < settings JSON
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from typing import Any

log = logging.getLogger("tablero.notify")
NICE = 10


def spawn(config: Any) -> subprocess.Popen:
    """Start the worker for `config` (the serving process's Config); a thread applies the
    counts it reports (one JSON line a second on its stdout) to this process's metrics."""
    proc = subprocess.Popen([sys.executable, "-m", "tablero.server.notify.process"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(config.model_dump_json().encode() + b"\n")
    proc.stdin.flush()
    threading.Thread(target=_counts_from, args=(proc,), name="tablero-notify-counts", daemon=True).start()
    return proc


def _counts_from(proc: subprocess.Popen) -> None:
    from . import metrics

    for line in proc.stdout:  # type: ignore[union-attr]
        with contextlib.suppress(ValueError):
            metrics.apply(json.loads(line))


def stop(proc: subprocess.Popen, grace: float = 3.0) -> None:
    with contextlib.suppress(Exception):
        proc.stdin.close()  # type: ignore[union-attr]
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def _run(settings: dict[str, Any]) -> None:
    from tablero.server.app import GameService
    from tablero.server.auth import TokenSigner
    from tablero.server.config import Config
    from tablero.server.runner import _portal_parts
    from tablero.server.store import open_store

    from . import build, metrics

    metrics.gather()

    config = Config.model_validate(settings)
    store = open_store(config.redis_url, config.db, **config.store_options())
    lobby, clocks, _, _ = _portal_parts(config, store)
    games = GameService(store, TokenSigner(config.secret), cache_size=config.cache_size, lobby=lobby, clocks=clocks,
                        abandon_after=config.abandon_after)
    games.games.on_commit = None  # it reads games; the serving processes play their bots
    notifier = build(config, games)
    if notifier is None:
        return
    await notifier.start(stats=False)  # its gauges are the serving process's
    loop = asyncio.get_running_loop()

    async def report() -> None:
        while True:
            await asyncio.sleep(1.0)
            counts = metrics.take()
            if counts:
                sys.stdout.write(json.dumps(counts) + "\n")
                sys.stdout.flush()

    reporter = asyncio.create_task(report())
    gone = loop.create_future()

    def eof() -> None:
        if not sys.stdin.buffer.read(1) and not gone.done():
            loop.call_soon_threadsafe(gone.set_result, None)

    await loop.run_in_executor(None, eof)
    await gone
    reporter.cancel()
    await notifier.close()
    await store.close()


def _die_with_parent(parent: int) -> None:
    """SIGKILL this process when its parent dies (Linux): a killed replica's worker goes at once
    (closing the pipes it shares), not after it notices stdin closed."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before that
        os._exit(0)


def main() -> None:
    from tablero.server import logs

    parent = os.getppid()
    _die_with_parent(parent)
    settings = json.loads(sys.stdin.buffer.readline())
    os.nice(NICE)  # moves first: deliveries take what CPU the serving process leaves
    logs.setup(settings.get("log_level", "info"))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_run(settings))


if __name__ == "__main__":
    main()
