"""Two `tablero serve` replicas on one Redis serve the same games interchangeably."""

import json
import threading

import grpc
import httpx
import pytest
from google.protobuf import struct_pb2
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests import plainhttp
from tests.server.support import ServerProcess


def auth(t):
    return {"Authorization": f"Bearer {t}"}


@pytest.fixture
def replicas(fresh_redis_url):
    env = {"TABLERO_REDIS_URL": fresh_redis_url}
    a, b = ServerProcess(env), ServerProcess(env)
    a.start()
    b.start()
    try:
        yield a, b
    finally:
        a.kill()
        b.kill()


def test_an_action_through_one_replica_is_seen_and_watched_through_the_other(replicas):
    a, b = replicas
    out = plainhttp.post(a.http + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, t = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    got, ready = [], threading.Event()

    def watch():  # SSE on replica A
        with httpx.Client(timeout=15) as c, c.stream("GET", f"{a.http}/v1/games/{gid}/watch?afterVersion=1") as r:
            ready.set()
            for line in r.iter_lines():
                if line.startswith("data: "):
                    got.append(json.loads(line[6:]))
                    if len(got) == 2:
                        return

    th = threading.Thread(target=watch)
    th.start()
    assert ready.wait(10)
    # gRPC stream on replica A too
    with grpc.insecure_channel(a.grpc) as ch:
        stream = pbg.GameServiceStub(ch).WatchGame(pb.WatchGameRequest(game_id=gid, after_version=1))
        # Two moves through replica B
        r = plainhttp.post(f"{b.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                       headers=auth(t[0]))
        assert r.status_code == 200, r.text
        with grpc.insecure_channel(b.grpc) as chb:
            s = struct_pb2.Struct()
            s.update({"type": "place", "cell": 0})
            pbg.GameServiceStub(chb).SubmitAction(pb.SubmitActionRequest(game_id=gid, action=s),
                                                  metadata=[("authorization", f"Bearer {t[1]}")])
        first = next(stream)
        second = next(stream)
        stream.cancel()
    th.join(15)
    assert [e["version"] for e in got] == [2, 3]
    assert (first.version, second.version) == (2, 3)
    # Replica A's cached state catches up: its view shows B's moves.
    g = plainhttp.get(f"{a.http}/v1/games/{gid}").json()
    assert g["version"] == 3 and g["view"]["board"][4] == 0 and g["view"]["board"][0] == 1


def test_killing_a_replica_loses_nothing(replicas):
    a, b = replicas
    out = plainhttp.post(a.http + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, t = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    for seat, cell in [(0, 0), (1, 3)]:
        assert plainhttp.post(f"{a.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                          headers=auth(t[seat])).status_code == 200
    a.kill()  # SIGKILL: no graceful anything
    for seat, cell in [(0, 1), (1, 4), (0, 2)]:
        r = plainhttp.post(f"{b.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                       headers=auth(t[seat]))
        assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "GAME_STATUS_FINISHED" and g["outcome"]["winners"] == [0] and g["version"] == 7


def test_concurrent_actions_on_two_replicas_one_wins(replicas):
    a, b = replicas
    out = plainhttp.post(a.http + "/v1/games", json={"engine": "goofspiel", "players": 2}).json()
    gid, t = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    results = []

    def bid(url, card):
        results.append(plainhttp.post(f"{url}/v1/games/{gid}/actions", headers=auth(t[0]),
                                  json={"action": {"type": "bid", "card": card}, "expectedVersion": 1}).status_code)

    ths = [threading.Thread(target=bid, args=(u, c)) for u, c in [(a.http, 1), (b.http, 2)] * 3]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    assert sorted(results) == [200, 409, 409, 409, 409, 409]
    assert plainhttp.get(f"{b.http}/v1/games/{gid}").json()["version"] == 2


def test_sigterm_shuts_down_gracefully_closing_streams(fresh_redis_url):
    p = ServerProcess({"TABLERO_REDIS_URL": fresh_redis_url}).start()
    gid = plainhttp.post(p.http + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()["game"]["id"]
    lines, opened = [], threading.Event()

    def watch():
        with httpx.Client(timeout=15) as c, c.stream("GET", f"{p.http}/v1/games/{gid}/watch") as r:
            opened.set()
            lines.extend(r.iter_lines())  # ends when the server closes the stream

    th = threading.Thread(target=watch)
    th.start()
    assert opened.wait(10)
    code, err = p.terminate()
    th.join(15)
    assert not th.is_alive()
    assert code == 0
    assert "event: shutdown" in lines
    assert '"msg":"stopped"' in err


def _sse_versions(url: str, limit: int = 50) -> tuple[list[int], bool]:
    """The versions an SSE watch delivers, and whether it ended with `event: tablero-end`."""
    versions, ended, event = [], False, None
    with httpx.Client(timeout=15) as c, c.stream("GET", url) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                if event in ("end", "tablero-end"):
                    ended = True
                    break
                versions.append(json.loads(line[6:])["version"])
                event = None
                if len(versions) >= limit:
                    break
    return versions, ended


def test_a_watch_from_the_start_on_the_other_replica_folds_the_game_itself(replicas):
    """A page opened on a replica that never saw the game watches from version 0 without
    loading its state: it folds every event it sends, and ends after the last one."""
    a, b = replicas
    out = plainhttp.post(a.http + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, t = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    got: list = []
    th = threading.Thread(target=lambda: got.append(_sse_versions(f"{b.http}/v1/games/{gid}/watch")))
    th.start()
    for i, cell in enumerate([0, 3, 1, 4, 2]):  # seat 0 wins on the top row, through replica A
        r = plainhttp.post(f"{a.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                       headers=auth(t[i % 2]))
        assert r.status_code == 200, r.text
    th.join(15)
    final = plainhttp.get(f"{a.http}/v1/games/{gid}").json()
    assert final["status"] == "GAME_STATUS_FINISHED"
    assert got == [(list(range(1, final["version"] + 1)), True)]
    # The finished game, watched from the start on a third connection to B: all of it, then end.
    assert _sse_versions(f"{b.http}/v1/games/{gid}/watch") == (list(range(1, final["version"] + 1)), True)
