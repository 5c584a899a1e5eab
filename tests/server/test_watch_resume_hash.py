"""A resumed watch names the hash of the last event it holds (`afterHash` / `after_hash`),
which every watched event carries (`hash`): when the log no longer holds that event (Redis
lost acknowledged writes while the client was away: see tests/faults/test_app_rollback.py),
the stream starts with a reset instead of going on from a history the client does not
share. A wrong hash stands in for the rewritten log here, on the default (SQLite) store.
ListEvents carries the same hashes, so a client may list the log and then watch from its end."""

from __future__ import annotations

import json

import grpc
import httpx
import pytest
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


def _game(http: httpx.Client) -> tuple[str, str]:
    created = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, (x, o) = created["game"]["id"], [s["token"] for s in created["seats"]]
    for token, cell in ((x, 0), (o, 4), (x, 8)):
        assert http.post(f"/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                         headers={"Authorization": f"Bearer {token}"}).status_code == 200
    return gid, x


def _messages(http: httpx.Client, gid: str, params: dict, n: int) -> list[tuple[str, dict]]:
    """The first n SSE messages as (event name or "", data)."""
    out: list[tuple[str, dict]] = []
    with http.stream("GET", f"/v1/games/{gid}/watch", params=params, headers={"Accept": "text/event-stream"}) as r:
        assert r.status_code == 200, r.read()
        name, data = "", None
        for line in r.iter_lines():
            if line.startswith("event:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                data = json.loads(line.split(":", 1)[1])
            elif line == "" and data is not None:
                out.append((name, data))
                name, data = "", None
                if len(out) >= n:
                    return out
    return out


def test_watched_events_carry_their_hash_and_a_matching_resume_goes_on(server) -> None:
    http = httpx.Client(base_url=server.http, timeout=10)
    gid, _ = _game(http)
    first = _messages(http, gid, {}, 4)
    assert [d["version"] for _, d in first] == [1, 2, 3, 4]
    hashes = [d["hash"] for _, d in first]
    assert all(len(h) == 16 for h in hashes) and len(set(hashes)) == 4
    resumed = _messages(http, gid, {"afterVersion": 2, "afterHash": hashes[1]}, 2)
    assert [(n, d["version"]) for n, d in resumed] == [("", 3), ("", 4)]


def test_a_resume_whose_hash_the_log_no_longer_holds_starts_with_a_reset(server) -> None:
    http = httpx.Client(base_url=server.http, timeout=10)
    gid, _ = _game(http)
    out = _messages(http, gid, {"afterVersion": 3, "afterHash": "0123456789abcdef"}, 6)
    assert out[:2] == [("reset", {"version": 0}), ("tablero-reset", {"version": 0})]  # its copy first, until v2
    assert [(n, d["version"]) for n, d in out[2:]] == [("", 1), ("", 2), ("", 3), ("", 4)]
    # Beyond the head with a hash: the client holds events the log lost (a reset); without one,
    # a bad afterVersion (400) as before.
    out = _messages(http, gid, {"afterVersion": 9, "afterHash": "0123456789abcdef", "eventSource": "true"}, 2)
    assert out[0] == ("tablero-reset", {"version": 0}) and out[1][1]["version"] == 1
    r = http.get(f"/v1/games/{gid}/watch", params={"afterVersion": 9})
    assert r.status_code == 400 and "beyond the game's current version" in r.text


def test_over_grpc_the_hash_comes_with_each_event_and_a_stale_one_is_aborted(server) -> None:
    http = httpx.Client(base_url=server.http, timeout=10)
    gid, x = _game(http)
    with grpc.insecure_channel(server.grpc) as channel:
        stub = pbg.GameServiceStub(channel)
        md = (("authorization", f"Bearer {x}"),)
        stream = stub.WatchGame(pb.WatchGameRequest(game_id=gid), metadata=md)
        got = [next(stream) for _ in range(4)]
        stream.cancel()
        assert [g.version for g in got] == [1, 2, 3, 4] and all(len(g.hash) == 16 for g in got)
        ok = stub.WatchGame(pb.WatchGameRequest(game_id=gid, after_version=3, after_hash=got[2].hash), metadata=md)
        assert next(ok).version == 4
        ok.cancel()
        stale = stub.WatchGame(pb.WatchGameRequest(game_id=gid, after_version=3, after_hash="0123456789abcdef"),
                               metadata=md)
        with pytest.raises(grpc.RpcError) as e:
            next(stale)
        assert e.value.code() == grpc.StatusCode.ABORTED and "resume from version 0" in e.value.details()


def test_a_listed_log_carries_the_same_hashes_so_a_page_can_list_then_watch_with_one(server) -> None:
    http = httpx.Client(base_url=server.http, timeout=10)
    gid, x = _game(http)
    listed = http.get(f"/v1/games/{gid}/events").json()["events"]
    watched = [d for _, d in _messages(http, gid, {}, 4)]
    assert listed == watched and all(len(e["hash"]) == 16 for e in listed)
    page = http.get(f"/v1/games/{gid}/events", params={"afterVersion": 1, "pageSize": 2}).json()
    assert [e["hash"] for e in page["events"]] == [e["hash"] for e in listed[1:3]]
    resumed = _messages(http, gid, {"afterVersion": 3, "afterHash": page["events"][-1]["hash"]}, 1)
    assert resumed == [("", listed[3])]
    with grpc.insecure_channel(server.grpc) as channel:
        got = pbg.GameServiceStub(channel).ListEvents(pb.ListEventsRequest(game_id=gid),
                                                      metadata=(("authorization", f"Bearer {x}"),))
        assert [(e.version, e.hash) for e in got.events] == [(e["version"], e["hash"]) for e in listed]


def test_query_parameters_take_proto_names_too(server) -> None:
    http = httpx.Client(base_url=server.http, timeout=10)
    gid, x = _game(http)
    page = http.get(f"/v1/games/{gid}/events", params={"page_size": 2, "after_version": 1}).json()
    assert [e["version"] for e in page["events"]] == [2, 3] and page["nextPageToken"]
    nxt = http.get(f"/v1/games/{gid}/events", params={"page_token": page["nextPageToken"]}).json()
    assert [e["version"] for e in nxt["events"]] == [4]
    resumed = _messages(http, gid, {"after_version": 2, "after_hash": page["events"][0]["hash"]}, 2)
    assert [(n, d["version"]) for n, d in resumed] == [("", 3), ("", 4)]
    both = http.get(f"/v1/games/{gid}/events", params={"pageSize": 2, "page_size": 3})
    assert both.status_code == 400 and "given more than once: pageSize (page_size and pageSize name the same field)" \
        in both.json()["error"]["message"], both.text
    for odd in (" 1", "1 ", "+1", "1_0", "\uff11", "1.0"):  # only ASCII digits, as JSON writes them
        r = http.get(f"/v1/games/{gid}/events", params={"after_version": odd})
        assert r.status_code == 400 and "must be an integer" in r.json()["error"]["message"], (odd, r.text)
    bad = http.get(f"/v1/games/{gid}/events", params={"page_sizes": 2})
    assert bad.status_code == 400 and "unknown query parameter(s) page_sizes" in bad.json()["error"]["message"]
