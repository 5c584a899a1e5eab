"""httpx's one-call functions (get, post, …, stream) for the tests, which speak plain HTTP to
servers on 127.0.0.1. Each of httpx's own builds a Client, and each Client a new SSL context
from certifi's bundle: 20–40 ms per call on this machine kind, most of a test that makes a few
hundred requests. These hand httpx one SSL context built once; each call still opens and
closes its own connection, as httpx's functions do. The timeout is 30 s, not httpx's 5 s: on
a loaded two-core machine (CI with three workers) a server can answer a cheap request late
(a one-off /openapi.json read timed out at 5 s there); a hang still fails, later."""

from __future__ import annotations

import ssl
from typing import Any

import httpx

_TLS = ssl.create_default_context()
_TIMEOUT = 30.0


def request(method: str, url: Any, **kw: Any) -> httpx.Response:
    return httpx.request(method, url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def get(url: Any, **kw: Any) -> httpx.Response:
    return httpx.get(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def post(url: Any, **kw: Any) -> httpx.Response:
    return httpx.post(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def put(url: Any, **kw: Any) -> httpx.Response:
    return httpx.put(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def patch(url: Any, **kw: Any) -> httpx.Response:
    return httpx.patch(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def delete(url: Any, **kw: Any) -> httpx.Response:
    return httpx.delete(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def head(url: Any, **kw: Any) -> httpx.Response:
    return httpx.head(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def options(url: Any, **kw: Any) -> httpx.Response:
    return httpx.options(url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})


def stream(method: str, url: Any, **kw: Any) -> Any:
    return httpx.stream(method, url, verify=_TLS, **{"timeout": _TIMEOUT, **kw})
