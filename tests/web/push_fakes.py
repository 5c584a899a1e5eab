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
  (https://jmt17.google.com/fcm/send/<token> in Debian's Chromium 156; Google Chrome uses
  fcm.googleapis.com; newer builds may use a /wp/ path).

`FakeMCS`: the delivery channel, GCM's Mobile Connection Server on `--gcm-mcs-endpoint`: a
long-lived TLS connection (Chromium is told to accept the fake's certificate with
`--ignore-certificate-errors-spki-list`) speaking MCS's framed protobufs. Chromium logs in
with the credentials of its check-in; a push goes down as a DataMessageStanza.

`FakePushService`: the push service at the subscription's endpoint (https://jmt17.google.com
for Debian's Chromium, https://fcm.googleapis.com for Google Chrome), where Tablero's server
POSTs its pushes. It speaks TLS with a certificate for those names from a throwaway CA; the
test points the names at it (`resolve_push_hosts`) and has the server trust the CA. It checks
each push as FCM would (VAPID, aes128gcm) and hands it to FakeMCS, as FCM hands it to its
connection servers: the browser then decrypts it, which only the subscription's keys can.

The protobufs are written and read by hand (wire format: a few varint, fixed64 and
length-delimited fields), so the tests need no generated code for Chromium's schemas.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
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
                    form["_token"] = token
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

    def registration_of(self, token: str) -> int:
        """The index in `registrations` of the one answered with `token`."""
        return [i for i, r in enumerate(self.registrations) if r.get("_token") == token][0]

    def switches(self, mcs_port: int) -> list[str]:
        return [f"--gcm-checkin-url={self.url}/checkin",
                f"--gcm-registration-url={self.url}/c2dm/register3",
                f"--gcm-mcs-endpoint=https://127.0.0.1:{mcs_port}"]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _b64u_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def spki_hash(cert_pem: Path) -> str:
    """base64(SHA-256(SubjectPublicKeyInfo)), as Chromium's --ignore-certificate-errors-spki-list wants it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    cert = x509.load_pem_x509_certificate(cert_pem.read_bytes())
    der = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def throwaway_tls(folder: Path, names: tuple[str, ...]) -> tuple[Path, Path, Path]:
    """A CA and a server certificate for `names` and 127.0.0.1 signed by it: (ca.pem, cert.pem, key.pem)."""
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
            .add_extension(x509.SubjectAlternativeName([*(x509.DNSName(n) for n in names),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
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

    def __init__(self, folder: Path, forward: Any = None) -> None:
        self.ca, self.cert, self.key = throwaway_tls(folder, PUSH_HOSTS)
        cert, key = self.cert, self.key
        self.forward = forward  # (token, body, ttl) -> None: hands the push on to the browser (FakeMCS.deliver)
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
        if self.forward is not None:
            try:
                self.forward(path.rsplit("/", 1)[-1], body, int(headers.get("TTL", "0")))
            except Exception as e:  # noqa: BLE001 - the test sees it
                self.refused.append(f"forwarding: {type(e).__name__}: {e}")
                return 404
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


def _field(number: int, value: int | bytes | str) -> bytes:
    if isinstance(value, int):
        return _varint(number << 3 | 0) + _varint(value)
    raw = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | 2) + _varint(len(raw)) + raw


MCS_VERSION = 41
TAG_HEARTBEAT_PING, TAG_HEARTBEAT_ACK, TAG_LOGIN_REQUEST, TAG_LOGIN_RESPONSE = 0, 1, 2, 3
TAG_CLOSE, TAG_IQ_STANZA, TAG_DATA_MESSAGE = 4, 7, 8


class FakeMCS:
    """GCM's Mobile Connection Server (google_apis/gcm/protocol/mcs.proto, engine/
    connection_handler_impl.cc): Chromium keeps one TLS connection to it and receives its
    pushes there. On the wire: the client sends its version byte (41) and a LoginRequest
    (tag 2: its android id and security token); the server answers a version byte and a
    LoginResponse (tag 3); then both send `tag, varint size, protobuf` frames. A push is a
    DataMessageStanza (tag 8) whose category is the registration's `app`, with app data
    `subtype` (the registration's X-subtype: the page's push app id) and `content-encoding:
    aes128gcm`, and the encrypted body as raw_data, `from` the sender the registration named
    (the VAPID key); Chromium decrypts it with the subscription's key and fires the service
    worker's push event."""

    def __init__(self, cert: Path, key: Path, gcm: FakeGCM) -> None:
        self.gcm = gcm
        self.logins: list[dict[int, list[int | bytes]]] = []
        self.frames: list[tuple[int, dict[int, list[int | bytes]]]] = []
        self.errors: list[str] = []
        self.events: list[tuple[float, str]] = []  # (monotonic time, what happened) on the connections
        self.delivered: list[str] = []  # the registration tokens pushes were sent down for
        self.connected = threading.Event()
        self._conn: ssl.SSLSocket | None = None
        self._lock = threading.Lock()
        self._sent = 0
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        self._tls = ctx
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._stopping = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stopping:
            try:
                raw, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _read(self, conn: ssl.SSLSocket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise EOFError("the client closed the connection")
            data += chunk
        return data

    def _read_frame(self, conn: ssl.SSLSocket) -> tuple[int, bytes]:
        tag = self._read(conn, 1)[0]
        shift = size = 0
        while True:
            b = self._read(conn, 1)[0]
            size |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        return tag, self._read(conn, size)

    def _write(self, conn: ssl.SSLSocket, tag: int, body: bytes, version: bool = False) -> None:
        with self._lock:
            conn.sendall((bytes([MCS_VERSION]) if version else b"") + bytes([tag]) + _varint(len(body)) + body)

    def _serve(self, raw: socket.socket) -> None:
        try:
            conn = self._tls.wrap_socket(raw, server_side=True)
            version = self._read(conn, 1)[0]
            tag, body = self._read_frame(conn)
            login = parse_fields(body)
            self.logins.append(login)
            if version < MCS_VERSION or tag != TAG_LOGIN_REQUEST:
                raise ValueError(f"not an MCS login: version {version}, tag {tag}")
            user, token = int(login[3][0]), int(login[5][0])  # user: android id; auth_token: security token
            if (user, token) != (self.gcm.android_id, self.gcm.security_token):
                raise ValueError(f"login with unknown credentials {user}:{token}")
            self._write(conn, TAG_LOGIN_RESPONSE, _field(1, "fake-mcs-login") + _field(6, 1)
                        + _field(8, int(time.time() * 1000)), version=True)
            self._conn = conn
            self.events.append((time.monotonic(), f"login {len(self.logins)}"))
            self.connected.set()
            while True:
                tag, body = self._read_frame(conn)
                self.frames.append((tag, parse_fields(body)))
                if tag == TAG_HEARTBEAT_PING:
                    self._write(conn, TAG_HEARTBEAT_ACK, b"")
                elif tag == TAG_CLOSE:
                    return
        except (EOFError, OSError) as e:  # the connection ended (Chromium may drop one and open another)
            self.events.append((time.monotonic(), f"closed: {type(e).__name__}: {e}"))
        except (ValueError, KeyError, IndexError) as e:  # not MCS as Chromium speaks it, or not its credentials
            self.events.append((time.monotonic(), f"refused: {type(e).__name__}: {e}"))
            self.errors.append(f"{type(e).__name__}: {e}")
            raw.close()

    def wait_settled(self, timeout: float = 20, quiet: float = 1.0) -> bool:
        """Chromium is logged in and its connection has stayed up for `quiet` seconds (it may
        drop its first connection at once and open another)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.events and self.events[-1][1].startswith("login") and time.monotonic() - self.events[-1][0] > quiet:
                return True
            time.sleep(0.1)
        return False

    def deliver(self, token: str, body: bytes, ttl: int) -> None:
        """A push for the registration that got `token`, as FCM sends it down the connection."""
        reg = self.gcm.registrations[self.gcm.registration_of(token)]
        if self._conn is None:
            raise ConnectionError("Chromium is not connected to the fake MCS")
        self._sent += 1
        stanza = b"".join([
            _field(2, f"fake-msg-{self._sent}"),
            _field(3, reg["sender"]),
            _field(5, reg["app"]),
            _field(7, _field(1, "subtype") + _field(2, reg.get("X-subtype", ""))),
            _field(7, _field(1, "content-encoding") + _field(2, "aes128gcm")),
            _field(9, f"0:{int(time.time() * 1000)}%fake{self._sent}"),
            _field(17, ttl),
            _field(21, body),
        ])
        self._write(self._conn, TAG_DATA_MESSAGE, stanza)
        self.delivered.append(token)

    def stop(self) -> None:
        self._stopping = True
        self._listener.close()
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
