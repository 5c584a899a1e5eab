"""Edge cases an outside acceptance test found: each gets a clear 4xx, never a 500 or a hang."""

import json
import threading

import grpc
import httpx
import pytest
from google.protobuf import struct_pb2
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests.server.conftest import auth


def new_game(http, engine="tic-tac-toe", players=2):
    out = http.post("/v1/games", json={"engine": engine, "players": players}).json()
    return out["game"]["id"], [s["token"] for s in out["seats"]]


def code(r, status):
    assert r.status_code == status, r.text
    return r.json()["error"]["code"]


@pytest.mark.parametrize("players", [2**31, 10**30, 200_000_000, -1, 0])
def test_absurd_player_counts_are_refused_at_once(http, players):
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": players}, timeout=5)
    assert code(r, 400) == "INVALID_ARGUMENT"
    # A number longer than the strict JSON parser takes (30 digits) is refused as such.
    want = "more than 30 digits" if len(str(abs(players))) > 30 else "takes 2 players"
    assert want in r.json()["error"]["message"]


def test_players_and_seats_that_disagree_are_named(http):
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 3, "seats": ["human", "bot"]})
    assert code(r, 400) == "INVALID_ARGUMENT"
    assert '"players" is 3 but "seats" lists 2' in r.json()["error"]["message"]


def test_two_seats_may_use_the_same_request_id(http):
    gid, (x, o) = new_game(http)
    a = http.post(f"/v1/games/{gid}/actions", headers=auth(x),
                  json={"action": {"type": "place", "cell": 4}, "requestId": "move-1"})
    b = http.post(f"/v1/games/{gid}/actions", headers=auth(o),
                  json={"action": {"type": "place", "cell": 0}, "requestId": "move-1"})
    assert a.json()["version"] == 2 and b.json()["version"] == 3
    assert b.json()["view"]["board"][0] == 1


@pytest.mark.parametrize("version", ["99999999999999999999", str(2**63), "1e3", "-1", "0"])
def test_huge_or_odd_versions_are_refused(http, version):
    gid, _ = new_game(http)
    assert code(http.get(f"/v1/games/{gid}", params={"version": version}), 400) == "INVALID_ARGUMENT"


def test_page_token_beyond_the_log_is_refused(http):
    import base64

    gid, _ = new_game(http)
    tok = base64.urlsafe_b64encode(f"{gid}:99999999999999999999".encode()).decode().rstrip("=")
    assert code(http.get(f"/v1/games/{gid}/events", params={"pageToken": tok}), 400) == "INVALID_ARGUMENT"


def test_deeply_nested_json_is_refused(http):
    body = '{"engine": "goofspiel", "players": 2, "options": ' + "[" * 100000 + "]" * 100000 + "}"
    r = http.post("/v1/games", content=body.encode())
    assert r.status_code in (400, 413)


def test_watch_beyond_the_log_is_refused(http):
    gid, _ = new_game(http)
    assert code(http.get(f"/v1/games/{gid}/watch", params={"afterVersion": "99999999999999999999"}), 400) == \
        "INVALID_ARGUMENT"
    r = http.get(f"/v1/games/{gid}/watch", headers={"Last-Event-ID": "999"})
    assert code(r, 400) == "INVALID_ARGUMENT"
    assert r.json()["error"]["message"].startswith("Last-Event-ID 999 is beyond")  # what the client sent
    r = http.get(f"/v1/games/{gid}/watch", params={"afterVersion": "999"}, headers={"Last-Event-ID": "1"})
    assert r.json()["error"]["message"].startswith("afterVersion 999 is beyond")


def test_a_body_game_id_must_match_the_path(http):
    gid, (x, _) = new_game(http)
    r = http.post(f"/v1/games/{gid}/actions", headers=auth(x),
                  json={"gameId": "other", "action": {"type": "place", "cell": 4}})
    assert code(r, 400) == "INVALID_ARGUMENT"


def test_a_token_has_one_spelling(http):
    gid, (x, _) = new_game(http)
    g, seat, sig = x.split(".")
    r = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(f"{g}.0{seat}.{sig}"))
    assert code(r, 401) == "UNAUTHENTICATED"


def test_grpc_refuses_non_finite_numbers(server):
    with grpc.insecure_channel(server.grpc) as ch:
        stub = pbg.GameServiceStub(ch)
        out = stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", players=2))
        a = struct_pb2.Struct()
        a.update({"type": "place", "cell": float("inf")})
        with pytest.raises(grpc.RpcError) as e:
            stub.SubmitAction(pb.SubmitActionRequest(game_id=out.game.id, action=a),
                              metadata=[("authorization", f"Bearer {out.seats[0].token}")])
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_errors_carry_cors_headers(http):
    r = http.get("/v1/games/nope", headers={"Origin": "http://portal.test"})
    assert r.status_code == 404 and r.headers["access-control-allow-origin"] == "*"


def test_concurrent_watchers_and_actions(http, server):
    """Several SSE watchers see the same events in the same order while two seats play."""
    gid, (x, o) = new_game(http)
    seen = [[] for _ in range(4)]

    def watch(i):
        with httpx.Client(timeout=15) as c, c.stream("GET", f"{server.http}/v1/games/{gid}/watch") as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    seen[i].append(json.loads(line[6:])["version"])
                    if len(seen[i]) == 6:
                        return

    ths = [threading.Thread(target=watch, args=(i,)) for i in range(4)]
    for t in ths:
        t.start()
    for seat, cell in [(x, 0), (o, 3), (x, 1), (o, 4), (x, 2)]:
        assert http.post(f"/v1/games/{gid}/actions", headers=auth(seat),
                         json={"action": {"type": "place", "cell": cell}}).status_code == 200
    for t in ths:
        t.join(15)
    assert all(s == [1, 2, 3, 4, 5, 6] for s in seen), seen


def test_watch_ends_after_the_last_event_of_a_finished_game(http, server):
    gid, (x, o) = new_game(http)
    for seat, cell in [(x, 0), (o, 3), (x, 1), (o, 4), (x, 2)]:
        http.post(f"/v1/games/{gid}/actions", headers=auth(seat), json={"action": {"type": "place", "cell": cell}})
    with httpx.Client(timeout=10) as c, c.stream("GET", f"{server.http}/v1/games/{gid}/watch") as r:
        lines = list(r.iter_lines())  # returns: the server closes the stream
    versions = [json.loads(line[6:])["version"] for line in lines if line.startswith("data: {\"gameId")]
    assert versions == list(range(1, 8))
    assert "event: end" in lines
    with grpc.insecure_channel(server.grpc) as ch:
        got = list(pbg.GameServiceStub(ch).WatchGame(pb.WatchGameRequest(game_id=gid, after_version=5), timeout=10))
        assert [e.version for e in got] == [6, 7]
        assert list(pbg.GameServiceStub(ch).WatchGame(pb.WatchGameRequest(game_id=gid, after_version=7),
                                                      timeout=10)) == []


def test_live_watch_ends_when_the_game_ends(http, server):
    gid, (x, o) = new_game(http)
    done = threading.Event()
    got = []

    def watch():
        with httpx.Client(timeout=15) as c, c.stream("GET", f"{server.http}/v1/games/{gid}/watch") as r:
            for line in r.iter_lines():
                got.append(line)
        done.set()

    t = threading.Thread(target=watch)
    t.start()
    for seat, cell in [(x, 0), (o, 3), (x, 1), (o, 4), (x, 2)]:
        http.post(f"/v1/games/{gid}/actions", headers=auth(seat), json={"action": {"type": "place", "cell": cell}})
    assert done.wait(15)
    assert "event: end" in got and "id: 7" in got


def test_past_versions_are_right_before_and_after_the_snapshot(http):
    """The server snapshots every 5 events in these tests: a past version before the
    snapshot replays from the start, one after it from the snapshot; both must be exact."""
    gid, tokens = new_game(http, engine="goofspiel", players=2)
    views = {}
    g = http.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json()
    views[g["version"]] = g["view"]
    while g["status"] == "GAME_STATUS_RUNNING":
        for seat in list(g["toAct"]):
            hand = http.get(f"/v1/games/{gid}", headers=auth(tokens[seat])).json()["view"]["hand"]
            g = http.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                          json={"action": {"type": "bid", "card": hand[-1]}}).json()
            views[g["version"]] = http.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json()["view"]
    assert g["version"] > 10
    for v, view in views.items():
        past = http.get(f"/v1/games/{gid}", params={"version": v}, headers=auth(tokens[0])).json()
        assert past["version"] == v and past["view"] == view, v


def test_a_bot_seat_with_an_empty_level(http):
    """`"bot:"` names no level: refused as a typo, as "bot:HARD" is. A seatSpec's `"level": ""`
    is the default (easy), as gRPC and Connect read an empty proto3 string: documented in README."""
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "bot:"]})
    assert code(r, 400) == "INVALID_ARGUMENT"
    assert 'seat 1: "bot:" names no bot level' in r.json()["error"]["message"] and "bot:hard" in r.text, r.text
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "bot:HARD"]})
    assert code(r, 400) == "INVALID_ARGUMENT" and "must be one of easy, medium, hard" in r.text
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [{"kind": "human"},
                                                                            {"kind": "bot", "level": ""}]})
    assert r.status_code == 200, r.text
    assert [s.get("botLevel") for s in r.json()["game"]["seats"]] == [None, None]
