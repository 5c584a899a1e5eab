"""@tablero/client's create() carries what CreateGame takes (issue 31 SDK parity with the Python
SDK): a portal JWT (`new Client({token})` or `create(..., {token})`), "me" seats, seatSpecs, a turn
clock, onLeave and rated; its seats name a bot's level (`botLevel`)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest

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
    assert out["watched"] == [1, 3]  # MatchTicketStatus WAITING, CANCELLED
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
