"""Structured logs: one JSON object per line on stderr.

Every call is logged (server.api.observe), so a line's cost is on every request's path: the
line is encoded by orjson (the standard library's encoder took 4.5 µs of the 16 µs a line cost,
orjson 0.4), the timestamp's date and time are made once a second, and lines are written in
batches (`BatchedStderr`): one write of every line of the last FLUSH_AFTER seconds instead of
one system call per line, by the event loop that logged them. A record at WARNING or above is written at once, with the lines
before it; the rest within FLUSH_AFTER; at exit `logging.shutdown` writes what is left. A
process killed outright (SIGKILL) loses at most its last FLUSH_AFTER seconds of info lines.

Every line names its process (`pid`) and, under `tablero serve --workers N`, the worker's index
(`worker`, from TABLERO_WORKER), so the lines of N workers on one pod can be told apart.

A request's line (server.api.observe) is at `info`, or at `warning` when the call failed by the
server's fault (SERVER_FAILURES, or an HTTP status of 500 or more): `--log-level warning` keeps
the failures. Those request lines are still batched (`batched=True` on the record): an outage's
stream of 503s is not one write per line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from typing import Any, TextIO

import orjson

FLUSH_AFTER = 0.02  # seconds an info line may wait for the lines after it

# The codes of a call that failed by the server's fault (as the SLO rules count them,
# k8s/monitoring/prometheusrule.yaml); a client's own errors (4xx-like codes, CANCELLED, a client
# too slow to send its request: CLIENT_TIMEOUT) are not.
SERVER_FAILURES = frozenset({"INTERNAL", "UNKNOWN", "UNAVAILABLE", "DEADLINE_EXCEEDED", "DATA_LOSS"})


def request_level(code: str, status: int | None = None) -> int:
    """The level of a request's log line: WARNING for a server-side failure, else INFO."""
    return logging.WARNING if code in SERVER_FAILURES or (status is not None and status >= 500) else logging.INFO


# This process's id, and its worker index under `serve --workers N` (kept: os.getpid() is a
# system call, and a forked child learns its own id at the fork).
_PID = os.getpid()
_WORKER = os.environ.get("TABLERO_WORKER")


def _forked() -> None:
    global _PID
    _PID = os.getpid()


os.register_at_fork(after_in_child=_forked)


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self._second = -1
        self._stamp = ""

    def format(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        if second != self._second:  # (a handler formats under its lock: one record at a time)
            self._second, self._stamp = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        doc: dict[str, Any] = {
            "ts": f"{self._stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": _PID,
        }
        if _WORKER is not None:
            doc["worker"] = int(_WORKER) if _WORKER.isdigit() else _WORKER
        fields = getattr(record, "fields", None)
        if fields:
            doc.update({k: v for k, v in fields.items() if v is not None})
        if record.exc_info:
            doc["exc"] = self.formatException(record.exc_info)
        try:
            return orjson.dumps(doc, default=str).decode()
        except (orjson.JSONEncodeError, TypeError):  # what orjson refuses (an integer beyond 64 bits)
            return json.dumps(doc, default=str)


class BatchedStderr(logging.Handler):
    """Lines to a stream (stderr) in batches: see the module's docstring. The batch is written
    by the event loop of the thread that logs (a timer per batch, no thread of its own: waking a
    flusher thread cost the loop a switch of the interpreter lock per batch); a line logged
    where no loop runs is written at once."""

    def __init__(self, stream: TextIO | None = None, flush_after: float | None = None) -> None:
        super().__init__()
        self.stream = stream if stream is not None else sys.stderr
        self.flush_after = FLUSH_AFTER if flush_after is None else flush_after
        self._lines: list[str] = []
        self._due: asyncio.AbstractEventLoop | None = None  # the loop whose timer writes the batch

    def emit(self, record: logging.LogRecord) -> None:  # (called under self.lock)
        try:
            self._lines.append(self.format(record))
            if record.levelno >= logging.WARNING and not getattr(record, "batched", False):
                self._write()
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop in this thread: at once (a timer elsewhere may be due)
                if self._due is None:
                    self._write()
                return
            if self._due is not loop:  # (a loop that closed with its timer pending: this one)
                self._due = loop
                loop.call_later(self.flush_after, self.flush)
        except Exception:
            self.handleError(record)

    def _write(self) -> None:
        if self._lines:
            text = "\n".join(self._lines) + "\n"
            self._lines.clear()
            self.stream.write(text)
            self.stream.flush()

    def flush(self) -> None:
        with self.lock:
            self._due = None
            try:
                self._write()
            except (OSError, ValueError):  # stderr closed or gone: nothing left to write to
                self._lines.clear()


def setup(level: str = "info") -> None:
    handler = BatchedStderr()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(noisy).handlers[:] = []
        logging.getLogger(noisy).propagate = True
    logging.getLogger("uvicorn.access").setLevel("WARNING")


class Outage:
    """A background loop whose store is away: one line (`failed`) when the failures start, one a
    minute while they last (`failed` + " (still)"), and `back` with their length when they are over;
    not one line per round for as long as Redis is away."""

    EVERY = 60.0  # seconds between two lines of one outage

    def __init__(self, logger: logging.Logger, failed: str, back: str) -> None:
        self.log, self.failed_msg, self.back_msg = logger, failed, back
        self.since: float | None = None
        self.said = 0.0

    def failed(self, e: BaseException) -> None:
        now = time.monotonic()
        error = f"{type(e).__name__}: {str(e)[:200]}"
        if self.since is None:
            self.since = self.said = now
            self.log.warning(self.failed_msg, extra={"fields": {"error": error}})
        elif now - self.said >= self.EVERY:
            self.said = now
            self.log.warning(self.failed_msg + " (still)", extra={"fields": {
                "failing_for_s": round(now - self.since, 1), "error": error}})

    def over(self) -> None:
        if self.since is not None:
            self.log.warning(self.back_msg, extra={"fields": {"failed_for_s": round(time.monotonic() - self.since, 1)}})
            self.since = None
