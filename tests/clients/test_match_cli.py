"""`tablero match` at the terminal's edges: bad --options JSON is a one-line error (not a
traceback), and what it prints while it waits fits an 80-column terminal."""

from __future__ import annotations

import httpx
import pytest
from tablero.server.__main__ import main
from tablero_client.match import _wait

from tests import plainhttp
from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess


def test_bad_options_json_is_a_clear_error_not_a_traceback(capsys):
    with pytest.raises(SystemExit) as e:
        main(["match", "goofspiel", "--options", "{bad", "--token", "x", "--url", "http://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--options" in err and "JSON" in err, (e.value.code, err)  # a usage error


def test_the_waiting_lines_fit_80_columns(capsys):
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        assert main(["match", "tic-tac-toe", "--url", s.http, "--bots-after", "1", "--no-play",
                     "--token", token("a-user-with-a-rather-long-portal-id", "Ann")]) == 0
    out = capsys.readouterr().out
    assert "Looking for a game of tic-tac-toe" in out and "Matched: game" in out
    assert max(len(line) for line in out.splitlines() if not line.startswith("{")) <= 80, out


def test_a_refused_poll_while_waiting_is_a_clear_error_naming_the_ticket():
    """A JWT that expires during the wait (here: another user's JWT, refused as 403) ends the wait
    with the server's reason and the ticket's id, not an httpx traceback."""
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        ticket = plainhttp.post(f"{s.http}/v1/matchmaking/tickets", json={"engine": "riverboat", "players": [4]},
                            headers={"Authorization": "Bearer " + token("waiter")}).json()["ticket"]
        with httpx.Client(headers={"Authorization": "Bearer " + token("someone-else")}) as other:
            with pytest.raises(SystemExit) as e:
                _wait(other, s.http, ticket)
    assert "another user's" in str(e.value.code) and ticket["id"] in str(e.value.code)


def test_the_waiting_lines_are_in_the_players_language(capsys):
    """Found with LANG=es_ES.UTF-8: `tablero match` said "Looking for a game of goofspiel, your
    rating 0.0.", "waiting for players... 0 s" and "Matched: game …, you are seat 1." in English
    before the game, which then went on in Spanish."""
    try:
        with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
            assert main(["match", "tic-tac-toe", "--url", s.http, "--bots-after", "1", "--no-play", "--lang", "es",
                         "--token", token("una-jugadora", "Ana")]) == 0
    finally:
        from tablero_client.render import i18n
        i18n.set_language("en")
    out = capsys.readouterr().out
    assert "Looking" not in out and "waiting for" not in out and "Matched" not in out, out
    assert "Buscando una partida de tic-tac-toe; tu valoración: 0,0." in out, out
    assert "esperando jugadores… 0 s" in out and "Emparejada: partida " in out and ", eres el asiento " in out, out
