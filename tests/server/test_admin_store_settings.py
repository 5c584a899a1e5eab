"""`tablero admin`'s store settings are checked as `tablero serve` checks them (outside acceptance
pass: a bad --redis-url gave a traceback and exit 1, which the operations guide documents as "no
such game or it changed"; a TLS option on redis:// was taken; a misspelt TABLERO_* name was not
named; `--db /tmp` was "no SQLite file")."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BAD_URLS = ["http://x", "redis://127.0.0.1:notaport/0", "redis+sentinel://h:1",
            "redis://127.0.0.1:6379/0?ssl_ca_certs=/x"]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
    return subprocess.run([sys.executable, "-m", "tablero.server", *args], capture_output=True, text=True,
                          timeout=60, env={**clean, **(env or {})})


def _one_line(r: subprocess.CompletedProcess) -> str:
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


@pytest.mark.parametrize("url", BAD_URLS)
@pytest.mark.parametrize("verb", [["export", "g1"], ["delete", "g1"], ["ratings", "rebuild"], ["webhooks", "stats"]])
def test_a_bad_redis_url_is_refused_in_one_line_with_exit_2_as_serve_does(url, verb):
    serve = _run("serve", "--redis-url", url, "--http-port", "0", "--grpc-port", "0", "--metrics-port", "0")
    assert serve.returncode == 2
    said = _one_line(serve).removeprefix("tablero serve: ")
    r = _run("admin", "--redis-url", url, *verb)
    assert r.returncode == 2 and _one_line(r).endswith(said), (r.stderr, said)
    r = _run("admin", *verb, env={"TABLERO_REDIS_URL": url})  # from the environment: the same
    assert r.returncode == 2 and _one_line(r).endswith(said), (r.stderr, said)


def test_a_bad_environment_url_is_refused_even_when_the_flag_gives_another():
    r = _run("admin", "--redis-url", "redis://127.0.0.1:1/0", "export", "g1", env={"TABLERO_REDIS_URL": "http://x"})
    assert r.returncode == 2 and "TABLERO_REDIS_URL='http://x'" in _one_line(r)


@pytest.mark.parametrize("verb", [["export", "g1"], ["webhooks", "stats"]])
def test_a_misspelt_environment_name_is_named_as_the_server_names_it(verb):
    r = _run("admin", *verb, env={"TABLERO_REDIS_URLS": "redis://127.0.0.1:6379/0"})
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "unknown TABLERO_* environment names (ignored; a typo?): TABLERO_REDIS_URLS" in r.stderr, r.stderr
    assert "no store configured" in r.stderr


@pytest.mark.parametrize("verb", [["export", "g1"], ["webhooks", "stats"]])
def test_db_naming_a_folder_says_it_is_a_folder(tmp_path, verb):
    r = _run("admin", "--db", str(tmp_path), *verb)
    assert r.returncode == 2 and f"{str(tmp_path)!r} is a folder" in _one_line(r), r.stderr


@pytest.mark.parametrize("verb", [["export", "g1"], ["webhooks", "stats"]])
def test_db_naming_a_file_that_is_no_sqlite_database_is_refused_as_serve_refuses_it(tmp_path, verb):
    """Was "the store is unreachable: sqlite: file is not a database" and exit 3 (the code for an
    outage), where `tablero serve` says it is a bad setting (exit 2)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    serve = _run("serve", "--db", str(notes), "--http-port", "0", "--grpc-port", "0", "--metrics-port", "0")
    assert serve.returncode == 2
    said = _one_line(serve).removeprefix("tablero serve: ")
    r = _run("admin", "--db", str(notes), *verb)
    assert r.returncode == 2 and _one_line(r).endswith(said), (r.stderr, said)
