"""Every setting is checked at start-up; a bad value is refused with its variable's name."""

import contextlib
import io
import json
import subprocess
import sys
import typing

import pytest
from tablero.server.config import DEV_SECRET, Config, ConfigError

from tests.server.support import ROOT

BAD = {
    "TABLERO_STORE_LEAN": "maybe",
    "TABLERO_HOST": "",
    "TABLERO_GRPC_PORT": "70000",
    "TABLERO_HTTP_PORT": "abc",
    "TABLERO_METRICS_PORT": "70000",
    "TABLERO_REDIS_MIN_REPLICAS_ACK": "-1",
    "TABLERO_REDIS_REPLICAS_ACK_TIMEOUT": "0",
    "TABLERO_REDIS_URL": "http://localhost:6379",
    "TABLERO_DB": "/no/such/folder/tablero.db",
    "TABLERO_SECRET": "  ",
    "TABLERO_MAX_BODY": "10",
    "TABLERO_MAX_RANKINGS_BODY": "-1",
    "TABLERO_SNAPSHOT_EVERY": "0",
    "TABLERO_CACHE_SIZE": "0",
    "TABLERO_SHUTDOWN_GRACE": "nan",
    "TABLERO_LOG_LEVEL": "loud",
    "TABLERO_HEADER_TIMEOUT": "0",
    "TABLERO_BODY_TIMEOUT": "inf",
    "TABLERO_PORTAL_KEYS": '{"k1": "too short"}',
    "TABLERO_PORTAL_AUDIENCE": "tablero,,other",
    "TABLERO_PORTAL_ISSUER": " https://id.example/",
    "TABLERO_RATE_LIMIT": "fast",
    "TABLERO_CREATE_RATE_LIMIT": "0/s",
    "TABLERO_MAX_OPEN_GAMES_PER_USER": "-1",
    "TABLERO_ABANDON_AFTER": "soon",
    "TABLERO_PORTAL_MAX_TOKEN_LIFETIME": "-1",
    "TABLERO_REQUEST_DEADLINE": "-5",
    "TABLERO_WORKERS": "0",
    "TABLERO_REUSE_PORT": "maybe",
    "TABLERO_BOT_INLINE_STEPS": "-1",
    "TABLERO_BOT_STEPS_PER_WRITE": "0",
    "TABLERO_BOT_PROCESSES": "-1",
    "TABLERO_BOT_LEASE": "0",
    "TABLERO_BOT_NICE": "20",
    "TABLERO_BOT_IDLE": "sometimes",
    "TABLERO_STORE_WRITE_POOL_SIZE": "0",
    "TABLERO_STORE_READ_POOL_SIZE": "many",
    "TABLERO_STORE_POOL_TIMEOUT": "0",
    "TABLERO_STORE_SOCKET_TIMEOUT": "inf",
    "TABLERO_STORE_SOCKET_CONNECT_TIMEOUT": "-5",
    "TABLERO_STORE_HEALTH_CHECK_INTERVAL": "-1",
    "TABLERO_STORE_RETRIES": "-1",
    "TABLERO_STORE_RETRY_BACKOFF": "nan",
    "TABLERO_STORE_SWEEP_INTERVAL": "0",
    "TABLERO_STORE_OUTAGE_GRACE": "-1",
    "TABLERO_STORE_META_CACHE_SIZE": "-1",
    "TABLERO_STORE_POLL_INTERVAL": "0",
    "TABLERO_FINISHED_TTL": "0",
    "TABLERO_ABANDONED_TTL": "soon",
    "TABLERO_TRIM_ON_SNAPSHOT": "sometimes",
    "TABLERO_LEGAL_EXECUTOR": "process",
    "TABLERO_LEGAL_WORKERS": "0",
    "TABLERO_LEGAL_INLINE_BELOW": "-0.5",
    "TABLERO_TRUSTED_PROXIES": "10.0.0.1,the-ingress",
    "TABLERO_WEBHOOKS": '[{"url": "ftp://portal.example/hooks", "secret": "whsec_x"}]',
    "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "perhaps",
    "TABLERO_WEBHOOKS_RETRY_FOR": "0",
    "TABLERO_WEBHOOKS_BACKOFF": "-1",
    "TABLERO_WEBHOOKS_BACKOFF_MAX": "nan",
    "TABLERO_WEBHOOKS_TIMEOUT": "0",
    "TABLERO_WEBHOOKS_CONCURRENCY": "0",
    "TABLERO_VAPID_PRIVATE_KEY": "not-a-key",
    "TABLERO_VAPID_SUBJECT": "the operator",
    "TABLERO_NOTIFY_WORKER": "thread",
    "TABLERO_NOTIFY_SWEEP": "0",
}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in BAD:
        monkeypatch.delenv(name, raising=False)


def test_every_setting_has_a_bad_value_case():
    assert {f"TABLERO_{name.upper()}" for name in Config.model_fields} == set(BAD)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_is_refused_with_its_name(monkeypatch, name):
    monkeypatch.setenv(name, BAD[name])
    with pytest.raises(ConfigError) as e:
        Config.load()
    assert f"{name}=" in str(e.value), str(e.value)


def test_all_bad_values_are_named_at_once(monkeypatch):
    monkeypatch.setenv("TABLERO_SNAPSHOT_EVERY", "0")
    monkeypatch.setenv("TABLERO_HTTP_PORT", "abc")
    msg = str(pytest.raises(ConfigError, Config.load).value)
    assert "TABLERO_SNAPSHOT_EVERY='0'" in msg and "TABLERO_HTTP_PORT='abc'" in msg


def test_key_material_is_never_echoed(monkeypatch):
    monkeypatch.setenv("TABLERO_SECRET", "k1:aaaaaaaaaaaaaaaaaaaa,k1:bbbbbbbbbbbbbbbbbbbbbbb")
    monkeypatch.setenv("TABLERO_PORTAL_KEYS", '{"k1": "short-secret"}')
    msg = str(pytest.raises(ConfigError, Config.load).value)
    assert "TABLERO_SECRET=<hidden>: TABLERO_SECRET: key id 'k1' is listed twice" in msg
    assert "TABLERO_PORTAL_KEYS=<hidden>" in msg and "at least 32 bytes" in msg
    assert "aaaa" not in msg and "short-secret" not in msg


def test_the_development_secret_binds_localhost_unless_told(monkeypatch):
    assert Config.load().bind_host == "127.0.0.1"
    assert Config.load(host="0.0.0.0").bind_host == "0.0.0.0"
    monkeypatch.setenv("TABLERO_SECRET", "k2:" + "s" * 32)
    assert Config.load().bind_host == "0.0.0.0"


def test_good_values_and_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLERO_SNAPSHOT_EVERY", "7")
    monkeypatch.setenv("TABLERO_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("TABLERO_REDIS_URL", "")
    monkeypatch.setenv("TABLERO_DB", str(tmp_path / "games.db"))
    c = Config.load(http_port=0)
    assert (c.snapshot_every, c.log_level, c.redis_url, c.http_port, c.secret) == (7, "warning", None, 0, DEV_SECRET)
    assert c.db == str(tmp_path / "games.db") and c.grpc_port == 50051


def test_flags_override_the_environment_and_are_checked_too(monkeypatch):
    monkeypatch.setenv("TABLERO_GRPC_PORT", "6000")
    assert Config.load(grpc_port=7000).grpc_port == 7000
    with pytest.raises(ConfigError, match="TABLERO_GRPC_PORT=-5"):
        Config.load(grpc_port=-5)


def test_a_bad_environment_value_is_refused_even_when_a_flag_overrides_it(monkeypatch):
    """(outside acceptance pass: `TABLERO_HTTP_PORT=abc tablero serve --http-port 19110` started
    silently; the guide says every value is checked at start-up, with that very example)"""
    monkeypatch.setenv("TABLERO_HTTP_PORT", "abc")
    monkeypatch.setenv("TABLERO_log_level", "loud")  # (names are case-insensitive, as the settings read them)
    msg = str(pytest.raises(ConfigError, Config.load, http_port=19110, log_level="info").value)
    assert "TABLERO_HTTP_PORT='abc'" in msg and "--http-port" in msg, msg
    assert "TABLERO_LOG_LEVEL='loud'" in msg and "--log-level" in msg, msg
    monkeypatch.setenv("TABLERO_HTTP_PORT", "")  # empty: a bad port all the same, as without the flag
    assert "TABLERO_HTTP_PORT=''" in str(pytest.raises(ConfigError, Config.load, http_port=19110).value)
    monkeypatch.delenv("TABLERO_HTTP_PORT")
    monkeypatch.delenv("TABLERO_log_level")
    monkeypatch.setenv("TABLERO_REDIS_URL", "")  # empty is unset, with or without a flag
    assert Config.load(http_port=19110, redis_url="redis://127.0.0.1:6379/0").http_port == 19110


def test_tablero_serve_stops_on_a_bad_environment_value_a_flag_overrides():
    env = {"PATH": "/usr/bin:/bin", "TABLERO_HTTP_PORT": "abc"}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port",
                        "0", "--metrics-port", "0"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=20)
    assert r.returncode == 2 and "TABLERO_HTTP_PORT='abc'" in r.stderr, r.stderr


def test_tablero_serve_stops_at_once_naming_the_bad_setting():
    env = {"PATH": "/usr/bin:/bin", "TABLERO_HTTP_PORT": "abc", "TABLERO_SNAPSHOT_EVERY": "0"}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2
    assert "TABLERO_HTTP_PORT='abc'" in r.stderr and "TABLERO_SNAPSHOT_EVERY='0'" in r.stderr, r.stderr


def test_slow_client_timeouts(monkeypatch):
    assert (Config.load().header_timeout, Config.load().body_timeout) == (10.0, 30.0)
    monkeypatch.setenv("TABLERO_HEADER_TIMEOUT", "2.5")
    monkeypatch.setenv("TABLERO_BODY_TIMEOUT", "4")
    c = Config.load()
    assert (c.header_timeout, c.body_timeout) == (2.5, 4.0)
    monkeypatch.setenv("TABLERO_BODY_TIMEOUT", "-1")
    assert "TABLERO_BODY_TIMEOUT='-1'" in str(pytest.raises(ConfigError, Config.load).value)
    monkeypatch.setenv("TABLERO_BODY_TIMEOUT", "7200")
    assert "TABLERO_BODY_TIMEOUT='7200'" in str(pytest.raises(ConfigError, Config.load).value)


def test_cluster_seed_nodes_are_checked(monkeypatch):
    monkeypatch.setenv("TABLERO_REDIS_URL", "redis+cluster://a:7000,b:7001,c:7002")
    assert Config.load().redis_url == "redis+cluster://a:7000,b:7001,c:7002"
    monkeypatch.setenv("TABLERO_REDIS_URL", "redis+cluster://a:7000,b:many")
    with pytest.raises(ConfigError, match="TABLERO_REDIS_URL=.*bad cluster node 'b:many'"):
        Config.load()


@pytest.mark.parametrize(("url", "said"), [("redis://127.0.0.1:notaport/0", "'127.0.0.1:notaport' is not a number"),
                                           ("redis://127.0.0.1:6379/abc", "must be a number"),
                                           ("rediss://u:secretpw@h:99999/0", "'rediss://u:***@h:99999/0'"),
                                           ("redis://127.0.0.1:0/0", "from 1 to 65535"),
                                           ("redis+cluster://:secretpw@localhost:7000/3", "only database 0"),
                                           ("redis+cluster://:secretpw@localhost:99999", "out of range")])
def test_a_redis_url_with_a_bad_port_or_database_is_refused(monkeypatch, url, said):
    """An outside pass started with a port that is no number (a traceback) and with a database
    that is none (db 0, silently)."""
    monkeypatch.setenv("TABLERO_REDIS_URL", url)
    with pytest.raises(ConfigError, match="TABLERO_REDIS_URL=") as e:
        Config.load()
    assert said in str(e.value) and "secretpw" not in str(e.value)  # (a URL's password is not echoed)
    monkeypatch.setenv("TABLERO_REDIS_URL", "redis://127.0.0.1:6379/3")
    assert Config.load().redis_url.endswith("/3")


def test_replica_acknowledgement_on_a_cluster_is_refused_at_start(monkeypatch):
    """The store refused it with a traceback after start-up (with --workers, a crash loop)."""
    monkeypatch.setenv("TABLERO_REDIS_URL", "redis+cluster://127.0.0.1:7000")
    monkeypatch.setenv("TABLERO_REDIS_MIN_REPLICAS_ACK", "1")
    with pytest.raises(ConfigError, match="TABLERO_REDIS_MIN_REPLICAS_ACK=1 is not supported on Redis Cluster"):
        Config.load()


def test_a_webhook_backoff_cap_below_its_first_delay_is_refused(monkeypatch):
    """An operator's pass: TABLERO_WEBHOOKS_BACKOFF_MAX below TABLERO_WEBHOOKS_BACKOFF was taken
    without a word (every retry then waited the cap, never growing)."""
    monkeypatch.setenv("TABLERO_WEBHOOKS_BACKOFF", "30")
    monkeypatch.setenv("TABLERO_WEBHOOKS_BACKOFF_MAX", "10")
    with pytest.raises(ConfigError, match="TABLERO_WEBHOOKS_BACKOFF_MAX=10 is below TABLERO_WEBHOOKS_BACKOFF=30"):
        Config.load()
    monkeypatch.setenv("TABLERO_WEBHOOKS_BACKOFF_MAX", "30")
    assert Config.load().webhooks_backoff_max == 30


@pytest.mark.parametrize("ports", [("18280", "18251", "18280"), ("18281", "18281", "18282")])
def test_tablero_serve_refuses_two_of_its_own_ports_equal_in_one_line(ports):
    http, grpc, metrics = ports
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", http, "--grpc-port", grpc,
                        "--metrics-port", metrics], cwd=ROOT, env={"PATH": "/usr/bin:/bin"}, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "must differ" in r.stderr, r.stderr
    clash = "TABLERO_HTTP_PORT (--http-port) and TABLERO_METRICS_PORT (--metrics-port) are both 18280" \
        if metrics == http else "TABLERO_HTTP_PORT (--http-port) and TABLERO_GRPC_PORT (--grpc-port) are both 18281"
    assert clash in r.stderr, r.stderr



def test_a_webhook_endpoint_with_a_misspelt_field_stops_tablero_serve():
    """`"event": [...]` (for "events") was ignored: the endpoint then got every kind of event, and a
    misspelt "id" silently renamed its queue. Every setting is checked at start-up (README)."""
    hook = {"url": "https://portal.example/hooks", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "event": ["turn.started"]}
    env = {"PATH": "/usr/bin:/bin", "TABLERO_WEBHOOKS": json.dumps([hook])}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "TABLERO_WEBHOOKS" in r.stderr and "unknown field(s) 'event'" in r.stderr, r.stderr


@pytest.mark.parametrize("kind", ["folder", "text file"])
def test_a_db_that_is_no_sqlite_file_stops_tablero_serve_naming_it(tmp_path, kind):
    """TABLERO_DB naming a folder, or a file that is no SQLite database (a typo'd path to a
    config file), stopped `tablero serve` with sqlite3's traceback (exit 1) after start-up."""
    db = tmp_path / "games"
    if kind == "folder":
        db.mkdir()
    else:
        db.write_text("not a database\n")
    env = {"PATH": "/usr/bin:/bin", "TABLERO_DB": str(db)}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port", "0",
                        "--metrics-port", "0"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"TABLERO_DB={str(db)!r}: " in r.stderr, r.stderr


def test_a_db_file_the_server_made_or_an_empty_one_is_accepted(monkeypatch, tmp_path):
    import sqlite3

    made = tmp_path / "made.db"
    sqlite3.connect(made).execute("create table t (x)").connection.close()
    empty = tmp_path / "empty.db"
    empty.touch()
    for db in (made, empty, tmp_path / "new.db"):
        monkeypatch.setenv("TABLERO_DB", str(db))
        assert Config.load().db == str(db)


@pytest.mark.parametrize("host", ["999.1.1.1", "no-such-host.invalid", "192.0.2.1"])
def test_a_host_that_is_no_address_of_this_machine_is_named_as_a_bad_setting(host):
    """TABLERO_HOST naming no address of this machine stopped `tablero serve` with exit 1 and
    "another server may hold it: choose another with --http-port": the port was blamed."""
    env = {"PATH": "/usr/bin:/bin", "TABLERO_HOST": host}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port", "0",
                        "--metrics-port", "0"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"TABLERO_HOST={host!r} (--host): cannot listen there" in r.stderr and "--http-port" not in r.stderr, r.stderr


@pytest.mark.parametrize("secret", ["", " ", "\t\n"])
def test_an_empty_or_blank_secret_is_refused_not_taken_for_unset(monkeypatch, secret):
    """An empty TABLERO_SECRET (an empty key of a Secret) was the development secret, served on
    every interface with TABLERO_HOST=0.0.0.0: tokens anyone could forge."""
    monkeypatch.setenv("TABLERO_SECRET", secret)
    msg = str(pytest.raises(ConfigError, Config.load).value)
    assert "TABLERO_SECRET=<hidden>: must not be empty or blank" in msg, msg


def test_tablero_serve_refuses_an_empty_secret_naming_it():
    env = {"PATH": "/usr/bin:/bin", "TABLERO_SECRET": "", "TABLERO_HOST": "0.0.0.0"}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "TABLERO_SECRET" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_unknown_tablero_names_are_found_and_the_others_parts_names_are_not():
    from tablero.server.config import unknown_names

    env = {"TABLERO_SNAPSHOT_EVRY": "5", "TABLERO_SNAPSHOT_EVERY": "5", "TABLERO_URL": "http://x",
           "TABLERO_WORKER": "0", "tablero_secrte": "x", "PATH": "/bin", "TABLEROX": "1"}
    assert unknown_names(env) == ["TABLERO_SNAPSHOT_EVRY", "tablero_secrte"]


def test_every_tablero_name_the_repository_uses_is_known():
    """Names read by other parts (clients, tests, manifests, the bot worker, workers) must not be
    flagged: every TABLERO_* name written anywhere in the repository is a setting or one of
    config.OTHER_NAMES (a new one is added there), but for the typos these tests and the docs give."""
    from tablero.server.config import unknown_names

    out = subprocess.run(["git", "grep", "-hoIE", r"\bTABLERO_[A-Z0-9_]*[A-Z0-9]\b", "--", ".",
                          ":!*.lock", ":!*package-lock.json"], cwd=ROOT, capture_output=True, text=True, check=True)
    names = set(out.stdout.split())
    assert "TABLERO_REDIS_URL" in names and "TABLERO_URL" in names
    assert set(unknown_names(dict.fromkeys(names, ""))) <= {"TABLERO_SNAPSHOT_EVRY", "TABLERO_CACHE_SIZ", "TABLERO_REDIS_URLS"}


def test_tablero_serve_warns_once_about_unknown_names():
    from tests.server.support import ServerProcess

    server = ServerProcess({"TABLERO_SNAPSHOT_EVRY": "5", "TABLERO_CACHE_SIZ": "9"}).start()
    _, err = server.terminate()
    said = [json.loads(line) for line in err.splitlines() if "unknown TABLERO_" in line]
    assert len(said) == 1 and said[0]["level"] == "warning", err
    assert said[0]["unknown"] == ["TABLERO_CACHE_SIZ", "TABLERO_SNAPSHOT_EVRY"]
    server = ServerProcess().start()
    _, err = server.terminate()
    assert "unknown TABLERO_" not in err, err


@pytest.mark.parametrize("verb", ["serve", "bots"])
def test_log_level_help_names_every_level_the_config_accepts(verb):
    # `tablero serve --help` said "debug, info, warning" while error and critical are accepted too.
    from tablero.server.__main__ import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([verb, "--help"])
    helptext = " ".join(out.getvalue().split())
    line = helptext[helptext.index("--log-level LOG_LEVEL"):]
    line = line[:line.index("TABLERO_LOG_LEVEL")]
    levels = typing.get_args(Config.model_fields["log_level"].annotation)
    assert [lv for lv in levels if lv not in line] == []


@pytest.mark.parametrize("host", [None, "127.0.0.1"])
def test_the_start_log_says_where_the_server_listens(host):
    """Without TABLERO_SECRET the server binds 127.0.0.1 only, which the log did not say: `docker run
    -p 8080:8080` of the image without a secret answered nothing from outside and nothing told why.
    The development-secret warning names the loopback-only bind (unless --host was given), and the
    "serving" line names the host."""
    env = {"PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port", "0",
            "--metrics-port", "0", *(["--host", host] if host else [])]
    p = subprocess.Popen(argv, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in p.stderr:
            lines.append(json.loads(line))
            if lines[-1]["msg"] == "serving":
                break
    finally:
        p.terminate()
        p.communicate(timeout=60)
    warning = next(r["msg"] for r in lines if "development secret" in r["msg"])
    assert ("listens on 127.0.0.1 only" in warning) == (host is None), warning
    assert lines[-1]["msg"] == "serving" and lines[-1]["host"] == "127.0.0.1", lines[-1]


def test_a_sqlite_file_that_cannot_be_created_is_a_one_line_error():
    """TABLERO_DB in a folder the server may not write (here /proc, refused even to root; in a
    container, the read-only root filesystem) ended the start-up in sqlite3's traceback."""
    env = {"PATH": "/usr/bin:/bin", "TABLERO_DB": "/proc/tablero-no-such.db"}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port", "0",
                        "--metrics-port", "0"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "TABLERO_DB='/proc/tablero-no-such.db' (--db): cannot open or create the SQLite file" in r.stderr, r.stderr


def test_an_ipv6_host_serves_grpc_and_http():
    """TABLERO_HOST=:: (or ::1) ended the start-up in grpc's "Failed to bind to address :::50051"
    traceback: the gRPC address needs the IPv6 address in brackets (HTTP and metrics bound it)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from tests import plainhttp

    env = {"PATH": "/usr/bin:/bin", "TABLERO_HOST": "::1"}
    p = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--http-port", "0", "--grpc-port", "0",
                          "--metrics-port", "0"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in p.stderr:
            lines.append(line)
            if '"serving"' in line:
                break
        serving = json.loads(lines[-1])
        assert serving["msg"] == "serving", "".join(lines)
        with grpc.insecure_channel(f"[::1]:{serving['grpc_port']}") as ch:
            status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=30).status
        assert status == health_pb2.HealthCheckResponse.SERVING
        assert plainhttp.get(f"http://[::1]:{serving['http_port']}/healthz").status_code == 200
    finally:
        p.terminate()
        p.communicate(timeout=60)


def test_tls_options_on_a_plaintext_redis_url_are_refused(monkeypatch):
    """Outside operator pass: `redis://…?ssl_ca_certs=…` (TLS options, the scheme without its s) was
    taken; the server started, created games over its lean connections, and every other Redis
    client (readiness, lobby, clocks, bot queue) failed with "AbstractConnection.__init__() got an
    unexpected keyword argument 'ssl_ca_certs'": the pods never became ready. Refused at start."""
    monkeypatch.setenv("TABLERO_REDIS_URL", "redis://:secretpw@127.0.0.1:6379/0?ssl_ca_certs=/etc/ca.crt")
    with pytest.raises(ConfigError, match="TABLERO_REDIS_URL=") as e:
        Config.load()
    assert "ssl_ca_certs" in str(e.value) and "rediss://" in str(e.value) and "secretpw" not in str(e.value)
    monkeypatch.setenv("TABLERO_REDIS_URL", "rediss://:secretpw@127.0.0.1:6379/0?ssl_ca_certs=/etc/ca.crt")
    assert Config.load().redis_url.startswith("rediss://")


@pytest.mark.parametrize("url", ["rediss://127.0.0.1:6379/0?ssl_ca_cert=/etc/ca.crt",
                                 "redis://127.0.0.1:6379/0?sockettimeout=3"])
def test_an_unknown_redis_url_option_is_refused(monkeypatch, url):
    """A typo in a URL option (ssl_ca_cert for ssl_ca_certs) was taken, with the same half-working
    server as TLS options on redis://."""
    monkeypatch.setenv("TABLERO_REDIS_URL", url)
    with pytest.raises(ConfigError, match="unknown option"):
        Config.load()
    monkeypatch.setenv("TABLERO_REDIS_URL", "redis://127.0.0.1:6379/0?socket_keepalive=true&health_check_interval=3")
    assert Config.load().redis_url
