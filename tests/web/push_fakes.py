"""Stand-ins for Google's push servers, so Chromium subscribes to Web Push on a closed network.

`FakeGCM`: Google's GCM/FCM device servers, which Chromium's `PushManager.subscribe` talks to.

Chromium's `PushManager.subscribe` registers with FCM through its GCM client
(components/gcm_driver, google_apis/gcm), which first checks the browser in and then asks
for a registration token. Both are plain HTTP requests, and Chromium's switches point them
anywhere: `--gcm-checkin-url` and `--gcm-registration-url` (google_apis/gcm/engine/
gservices_switches.cc). This server answers them:

- check-in: a POST of a protobuf `checkin_proto.AndroidCheckinRequest`, answered with an
  `AndroidCheckinResponse` (google_apis/gcm/protocol/checkin.proto): `stats_ok`, a non-zero
  `android_id` and `security_token` (the device's credentials), and `settings_diff` (without
  it Chromium keeps its G-services settings, which is fine too);
- registration: a form POST (`app`, `X-subtype`, `device`, `sender` = the page's VAPID key
  for Web Push, `scope`, ...; header `Authorization: AidLogin <android_id>:<security_token>`),
  answered `token=<registration token>`. Chromium builds the subscription's endpoint from it
  (https://fcm.googleapis.com/fcm/send/<token> or .../wp/<token>).

The delivery channel (MCS, a long-lived TLS connection speaking its own protobuf protocol on
`--gcm-mcs-endpoint`) is not served: the tests send pushes to the service worker another way.

`FakePushService`: the push service at the subscription's endpoint (https://jmt17.google.com
for Debian's Chromium, https://fcm.googleapis.com for Google Chrome), where Tablero's server
POSTs its pushes. It speaks TLS with a certificate for those names from a throwaway CA; the
test points the names at it (`resolve_push_hosts`) and has the server trust the CA.

The protobuf is written by hand (wire format: a few varint and fixed64 fields), so the test
needs no generated code for Chromium's schema.
"""

from __future__ import annotations

import base64
import datetime
import secrets
import socket
import ssl
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

PUSH_HOSTS = ("jmt17.google.com", "fcm.googleapis.com")


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def checkin_response(android_id: int, security_token: int, time_msec: int) -> bytes:
    """`AndroidCheckinResponse{stats_ok, time_msec, settings_diff, android_id, security_token}`."""
    return b"".join([
        _varint(1 << 3 | 0), _varint(1),             # required bool stats_ok = 1
        _varint(3 << 3 | 0), _varint(time_msec),     # optional int64 time_msec = 3
        _varint(9 << 3 | 0), _varint(0),             # optional bool settings_diff = 9 (false: full table, empty)
        _varint(7 << 3 | 1), struct.pack("<Q", android_id),      # optional fixed64 android_id = 7
        _varint(8 << 3 | 1), struct.pack("<Q", security_token),  # optional fixed64 security_token = 8
    ])


def parse_fields(data: bytes) -> dict[int, list[int | bytes]]:
    """A protobuf message's top-level fields (number -> values), enough to read a check-in request."""
    out: dict[int, list[int | bytes]] = {}
    i = 0

    def varint() -> int:
        nonlocal i
        shift = n = 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return n

    while i < len(data):
        key = varint()
        number, kind = key >> 3, key & 7
        value: int | bytes
        if kind == 0:
            value = varint()
        elif kind == 1:
            value = struct.unpack_from("<Q", data, i)[0]
            i += 8
        elif kind == 2:
            size = varint()
            value = data[i:i + size]
            i += size
        elif kind == 5:
            value = struct.unpack_from("<I", data, i)[0]
            i += 4
        else:
            raise ValueError(f"unsupported wire type {kind}")
        out.setdefault(number, []).append(value)
    return out


@dataclass
class FakeGCM:
    """The fake on 127.0.0.1 (a free port); `switches()` are the Chromium flags that use it."""

    android_id: int = field(default_factory=lambda: secrets.randbits(62) | 1)
    security_token: int = field(default_factory=lambda: secrets.randbits(62) | 1)
    checkins: list[dict[int, list[int | bytes]]] = field(default_factory=list)
    registrations: list[dict[str, str]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, fmt: str, *args: object) -> None:
                fake.log.append(fmt % args)

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/checkin":
                    fake.checkins.append(parse_fields(body))
                    self._answer(200, "application/x-protobuf",
                                 checkin_response(fake.android_id, fake.security_token, 0))
                elif self.path == "/c2dm/register3":
                    form = dict(parse_qsl(body.decode(), keep_blank_values=True))
                    form["_authorization"] = self.headers.get("Authorization", "")
                    fake.registrations.append(form)
                    if form["_authorization"] != f"AidLogin {fake.android_id}:{fake.security_token}":
                        self._answer(200, "text/plain", b"Error=AUTHENTICATION_FAILED")
                        return
                    token = "fake-" + secrets.token_urlsafe(24)
                    fake.tokens.append(token)
                    self._answer(200, "text/plain", f"token={token}".encode())
                else:
                    self._answer(404, "text/plain", b"no such path")

            def _answer(self, status: int, kind: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def switches(self, mcs_port: int) -> list[str]:
        return [f"--gcm-checkin-url={self.url}/checkin",
                f"--gcm-registration-url={self.url}/c2dm/register3",
                f"--gcm-mcs-endpoint=https://127.0.0.1:{mcs_port}"]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _b64u_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def throwaway_tls(folder: Path, names: tuple[str, ...]) -> tuple[Path, Path, Path]:
    """A CA and a server certificate for `names` signed by it: (ca.pem, cert.pem, key.pem)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tablero test push CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    paths = folder / "ca.pem", folder / "cert.pem", folder / "key.pem"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


class FakePushService:
    """HTTPS on 127.0.0.1 (a free port) for the push services' names. Each POST is checked as a
    push service would: an RFC 8292 VAPID `Authorization` (ES256 JWT whose `aud` is the
    endpoint's origin, signed by the key in `k`), `Content-Encoding: aes128gcm` with an RFC
    8188 header (salt, record size, the sender's 65-byte P-256 key) and a TTL. It answers 201
    and keeps what it got; it cannot decrypt (only the browser holds the subscription's key)."""

    def __init__(self, folder: Path) -> None:
        self.ca, cert, key = throwaway_tls(folder, PUSH_HOSTS)
        self.received: list[dict[str, Any]] = []
        self.refused: list[str] = []
        svc = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, fmt: str, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status = svc.accept(self.headers.get("Host", ""), self.path, self.headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def accept(self, host: str, path: str, headers: Any, body: bytes) -> int:
        import jwt
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            auth = headers.get("Authorization", "")
            assert auth.startswith("vapid "), f"no VAPID authorization: {auth!r}"
            parts = dict(p.strip().split("=", 1) for p in auth[6:].split(","))
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _b64u_decode(parts["k"]))
            origin = "https://" + host.split(":")[0]
            claims = jwt.decode(parts["t"], public, algorithms=["ES256"], audience=origin)
            assert claims["exp"] > time.time(), claims
            assert headers.get("Content-Encoding") == "aes128gcm", headers.get("Content-Encoding")
            assert int(headers.get("TTL", "0")) > 0
            record_size = struct.unpack(">I", body[16:20])[0]
            key_id = body[21:21 + body[20]]
            assert body[20] == 65 and key_id[0] == 4 and record_size >= 18, "not an RFC 8188 header"
        except Exception as e:  # noqa: BLE001 - anything wrong is a refusal the test sees
            self.refused.append(f"{type(e).__name__}: {e}")
            return 400
        self.received.append({"host": host, "path": path, "k": parts["k"], "sub": claims.get("sub"),
                              "ciphertext": len(body) - 21 - 65})
        return 201

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def resolve_push_hosts(monkeypatch: Any, port: int) -> None:
    """This process's name lookups send the push services' names to 127.0.0.1:`port` (the
    closed network resolves no outside name); every other name resolves as before."""
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, service: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name in PUSH_HOSTS:
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", port))]
        return real(host, service, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
