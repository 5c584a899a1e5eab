"""The structured log (server/logs.py): one JSON object per line, written in batches — an info
line within FLUSH_AFTER, a warning at once with the lines before it, everything at exit."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
import time

from tablero.server.logs import BatchedStderr, JsonFormatter


class Stream:
    def __init__(self) -> None:
        self.writes: list[str] = []

    def write(self, text: str) -> None:
        self.writes.append(text)

    def flush(self) -> None:
        pass


def _logger(stream: Stream, flush_after: float) -> logging.Logger:
    handler = BatchedStderr(stream, flush_after=flush_after)
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger(f"tablero.test.logs.{id(stream)}")
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel("INFO")
    return log


async def test_info_lines_are_written_together_within_the_flush_delay():
    """On the event loop: one write for the batch, by a timer (no thread of its own)."""
    import asyncio

    stream = Stream()
    log = _logger(stream, 0.05)
    threads = threading.active_count()
    for i in range(50):
        log.info("request", extra={"fields": {"n": i, "skip": None}})
    assert stream.writes == [] and threading.active_count() == threads  # not one system call per line
    deadline = time.monotonic() + 5
    while not stream.writes and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert len(stream.writes) == 1
    lines = [json.loads(line) for line in stream.writes[0].splitlines()]
    assert [d["n"] for d in lines] == list(range(50)) and all("skip" not in d for d in lines)
    assert lines[0]["msg"] == "request" and lines[0]["level"] == "info" and lines[0]["ts"].endswith("Z")


def test_a_line_logged_where_no_loop_runs_is_written_at_once():
    stream = Stream()
    _logger(stream, 60).info("alone")
    assert [json.loads(w)["msg"] for w in stream.writes] == ["alone"]


async def test_a_warning_is_written_at_once_with_the_lines_before_it():
    stream = Stream()
    log = _logger(stream, 60)
    log.info("first")
    log.warning("second", extra={"fields": {"big": 2**70}})  # beyond orjson's integers: still a line
    assert len(stream.writes) == 1
    assert [json.loads(line)["msg"] for line in stream.writes[0].splitlines()] == ["first", "second"]
    assert json.loads(stream.writes[0].splitlines()[1])["big"] == 2**70


def test_what_is_left_is_written_at_exit():
    code = ("import asyncio, logging; from tablero.server import logs; logs.FLUSH_AFTER = 60; logs.setup('info')\n"
            "async def main():\n    [logging.getLogger('x').info('line %d', i) for i in range(3)]\n"
            "asyncio.run(main())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert [json.loads(line)["msg"] for line in done.stderr.splitlines()] == ["line 0", "line 1", "line 2"]
