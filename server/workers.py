"""`tablero serve --workers N`: N server processes on one pod, sharing its ports.

Each worker is an ordinary, stateless `tablero serve` (the store holds every game;
workers are to each other what replicas are), started with `TABLERO_REUSE_PORT=1`
so that its HTTP and gRPC listeners bind with SO_REUSEPORT and the kernel spreads
connections over them. The supervisor (this module) only starts the workers,
restarts one that dies (at most `MAX_RESTARTS` a minute), forwards SIGTERM/SIGINT
and waits for them to finish their graceful shutdown.

Metrics: the supervisor gives the workers one directory (`TABLERO_METRICS_DIR`) where each
publishes its counts once a second, and `/metrics` of any worker then reports the merge over
all of them (server/metrics_workers.py).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

log = logging.getLogger("tablero")
MAX_RESTARTS = 5


def worker_env(index: int, metrics_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(TABLERO_REUSE_PORT="1", TABLERO_WORKER=str(index), TABLERO_METRICS_DIR=metrics_dir)
    env.pop("TABLERO_WORKERS", None)
    return env


def forget_worker(metrics_dir: str, pid: int) -> None:
    """A dead worker's live gauges (open watch streams, bot backlog) leave the sums: its
    counters and histograms stay counted (they only ever grow)."""
    from tablero.server import metrics_workers

    try:
        metrics_workers.retire(Path(metrics_dir), pid)
    except OSError:
        log.warning("could not drop a dead worker's gauges", exc_info=True)


def _die_with_supervisor() -> None:
    """In a worker, before it runs: SIGTERM (a graceful drain) when the supervisor dies, even by
    SIGKILL, so that no worker is left serving the pod's ports on its own (Linux)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG


def supervise(workers: int, child_args: list[str], grace: float) -> int:
    """Run `python -m tablero.server serve <child_args>` `workers` times until SIGTERM/SIGINT."""
    metrics_dir = tempfile.mkdtemp(prefix="tablero-metrics-")
    procs: dict[int, subprocess.Popen] = {}
    restarts: list[float] = []
    stopping = False
    stop_signal: str | None = None

    def start(i: int) -> None:
        procs[i] = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", *child_args],
                                    env=worker_env(i, metrics_dir), preexec_fn=_die_with_supervisor)

    def stop(signum, frame) -> None:
        nonlocal stopping, stop_signal
        if signum is not None and stop_signal is None:
            stop_signal = signal.Signals(signum).name  # logged by the loop, not in the handler
        stopping = True
        for p in procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)

    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    code = 0
    try:
        for i in range(workers):
            start(i)
        log.info("workers started", extra={"fields": {"workers": workers, "pids": [p.pid for p in procs.values()]}})
        while not stopping:
            time.sleep(0.2)
            for i, p in list(procs.items()):
                rc = p.poll()
                if rc is None or stopping:
                    continue
                now = time.monotonic()
                restarts[:] = [t for t in restarts if now - t < 60] + [now]
                if len(restarts) > MAX_RESTARTS:
                    log.error("workers keep dying; giving up", extra={"fields": {"worker": i, "exit": rc}})
                    code = 1
                    stop(None, None)
                    break
                log.warning("worker died; restarting", extra={"fields": {"worker": i, "exit": rc}})
                forget_worker(metrics_dir, p.pid)
                start(i)
        if stop_signal is not None:
            log.info("workers stopping", extra={"fields": {"signal": stop_signal,
                                                           "pids": [p.pid for p in procs.values()]}})
        deadline = time.monotonic() + grace + 5
        for p in procs.values():
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        log.info("workers stopped", extra={"fields": {"exits": [p.returncode for p in procs.values()]}})
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        shutil.rmtree(metrics_dir, ignore_errors=True)
    return code
