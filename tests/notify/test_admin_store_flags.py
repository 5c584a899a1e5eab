"""`tablero admin webhooks` takes `--redis-url` / `--db` after the verb too, as an operator
types it (`tablero admin webhooks dead-letters --db tablero.db`), not only before it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time

import pytest
from tablero.server.notify.webhooks import parse_endpoints

from tests import plainhttp
from tests.notify.receiver import Receiver, endpoints_json, secret
from tests.redis_server import RedisServer
from tests.server.support import ServerThread, scrape


def _admin(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablero.server", "admin", "webhooks", *args],
                          capture_output=True, text=True, timeout=60)


def test_store_flags_after_the_verb(tmp_path) -> None:
    db = str(tmp_path / "t.db")
    (tmp_path / "t.db").touch()  # the servers' file (one that does not exist is refused: below)
    before = _admin("--db", db, "dead-letters")
    assert before.returncode == 0, before.stderr
    for verb in (["dead-letters"], ["dead-letters", "--json"], ["stats"]):
        r = _admin(*verb, "--db", db)
        assert r.returncode == 0, (verb, r.stderr)
    r = _admin("replay", "--all", "--db", db)
    assert r.returncode == 1 and "unrecognized" not in r.stderr, r.stderr  # nothing to replay: 1


def test_admin_help_lists_webhooks_and_store_flags_before_it_reach_it(tmp_path) -> None:
    r = subprocess.run([sys.executable, "-m", "tablero.server", "admin", "-h"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "{export,archive,delete,ratings,webhooks}" in r.stdout, r.stdout
    assert "dead-letters, replay, stats" in r.stdout
    db = str(tmp_path / "t.db")
    (tmp_path / "t.db").touch()
    r = subprocess.run([sys.executable, "-m", "tablero.server", "admin", "--db", db, "webhooks", "stats"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "push" in r.stdout and "inbox" in r.stdout, r.stderr


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_stats_lists_every_queued_target_without_tablero_webhooks(tmp_path, store) -> None:
    """An operator's shell has the store but not the servers' TABLERO_WEBHOOKS: the endpoints
    with deliveries queued are listed all the same (their ids are in the store)."""
    with contextlib.ExitStack() as stack:
        rec = stack.enter_context(Receiver(secret(), fail_rate=1.0))  # every delivery fails: they stay queued
        if store == "redis":
            redis = stack.enter_context(RedisServer())
            where, flags = {"redis_url": redis.url}, ["--redis-url", redis.url]
        else:
            db = str(tmp_path / "t.db")
            where, flags = {"db": db}, ["--db", db]
        srv = stack.enter_context(ServerThread(**where, webhooks=endpoints_json((rec.url, secret())),
                                               webhooks_allow_private=True, webhooks_retry_for=600.0))
        [endpoint] = parse_endpoints(srv.config.webhooks)
        plainhttp.post(f"{srv.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}, timeout=10)
        want = f'tablero_notify_queue_depth{{target="{endpoint.id}"}}'
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(
                line.startswith(want) and float(line.split()[-1]) > 0 for line in scrape(srv.http).splitlines()):
            time.sleep(0.2)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
        r = subprocess.run([sys.executable, "-m", "tablero.server", "admin", "webhooks", "stats", *flags],
                           capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: int(line.split()[1]) for line in r.stdout.splitlines()}
    assert {"push", "inbox", endpoint.id} <= set(rows) and rows[endpoint.id] > 0, r.stdout


def test_a_db_file_that_does_not_exist_or_is_no_database_is_said_in_one_line(tmp_path) -> None:
    """As the other admin verbs: a --db file that does not exist is refused (exit 2; the webhooks
    verbs made an empty database there and reported nothing queued), and a file that is no SQLite
    database is a bad setting said in one line (exit 2, as `tablero serve` says it; it was sqlite3's
    traceback, exit 1, then "the store is unreachable", exit 3)."""
    missing = tmp_path / "typo.db"
    r = _admin("stats", "--db", str(missing))
    assert r.returncode == 2 and f"no SQLite file {str(missing)!r}" in r.stderr, r.stderr
    assert not missing.exists()
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    r = _admin("dead-letters", "--db", str(text))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "is not a SQLite database" in r.stderr and r.stderr.count("\n") == 1, r.stderr
