"""--url (TABLERO_URL) must be an http:// or https:// URL: `--url 127.0.0.1:8080` failed every verb
with "UNAVAILABLE: UnsupportedProtocol", and loadtest with "refusing to load-test ''" (an outside
acceptance pass). Now argparse says what is wrong, exit 2, before any call."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablero_client", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("args", [("--url", "127.0.0.1:8080", "engines"), ("loadtest", "--url", "localhost:8080"),
                                  ("--url", "http://:8080", "show", "g1"), ("--url", "http://h:port", "engines")])
def test_a_url_without_http_or_a_host_is_a_usage_error(args):
    r = _cli(*args)
    url = args[args.index("--url") + 1]
    assert r.returncode == 2, r.stderr
    assert f"argument --url: {url!r} is not an http:// or https:// URL with a host" in r.stderr, r.stderr


def test_tablero_url_is_checked_too():
    r = _cli("engines", env={"TABLERO_URL": "localhost:8080"})
    assert r.returncode == 2 and "'localhost:8080' is not an http:// or https:// URL" in r.stderr, r.stderr


@pytest.mark.parametrize("args", [("--grpc", "http://127.0.0.1:50051", "engines"),
                                  ("loadtest", "--grpc", "https://localhost:50051")])
def test_a_grpc_target_given_as_a_url_is_a_usage_error(args):
    """(it failed with a DNS lookup error, and loadtest with "refusing to load-test 'http://127.0.0.1'")"""
    r = _cli(*args)
    target = args[args.index("--grpc") + 1]
    assert r.returncode == 2, r.stderr
    assert f"argument --grpc: {target!r} is a URL: give HOST:PORT" in r.stderr, r.stderr
