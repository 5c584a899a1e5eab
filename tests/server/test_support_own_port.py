"""The test servers' start waits for their own /readyz, not another process's on the same port.

Under parallel tests a port picked free can be taken by another test's server before this one
binds it. That other server answered /readyz, the start returned, and the test talked to a
server without its settings (CI: a push subscription refused for want of
TABLERO_WEBHOOKS_ALLOW_PRIVATE, which the test had set on its own server)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests import plainhttp
from tests.server.support import ServerProcess


class Impostor(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        body = json.dumps({"status": "SERVING", "impostor": True}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_a_server_whose_port_another_process_took_starts_on_other_ports():
    srv = ServerProcess()
    taken = srv.http_port
    impostor = ThreadingHTTPServer(("127.0.0.1", taken), Impostor)
    threading.Thread(target=impostor.serve_forever, daemon=True).start()
    try:
        with srv:
            assert srv.http_port != taken
            r = plainhttp.get(f"{srv.http}/readyz")
            assert r.status_code == 200 and "impostor" not in r.json()
            assert plainhttp.get(f"{srv.http}/v1/engines").status_code == 200
    finally:
        impostor.shutdown()
        impostor.server_close()
