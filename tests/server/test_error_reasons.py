"""Every refusal the API documents (server.errors.REASONS, docs/api.md "Error reasons") is
checked here on each transport that can answer it: REST (`error.reason` in the JSON body)
and gRPC (a google.rpc.ErrorInfo in `grpc-status-details-bin`), with the code beside it.
A reason with no check names why in UNCHECKED; the first test keeps the three lists equal."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable

import grpc
import httpx
import jwt
import pytest
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2, status_pb2
from tablero.server.errors import REASONS
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.grpc.gen import notifications_pb2 as npb
from tablero.server.grpc.gen import notifications_pb2_grpc as npbg
from tablero.server.grpc.gen import players_pb2 as ppb
from tablero.server.grpc.gen import players_pb2_grpc as ppbg

from tablero import engines
from tests.server.conftest import auth
from tests.server.support import ServerThread

KEY = "an-hs256-secret-of-32-bytes-or-more!!"
X_WINS = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]

# Reasons no test here provokes, and why (each is raised in one place, beside its code's tests).
UNCHECKED = {
    "CONFLICT": "needs writers racing one game past the repository's retries",
    "UNAVAILABLE": "needs a store outage: tests/server/test_readiness.py stops Redis and checks it on both "
                   "transports",
    "BUSY": "needs two joins of one portal user racing past the lobby hold's wait",
    "CLAIM_LOST": "needs Redis to lose a join: tests/faults/test_rollback_lost_join.py",
    "NOT_REPLICATED": "needs a Redis replica that does not confirm: tests/store/test_redis_sentinel.py (the store's "
                      "NotReplicated) and tests/faults/test_sentinel_failover.py (the answers under load)",
    "STORE_FULL": "needs a store at its memory limit: tests/server/test_store_full.py (REST and gRPC)",
    "DNS_UNAVAILABLE": "needs a resolver that fails for a moment: tests/notify/test_push_dns.py runs the server "
                       "in its own mount namespace with a nameserver nobody answers on",
    "SERVER_DEADLINE": "needs a store that does not answer within TABLERO_REQUEST_DEADLINE: "
                       "tests/faults/test_request_deadline.py freezes Redis (SIGSTOP)",
    "INTERNAL": "a server fault",
    # The codes' own names: for a refusal without a reason of its own (none a client gets today;
    # test_no_refusal_a_client_can_get_uses_a_codes_own_name checks the ones an outside tester found).
    **{code: "the fallback of a refusal without a reason of its own; none today" for code in (
        "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND", "FAILED_PRECONDITION", "ABORTED", "RESOURCE_EXHAUSTED")},
}
REST_ONLY = {"TOKEN_IN_URL", "HEADERS_TOO_LARGE", "URI_TOO_LONG", "ROUTE_NOT_FOUND", "METHOD_NOT_ALLOWED",
             "REQUEST_TIMEOUT"}
GRPC_ONLY = {"HISTORY_REWRITTEN"}  # REST: the watch sends a `tablero-reset` message instead
# Connect only: tests/server/test_connect_reasons.py (gRPC's own server answers UNIMPLEMENTED).
CONNECT_ONLY = {"UNKNOWN_METHOD"}
OWN_TESTS = {"RATE_LIMITED", "SHUTTING_DOWN", "ENGINE_UNAVAILABLE"}  # each its own test below, both transports


def user_jwt(sub: str, exp_in: float = 600) -> str:
    return jwt.encode({"sub": sub, "exp": int(time.time() + exp_in)}, KEY, algorithm="HS256", headers={"kid": "k1"})


@pytest.fixture(scope="module")
def server():
    with ServerThread(portal_keys=json.dumps({"k1": KEY}), max_open_games_per_user=1, max_body=4096,
                      snapshot_every=4, trim_on_snapshot=True, header_timeout=2.0, body_timeout=0.5) as s:
        yield s


class Rest:
    name = "rest"

    def __init__(self, server) -> None:
        self.http = httpx.Client(base_url=server.http, timeout=10)

    def refusal(self, method: str, path: str, token: str | None = None, **kw) -> tuple[str, str, int, dict]:
        headers = {**(auth(token) if token else {}), **kw.pop("headers", {})}
        r = self.http.request(method, path, headers=headers, **kw)
        assert r.status_code >= 400, r.text
        err = r.json()["error"]
        assert set(err) <= {"code", "message", "reason", "metadata"} and err["message"], err
        return err["code"], err["reason"], r.status_code, err.get("metadata", {})

    def create(self, seats=("human", "human"), token: str | None = None, **extra) -> tuple[str, list[str]]:
        r = self.http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": list(seats), **extra},
                           headers=auth(token) if token else {})
        r.raise_for_status()
        out = r.json()
        return out["game"]["id"], [s["token"] for s in out["seats"]]

    def act(self, gid: str, token: str, cell: int) -> None:
        self.http.post(f"/v1/games/{gid}/actions", headers=auth(token),
                       json={"action": {"type": "place", "cell": cell}}).raise_for_status()


def grpc_refusal(call: Callable, request, token: str | None = None) -> tuple[str, str, int, dict]:
    md = (("authorization", f"Bearer {token}"),) if token else ()
    with pytest.raises(grpc.RpcError) as e:
        out = call(request, metadata=md, timeout=10)
        if hasattr(out, "__next__"):  # a stream: its refusal comes with the first read
            next(out)
    details = dict(e.value.trailing_metadata() or ()).get("grpc-status-details-bin")
    assert details, f"no status details with {e.value.code()}: {e.value.details()}"
    status = status_pb2.Status.FromString(details)
    assert status.code == e.value.code().value[0] and status.message == e.value.details()
    [detail] = status.details
    info = error_details_pb2.ErrorInfo()
    assert detail.Unpack(info) and info.domain == "tablero.v1"
    return e.value.code().name, info.reason, 0, dict(info.metadata)


def _action(cell: int | None = None, type_: str = "place") -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update({"type": type_, **({"cell": cell} if cell is not None else {})})
    return s


@pytest.fixture(scope="module")
def rest(server):
    return Rest(server)


@pytest.fixture(scope="module")
def stub(server):
    with grpc.insecure_channel(server.grpc) as channel:
        games = pbg.GameServiceStub(channel)
        # The other services, beside the game's (one object, so each case takes one stub).
        games.players = ppbg.PlayerServiceStub(channel)
        games.matchmaking = ppbg.MatchmakingServiceStub(channel)
        games.notifications = npbg.NotificationServiceStub(channel)
        yield games


# --- one provocation per reason and transport: each returns (code, reason, HTTP status, metadata)

def _finished(rest: Rest) -> tuple[str, list[str]]:
    gid, tokens = rest.create()
    for seat, cell in X_WINS:
        rest.act(gid, tokens[seat], cell)
    return gid, tokens


REST_CASES: dict[str, Callable[[Rest], tuple]] = {
    "INVALID_ARGUMENT": lambda r: r.refusal("GET", "/v1/games", params={"pageSize": -1}),
    "MALFORMED_ACTION": lambda r: (lambda g, t: r.refusal("POST", f"/v1/games/{g}/actions", t[0],
                                                           json={"action": {"type": "nope"}}))(*r.create()),
    "UNKNOWN_ENGINE": lambda r: r.refusal("POST", "/v1/games", json={"engine": "chess"}),
    "REQUEST_ID_REUSED": lambda r: (r.create(requestId="ru-0123456789abcdef")
                                    and r.refusal("POST", "/v1/games", json={"engine": "goofspiel", "requestId": "ru-0123456789abcdef"})),
    "PAGE_TOKEN_INVALID": lambda r: r.refusal("GET", f"/v1/games/{r.create()[0]}/events",
                                              params={"pageToken": "zzz"}),
    "TOKEN_IN_URL": lambda r: r.refusal("GET", f"/v1/games/{r.create()[0]}", params={"access_token": "x"}),
    "HEADERS_TOO_LARGE": lambda r: r.refusal("GET", "/v1/engines", headers={"x-big": "y" * 70_000}),
    "URI_TOO_LONG": lambda r: r.refusal("GET", "/v1/engines", params={"x": "y" * 17_000}),
    "TOKEN_MISSING": lambda r: r.refusal("GET", f"/v1/games/{r.create()[0]}/legal-actions"),
    "TOKEN_INVALID": lambda r: r.refusal("GET", f"/v1/games/{r.create()[0]}/legal-actions", "garbage"),
    "TOKEN_EXPIRED": lambda r: r.refusal("GET", "/v1/games", user_jwt("late", -3600), params={"mine": "true"}),
    "WRONG_GAME": lambda r: r.refusal("GET", f"/v1/games/{r.create()[0]}/legal-actions", r.create()[1][0]),
    "NOT_SEATED": lambda r: r.refusal("GET", f"/v1/games/{r.create()[0]}/legal-actions", user_jwt("nobody")),
    "GAME_NOT_FOUND": lambda r: r.refusal("GET", "/v1/games/nope-nope"),
    "ENGINE_NOT_FOUND": lambda r: r.refusal("GET", "/v1/engines/chess"),
    "ROUTE_NOT_FOUND": lambda r: r.refusal("POST", "/v1/nothing-here", json={}),
    "METHOD_NOT_ALLOWED": lambda r: r.refusal("DELETE", "/v1/games"),
    "NOT_YOUR_TURN": lambda r: (lambda g, t: r.refusal("POST", f"/v1/games/{g}/actions", t[1],
                                                        json={"action": {"type": "place", "cell": 4}}))(*r.create()),
    "ILLEGAL_ACTION": lambda r: _rest_illegal(r),
    "GAME_OVER": lambda r: (lambda g, t: r.refusal("POST", f"/v1/games/{g}/actions", t[1],
                                                    json={"action": {"type": "place", "cell": 8}}))(*_finished(r)),
    "SEAT_TAKEN": lambda r: r.refusal("POST", f"/v1/games/{r.create()[0]}/join", json={}),
    "SEAT_LEFT": lambda r: _rest_seat_left(r),
    "HISTORY_TRIMMED": lambda r: r.refusal("GET", f"/v1/games/{_finished(r)[0]}/events", params={"afterVersion": 1}),
    "STALE_VERSION": lambda r: (lambda g, t: r.refusal("POST", f"/v1/games/{g}/actions", t[0], json={
        "action": {"type": "place", "cell": 4}, "expectedVersion": 7}))(*r.create()),
    "BODY_TOO_LARGE": lambda r: r.refusal("POST", "/v1/games", json={"engine": "tic-tac-toe",
                                                                     "options": {"x": "y" * 5000}}),
    "OPEN_GAMES_CAP": lambda r: _cap(r, lambda t: r.refusal("POST", "/v1/games", t, json={
        "engine": "tic-tac-toe", "players": 2, "seats": ["me", "human"]}), "cap-rest"),
    "REQUEST_TIMEOUT": lambda r: _slow_body(r),
    "TICKET_NOT_FOUND": lambda r: r.refusal("GET", "/v1/matchmaking/tickets/tnope", user_jwt("mm-rest")),
    "NOT_TICKET_OWNER": lambda r: r.refusal("GET", f"/v1/matchmaking/tickets/{_ticket(r, 'mm-owner-rest')}",
                                            user_jwt("mm-other-rest")),
    "TICKET_MATCHED": lambda r: (lambda t, u: r.refusal("POST", f"/v1/matchmaking/tickets/{t}:cancel", user_jwt(u),
                                                         json={}))(*_matched(r, "rest")),
    "TICKETS_CAP": lambda r: _tickets_cap(r, lambda t: r.refusal("POST", "/v1/matchmaking/tickets", t, json={
        "engine": "phoenicia", "players": [5]}), "mm-cap-rest"),
    "PLAYER_NOT_FOUND": lambda r: r.refusal("GET", "/v1/players/nobody"),
    "NOTIFICATIONS_OFF": lambda r: r.refusal("GET", "/v1/push/key"),
}


def _ticket(r: Rest, user: str, engine: str = "phoenicia", players: int = 5) -> str:
    """A waiting ticket of `user` (Phoenicia for five: nobody else here asks for it, so it waits)."""
    out = r.http.post("/v1/matchmaking/tickets", headers=auth(user_jwt(user)),
                      json={"engine": engine, "players": [players]})
    out.raise_for_status()
    return out.json()["ticket"]["id"]


def _matched(r: Rest, tag: str) -> tuple[str, str]:
    """(a matched ticket, its user): two users ask for a two-player Goofspiel (nobody else here does)."""
    a, _ = _ticket(r, f"mm-a-{tag}", "goofspiel", 2), _ticket(r, f"mm-b-{tag}", "goofspiel", 2)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        got = r.http.get(f"/v1/matchmaking/tickets/{a}", headers=auth(user_jwt(f"mm-a-{tag}"))).json()["ticket"]
        if got["status"] == "MATCH_TICKET_STATUS_MATCHED":
            return a, f"mm-a-{tag}"
        time.sleep(0.1)
    raise AssertionError(f"ticket {a} not matched: {got}")


def _tickets_cap(r: Rest, refused: Callable[[str], tuple], user: str) -> tuple:
    for _ in range(3):  # the waiting tickets a user may hold (server.matchmaking.store.MAX_WAITING)
        _ticket(r, user)
    return refused(user_jwt(user))


def _rest_illegal(r: Rest) -> tuple:
    gid, tokens = r.create()
    r.act(gid, tokens[0], 4)
    return r.refusal("POST", f"/v1/games/{gid}/actions", tokens[1], json={"action": {"type": "place", "cell": 4}})


def _rest_seat_left(r: Rest) -> tuple:
    gid, tokens = r.create(onLeave="bot")
    r.http.post(f"/v1/games/{gid}/resign", headers=auth(tokens[1]), json={}).raise_for_status()
    return r.refusal("POST", f"/v1/games/{gid}/actions", tokens[1], json={"action": {"type": "place", "cell": 8}})


def _cap(r: Rest, refused: Callable[[str], tuple], user: str) -> tuple:
    token = user_jwt(user)
    r.create(seats=("me", "human"), token=token)  # the one running game the cap allows
    return refused(token)


def _slow_body(r: Rest) -> tuple:
    host, port = r.http.base_url.host, r.http.base_url.port
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"engine\"")
        raw = b""
        while b"\r\n\r\n" not in raw or not raw.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            if not chunk:
                break
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    err = json.loads(body)["error"]
    return err["code"], err["reason"], int(head.split()[1]), err.get("metadata", {})


def _grpc_create(stub, seats=("human", "human"), token: str | None = None, **extra) -> tuple[str, list[str]]:
    md = (("authorization", f"Bearer {token}"),) if token else ()
    out = stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", players=2, seats=list(seats), **extra),
                          metadata=md, timeout=10)
    return out.game.id, [s.token for s in out.seats]


def _grpc_act(stub, gid: str, token: str, cell: int, **extra):
    return grpc_refusal(stub.SubmitAction, pb.SubmitActionRequest(game_id=gid, action=_action(cell), **extra), token)


def _grpc_finished(stub, rest: Rest) -> tuple[str, list[str]]:
    gid, tokens = _grpc_create(stub)
    for seat, cell in X_WINS:
        stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=_action(cell)),
                          metadata=(("authorization", f"Bearer {tokens[seat]}"),), timeout=10)
    return gid, tokens


def _grpc_cases(stub, rest: Rest) -> dict[str, Callable[[], tuple]]:
    def illegal():
        gid, t = _grpc_create(stub)
        rest.act(gid, t[0], 4)
        return _grpc_act(stub, gid, t[1], 4)

    def seat_left():
        gid, t = _grpc_create(stub, on_leave="bot")
        stub.Resign(pb.ResignRequest(game_id=gid), metadata=(("authorization", f"Bearer {t[1]}"),), timeout=10)
        return _grpc_act(stub, gid, t[1], 8)

    def rewritten():
        gid, t = _grpc_create(stub)
        rest.act(gid, t[0], 4)
        return grpc_refusal(stub.WatchGame, pb.WatchGameRequest(game_id=gid, after_version=2,
                                                                after_hash="0123456789abcdef"))

    return {
        "INVALID_ARGUMENT": lambda: grpc_refusal(stub.ListGames, pb.ListGamesRequest(page_size=-1)),
        "MALFORMED_ACTION": lambda: (lambda g, t: grpc_refusal(stub.SubmitAction, pb.SubmitActionRequest(
            game_id=g, action=_action(type_="nope")), t[0]))(*_grpc_create(stub)),
        "UNKNOWN_ENGINE": lambda: grpc_refusal(stub.CreateGame, pb.CreateGameRequest(engine="chess")),
        "REQUEST_ID_REUSED": lambda: (stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", request_id="ru-g-0123456789abcd"))
                                      and grpc_refusal(stub.CreateGame, pb.CreateGameRequest(engine="goofspiel",
                                                                                             request_id="ru-g-0123456789abcd"))),
        "PAGE_TOKEN_INVALID": lambda: grpc_refusal(stub.ListEvents, pb.ListEventsRequest(
            game_id=_grpc_create(stub)[0], page_token="zzz")),
        "TOKEN_MISSING": lambda: grpc_refusal(stub.ListLegalActions, pb.ListLegalActionsRequest(
            game_id=_grpc_create(stub)[0])),
        "TOKEN_INVALID": lambda: grpc_refusal(stub.ListLegalActions, pb.ListLegalActionsRequest(
            game_id=_grpc_create(stub)[0]), "garbage"),
        "TOKEN_EXPIRED": lambda: grpc_refusal(stub.ListGames, pb.ListGamesRequest(mine=True),
                                              user_jwt("late", -3600)),
        "WRONG_GAME": lambda: grpc_refusal(stub.ListLegalActions, pb.ListLegalActionsRequest(
            game_id=_grpc_create(stub)[0]), _grpc_create(stub)[1][0]),
        "NOT_SEATED": lambda: grpc_refusal(stub.ListLegalActions, pb.ListLegalActionsRequest(
            game_id=_grpc_create(stub)[0]), user_jwt("nobody")),
        "GAME_NOT_FOUND": lambda: grpc_refusal(stub.GetGame, pb.GetGameRequest(game_id="nope-nope")),
        "ENGINE_NOT_FOUND": lambda: grpc_refusal(stub.GetEngine, pb.GetEngineRequest(name="chess")),
        "NOT_YOUR_TURN": lambda: (lambda g, t: _grpc_act(stub, g, t[1], 4))(*_grpc_create(stub)),
        "ILLEGAL_ACTION": illegal,
        "GAME_OVER": lambda: (lambda g, t: _grpc_act(stub, g, t[1], 8))(*_grpc_finished(stub, rest)),
        "SEAT_TAKEN": lambda: grpc_refusal(stub.JoinGame, pb.JoinGameRequest(game_id=_grpc_create(stub)[0])),
        "SEAT_LEFT": seat_left,
        "HISTORY_TRIMMED": lambda: grpc_refusal(stub.ListEvents, pb.ListEventsRequest(
            game_id=_grpc_finished(stub, rest)[0], after_version=1)),
        "STALE_VERSION": lambda: (lambda g, t: _grpc_act(stub, g, t[0], 4, expected_version=7))(*_grpc_create(stub)),
        "HISTORY_REWRITTEN": rewritten,
        "BODY_TOO_LARGE": lambda: grpc_refusal(stub.CreateGame, pb.CreateGameRequest(
            engine="tic-tac-toe", options=struct_pb2.Struct(fields={"x": struct_pb2.Value(string_value="y" * 5000)}))),
        "OPEN_GAMES_CAP": lambda: _cap(rest, lambda t: grpc_refusal(stub.CreateGame, pb.CreateGameRequest(
            engine="tic-tac-toe", players=2, seats=["me", "human"]), t), "cap-grpc"),
        "TICKET_NOT_FOUND": lambda: grpc_refusal(stub.matchmaking.GetMatchTicket, ppb.GetMatchTicketRequest(
            ticket_id="tnope"), user_jwt("mm-grpc")),
        "NOT_TICKET_OWNER": lambda: grpc_refusal(stub.matchmaking.GetMatchTicket, ppb.GetMatchTicketRequest(
            ticket_id=_ticket(rest, "mm-owner-grpc")), user_jwt("mm-other-grpc")),
        "TICKET_MATCHED": lambda: (lambda t, u: grpc_refusal(stub.matchmaking.CancelMatchTicket,
                                                              ppb.CancelMatchTicketRequest(ticket_id=t), user_jwt(u)))(
            *_matched(rest, "grpc")),
        "TICKETS_CAP": lambda: _tickets_cap(rest, lambda t: grpc_refusal(
            stub.matchmaking.CreateMatchTicket, ppb.CreateMatchTicketRequest(engine="phoenicia", players=[5]), t),
            "mm-cap-grpc"),
        "PLAYER_NOT_FOUND": lambda: grpc_refusal(stub.players.GetPlayer, ppb.GetPlayerRequest(user_id="nobody")),
        "NOTIFICATIONS_OFF": lambda: grpc_refusal(stub.notifications.GetPushKey, npb.GetPushKeyRequest()),
    }


def test_every_documented_reason_is_checked_or_says_why_not():
    every = set(REASONS)
    assert set(REST_CASES) | GRPC_ONLY | CONNECT_ONLY | OWN_TESTS | set(UNCHECKED) == every
    assert set(_grpc_cases(None, None)) | REST_ONLY | CONNECT_ONLY | OWN_TESTS | set(UNCHECKED) == every
    assert not set(UNCHECKED) & (set(REST_CASES) | GRPC_ONLY)
    for reason in ("NOT_YOUR_TURN", "ILLEGAL_ACTION", "STALE_VERSION", "GAME_OVER", "SEAT_TAKEN", "RATE_LIMITED",
                   "OPEN_GAMES_CAP", "TOKEN_EXPIRED"):  # the ones issue 31 names
        assert reason in REASONS and reason not in UNCHECKED


@pytest.mark.parametrize("reason", sorted(REST_CASES))
def test_rest_refusal_carries_its_reason(rest, reason):
    code, got, status, metadata = REST_CASES[reason](rest)
    assert (code, got) == (REASONS[reason][0], reason)
    if reason == "STALE_VERSION":
        assert metadata == {"version": "1"}
    if reason in ("OPEN_GAMES_CAP", "TICKETS_CAP"):
        assert status == 429
    if reason == "HEADERS_TOO_LARGE":
        assert status == 431
    if reason == "URI_TOO_LONG":
        assert status == 414


@pytest.mark.parametrize("reason", sorted(set(REASONS) - REST_ONLY - CONNECT_ONLY - set(UNCHECKED) - OWN_TESTS))
def test_grpc_refusal_carries_its_reason_in_error_info(stub, rest, reason):
    code, got, _, metadata = _grpc_cases(stub, rest)[reason]()
    assert (code, got) == (REASONS[reason][0], reason)
    if reason == "STALE_VERSION":
        assert metadata == {"version": "1"}
    if reason == "HISTORY_REWRITTEN":
        assert metadata == {"version": "0"}


def test_engine_unavailable_on_both_transports(rest, stub, monkeypatch):
    """A game written by an engine version this server does not run (a replica of another
    release): here the engine's version moves on under a game it wrote."""
    gid, _ = rest.create()
    monkeypatch.setattr(engines.get("tic-tac-toe"), "version", 99)
    assert rest.refusal("GET", f"/v1/games/{gid}/events")[:3] == ("UNAVAILABLE", "ENGINE_UNAVAILABLE", 503)
    assert grpc_refusal(stub.ListEvents, pb.ListEventsRequest(game_id=gid))[:2] == ("UNAVAILABLE",
                                                                                   "ENGINE_UNAVAILABLE")


def test_rate_limited_on_both_transports_with_its_wait():
    with ServerThread(rate_limit="1/m,1") as s:
        with httpx.Client(base_url=s.http, timeout=10) as http:
            assert http.get("/v1/engines").status_code == 200  # the one call the bucket holds
            r = http.get("/v1/engines")
        with grpc.insecure_channel(s.grpc) as channel:
            got = grpc_refusal(pbg.GameServiceStub(channel).ListEngines, pb.ListEnginesRequest())
    err = r.json()["error"]
    assert r.status_code == 429 and (err["code"], err["reason"]) == ("RESOURCE_EXHAUSTED", "RATE_LIMITED")
    assert float(err["metadata"]["retryAfter"]) > 0 and r.headers["retry-after"]
    assert got[:2] == ("RESOURCE_EXHAUSTED", "RATE_LIMITED") and float(got[3]["retryAfter"]) > 0


def _grpc_watches(code: str) -> float:
    from prometheus_client import REGISTRY

    labels = {"transport": "grpc", "method": "WatchGame", "code": code}
    return REGISTRY.get_sample_value("tablero_rpc_requests_total", labels) or 0.0


def test_shutting_down_ends_a_grpc_watch_with_its_reason_and_rest_with_tablero_shutdown():
    before = _grpc_watches("OK"), _grpc_watches("UNAVAILABLE")
    s = ServerThread().__enter__()
    try:
        http = httpx.Client(base_url=s.http, timeout=10)
        out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid = out["game"]["id"]
        channel = grpc.insecure_channel(s.grpc)
        stream = pbg.GameServiceStub(channel).WatchGame(pb.WatchGameRequest(game_id=gid), timeout=20)
        assert next(stream).version == 1
        with http.stream("GET", f"/v1/games/{gid}/watch") as sse:
            lines = sse.iter_lines()
            assert next(line for line in lines if line.startswith("id: ")) == "id: 1"
            s.loop.call_soon_threadsafe(s.stop_event.set)
            rest = list(lines)
        with pytest.raises(grpc.RpcError) as e:
            next(stream)
        channel.close()
        s._thread.join(timeout=20)
    finally:
        if s._thread.is_alive():
            s.__exit__(None, None, None)
    details = dict(e.value.trailing_metadata() or ())["grpc-status-details-bin"]
    info = error_details_pb2.ErrorInfo()
    status_pb2.Status.FromString(details).details[0].Unpack(info)
    assert e.value.code() == grpc.StatusCode.UNAVAILABLE and info.reason == "SHUTTING_DOWN"
    assert "event: tablero-shutdown" in rest and "event: shutdown" in rest
    # Counted as a stream served to its end, as the SSE one is, not as a failure the SLO counts (an
    # outside operator: every rollout burnt the error budget with its open gRPC watches).
    assert (_grpc_watches("OK"), _grpc_watches("UNAVAILABLE")) == (before[0] + 1, before[1])


def test_refusals_outside_the_rpc_routes_carry_reasons_too(rest):
    """The fast path's own answers (server.http.fast) and Starlette's (unknown files, 405s)."""
    assert rest.refusal("GET", "/healthz", params={"access_token": "x"})[:3] == (
        "INVALID_ARGUMENT", "TOKEN_IN_URL", 400)
    assert rest.refusal("GET", "/v1/no-such-route")[:3] == ("NOT_FOUND", "ROUTE_NOT_FOUND", 404)
    assert rest.refusal("POST", "/healthz")[:3] == ("METHOD_NOT_ALLOWED", "METHOD_NOT_ALLOWED", 405)
    assert rest.refusal("POST", "/v1/games", content=b"{not json", headers={"content-type": "application/json"})[:3] == (
        "INVALID_ARGUMENT", "INVALID_ARGUMENT", 400)


def test_a_refused_sse_watch_says_its_reason_in_a_tablero_error_message(rest):
    r = rest.http.get("/v1/games/nope-nope/watch", headers={"Accept": "text/event-stream"})
    assert r.status_code == 404 and "event: tablero-error\n" in r.text and "event: error\n" not in r.text
    data = json.loads(r.text.split("data: ", 1)[1].split("\n", 1)[0])
    assert data["error"]["reason"] == "GAME_NOT_FOUND"
    # An EventSource (eventSource=true): 200, so the page gets the message; no retry after it.
    r = rest.http.get("/v1/games/nope-nope/watch", params={"eventSource": "true"})
    assert r.status_code == 200 and r.text.startswith("event: tablero-error\n")
    assert json.loads(r.text.split("data: ", 1)[1].split("\n", 1)[0])["error"]["reason"] == "GAME_NOT_FOUND"


def test_docs_list_every_reason():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    missing = [r for r in REASONS if f"| `{r}` | {REASONS[r][0]} |" not in doc]
    assert not missing, f"docs/api.md lacks {missing}"


# The refusals an outside tester found answering a code's own name (issue 31): each has a
# reason of its own now, on both transports (Connect: tests/server/test_connect_reasons.py).
OTHER_REFUSALS: dict[str, tuple[str, Callable[[Rest], tuple], Callable[..., tuple]]] = {
    "engine messages of an unknown engine": (
        "ENGINE_NOT_FOUND", lambda r: r.refusal("GET", "/v1/engines/chess/messages"),
        lambda s, r: grpc_refusal(s.GetEngineMessages, pb.GetEngineMessagesRequest(name="chess"))),
    "leaderboard of an unknown engine (as GetEngine: the path names it)": (
        "ENGINE_NOT_FOUND", lambda r: r.refusal("GET", "/v1/leaderboards/chess"),
        lambda s, r: grpc_refusal(s.players.GetLeaderboard, ppb.GetLeaderboardRequest(engine="chess"))),
    "leaderboard around a user without a rating": (
        "PLAYER_NOT_FOUND", lambda r: r.refusal("GET", "/v1/leaderboards/riverboat", params={"aroundUserId": "nobody"}),
        lambda s, r: grpc_refusal(s.players.GetLeaderboard, ppb.GetLeaderboardRequest(engine="riverboat",
                                                                                      around_user_id="nobody"))),
    "leaderboard page token": (
        "PAGE_TOKEN_INVALID", lambda r: r.refusal("GET", "/v1/leaderboards/riverboat", params={"pageToken": "bad"}),
        lambda s, r: grpc_refusal(s.players.GetLeaderboard, ppb.GetLeaderboardRequest(engine="riverboat",
                                                                                      page_token="bad"))),
    "match ticket without a JWT": (
        "TOKEN_MISSING", lambda r: r.refusal("POST", "/v1/matchmaking/tickets", json={"engine": "tic-tac-toe"}),
        lambda s, r: grpc_refusal(s.matchmaking.CreateMatchTicket, ppb.CreateMatchTicketRequest(engine="tic-tac-toe"))),
    "a ticket read without a JWT": (
        "TOKEN_MISSING", lambda r: r.refusal("GET", "/v1/matchmaking/tickets/tnope"),
        lambda s, r: grpc_refusal(s.matchmaking.GetMatchTicket, ppb.GetMatchTicketRequest(ticket_id="tnope"))),
    "a ticket cancelled that does not exist": (
        "TICKET_NOT_FOUND", lambda r: r.refusal("POST", "/v1/matchmaking/tickets/tnope:cancel", user_jwt("mm-x"),
                                                json={}),
        lambda s, r: grpc_refusal(s.matchmaking.CancelMatchTicket, ppb.CancelMatchTicketRequest(ticket_id="tnope"),
                                  user_jwt("mm-x"))),
    "notifications without a JWT": (
        "TOKEN_MISSING", lambda r: r.refusal("GET", "/v1/notifications"),
        lambda s, r: grpc_refusal(s.notifications.ListNotifications, npb.ListNotificationsRequest())),
    "notifications page token": (
        "PAGE_TOKEN_INVALID", lambda r: r.refusal("GET", "/v1/notifications", user_jwt("inbox"),
                                                  params={"pageToken": "bad"}),
        lambda s, r: grpc_refusal(s.notifications.ListNotifications, npb.ListNotificationsRequest(page_token="bad"),
                                  user_jwt("inbox"))),
}


@pytest.mark.parametrize("case", sorted(OTHER_REFUSALS))
def test_no_refusal_a_client_can_get_uses_a_codes_own_name(rest, stub, case):
    reason, on_rest, on_grpc = OTHER_REFUSALS[case]
    code, got, status, _ = on_rest(rest)
    assert (code, got) == (REASONS[reason][0], reason)
    assert status == {"NOT_FOUND": 404, "UNAUTHENTICATED": 401, "INVALID_ARGUMENT": 400}[code]
    assert on_grpc(stub, rest)[:2] == (REASONS[reason][0], reason)
