"""The CLI verbs, run as `python -m tablero_client ...` against a real server."""

from __future__ import annotations

import json
import random
import re

from tablero_client import Client

from tests.clients.conftest import cli


def test_engines_and_errors(server):
    out = cli("--url", server.http, "engines").stdout
    for name in ("tic-tac-toe", "new-bedford", "riverboat", "phoenicia"):
        assert name in out
    assert {e["name"] for e in json.loads(cli("engines", "--grpc", server.grpc, "--json").stdout)} >= {"riverboat"}
    bad = cli("--url", server.http, "create", "no-such-engine", check=False)
    assert bad.returncode == 1 and "error: " in bad.stderr and "Traceback" not in bad.stderr
    need = cli("--url", server.http, "actions", "someid", check=False)
    assert need.returncode != 0 and "--token" in need.stderr


def test_create_act_show_watch_bot(server):
    created = json.loads(cli("--url", server.http, "create", "tic-tac-toe", "--json").stdout)
    gid = created["game"]["id"]
    x, o = (s["token"] for s in created["seats"])
    acts = cli("--url", server.http, "actions", gid, f"--token={x}").stdout
    assert "   1. Place in row 1, column 1" in acts and "9 legal actions" in acts
    # The hint is a command that works as typed: the token again, unless the environment gives it.
    assert f"play one with `act {gid} NUMBER --token TOKEN`" in acts, acts
    from_env = cli("--url", server.http, "actions", gid, env={"TABLERO_TOKEN": x}).stdout
    assert f"play one with `act {gid} NUMBER`" in from_env, from_env
    assert json.loads(cli("--url", server.http, "actions", gid, f"--token={x}", "--json").stdout)[0] == \
        {"type": "place", "cell": 0}
    # By number from `actions`, then as JSON, over gRPC.
    assert "version 2" in cli("--url", server.http, "act", gid, "5", f"--token={x}").stdout
    assert "version 3" in cli("--grpc", server.grpc, "act", gid, '{"type": "place", "cell": 0}', f"--token={o}").stdout
    illegal = cli("--url", server.http, "act", gid, '{"type": "place", "cell": 0}', f"--token={x}", check=False)
    assert illegal.returncode == 1 and "FAILED_PRECONDITION" in illegal.stderr
    # By number out of turn: said so, not "there are 0 legal actions" (an outside tester's finding).
    early = cli("--url", server.http, "act", gid, "1", f"--token={o}", check=False)
    assert early.returncode != 0 and "0 legal actions" not in early.stderr
    assert "it is not your turn (you are seat 2): waiting for seat 1" in early.stderr
    shown = cli("--url", server.http, "show", gid, f"--token={x}").stdout
    assert "you are seat 1" in shown and "to act: seat 1" in shown
    assert "you are seat 1 (you)" not in shown  # "(you)" once is enough (an outside tester's finding)
    assert "O" in shown and "X" in shown
    # `bot` plays X one move at a time, the SDK plays O; then watch prints the whole log and returns.
    with Client(rest=server.http) as c:
        game = c.game(gid)
        seat_o = c.seat(gid, o)
        rng = random.Random(2)
        while not game.finished:
            if 1 in game.to_act:
                game = seat_o.act(rng.choice(seat_o.legal_actions().actions))
            else:
                cli("--url", server.http, "bot", gid, f"--token={x}", "--max-actions", "1", "--quiet")
                game = c.game(gid)
    # The log in the renderers' words, not raw event names.
    watched = cli("--url", server.http, "watch", gid).stdout.splitlines()
    assert watched[0] == "v1 The game starts: seat 1 plays X, seat 2 plays O." and len(watched) == game.version
    assert watched[1] == "v2 Seat 1 puts X in row 2, column 2."
    assert "mark_placed" not in "\n".join(watched)
    raw = [json.loads(line) for line in cli("--url", server.http, "watch", gid, "--json").stdout.splitlines()]
    assert raw[1]["event"] == {"type": "mark_placed", "seat": 0, "cell": 4}
    assert "Game over" in cli("--url", server.http, "show", gid).stdout
    over = cli("--url", server.http, "act", gid, "1", f"--token={o}", check=False)
    assert over.returncode != 0 and "is over" in over.stderr


def test_bot_plays_a_seat_against_a_server_bot(server):
    with Client(grpc=server.grpc) as c:
        created = c.create("riverboat", seats=["human", "bot"])
    token = created.seats[0].token
    p = cli("--grpc", server.grpc, "bot", created.game.id, f"--token={token}", "--seed", "3", "--quiet", timeout=240)
    assert re.search(r"the game is over: (seat \d wins|seats .* win|nobody wins)", p.stdout), p.stdout


def test_join_an_open_seat(server):
    with Client(rest=server.http) as c:
        created = c.create("tic-tac-toe", seats=["human", "open"])
    j = json.loads(cli("--url", server.http, "join", created.game.id, "--json").stdout)
    assert j["seat"] == 1 and j["token"]


def test_tablero_takes_the_client_options_before_the_verb_and_names_a_busy_port(server):
    import socket
    import subprocess
    import sys

    # `tablero --url URL VERB`, as for `python -m tablero_client` (an outside tester's finding)
    p = subprocess.run([sys.executable, "-m", "tablero.server", "--url", server.http, "engines", "--json"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "tic-tac-toe" in {e["name"] for e in json.loads(p.stdout)}
    # a port another program holds: one line saying so, exit 1, no traceback
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        p = subprocess.run([sys.executable, "-m", "tablero.server", "serve", "--http-port", str(port), "--grpc-port", "0"],
                           capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port} for HTTP" in p.stderr and "Traceback" not in p.stderr


def test_bad_input_is_a_one_line_error(server):
    """An unknown seat kind or bad --options JSON: one line and a non-zero exit, no traceback."""
    for args in (("create", "tic-tac-toe", "--seats", "human,robot"), ("play", "tic-tac-toe", "--options", "{bad")):
        p = cli("--url", server.http, *args, check=False)
        assert p.returncode != 0 and "Traceback" not in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1 and ("robot" in p.stderr or "--options" in p.stderr), p.stderr


def test_one_shot_verbs_speak_words(server):
    """`act` says whose turn it is by seat (not `to act [1]`, `GAME_STATUS_RUNNING`); out of turn
    with a JSON action it says whose turn (not the engine's `waiting for [0]`); `bot` words its
    moves and the outcome; `actions` on a finished game says it is over."""
    created = json.loads(cli("--url", server.http, "create", "tic-tac-toe", "--json").stdout)
    gid = created["game"]["id"]
    x, o = (s["token"] for s in created["seats"])
    done = cli("--url", server.http, "act", gid, "1", f"--token={x}").stdout
    assert done.strip() == "ok: version 2; to act: seat 2", done
    early = cli("--url", server.http, "act", gid, '{"type": "place", "cell": 4}', f"--token={x}", check=False)
    assert "it is not your turn (you are seat 1): waiting for seat 2" in early.stderr, early.stderr
    assert "[" not in early.stderr
    for _ in range(5):
        out = cli("--url", server.http, "bot", gid, f"--token={o}", "--max-actions", "1", "--seed", "1").stdout
        if "the game is over" in out:
            break
        assert re.search(r"v\d+ played Place in row \d, column \d", out), out
        assert "{" not in out and "GAME_STATUS" not in out, out
        if "the game is over" in cli("--url", server.http, "act", gid, "1", f"--token={x}").stdout:
            break
    over = cli("--url", server.http, "actions", gid, f"--token={x}").stdout
    assert f"game {gid} is over" in over, over


def test_act_refuses_json_that_is_no_action_and_no_number(server):
    """An outside tester's finding: `act ID '"str"'`, `'[1]'` or `1.5` ended in a ValueError traceback,
    and `true` played the first legal action (a bool is an int in Python)."""
    created = json.loads(cli("--url", server.http, "create", "tic-tac-toe", "--json").stdout)
    gid, x = created["game"]["id"], created["seats"][0]["token"]
    for bad in ('"str"', "[1]", "1.5", "true", "null", '{"cell": 4}'):
        p = cli("--url", server.http, "act", gid, bad, f"--token={x}", check=False)
        assert p.returncode != 0 and "Traceback" not in p.stderr, (bad, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and "action" in p.stderr, (bad, p.stderr)
    assert Client(rest=server.http).game(gid).version == 1  # nothing was played


def test_bad_timeout_and_open_are_one_line_errors(server):
    for t in ("-1", "0", "nan"):
        p = cli("--url", server.http, "--timeout", t, "engines", check=False)
        assert p.returncode != 0 and "Traceback" not in p.stderr and "--timeout" in p.stderr, (t, p.stderr)
    for n in ("-1", "2"):  # tic-tac-toe has one seat besides yours
        p = cli("--url", server.http, "play", "tic-tac-toe", "--open", n, check=False)
        assert p.returncode != 0 and "--open" in p.stderr and "New game" not in p.stdout, (n, p.stdout, p.stderr)


def test_tablero_client_help_names_tablero_client():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "tablero-client"
    r = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("usage: tablero-client "), r.stdout[:200]


def test_one_shot_verbs_speak_the_language_asked(server):
    """`actions`, `act` and their refusals in Spanish with --lang es or LANG (an outside tester's
    finding: only `play` and the boards were translated); an unknown --lang is refused."""
    created = json.loads(cli("--url", server.http, "create", "tic-tac-toe", "--json").stdout)
    gid = created["game"]["id"]
    x, o = (s["token"] for s in created["seats"])
    acts = cli("--url", server.http, "actions", gid, f"--token={x}", "--lang", "es").stdout
    assert f"asiento 1: 9 acciones legales (versión 1); juega una con `act {gid} NÚMERO --token TOKEN`" in acts, acts
    assert "   1. Poner en fila 1, columna 1" in acts, acts
    early = cli("--url", server.http, "act", gid, "1", f"--token={o}", "--lang", "es", check=False)
    assert "aún no es tu turno (eres el asiento 2); juega: asiento 1 (versión 1)" in early.stderr, early.stderr
    done = cli("--url", server.http, "act", gid, "1", f"--token={x}", env={"LANG": "es_ES.UTF-8"}).stdout
    assert done.strip() == "hecho: versión 2; juega: asiento 2", done
    english = cli("--url", server.http, "act", gid, "2", f"--token={x}", "--lang", "en", check=False)
    assert "it is not your turn (you are seat 1): waiting for seat 2 (version 2)" in english.stderr, english.stderr
    unknown = cli("--url", server.http, "actions", gid, f"--token={x}", "--lang", "xx", check=False)
    assert unknown.returncode != 0 and "--lang: no texts in 'xx'; the languages are en, es" in unknown.stderr


def test_create_join_engines_and_plays_refusals_speak_the_language_asked(server):
    """The other one-shot verbs in Spanish too (a later outside pass found `create`, `join`, `engines`
    and `play`'s refusals of its options in English under --lang es), and a seat counted in the
    singular ("1 seat", not "1 seats")."""
    es = ("--url", server.http, "--lang", "es")
    made = cli(*es, "create", "tic-tac-toe", "--seats", "human,open").stdout.splitlines()
    gid = made[0].split()[1]
    assert made[0] == f"partida {gid} (tic-tac-toe, 2 asientos, versión 1)", made
    assert made[1].startswith(f"asiento 1 token {gid}.0."), made
    joined = cli(*es, "join", gid).stdout.splitlines()
    assert joined[0] == f"te has unido a la partida {gid} en el asiento 2" and joined[1].startswith("token "), joined
    table = cli(*es, "engines").stdout
    assert "juego" in table and "título" in table and "Fenicia" in table and "Tres en raya" in table, table
    assert "Phoenicia" not in table and "title" not in table, table
    solo = cli("--url", server.http, "--lang", "en", "create", "new-bedford", "--players", "1").stdout
    assert re.match(r"game \S+ \(new-bedford, 1 seat, version 1\)\n", solo), solo
    for argv, spanish, english in (
            (("riverboat", "--players", "7"), "riverboat se juega con 2-4 jugadores, no con 7", "riverboat takes 2-4 players, not 7"),
            (("tic-tac-toe", "--players", "3"), "tic-tac-toe se juega con 2 jugadores, no con 3",
             "tic-tac-toe takes 2 players, not 3"),  # not "2-2"
            (("riverboat", "--seat", "5"), "--seat debe ser de 0 a 1", "--seat must be 0..1"),
            (("tic-tac-toe", "--open", "2"), "--open debe ser de 0 a 1: 2 asientos, uno de ellos el tuyo",
             "--open must be 0..1: 2 seats, one of them yours"),
            ((), "play: indica un juego para empezar una partida", "play: give an engine to start a game"),
            (("--game", gid), "--game necesita el --token del asiento", "--game needs the seat's --token")):
        p = cli(*es, "play", *argv, check=False)
        assert p.returncode != 0 and spanish in p.stderr, (argv, p.stderr)
        p = cli("--url", server.http, "--lang", "en", "play", *argv, check=False)
        assert p.returncode != 0 and english in p.stderr, (argv, p.stderr)


def test_refusals_are_worded_in_the_language_asked(server):
    """A Spanish terminal got the server's English refusals ("error: NOT_FOUND: no game 'x'"): they
    are worded from their reason, as the browser words them; English keeps the server's words."""
    for argv, spanish, english in ((("show", "nosuch"), "error: no existe esa partida (NOT_FOUND)", "error: NOT_FOUND: no game 'nosuch'"),
                                   (("create", "nosuch"), "error: este servidor no tiene ese juego (INVALID_ARGUMENT)",
                                    "error: INVALID_ARGUMENT: no engine named 'nosuch'"),
                                   (("act", "abc", "1", "--token=abc"), "error: el token del asiento o de la sesión no es válido",
                                    "error: UNAUTHENTICATED: malformed seat token")):
        p = cli("--url", server.http, *argv, env={"LANG": "es_ES.UTF-8"}, check=False)
        assert p.returncode == 1 and spanish in p.stderr, (argv, p.stderr)
        p = cli("--url", server.http, "--lang", "en", *argv, check=False)
        assert p.returncode == 1 and english in p.stderr, (argv, p.stderr)



def test_play_refuses_an_unknown_engine_and_bad_options_in_the_language_asked(server):
    """Outside pass B: under --lang es, `play riverbot` printed the server's English
    "error: NOT_FOUND: no engine named 'riverbot'; known: …" (ENGINE_NOT_FOUND had no wording, only
    create's UNKNOWN_ENGINE had) and `play riverboat --options '{bad'` the client's own English
    "--options is not valid JSON: Expecting property name …"."""
    for argv, spanish, english, status in (  # (the server's refusal exits 1, a usage error 2)
            (("riverbot",), "error: este servidor no tiene ese juego (NOT_FOUND)", "error: NOT_FOUND: no engine named 'riverbot'",
             1),
            (("riverboat", "--options", "{bad"), "--options no es un JSON válido (línea 1, columna 2)",
             "--options is not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)", 2)):
        p = cli("--url", server.http, "--lang", "es", "play", *argv, check=False)
        assert p.returncode == status and spanish in p.stderr, (argv, p.stderr)
        assert "Expecting" not in p.stderr and "no engine named" not in p.stderr, (argv, p.stderr)
        p = cli("--url", server.http, "--lang", "en", "play", *argv, check=False)
        assert p.returncode == status and english in p.stderr, (argv, p.stderr)


def test_create_help_names_every_seat_kind_it_takes():
    # `--seats` said "human, open or bot" though `me` is taken too (the refusal says "human, open, me or bot").
    out = " ".join(cli("create", "--help").stdout.split())
    seats = out[out.index("--seats SEATS"):]
    assert all(re.search(rf"\b{kind}\b", seats) for kind in ("human", "open", "me", "bot", "bot:medium")), seats
    assert "--players PLAYERS seats" in out, out


def test_create_sends_the_portal_jwt_given_as_token_for_a_me_seat():
    # `tablero create tic-tac-toe --seats me,open --token JWT` was refused ("a \"me\" seat needs a
    # portal JWT"): create dropped --token, which join and match send.
    from tests import plainhttp
    from tests.ratings.support import KEYS, token
    from tests.server.support import ServerProcess

    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        out = json.loads(cli("--url", s.http, "create", "tic-tac-toe", "--seats", "me,open",
                             "--token", token("ann", "Ann"), "--json").stdout)
        seat_token = out["seats"][0]["token"]
        game = plainhttp.get(f"{s.http}/v1/games/{out['game']['id']}").json()
        again = cli("--url", s.http, "create", "tic-tac-toe", "--token", seat_token, "--json", check=False)
    assert game["seats"][0].get("userId") == "ann", game["seats"]
    # A seat token given to create is no portal user: refused, saying so (it made an anonymous game).
    assert again.returncode != 0 and "seat token" in again.stdout + again.stderr, (again.stdout, again.stderr)
