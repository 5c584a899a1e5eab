"""`tablero match` at the terminal's edges: bad --options JSON is a one-line error (not a
traceback), and what it prints while it waits fits an 80-column terminal."""

from __future__ import annotations

import pytest

from server.__main__ import main
from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess


def test_bad_options_json_is_a_clear_error_not_a_traceback():
    with pytest.raises(SystemExit) as e:
        main(["match", "goofspiel", "--options", "{bad", "--token", "x", "--url", "http://127.0.0.1:9"])
    assert "--options" in str(e.value.code) and "JSON" in str(e.value.code)


def test_the_waiting_lines_fit_80_columns(capsys):
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        assert main(["match", "tic-tac-toe", "--url", s.http, "--bots-after", "1", "--no-play",
                     "--token", token("a-user-with-a-rather-long-portal-id", "Ann")]) == 0
    out = capsys.readouterr().out
    assert "Looking for a game of tic-tac-toe" in out and "Matched: game" in out
    assert max(len(line) for line in out.splitlines() if not line.startswith("{")) <= 80, out
