"""Browser tests: a real `tablero serve` and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests import plainhttp
from tests.browsers import CHROMIUM
from tests.server.support import ROOT, free_ports, holds_port

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


class Serve:
    """`tablero serve` (as `python -m tablero.server serve`) on free ports; its log goes to a file."""

    def __init__(self, *args: str, http_port: int | None = None, grpc_port: int | None = None,
                 log: str = "server.log", env: dict[str, str] | None = None) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.log = open(ARTIFACTS / log, "w")  # noqa: SIM115 - closed in stop()
        for attempt in range(3):
            picked = free_ports(2)
            self.http_port, self.grpc_port = http_port or picked[0], grpc_port or picked[1]
            self.url = f"http://127.0.0.1:{self.http_port}"
            self.log.seek(0)
            self.log.truncate()
            if self._start(args, env, log):
                return
            # A port picked free was taken meanwhile by another test's process: pick again.
            if attempt == 2 or (http_port and grpc_port) or "cannot listen on" not in self._log_text(log):
                raise RuntimeError(f"tablero serve exited; see {ARTIFACTS / log}")

    def _start(self, args: tuple[str, ...], env: dict[str, str] | None, log: str) -> bool:
        """Starts the server; True once it answers /readyz on its own port, False if it exited."""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tablero.server", "serve", "--host", "127.0.0.1",
             "--http-port", str(self.http_port), "--grpc-port", str(self.grpc_port), *args],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "TABLERO_SECRET": "web-test-secret", "TABLERO_SHUTDOWN_GRACE": "2", **(env or {})},
        )
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                return False
            try:
                # Its own answer: another test's server may hold a port picked free here.
                if plainhttp.get(self.url + "/readyz", timeout=0.5).status_code == 200 \
                        and holds_port(self.proc.pid, self.http_port):
                    return True
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("tablero serve did not become ready")
            time.sleep(0.1)

    def _log_text(self, log: str) -> str:
        self.log.flush()
        return (ARTIFACTS / log).read_text(errors="replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


# Session scope, not package: under `--dist loadfile` a worker may run this folder's files between
# other folders' files, and a package fixture was stopped and started again at every switch.
@pytest.fixture(scope="session")
def server():  # one server for the whole directory: each start costs seconds on a busy machine
    s = Serve()
    yield s
    s.stop()


# Package scope: Playwright's sync API leaves its event loop marked running in this thread, so
# an asyncio test of another folder run after it on the same worker fails ("Runner.run() cannot
# be called from a running event loop"). The files are ordered longest first (tests/markers.py),
# which keeps this folder's files mostly together on each worker.
@pytest.fixture(scope="package")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"chromium is not installed at {CHROMIUM} (apt-get install -y chromium chromium-headless-shell)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """Pages in fresh contexts (separate storage: separate people); page errors fail the test."""
    contexts, errors = [], []

    def make(width: int = 1280, height: int = 900, lang: str | None = None):
        """`lang`: the page's language as a person who chose it before (stored by the page)."""
        ctx = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(ctx)
        page = ctx.new_page()
        if lang is not None:
            page.add_init_script(f"localStorage.setItem('tablero.lang', {lang!r});")
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Failed to load resource" not in m.text else None)
        return page

    yield make
    for c in contexts:
        c.close()
    assert not errors, f"errors in the page: {errors}"
