"""The refusals issue 31 names, over Connect (server.http.connect): the code a Connect client
reads, and the reason (a google.rpc.ErrorInfo detail, domain tablero.v1) wherever the server's
errors carry one (server.errors.REASONS)."""

from __future__ import annotations

import base64
import json
import time

import httpx
import jwt
import pytest
from google.rpc import error_details_pb2
from tablero.server import errors

from tests.server.support import ServerThread

KEY = "an-hs256-secret-of-32-bytes-or-more!!"
GAME = "/tablero.v1.GameService/"
X_WINS = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]
# Whether this server's errors name reasons (server.errors.REASONS); the codes are checked either way.
REASONS = getattr(errors, "REASONS", None)


def user_jwt(sub: str, exp_in: float = 600) -> str:
    return jwt.encode({"sub": sub, "exp": int(time.time() + exp_in)}, KEY, algorithm="HS256", headers={"kid": "k1"})


class Connect:
    def __init__(self, url: str, service: str = GAME) -> None:
        self.http = httpx.Client(base_url=url + service, timeout=10)

    def call(self, method: str, body: dict, token: str | None = None) -> httpx.Response:
        return self.http.post(method, json=body, headers={"authorization": f"Bearer {token}"} if token else {})

    def ok(self, method: str, body: dict, token: str | None = None) -> dict:
        r = self.call(method, body, token)
        assert r.status_code == 200, r.text
        return r.json()

    def refusal(self, method: str, body: dict, token: str | None = None) -> tuple[str, str | None, httpx.Response]:
        r = self.call(method, body, token)
        assert r.status_code >= 400, r.text
        err = r.json()
        reason = None
        for d in err.get("details") or ():
            if d["type"] == "google.rpc.ErrorInfo":
                info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(d["value"] + "=" * (-len(d["value"]) % 4)))
                assert info.domain == "tablero.v1"
                reason = info.reason
        return err["code"], reason, r

    def create(self, seats=("human", "human"), token: str | None = None) -> tuple[str, list[str]]:
        out = self.ok("CreateGame", {"engine": "tic-tac-toe", "players": 2, "seats": list(seats)}, token)
        return out["game"]["id"], [s.get("token", "") for s in out["seats"]]

    def act(self, gid: str, token: str, cell: int, **extra) -> httpx.Response:
        return self.call("SubmitAction", {"gameId": gid, "action": {"type": "place", "cell": cell}, **extra}, token)


@pytest.fixture(scope="module")
def connect():
    with ServerThread(portal_keys=json.dumps({"k1": KEY}), max_open_games_per_user=1) as s:
        c = Connect(s.http)
        c.players, c.matchmaking, c.notifications = (Connect(s.http, f"/tablero.v1.{n}/") for n in (
            "PlayerService", "MatchmakingService", "NotificationService"))
        yield c


def _not_your_turn(c: Connect):
    gid, t = c.create()
    return c.refusal("SubmitAction", {"gameId": gid, "action": {"type": "place", "cell": 4}}, t[1])


def _illegal(c: Connect):
    gid, t = c.create()
    assert c.act(gid, t[0], 4).status_code == 200
    return c.refusal("SubmitAction", {"gameId": gid, "action": {"type": "place", "cell": 4}}, t[1])


def _stale(c: Connect):
    gid, t = c.create()
    return c.refusal("SubmitAction", {"gameId": gid, "action": {"type": "place", "cell": 4}, "expectedVersion": 7}, t[0])


def _over(c: Connect):
    gid, t = c.create()
    for seat, cell in X_WINS:
        assert c.act(gid, t[seat], cell).status_code == 200
    return c.refusal("SubmitAction", {"gameId": gid, "action": {"type": "place", "cell": 8}}, t[1])


def _seat_taken(c: Connect):
    gid, _ = c.create()
    return c.refusal("JoinGame", {"gameId": gid})


def _open_games_cap(c: Connect):
    token = user_jwt("capped")
    c.create(seats=("me", "human"), token=token)  # the one running game the cap allows
    return c.refusal("CreateGame", {"engine": "tic-tac-toe", "players": 2, "seats": ["me", "human"]}, token)


CASES = {
    # reason: (provocation, Connect code)
    "NOT_YOUR_TURN": (_not_your_turn, "failed_precondition"),
    "ILLEGAL_ACTION": (_illegal, "failed_precondition"),
    "STALE_VERSION": (_stale, "aborted"),
    "GAME_OVER": (_over, "failed_precondition"),
    "SEAT_TAKEN": (_seat_taken, "failed_precondition"),
    "OPEN_GAMES_CAP": (_open_games_cap, "resource_exhausted"),
    "TOKEN_EXPIRED": (lambda c: c.refusal("ListGames", {"mine": True}, user_jwt("late", -3600)), "unauthenticated"),
    "TOKEN_MISSING": (lambda c: c.refusal("ListLegalActions", {"gameId": c.create()[0]}), "unauthenticated"),
    "WRONG_GAME": (lambda c: c.refusal("ListLegalActions", {"gameId": c.create()[0]}, c.create()[1][0]),
                   "permission_denied"),
    "GAME_NOT_FOUND": (lambda c: c.refusal("GetGame", {"gameId": "nope-nope"}), "not_found"),
    "UNKNOWN_ENGINE": (lambda c: c.refusal("CreateGame", {"engine": "chess"}), "invalid_argument"),
    "UNKNOWN_METHOD": (lambda c: c.refusal("NoSuch", {}), "unimplemented"),  # Connect only
}

# The refusals an outside tester found answering a code's own name (issue 31; REST and gRPC:
# tests/server/test_error_reasons.py OTHER_REFUSALS).
OTHER = {
    "engine messages": ("ENGINE_NOT_FOUND", lambda c: c.refusal("GetEngineMessages", {"name": "chess"})),
    "leaderboard engine": ("ENGINE_NOT_FOUND", lambda c: c.players.refusal("GetLeaderboard", {"engine": "chess"})),
    "leaderboard around": ("PLAYER_NOT_FOUND", lambda c: c.players.refusal("GetLeaderboard", {
        "engine": "riverboat", "aroundUserId": "nobody"})),
    "player": ("PLAYER_NOT_FOUND", lambda c: c.players.refusal("GetPlayer", {"userId": "nobody"})),
    "ticket without JWT": ("TOKEN_MISSING", lambda c: c.matchmaking.refusal("CreateMatchTicket",
                                                                            {"engine": "tic-tac-toe"})),
    "no such ticket": ("TICKET_NOT_FOUND", lambda c: c.matchmaking.refusal("GetMatchTicket", {"ticketId": "tnope"},
                                                                           user_jwt("mm"))),
    "another's ticket": ("NOT_TICKET_OWNER", lambda c: c.matchmaking.refusal("GetMatchTicket", {
        "ticketId": c.matchmaking.ok("CreateMatchTicket", {"engine": "phoenicia", "players": [5]},
                                     user_jwt("mm-owner"))["ticket"]["id"]}, user_jwt("mm-other"))),
    "tickets cap": ("TICKETS_CAP", lambda c: [c.matchmaking.ok("CreateMatchTicket", {
        "engine": "phoenicia", "players": [5]}, user_jwt("mm-cap")) for _ in range(3)] and c.matchmaking.refusal(
        "CreateMatchTicket", {"engine": "phoenicia", "players": [5]}, user_jwt("mm-cap"))),
    "notifications without JWT": ("TOKEN_MISSING", lambda c: c.notifications.refusal("ListNotifications", {})),
    "notifications page token": ("PAGE_TOKEN_INVALID", lambda c: c.notifications.refusal(
        "ListNotifications", {"pageToken": "bad"}, user_jwt("inbox"))),
    "push off": ("NOTIFICATIONS_OFF", lambda c: c.notifications.refusal("GetPushKey", {})),
}


@pytest.mark.parametrize("case", sorted(OTHER))
def test_other_services_refusals_carry_their_own_reasons(connect, case):
    reason, provoke = OTHER[case]
    code, got, _ = provoke(connect)
    assert (code, got) == (REASONS[reason][0].lower(), reason)


@pytest.mark.parametrize("reason", sorted(CASES))
def test_a_connect_refusal_carries_its_code_and_reason(connect, reason):
    provoke, code = CASES[reason]
    got_code, got_reason, _ = provoke(connect)
    assert got_code == code
    if REASONS is not None:
        assert got_reason == reason and REASONS[reason][0].lower() == code


def test_a_rate_limited_call_says_when_to_retry():
    with ServerThread(create_rate_limit="1/m,1") as s:
        c = Connect(s.http)
        c.create()
        code, reason, r = c.refusal("CreateGame", {"engine": "tic-tac-toe", "players": 2})
    assert code == "resource_exhausted" and int(r.headers["retry-after"]) >= 1
    if REASONS is not None:
        assert reason == "RATE_LIMITED"


def test_another_connect_protocol_version_is_refused_with_a_reason():
    """connectrpc refused it with code invalid_argument and no ErrorInfo: the one Connect refusal
    a program could not tell apart by its reason."""
    with ServerThread() as s:
        c = Connect(s.http)
        c.http.headers["connect-protocol-version"] = "2"
        code, reason, r = c.refusal("ListEngines", {})
        assert (r.status_code, code, reason) == (400, "invalid_argument", "INVALID_ARGUMENT")
        assert "connect-protocol-version" in r.json()["message"]
        c.http.headers["connect-protocol-version"] = "1"
        assert c.ok("ListEngines", {})["engines"]
