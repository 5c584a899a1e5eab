"""`tablero loadtest` against a real server: complete legal games, a report, bounded, loopback only."""

from __future__ import annotations

import json
import os

import pytest
from tablero_client.loadtest import loopback_only, pct

from tests.clients.conftest import cli


@pytest.mark.parametrize("http_client", ["lean", "httpx"])
def test_rest_report(server, tmp_path, http_client):
    out = tmp_path / "report.json"
    p = cli("--url", server.http, "loadtest", "-c", "3", "-d", "2", "--json-out", str(out), "--no-progress",
            "--http-client", http_client)
    rep = json.loads(out.read_text())
    assert rep["transport"] == "rest" and rep["concurrency"] == 3 and rep["http_client"] == http_client
    assert rep["games_finished"] > 0 and rep["games_finished"] + rep["games_abandoned"] == rep["games_started"]
    assert rep["actions"] >= 5 * rep["games_finished"]  # a Tic-Tac-Toe game takes at least 5 moves
    sub = rep["calls"]["SubmitAction"]
    assert sub["count"] == rep["actions"] and 0 < sub["p50_ms"] <= sub["p95_ms"] <= sub["p99_ms"] <= sub["max_ms"]
    assert rep["calls"]["CreateGame"]["count"] == rep["games_started"]
    assert rep["errors"] == {} and rep["conflicts"] == 0 and rep["retries"] == 0
    assert rep["notify"] is None  # no watches asked for
    # The printed report says the same.
    assert "games finished" in p.stdout and "SubmitAction" in p.stdout and "version conflicts: 0" in p.stdout


def test_rest_with_watches(server):
    p = cli("--url", server.http, "loadtest", "-c", "3", "-n", "6", "-d", "20", "--watch", "--json", "--no-progress",
            timeout=120)
    rep = json.loads(p.stdout)
    assert rep["games_finished"] == 6 and rep["errors"] == {}
    assert rep["notify"]["count"] == rep["actions"] and rep["notify"]["p50_ms"] > 0


def test_grpc_with_watches_and_legal_actions(server):
    p = cli("--grpc", server.grpc, "loadtest", "-c", "2", "-n", "4", "-d", "20", "--watch",
            "--engines", "tic-tac-toe,goofspiel", "--json", "--no-progress", timeout=120)
    rep = json.loads(p.stdout)
    assert rep["games_started"] == 4 and rep["games_finished"] == 4, rep
    assert rep["engines"] == ["tic-tac-toe", "goofspiel"]
    # Every move was seen by the other seat's live watch.
    assert rep["notify"]["count"] == rep["actions"] and rep["calls"]["WatchOpen"]["count"] == 4
    assert rep["calls"]["ListLegalActions"]["count"] > 0  # goofspiel moves come from ListLegalActions
    assert rep["errors"] == {}


def test_compare_runs_both_transports_alternately_and_gives_grpcs_ratios(server, tmp_path):
    out = tmp_path / "compare.json"
    p = cli("--url", server.http, "--grpc", server.grpc, "loadtest", "--compare", "--rounds", "2", "-c", "2",
            "-d", "1", "--no-progress", "--json-out", str(out), timeout=120)
    rep = json.loads(out.read_text())
    assert [r["transport"] for r in rep["reports"]] == ["rest", "grpc", "rest", "grpc"]
    assert all(r["games_finished"] > 0 and r["errors"] == {} for r in rep["reports"])
    cmp = rep["compare"]
    assert cmp["rest"]["rounds"] == cmp["grpc"]["rounds"] == 2
    rates = sorted(r["actions_per_s"] for r in rep["reports"] if r["transport"] == "grpc")
    assert cmp["grpc"]["actions_per_s"] == rates[1]  # the median of two: the higher
    assert cmp["ratio"]["actions_per_s"] == round(cmp["grpc"]["actions_per_s"] / cmp["rest"]["actions_per_s"], 2)
    assert "grpc / rest" in p.stdout and "SubmitAction p99 ms" in p.stdout
    # Off this machine it refuses, as a single run does.
    p = cli("--url", server.http, "--grpc", "192.0.2.7:50051", "loadtest", "--compare", "-d", "1", check=False)
    assert p.returncode == 2 and "--i-mean-it" in p.stderr


def test_refuses_a_target_off_this_machine(server):
    p = cli("--url", "http://192.0.2.7:8080", "loadtest", "-d", "1", check=False)
    assert p.returncode == 2 and "--i-mean-it" in p.stderr
    p = cli("--grpc", "192.0.2.7:50051", "loadtest", "-d", "1", check=False)
    assert p.returncode == 2
    assert loopback_only("127.0.0.1") and loopback_only("localhost") and loopback_only("::1")
    assert not loopback_only("192.0.2.7") and not loopback_only("no-such-host.invalid")


def test_unknown_engine_and_bad_bounds(server):
    p = cli("--url", server.http, "loadtest", "--engines", "chess", "-d", "1", check=False)
    assert p.returncode == 2 and "no engine 'chess'" in p.stderr
    p = cli("--url", server.http, "loadtest", "-c", "0", check=False)
    assert p.returncode == 2 and "--concurrency" in p.stderr


def test_percentiles_match_loadgen():
    xs = [float(i) for i in range(1, 101)]
    # loadgen.js: sorted[round(p/100 * (n-1))]
    assert (pct(xs, 50), pct(xs, 99), pct(xs, 100)) == (51.0, 99.0, 100.0)
    assert pct([], 50) is None


def test_no_engine_named_is_a_one_line_error(server):
    """An outside tester's finding: `--engines ''` (or ',') printed a ZeroDivisionError traceback from
    each worker and then an empty report, with exit status 0."""
    for engines in ("", ",", " , "):
        p = cli("--url", server.http, "loadtest", "-c", "1", "-n", "1", "-d", "1", "--no-progress",
                "--engines", engines, check=False)
        assert p.returncode != 0 and "Traceback" not in p.stderr and "--engines" in p.stderr, (engines, p.stderr)


def _loadtest(server, *args: str):
    return cli("--url", server.http, "loadtest", "-c", "1", "-d", "1", "--no-progress", *args, check=False)


def test_a_player_count_the_engine_does_not_take_is_refused_before_any_load(server, tmp_path):
    """(outside acceptance pass: it sent failing creates for the whole run and exited 0)"""
    for engines, players, said in (("tic-tac-toe", "7", "Tic-Tac-Toe takes 2 players"),
                                   ("riverboat", "1", "takes 2 to 4 players")):
        p = _loadtest(server, "--engines", engines, "--players", players)
        assert p.returncode == 2 and said in p.stderr and "Traceback" not in p.stderr, p.stderr
    p = _loadtest(server, "--json-out", str(tmp_path / "nope" / "x.json"))
    assert p.returncode == 2 and "does not exist" in p.stderr and "Traceback" not in p.stderr
    p = _loadtest(server, "--rounds", "3")
    assert p.returncode == 2 and "--compare" in p.stderr
    p = _loadtest(server, "-c", "0")
    assert p.returncode == 2 and "--concurrency must be 1 or more, not 0" in p.stderr


def test_a_run_with_errors_exits_1_unless_max_errors_allows_them(tmp_path):
    """(outside SRE pass: a run that printed `errors: UNAVAILABLE 66 ... abandoned 4` exited 0, so
    a CI step or a script took it for a good run)"""
    from tests.server.support import ServerProcess

    out = tmp_path / "report.json"
    # game creations rate-limited: most CreateGame calls fail (RESOURCE_EXHAUSTED), some games finish
    # (at --log-level warning: the server's stderr is a pipe read only at its end, which a line per
    # refused call would fill)
    with ServerProcess({"TABLERO_CREATE_RATE_LIMIT": "2/s,2", "TABLERO_LOG_LEVEL": "warning"}) as server:
        p = cli("--url", server.http, "loadtest", "-c", "2", "-d", "1", "--no-progress", "--json-out", str(out),
                check=False)
        rep = json.loads(out.read_text())
        assert rep["games_finished"] > 0 and rep["errors"].get("RESOURCE_EXHAUSTED", 0) > 0, rep
        assert p.returncode == 1 and "more than --max-errors 0" in p.stderr, p.stderr
        p = cli("--url", server.http, "loadtest", "-c", "2", "-d", "1", "--no-progress", "--max-errors", "100000",
                check=False)
        assert p.returncode == 0, p.stderr
    assert "--max-errors" in cli("loadtest", "--help").stdout
    p = cli("--url", "http://127.0.0.1:9", "loadtest", "--max-errors", "-1", check=False)
    assert p.returncode == 2 and "--max-errors must be 0 or more, not -1" in p.stderr


def test_the_verdict_counts_failed_calls_and_abandoned_games():
    from tablero_client.loadtest import verdict

    good = {"errors": {}, "games_finished": 5, "games_abandoned": 0}
    failing = {"errors": {"UNAVAILABLE": 66}, "games_finished": 5, "games_abandoned": 4}
    assert verdict([good], 0) == 0 and verdict([good, good], 0) == 0
    assert verdict([failing], 0) == 1 and verdict([good, failing], 69) == 1 and verdict([failing], 70) == 0
    assert verdict([{"errors": {"INTERNAL": 1}, "games_finished": 0, "games_abandoned": 0}], 1000) == 1


def test_json_out_a_folder_or_an_unwritable_file_is_refused_before_the_run(tmp_path):
    """(outside acceptance pass: `--json-out /tmp` ran the whole load, then lost the report in an
    IsADirectoryError traceback, exit 1.) No server is needed: the path is refused before any call."""
    p = cli("--url", "http://127.0.0.1:9", "loadtest", "-d", "1", "--no-progress", "--json-out", str(tmp_path),
            check=False, timeout=20)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert f"--json-out {str(tmp_path)!r} is a folder" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    if os.geteuid() == 0:  # root writes any folder's files, but /sys takes no new file, even from root
        target = "/sys/loadtest-report.json"
    else:
        (tmp_path / "ro").mkdir(mode=0o555)
        target = str(tmp_path / "ro" / "report.json")
    p = cli("--url", "http://127.0.0.1:9", "loadtest", "-d", "1", "--no-progress", "--json-out", target,
            check=False, timeout=20)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert f"--json-out: cannot write {target!r}" in p.stderr and not os.path.exists(target)


def test_a_report_that_cannot_be_written_at_the_end_is_printed_all_the_same(server):
    """/dev/full opens, so it passes the check before the run; writing it fails at the end: the
    report and its JSON are printed, stderr says the file was not written, exit 1 (was: a traceback,
    the report lost)."""
    p = _loadtest(server, "-n", "2", "--json-out", "/dev/full")
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert "could not be written to '/dev/full'" in p.stderr and "games finished" in p.stdout
    rep = json.loads(p.stdout[p.stdout.index("\n{") + 1:])
    assert rep["games_finished"] == 2 and rep["errors"] == {}
    p = _loadtest(server, "-n", "2", "--json", "--json-out", "/dev/full")
    assert p.returncode == 1 and json.loads(p.stdout)["games_finished"] == 2


def test_games_must_be_1_or_more():
    """(outside acceptance pass: `-n 0` ran with no cap, as if -n were absent)"""
    p = cli("--url", "http://127.0.0.1:9", "loadtest", "-n", "0", "--no-progress", check=False, timeout=20)
    assert p.returncode == 2 and "--games must be 1 or more, not 0" in p.stderr, p.stderr


def test_every_usage_error_exits_2_as_argparse_does(tmp_path):
    """(outside acceptance pass: the verb's own checks exited 1, as a failed run does; argparse's 2)"""
    for args in (["-c", "0"], ["-d", "0"], ["--grace", "-1"], ["--players", "0"], ["--rounds", "2"],
                 ["--engines", ","], ["--json-out", str(tmp_path / "no" / "r.json")], ["-c", "x"]):
        p = cli("--url", "http://127.0.0.1:9", "loadtest", "--no-progress", *args, check=False, timeout=20)
        assert p.returncode == 2 and "Traceback" not in p.stderr, (args, p.returncode, p.stderr)
