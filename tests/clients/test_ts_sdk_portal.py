"""@tablero/client's create() carries what CreateGame takes (issue 31 SDK parity with the Python
SDK): a portal JWT (`new Client({token})` or `create(..., {token})`), "me" seats, seatSpecs, a turn
clock, onLeave and rated; its seats name a bot's level (`botLevel`)."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest

from tests import plainhttp
from tests.clients.test_ts_sdk import HERE, _node, sdk  # noqa: F401 (fixture)
from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess


@pytest.fixture(scope="module")
def portal() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


def test_create_carries_a_jwt_seat_specs_a_clock_and_bot_levels(sdk, portal):  # noqa: F811
    (sdk / "examples" / "portal_create.mjs").write_text((HERE / "portal_create.mjs").read_text())
    run = subprocess.run([_node(), str(sdk / "examples" / "portal_create.mjs"), portal.http, token("ts-ann", "Ann"),
                          token("ts-cal")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["noJwt"] == {"tablero": True, "code": "UNAUTHENTICATED", "reason": "TOKEN_MISSING"}
    assert out["perCall"] == [[True, "ts-cal"], [False, None]]
    assert out["mine"] == [[True, "ts-ann"], [False, None]]
    assert out["bots"] == [["human", None], ["bot", "hard"], ["bot", None]]  # a plain "bot" seat: the server names no level
    assert out["specs"] == [["ts-ann", "Ann"], ["bob", "Bob"]]
    assert out["deadlines"] == [0]
    assert out["badClock"]["code"] == "INVALID_ARGUMENT"


def test_game_deadlines_and_the_portal_services_with_the_clients_jwt(sdk, portal):  # noqa: F811
    """A portal frontend on the SDK alone: a game's turn deadlines (no raw fetch), and the
    notification list, quick match and leaderboards as Connect clients that send the Client's JWT
    (before: `Game` had no deadlines and the SDK had only `games` and `rankings`)."""
    (sdk / "examples" / "portal_calls.mjs").write_text((HERE / "portal_calls.mjs").read_text())
    run = subprocess.run([_node(), str(sdk / "examples" / "portal_calls.mjs"), portal.http, token("ts-pat", "Pat"),
                          token("ts-quinn")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    [(seat, is_date, left)] = out["deadlines"]
    assert seat == 0 and is_date and 100 <= left <= 121
    assert out["turns"] == [0]
    assert out["ticket"] == ["riverboat", True]
    # the generated messages' enums are numbers; the SDK exports their names (it did not: a
    # portal's quick-match screen compared with a bare 2, or imported from a generated path)
    assert out["watched"] == [[1, "WAITING"], [3, "CANCELLED"]]
    assert out["leaderboard"] == "tic-tac-toe"


def test_generated_clients_fail_with_tablero_errors_games_sends_the_jwt_and_a_seat_resigns(sdk, portal):  # noqa: F811
    """An outside tester: `client.matchmaking` / `players` / `notifications` / `games` threw
    Connect's ConnectError (a numeric code, no reason) where the README promises TableroError;
    `client.games.listGames({mine: true})` was UNAUTHENTICATED (the Client's JWT was not sent);
    `seat.resign()` was not in the README."""
    (sdk / "examples" / "portal_errors.mjs").write_text((HERE / "portal_errors.mjs").read_text())
    run = subprocess.run([_node(), str(sdk / "examples" / "portal_errors.mjs"), portal.http, token("ts-lobby", "Lou")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["errors"] == {
        "ticket": [True, "NOT_FOUND", "TICKET_NOT_FOUND"],
        "player": [True, "NOT_FOUND", "PLAYER_NOT_FOUND"],
        "notifications": [True, "UNAUTHENTICATED", "TOKEN_MISSING"],
        "game": [True, "NOT_FOUND", "GAME_NOT_FOUND"],
        "watch": [True, "NOT_FOUND", "GAME_NOT_FOUND"],
        "rankings": [True, "INVALID_ARGUMENT", "INVALID_ARGUMENT"],
    }
    assert out["mine"] == [True]
    assert out["anonymousMine"] == [True, "UNAUTHENTICATED", "TOKEN_MISSING"]
    assert out["resigned"] == [True, [0], "tic-tac-toe"]


@pytest.mark.slow
def test_a_ticket_watch_outlasts_two_restarts_and_yields_each_change_once(sdk, tmp_path):  # noqa: F811
    """The TypeScript SDK had only the generated `matchmaking.watchMatchTicket`: a quick-match
    screen lost its ticket at the first server restart. `client.watchTicket` reconnects as the
    game watch does: across two outages further apart than its patience, each change once (a new
    stream starts with the ticket as it is), to the cancellation."""
    from tests.clients.test_sdk_watch_outages import _successor

    (sdk / "examples" / "ticket_watch.mjs").write_text((HERE / "ticket_watch.mjs").read_text())
    env = {"TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "games.db"), "TABLERO_PORTAL_KEYS": KEYS}
    servers = [ServerProcess(env).start()]
    servers += [_successor(servers[0]), _successor(servers[0])]
    jwt = token("ts-ticket-ann")
    lines: list[str] = []
    watcher = None
    try:
        r = plainhttp.post(f"{servers[0].http}/v1/matchmaking/tickets", json={"engine": "tic-tac-toe", "timeoutSeconds": 300},
                           headers={"authorization": f"Bearer {jwt}"})
        assert r.status_code == 200, r.text
        ticket = r.json()["ticket"]["id"]
        watcher = subprocess.Popen([_node(), str(sdk / "examples" / "ticket_watch.mjs"), servers[0].http, jwt, ticket],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        reader = threading.Thread(target=lambda: lines.extend(iter(watcher.stdout.readline, "")), daemon=True)
        reader.start()
        for i, (old, new) in enumerate(zip(servers, servers[1:], strict=False)):
            time.sleep(3 if not i else 0)  # the ticket came, on a stream open > 1 s
            stopped = time.time() * 1000
            old.kill()
            time.sleep(1)
            new.start()
            if i:
                break
            deadline = time.monotonic() + 25  # answered again, then longer than its patience (12 s)
            while not any(ln.startswith("state live") and float(ln.split()[2]) > stopped for ln in lines):
                assert time.monotonic() < deadline and watcher.poll() is None, lines
                time.sleep(0.2)
            time.sleep(max(0.0, (stopped + 14000 - time.time() * 1000) / 1000))
        r = plainhttp.post(f"{servers[2].http}/v1/matchmaking/tickets/{ticket}:cancel", json={},
                           headers={"authorization": f"Bearer {jwt}"})
        assert r.status_code == 200, r.text
        watcher.wait(timeout=30)
        reader.join(timeout=5)
        tickets = [ln.split()[1] for ln in lines if ln.startswith("ticket ")]
        assert lines[-1].strip() == "ended", lines
        assert tickets == ["1", "3"], lines  # MatchTicketStatus WAITING once (not again per stream), then CANCELLED
        assert sum(ln.startswith("state live") for ln in lines) == 3, lines  # one per server
    finally:
        if watcher is not None and watcher.poll() is None:
            watcher.kill()
        for s in servers:
            s.kill()
