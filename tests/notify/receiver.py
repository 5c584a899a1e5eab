"""A webhook receiver for the tests: a real HTTP server on a thread that verifies every
delivery with the `standardwebhooks` package and records what it accepted."""

from __future__ import annotations

import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


class Receiver:
    """`fail_rate`: answers that share 500 at random; `hang`: never answers (holds the request);
    `authorization`: the Authorization header every delivery must carry (else 401)."""

    def __init__(self, secret: str, *, fail_rate: float = 0.0, hang: bool = False, seed: int = 1,
                 authorization: str | None = None) -> None:
        self.verifier = Webhook(secret)
        self.authorization = authorization
        self.unauthorized = 0
        self.fail_rate, self.hang = fail_rate, hang
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.accepted: list[dict[str, Any]] = []  # bodies answered 2xx, in arrival order
        self.headers: list[dict[str, str]] = []
        self.failed = self.bad_signatures = self.attempts = self.truncated = 0
        self.refusals: list[str] = []
        self.stop = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as a real receiver

            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", 0))
                body = self.rfile.read(length)
                if len(body) < length:  # the sender went away mid-request (a killed replica)
                    with receiver.lock:
                        receiver.truncated += 1
                    return
                hdrs = {k.lower(): v for k, v in self.headers.items()}
                if receiver.hang:
                    receiver.stop.wait(60)
                    return
                if receiver.authorization is not None and hdrs.get("authorization") != receiver.authorization:
                    with receiver.lock:
                        receiver.unauthorized += 1
                    self.send_response(401)
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                try:
                    doc = receiver.verifier.verify(body, hdrs)
                except WebhookVerificationError as e:
                    with receiver.lock:
                        receiver.bad_signatures += 1
                        receiver.refusals.append(str(e))
                    self.send_response(401)
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                with receiver.lock:
                    receiver.attempts += 1
                    fail = receiver.rng.random() < receiver.fail_rate
                    if fail:
                        receiver.failed += 1
                    else:
                        receiver.accepted.append(doc)
                        receiver.headers.append(hdrs)
                self.send_response(500 if fail else 204)
                self.send_header("content-length", "0")
                self.end_headers()

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a sender that went away (a killed replica's connections are reset)

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, predicate: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if predicate(self.accepted):
                    return True
            time.sleep(0.1)
        with self.lock:
            return predicate(self.accepted)


def secret(n: int = 0) -> str:
    import base64

    return "whsec_" + base64.b64encode(bytes([n + 1]) * 32).decode()


def endpoints_json(*items: tuple[str, Any]) -> str:
    return json.dumps([{"url": url, "secret": s} for url, s in items])
