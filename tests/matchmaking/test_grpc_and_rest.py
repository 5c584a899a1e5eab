"""The same over gRPC (from players.proto) and REST: a ticket watched to its match, the
leaderboard and the player, and the SSE watch of a ticket."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time

import grpc
import httpx
import pytest
from tablero.server.grpc.gen import players_pb2 as pb
from tablero.server.grpc.gen import players_pb2_grpc as pbg

from tests import plainhttp
from tests.ratings.support import KEYS, bearer, token
from tests.server.support import ROOT, ServerProcess, free_ports


@pytest.fixture(scope="module")
def server():
    with ServerProcess({"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


def _meta(user: str):
    return [("authorization", "Bearer " + token(user))]


def test_grpc_ticket_watched_to_its_match_then_resign_and_the_leaderboard(server):
    with grpc.insecure_channel(server.grpc) as ch:
        mm, players = pbg.MatchmakingServiceStub(ch), pbg.PlayerServiceStub(ch)
        with pytest.raises(grpc.RpcError) as e:
            mm.CreateMatchTicket(pb.CreateMatchTicketRequest(engine="tic-tac-toe"))
        assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
        a = mm.CreateMatchTicket(pb.CreateMatchTicketRequest(engine="tic-tac-toe", players=[2]), metadata=_meta("gx"))
        assert a.ticket.status == pb.MATCH_TICKET_STATUS_WAITING
        stream = mm.WatchMatchTicket(pb.WatchMatchTicketRequest(ticket_id=a.ticket.id), metadata=_meta("gx"))
        first = next(stream)
        assert first.ticket.status == pb.MATCH_TICKET_STATUS_WAITING
        b = plainhttp.post(f"{server.http}/v1/matchmaking/tickets", json={"engine": "tic-tac-toe"}, headers=bearer("gy"))
        matched = next(stream)
        assert matched.ticket.status == pb.MATCH_TICKET_STATUS_MATCHED and matched.version == 2
        assert list(stream) == []  # the stream ends once the ticket is matched
        gid = matched.ticket.game_id
        # The seat token works, and so does the portal JWT; each moves once (a game some user
        # never moved in is not rated), then gy resigns: gx wins the rated game.
        g = plainhttp.get(f"{server.http}/v1/games/{gid}", headers={"Authorization": "Bearer " + matched.ticket.seat_token})
        assert g.json()["yourSeat"] == matched.ticket.seat
        for _ in range(2):
            to_act = plainhttp.get(f"{server.http}/v1/games/{gid}").json()["toAct"]
            who = "gx" if to_act == [matched.ticket.seat] else "gy"
            cell = plainhttp.get(f"{server.http}/v1/games/{gid}/legal-actions", headers=bearer(who)).json()["actions"][0]
            plainhttp.post(f"{server.http}/v1/games/{gid}/actions", json={"action": cell},
                           headers=bearer(who)).raise_for_status()
        r = plainhttp.post(f"{server.http}/v1/games/{gid}/resign", json={}, headers=bearer("gy"))
        assert r.json()["status"] == "GAME_STATUS_FINISHED"
        # The SSE watch of gy's ticket: its one change (matched), then `end` with its status.
        tb = b.json()["ticket"]["id"]
        with plainhttp.stream("GET", f"{server.http}/v1/matchmaking/tickets/{tb}/watch?access_token={token('gy')}") as s:
            text = s.read().decode()
        assert "id: 2\n" in text and '"status":"MATCH_TICKET_STATUS_MATCHED"' in text
        assert 'event: end\ndata: {"status":"MATCH_TICKET_STATUS_MATCHED"}' in text
        # The game is rated right after the resign's reply (docs/ratings.md): wait for it.
        deadline = time.monotonic() + 20
        while not (board := players.GetLeaderboard(pb.GetLeaderboardRequest(engine="tic-tac-toe"))).entries \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [e.user_id for e in board.entries][:2] == ["gx", "gy"] and board.total_players == 2
        p = players.GetPlayer(pb.GetPlayerRequest(user_id="gy")).player
        assert p.games_played == 1 and p.wins == 0 and p.recent_games[0].game_id == gid
        with pytest.raises(grpc.RpcError) as e:
            players.GetPlayer(pb.GetPlayerRequest(user_id="nobody"))
        assert e.value.code() == grpc.StatusCode.NOT_FOUND


def test_rate_limits_and_the_open_games_cap_apply_to_tickets():
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning", "TABLERO_CREATE_RATE_LIMIT": "2/m,2",
           "TABLERO_MAX_OPEN_GAMES_PER_USER": "1"}
    with ServerProcess(env) as s:
        url = f"{s.http}/v1/matchmaking/tickets"
        first = plainhttp.post(url, json={"engine": "tic-tac-toe", "requestId": "rl-1"}, headers=bearer("rl"))
        assert first.status_code == 200
        assert plainhttp.post(url, json={"engine": "tic-tac-toe"}, headers=bearer("rl")).status_code == 200
        third = plainhttp.post(url, json={"engine": "tic-tac-toe"}, headers=bearer("rl"))
        assert third.status_code == 429 and third.headers.get("Retry-After")
        # A retry of a request that made a ticket creates nothing: it answers that ticket, not 429.
        again = plainhttp.post(url, json={"engine": "tic-tac-toe", "requestId": "rl-1"}, headers=bearer("rl"))
        assert again.status_code == 200, again.text
        assert again.json()["ticket"]["id"] == first.json()["ticket"]["id"]
        # A user with a running game (the cap is 1) gets no ticket.
        plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]}, headers=bearer("cap"))
        capped = plainhttp.post(url, json={"engine": "tic-tac-toe"}, headers=bearer("cap"))
        assert capped.status_code == 429 and "running games" in capped.json()["error"]["message"]


def test_bots_fill_a_lonely_ticket_after_its_wait_and_that_game_is_not_rated(server):
    h = bearer("lonely")
    t = plainhttp.post(f"{server.http}/v1/matchmaking/tickets", headers=h, json={
        "engine": "goofspiel", "players": [3], "botsAfterSeconds": 1}).json()["ticket"]
    assert t["botsAfterSeconds"] == 1
    time.sleep(0.5)
    assert plainhttp.get(f"{server.http}/v1/matchmaking/tickets/{t['id']}", headers=h).json()["ticket"]["status"] == \
        "MATCH_TICKET_STATUS_WAITING"
    deadline = time.monotonic() + 10
    while (t := plainhttp.get(f"{server.http}/v1/matchmaking/tickets/{t['id']}", headers=h).json()["ticket"])["status"] \
            == "MATCH_TICKET_STATUS_WAITING":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert t["status"] == "MATCH_TICKET_STATUS_MATCHED" and t["matchTime"] - t["createTime"] >= 1
    g = plainhttp.get(f"{server.http}/v1/games/{t['gameId']}", headers=h).json()
    assert [s["kind"] for s in g["seats"]].count("SEAT_KIND_BOT") == 2 and g["players"] == 3
    assert g["seats"][t["seat"]]["userId"] == "lonely"
    plainhttp.post(f"{server.http}/v1/games/{t['gameId']}/resign", json={}, headers=h)
    assert plainhttp.get(f"{server.http}/v1/players/lonely").status_code == 404


def test_the_workers_of_one_sqlite_file_share_the_queue(tmp_path):
    """`serve --workers 2` on a SQLite file: a ticket made by one process is read and matched by
    either (the kernel spreads the connections)."""
    http, grpc_port = free_ports(2)
    env = {**os.environ, "TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "w.db"),
           "TABLERO_SHUTDOWN_GRACE": "2", "TABLERO_SECRET": "workers-test-secret-0123456789"}
    proc = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--workers", "2", "--host", "127.0.0.1",
                             "--http-port", str(http), "--grpc-port", str(grpc_port)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{http}/v1/matchmaking/tickets"
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if plainhttp.get(f"http://127.0.0.1:{http}/readyz", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline and proc.poll() is None, "workers did not start"
            time.sleep(0.2)
        ids = {u: plainhttp.post(url, json={"engine": "tic-tac-toe"}, headers=bearer(u)).json()["ticket"]["id"]
               for u in ("w1", "w2")}
        deadline = time.monotonic() + 15
        games = set()
        for u, tid in ids.items():
            for _ in range(6):  # new connections: either worker answers, and knows the ticket
                with httpx.Client() as c:
                    t = c.get(f"{url}/{tid}", headers=bearer(u)).json()["ticket"]
            while t["status"] != "MATCH_TICKET_STATUS_MATCHED":
                assert time.monotonic() < deadline
                time.sleep(0.2)
                t = plainhttp.get(f"{url}/{tid}", headers=bearer(u)).json()["ticket"]
            games.add(t["gameId"])
        assert len(games) == 1
    finally:
        proc.terminate()  # the supervisor stops its workers
        proc.wait(30)


def test_the_ticket_watch_refuses_event_source_as_the_unknown_parameter_it_is(server):
    """`eventSource=true` is a field of the game watch only: on the ticket watch it is refused
    (400) like any unknown parameter, not answered in the EventSource way while saying so."""
    r = plainhttp.get(f"{server.http}/v1/matchmaking/tickets/nosuch/watch?access_token={token('gz')}&eventSource=true")
    assert r.status_code == 400, r.text
    assert r.json()["error"]["reason"] == "INVALID_ARGUMENT" and "eventSource" in r.json()["error"]["message"]


def _connect_stream(url: str, body: bytes, user: str) -> list[tuple[int, dict]]:
    """A Connect server-stream call (JSON): the envelopes of the answer, (flags, JSON)."""
    envelope = b"\x00" + len(body).to_bytes(4, "big") + body
    r = httpx.post(url, content=envelope, timeout=30, headers={
        "content-type": "application/connect+json", "connect-protocol-version": "1", **bearer(user)})
    out, data = [], r.content
    while data:
        flags, size = data[0], int.from_bytes(data[1:5], "big")
        out.append((flags, json.loads(data[5:5 + size] or b"{}")))
        data = data[5 + size:]
    return out


def test_a_ticket_watched_over_connect(server):
    """The TypeScript SDK's (and any Connect client's) WatchMatchTicket: it was run as a game's
    watch (`gameId is required`), so no Connect client could watch a ticket."""
    ticket = httpx.post(server.http + "/v1/matchmaking/tickets", json={"engine": "goofspiel"},
                        headers=bearer("cw-ann")).json()["ticket"]
    timer = threading.Timer(0.5, lambda: httpx.post(f"{server.http}/v1/matchmaking/tickets/{ticket['id']}:cancel",
                                                  json={}, headers=bearer("cw-ann")))
    timer.start()
    frames = _connect_stream(server.http + "/tablero.v1.MatchmakingService/WatchMatchTicket",
                             json.dumps({"ticketId": ticket["id"]}).encode(), "cw-ann")
    timer.join()
    *messages, (end_flags, end) = frames
    assert end_flags & 2 and "error" not in end, end
    assert [(m["version"], m["ticket"]["status"]) for _, m in messages] == [
        (1, "MATCH_TICKET_STATUS_WAITING"), (2, "MATCH_TICKET_STATUS_CANCELLED")]
    # Another user's ticket: refused as over REST and gRPC.
    [(flags, refused)] = _connect_stream(server.http + "/tablero.v1.MatchmakingService/WatchMatchTicket",
                                         json.dumps({"ticketId": ticket["id"]}).encode(), "cw-bob")
    assert flags & 2 and refused["error"]["code"] == "permission_denied", refused
