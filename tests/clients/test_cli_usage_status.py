"""A usage error of a `tablero` client verb (a missing token, an argument that is not what the
verb takes) exits 2 with one line on stderr, as argparse's own do, before any request; 1 is
left for what the server or the game refused (outside pass: these exited 1, so a script could
not tell "you called it wrong" from "the server said no")."""

from __future__ import annotations

import subprocess
import sys

import pytest

NOWHERE = "http://127.0.0.1:9"  # nothing listens: a usage error must be found before any request

USAGE = [
    (["act", "g1", "1"], "needs a seat token"),
    (["act", "g1", "{bad", "--token", "t"], "the action is not valid JSON"),
    (["act", "g1", "true", "--token", "t"], 'a JSON object with a "type"'),
    (["create", "tic-tac-toe", "--seats", "human,robot"], "--seats: unknown seat kind 'robot'"),
    (["--lang", "xx", "engines"], "--lang: no texts in 'xx'"),
    (["match", "tic-tac-toe"], "match needs your portal JWT"),
    (["match", "tic-tac-toe", "--grpc", "127.0.0.1:9", "--token", "t"], "match: over REST only"),
    (["play"], "play: give an engine"),
    (["play", "--game", "g1"], "--game needs the seat's --token"),
]


@pytest.mark.parametrize(("args", "said"), USAGE, ids=[" ".join(a) for a, _ in USAGE])
def test_a_usage_error_exits_2_with_one_line(args, said):
    r = subprocess.run([sys.executable, "-m", "tablero.server", "--url", NOWHERE, *args], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in r.stderr, r.stderr


def test_a_refusal_of_the_server_still_exits_1():
    """Not a usage error: the server cannot be reached (the verb was called right)."""
    r = subprocess.run([sys.executable, "-m", "tablero.server", "--url", NOWHERE, "act", "g1", "1", "--token", "t"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr, (r.returncode, r.stderr)


def test_plays_seat_counts_out_of_range_are_usage_errors_too():
    """`play`'s checks against the engine's seat counts (asked of a real server) exit 2 as well."""
    from tests.server.support import ServerProcess

    cases = [(["play", "tic-tac-toe", "--players", "5"], "tic-tac-toe"),
             (["play", "tic-tac-toe", "--seat", "3"], "0"),
             (["play", "tic-tac-toe", "--open", "4"], "0"),
             (["play", "tic-tac-toe", "--bot", "hard", "--open", "1", "--players", "2"], "hard")]
    with ServerProcess({"TABLERO_LOG_LEVEL": "warning"}) as s:
        for args, said in cases:
            r = subprocess.run([sys.executable, "-m", "tablero.server", "--url", s.http, *args], capture_output=True,
                               text=True, timeout=60)
            assert r.returncode == 2, (args, r.returncode, r.stderr)
            assert said in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
