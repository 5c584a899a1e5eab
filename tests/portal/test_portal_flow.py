"""Issue 11, done-when: a portal behind two real replicas on one real Redis, over REST and gRPC.

Portal users sign in with portal-signed JWTs (PyJWT here), find each other's games in the
lobby, play with their JWTs alone, leave, stall past their deadlines (even when a replica
is SIGKILLed), and are rate limited on every replica.
"""

from __future__ import annotations

import json
import time

import grpc
import httpx
import jwt
import pytest
from google.protobuf import struct_pb2
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests import plainhttp
from tests.server.support import ServerProcess

K1, K2 = "k1-" + "a" * 40, "k2-" + "b" * 40
SECRET_1 = "s1:first-seat-token-secret-0123456789"
SECRET_2 = "s2:second-seat-token-secret-987654321," + SECRET_1


def token(user: str, kid: str = "k1", key: str = K1, *, exp: float | None = None, name: str | None = None) -> str:
    claims = {"sub": user, "exp": int(exp if exp is not None else time.time() + 600)}
    if name:
        claims["name"] = name
    return jwt.encode(claims, key, algorithm="HS256", headers={"kid": kid})


def bearer(t: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {t}"}


def env(redis_url: str, keys: dict[str, str] | None = None, secret: str = SECRET_1, **more: str) -> dict[str, str]:
    return {"TABLERO_REDIS_URL": redis_url, "TABLERO_PORTAL_KEYS": json.dumps(keys or {"k1": K1, "k2": K2}),
            "TABLERO_SECRET": secret, "TABLERO_RATE_LIMIT": "1/s,100", "TABLERO_CREATE_RATE_LIMIT": "10/m,8",
            "TABLERO_MAX_OPEN_GAMES_PER_USER": "5", **more}


@pytest.fixture
def replicas(fresh_redis_url):
    procs = [ServerProcess(env(fresh_redis_url)).start(), ServerProcess(env(fresh_redis_url)).start()]
    try:
        yield procs
    finally:
        for p in procs:
            p.kill()


def stub(replica: ServerProcess) -> tuple[grpc.Channel, pbg.GameServiceStub]:
    ch = grpc.insecure_channel(replica.grpc)
    return ch, pbg.GameServiceStub(ch)


def meta(t: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {t}")]


def place(cell: int) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update({"type": "place", "cell": cell})
    return s


def events(replica: ServerProcess, gid: str) -> list[dict]:
    return [e["event"] for e in plainhttp.get(f"{replica.http}/v1/games/{gid}/events?pageSize=1000").json()["events"]]


def test_two_portal_users_find_join_and_play_with_their_jwts_alone_across_a_key_rotation(replicas, fresh_redis_url):
    a, b = replicas
    alice = token("alice", name="Alice")
    r = plainhttp.post(f"{a.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=bearer(alice))
    assert r.status_code == 200, r.text
    gid = r.json()["game"]["id"]
    seat_token = r.json()["seats"][0]["token"]  # alice's seat token too (anonymous clients keep working)
    assert r.json()["game"]["seats"][0] == {"seat": 0, "kind": "SEAT_KIND_HUMAN", "claimed": True,
                                            "userId": "alice", "userName": "Alice"}

    # Bob finds it in the lobby on the other replica, and joins over gRPC with his JWT.
    bob = token("bob")
    lobby = plainhttp.get(f"{b.http}/v1/games?openSeats=true", headers=bearer(bob)).json()
    entry = next(g for g in lobby["games"] if g["id"] == gid)
    assert entry["engine"] == "tic-tac-toe" and entry["status"] == "GAME_STATUS_RUNNING" and entry["version"] == 1
    assert [(s["kind"], s["claimed"], s.get("userName")) for s in entry["seats"]] == [
        ("SEAT_KIND_HUMAN", True, "Alice"), ("SEAT_KIND_OPEN", False, None)]
    ch, grpc_b = stub(b)
    with ch:
        joined = grpc_b.JoinGame(pb.JoinGameRequest(game_id=gid), metadata=meta(bob))
        assert joined.seat == 1
        again = grpc_b.JoinGame(pb.JoinGameRequest(game_id=gid), metadata=meta(bob))  # a new device: same seat
        assert again.seat == 1
        assert gid not in [g["id"] for g in plainhttp.get(f"{a.http}/v1/games?openSeats=true").json()["games"]]

        # They play with their JWTs alone: alice over REST on A, bob over gRPC on B.
        def alice_plays(cell: int, t: str, where: ServerProcess) -> dict:
            r = plainhttp.post(f"{where.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                           headers=bearer(t))
            assert r.status_code == 200, r.text
            return r.json()

        assert alice_plays(0, alice, a)["yourSeat"] == 0
        grpc_b.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=place(3)), metadata=meta(bob))

        # The portal rotates: it signs with k2 now; replica B restarts knowing only k2, and
        # with a new seat-token secret listed first (the old one still verifies old tokens).
        b.kill()
        b2 = ServerProcess(env(fresh_redis_url, {"k2": K2}, secret=SECRET_2)).start()
        replicas.append(b2)
        alice2, bob2 = token("alice", "k2", K2), token("bob", "k2", K2)
        refused = plainhttp.get(f"{b2.http}/v1/games/{gid}", headers=bearer(alice))
        assert refused.status_code == 401 and "unknown key id 'k1'" in refused.json()["error"]["message"]
        assert alice_plays(1, alice2, b2)["version"] == 4
        assert plainhttp.get(f"{b2.http}/v1/games/{gid}", headers=bearer(seat_token)).json()["yourSeat"] == 0
    ch2, grpc_b2 = stub(b2)
    with ch2:
        grpc_b2.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=place(4)), metadata=meta(bob2))
        # Bob may not play alice's seat, nor play out of turn.
        with pytest.raises(grpc.RpcError) as e:
            grpc_b2.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=place(8)), metadata=meta(bob2))
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        done = alice_plays(2, alice, a)  # A still lists k1
        assert done["status"] == "GAME_STATUS_FINISHED" and done["outcome"]["winners"] == [0]
        # The lobby learns that a game ended right after the last move's reply (bookkeeping.py:
        # one round trip fewer on that move), so another replica's list may trail it briefly.
        deadline = time.monotonic() + 5
        while True:
            mine = grpc_b2.ListGames(pb.ListGamesRequest(mine=True), metadata=meta(bob2))
            listed = [(g.id, g.status, g.version) for g in mine.games]
            if listed == [(gid, pb.GAME_STATUS_FINISHED, done["version"])] or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert listed == [(gid, pb.GAME_STATUS_FINISHED, done["version"])]


def test_lobby_filters_pages_and_mine(replicas):
    a, b = replicas
    carol, dan = token("carol"), token("dan")
    ids = []
    for i in range(4):
        seats = ["me", "open"] if i % 2 == 0 else ["me", "bot"]
        engine = "tic-tac-toe" if i < 3 else "goofspiel"
        r = plainhttp.post(f"{(a, b)[i % 2].http}/v1/games", json={"engine": engine, "seats": seats}, headers=bearer(carol))
        assert r.status_code == 200, r.text
        ids.append(r.json()["game"]["id"])
    plainhttp.post(f"{a.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=bearer(dan))
    seen, page = [], ""
    while True:
        r = plainhttp.get(f"{b.http}/v1/games", params={"mine": "true", "pageSize": 3, "pageToken": page},
                      headers=bearer(carol)).json()
        seen += [g["id"] for g in r["games"]]
        page = r["nextPageToken"]
        if not page:
            break
    assert seen == ids[::-1]  # newest first, every game once, only carol's
    ttt = plainhttp.get(f"{a.http}/v1/games", params={"engine": "goofspiel"}).json()["games"]
    assert [g["id"] for g in ttt] == [ids[3]]
    running = plainhttp.get(f"{a.http}/v1/games", params={"status": "GAME_STATUS_FINISHED"}).json()["games"]
    assert running == []


def test_a_sleeping_seat_is_played_by_a_bot_exactly_once_even_when_a_replica_is_killed(replicas):
    a, b = replicas
    erin = token("erin")
    r = plainhttp.post(f"{a.http}/v1/games", json={
        "engine": "tic-tac-toe", "seatSpecs": [{"kind": "me"}, {"kind": "human", "userId": "fay"}],
        "clock": {"moveSeconds": 1, "onTimeout": "bot"}}, headers=bearer(erin))
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    gid = game["id"]
    assert [d["seat"] for d in game["deadlines"]] == [0] and game["deadlines"][0]["deadline"] > time.time()
    time.sleep(0.6)
    a.proc.kill()  # SIGKILL: the replica that created the game (and sweeps too) is gone
    a.proc.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        g = plainhttp.get(f"{b.http}/v1/games/{gid}").json()
        if g["version"] >= 5:
            break
        time.sleep(0.2)
    log = events(b, gid)
    outs = [(i, e) for i, e in enumerate(log) if e["type"] == "tablero.turn_timed_out"]
    assert len(outs) >= 2
    for i, e in outs:  # each timeout is followed by that seat's one move; no turn timed out twice
        assert log[i + 1]["type"] != "tablero.turn_timed_out" and log[i + 1].get("seat", e["seat"]) == e["seat"]
    seats = [e["seat"] for _, e in outs]
    assert all(s != t for s, t in zip(seats, seats[1:], strict=False))  # turns alternate: one timeout per turn
    # Fay comes back: her JWT opens her seat (named at creation), she holds the turn or the game is over.
    g = plainhttp.get(f"{b.http}/v1/games/{gid}", headers=bearer(token("fay"))).json()
    assert g["yourSeat"] == 1


def test_a_deadline_with_forfeit_ends_a_two_seat_game_for_the_other_seat(replicas):
    a, b = replicas
    r = plainhttp.post(f"{a.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "human"],
                                               "clock": {"moveSeconds": 1, "onTimeout": "forfeit"}},
                   headers=bearer(token("gus")))
    gid = r.json()["game"]["id"]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        g = plainhttp.get(f"{b.http}/v1/games/{gid}").json()
        if g["status"] == "GAME_STATUS_FINISHED":
            break
        time.sleep(0.2)
    assert g["outcome"]["winners"] == [1] and g["outcome"]["endedBy"] == "forfeit" and g["deadlines"] == []
    assert [e["type"] for e in events(a, gid)].count("tablero.seat_left") == 1


def test_resign_forfeits_or_hands_the_seat_to_a_bot(replicas):
    a, b = replicas
    hal, ida = token("hal"), token("ida")
    forfeit = plainhttp.post(f"{a.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]},
                         headers=bearer(hal)).json()["game"]["id"]
    plainhttp.post(f"{b.http}/v1/games/{forfeit}/join", json={}, headers=bearer(ida))
    g = plainhttp.post(f"{b.http}/v1/games/{forfeit}/resign", json={}, headers=bearer(hal)).json()
    assert g["status"] == "GAME_STATUS_FINISHED" and g["outcome"]["winners"] == [1]
    assert g["outcome"]["details"][0]["forfeited"] == "resigned"

    bot = plainhttp.post(f"{a.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"], "onLeave": "bot"},
                     headers=bearer(hal)).json()["game"]["id"]
    plainhttp.post(f"{b.http}/v1/games/{bot}/join", json={}, headers=bearer(ida))
    ch, grpc_a = stub(a)
    with ch:
        g = grpc_a.Resign(pb.ResignRequest(game_id=bot), metadata=meta(hal)).game
        assert g.status == pb.GAME_STATUS_RUNNING and list(g.to_act) == [1] and g.version == 3  # the bot moved
        assert g.seats[0].kind == pb.SEAT_KIND_BOT and g.seats[1].kind == pb.SEAT_KIND_OPEN  # a bot plays seat 0 now
        with pytest.raises(grpc.RpcError) as e:
            grpc_a.SubmitAction(pb.SubmitActionRequest(game_id=bot, action=place(8)), metadata=meta(hal))
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "left" in e.value.details()
    # ida plays on against the bot until the end
    for _ in range(10):
        g = plainhttp.get(f"{b.http}/v1/games/{bot}", headers=bearer(ida)).json()
        if g["status"] == "GAME_STATUS_FINISHED":
            break
        cell = next(i for i, c in enumerate(g["view"]["board"]) if c is None)
        r = plainhttp.post(f"{b.http}/v1/games/{bot}/actions", json={"action": {"type": "place", "cell": cell}},
                       headers=bearer(ida))
        assert r.status_code == 200, r.text
    assert g["status"] == "GAME_STATUS_FINISHED"


def test_a_burst_beyond_the_limit_gets_429_on_every_replica(replicas):
    a, b = replicas
    jo = token("jo")
    codes = {a.http: [], b.http: []}
    started = time.monotonic()
    with httpx.Client() as c:
        for i in range(200):
            where = (a, b)[i % 2].http
            r = c.get(f"{where}/v1/engines", headers=bearer(jo))
            codes[where].append(r.status_code)
            if r.status_code == 429:
                assert int(r.headers["Retry-After"]) >= 1 and r.json()["error"]["code"] == "RESOURCE_EXHAUSTED"
    elapsed = time.monotonic() - started
    assert all(429 in v for v in codes.values()) and all(v[:20] == [200] * 20 for v in codes.values())
    # One bucket shared by both replicas: a burst of 100, then 1 a second.
    assert sum(v.count(200) for v in codes.values()) <= 100 + elapsed + 2
    ch, grpc_b = stub(b)
    with ch:
        # The same bucket over gRPC. A slow machine may have earned a token (1 a second) since the
        # last HTTP call: of five calls in a row, one at most gets through.
        refused = []
        for _ in range(5):
            try:
                grpc_b.ListEngines(pb.ListEnginesRequest(), metadata=meta(jo))
            except grpc.RpcError as e:
                refused.append(e)
        assert len(refused) >= 4 and all(e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED for e in refused), refused
        assert int(dict(refused[0].trailing_metadata())["retry-after"]) >= 1
    # Creating has its own, stricter limit (8 at once here).
    kim = token("kim")
    made = [plainhttp.post(f"{(a, b)[i % 2].http}/v1/games", json={"engine": "tic-tac-toe"}, headers=bearer(kim)).status_code
            for i in range(10)]
    assert made[:8] == [200] * 8 and made[8:] == [429, 429]


def test_every_bad_input_gets_its_specific_error(replicas):
    a, _ = replicas
    url = f"{a.http}/v1/games"

    def err(r: httpx.Response) -> tuple[int, str]:
        return r.status_code, r.json()["error"]["message"]

    cases = [
        (plainhttp.get(url, headers=bearer(token("x", exp=time.time() - 120))), "the JWT has expired"),
        (plainhttp.get(url, headers=bearer(token("x", "k9", K1))), "unknown key id 'k9'"),
        (plainhttp.get(url, headers=bearer(token("x", "k1", K2))), "signature does not verify"),
        (plainhttp.get(url, headers=bearer(jwt.encode({"sub": "x"}, K1, headers={"kid": "k1"}))), 'lacks the "exp"'),
        (plainhttp.post(url, json={"engine": "tic-tac-toe", "seats": ["me", "open"]}), '"me" seat needs a portal JWT'),
        (plainhttp.get(url, params={"mine": "true"}), "mine=true needs a portal JWT"),
    ]
    for r, why in cases:
        assert r.status_code == 401 and why in r.json()["error"]["message"], r.text
    # A seat token where a portal JWT is needed: a token was sent, of the wrong kind (not "missing").
    seat_token = plainhttp.post(url, json={"engine": "tic-tac-toe"}).json()["seats"][0]["token"]
    for r in (plainhttp.get(url, params={"mine": "true"}, headers=bearer(seat_token)),
              plainhttp.post(url, json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=bearer(seat_token))):
        e = r.json()["error"]
        assert r.status_code == 401 and e["reason"] == "TOKEN_INVALID" and "is a seat token" in e["message"], r.text
    # A token of neither kind is not called a seat token.
    r = plainhttp.get(url, params={"mine": "true"}, headers=bearer("abc.def.ghi"))
    e = r.json()["error"]
    assert r.status_code == 401 and e["reason"] == "TOKEN_INVALID", r.text
    assert "neither a portal JWT nor a seat token" in e["message"], r.text
    lee = bearer(token("lee"))
    bad = [
        ({"engine": "tic-tac-toe", "seats": ["me", "robot"]}, "the kind must be one of"),
        ({"engine": "tic-tac-toe", "seats": ["me"], "seatSpecs": [{"kind": "me"}]}, "either"),
        ({"engine": "tic-tac-toe", "seatSpecs": [{"kind": "me"}, {"kind": "human", "userId": "bad2"}]}, "only one seat"),
        ({"engine": "tic-tac-toe", "seatSpecs": [{"kind": "me"}, {"kind": "bot", "userId": "x"}]}, "only a human"),
        ({"engine": "tic-tac-toe", "onLeave": "vanish"}, '"onLeave" must be'),
        ({"engine": "tic-tac-toe", "clock": {"moveSeconds": 0}}, '"clock.moveSeconds" must be'),
        ({"engine": "tic-tac-toe", "clock": {"moveSeconds": 5, "onTimeout": "pass"}}, '"clock.onTimeout" must be'),
    ]
    for i, (body, why) in enumerate(bad):  # (each its own user: failed creations count against the limit too)
        status, msg = err(plainhttp.post(url, json=body, headers=bearer(token(f"bad{i}"))))
        assert status == 400 and why in msg, (body, msg)
    assert err(plainhttp.get(url, params={"pageToken": "nope"})) == (400, "pageToken is not a token this server issued")
    assert err(plainhttp.get(url, params={"pageSize": -1}))[0] == 400  # 101: clamped (tests/server/test_page_sizes.py)
    gid = plainhttp.post(url, json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=lee).json()["game"]["id"]
    status, msg = err(plainhttp.post(f"{url}/{gid}/actions", json={"action": {"type": "place", "cell": 0}},
                                 headers=bearer(token("mo"))))
    assert status == 403 and "holds no seat" in msg
    # The open-games cap (5 here): lee has one running; four more, then refused.
    for _ in range(4):
        assert plainhttp.post(url, json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=lee).status_code == 200
    status, msg = err(plainhttp.post(url, json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=lee))
    assert status == 429 and "TABLERO_MAX_OPEN_GAMES_PER_USER=5" in msg
