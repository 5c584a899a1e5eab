"""A watch that cannot start where it asked is refused with its status before the stream
(an EventSource retries a 200 stream that closes, for ever), and a stream that ends with an
error item is recorded with that error's code, not as OK."""

from __future__ import annotations

import json
import re

import grpc
import httpx
import pytest
import redis
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pb_grpc
from tablero.server.store.redis import game_keys

from tests.server.conftest import auth
from tests.server.support import ServerThread, scrape

MOVES = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]  # X wins on the top row


@pytest.fixture(scope="module")
def trimming(redis_url):
    """Redis, a snapshot every 4 events, and the entries a snapshot covers trimmed."""
    with ServerThread(redis_url=redis_url, snapshot_every=4, trim_on_snapshot=True) as s:
        yield s


def _played(http: httpx.Client) -> str:
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, tokens = out["game"]["id"], [s["token"] for s in out["seats"]]
    for seat, cell in MOVES:
        r = http.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                      json={"action": {"type": "place", "cell": cell}})
        assert r.status_code == 200, r.text
    return gid


def _first_kept(http: httpx.Client, gid: str) -> int:
    """The first version ?version=N still answers (the snapshot's own event is kept)."""
    for v in range(1, 8):
        if http.get(f"/v1/games/{gid}", params={"version": v}).status_code == 200:
            return v
    raise AssertionError("no version kept")


def _metric(http: httpx.Client, rpc: str, code: str) -> float:
    for line in scrape(http).splitlines():
        m = re.match(r'tablero_rpc_requests_total\{(.*)\} (\S+)$', line)
        if m and f'method="{rpc}"' in m.group(1) and 'transport="http"' in m.group(1) \
                and f'code="{code}"' in m.group(1):
            return float(m.group(2))
    return 0.0


def test_a_watch_from_before_the_kept_events_is_refused_before_the_stream(trimming):
    with httpx.Client(base_url=trimming.http, timeout=10) as http:
        gid = _played(http)
        kept = _first_kept(http, gid)
        assert kept > 2, "the snapshots should have trimmed the start of the game"
        refused = _metric(http, "WatchGame", "FAILED_PRECONDITION")
        for params in ({}, {"afterVersion": kept - 2}):
            r = http.get(f"/v1/games/{gid}/watch", params=params)
            assert r.status_code == 409, (params, r.status_code, r.text[:200])
            error = r.json()["error"]
            assert error["code"] == "FAILED_PRECONDITION"
            assert f"afterVersion {kept - 1} or later" in error["message"], error
        # A hash at kept - 1 (the event is trimmed: no hash of it can be checked any more):
        # refused, and told to start again from the kept state, not to watch from where it asked.
        params = {"afterVersion": kept - 1, "afterHash": "0123456789abcdef"}
        r = http.get(f"/v1/games/{gid}/watch", params=params)
        assert r.status_code == 409, (r.status_code, r.text[:200])
        error = r.json()["error"]
        assert error["code"] == "FAILED_PRECONDITION"
        assert f"afterVersion {kept - 1} or later" not in error["message"], error
        assert f"afterHash names event {kept - 1}, which is no longer kept" in error["message"], error
        assert f"?version={kept} and watch from afterVersion {kept}" in error["message"], error
        with grpc.insecure_channel(trimming.grpc) as channel:
            stub = pb_grpc.GameServiceStub(channel)
            with pytest.raises(grpc.RpcError) as refusal:
                next(iter(stub.WatchGame(pb.WatchGameRequest(game_id=gid, after_version=kept - 1,
                                                             after_hash="0123456789abcdef"), timeout=10)))
        assert refusal.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert refusal.value.details() == error["message"]
        assert _metric(http, "WatchGame", "FAILED_PRECONDITION") == refused + 3
        # From where the kept events begin (as ListEvents lists them: after kept - 1), and from
        # the first kept one, the game streams to its end.
        final = http.get(f"/v1/games/{gid}").json()["version"]
        listed = http.get(f"/v1/games/{gid}/events", params={"afterVersion": kept - 1}).json()["events"]
        for after in (kept - 1, kept):
            with http.stream("GET", f"/v1/games/{gid}/watch", params={"afterVersion": after}) as r:
                assert r.status_code == 200
                text = "".join(r.iter_text())
            ids = [int(x) for x in re.findall(r"^id: (\d+)$", text, re.M)]
            assert ids == list(range(after + 1, final + 1)) and "event: end" in text, text
            data = [json.loads(x) for x in re.findall(r"^data: (.*)$", text, re.M)][:len(ids)]
            assert data == listed[after - kept + 1:], (after, data)  # the same events, hashes included


def test_grpc_refuses_the_same_watch_with_failed_precondition(trimming):
    with httpx.Client(base_url=trimming.http, timeout=10) as http:
        gid = _played(http)
    with grpc.insecure_channel(trimming.grpc) as ch:
        stream = pb_grpc.GameServiceStub(ch).WatchGame(pb.WatchGameRequest(game_id=gid), timeout=10)
        with pytest.raises(grpc.RpcError) as e:
            next(iter(stream))
    assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "no longer kept" in e.value.details()
    with httpx.Client(base_url=trimming.http, timeout=10) as http:
        kept = _first_kept(http, gid)
    with grpc.insecure_channel(trimming.grpc) as ch:  # just before the kept events: from the first kept
        stream = pb_grpc.GameServiceStub(ch).WatchGame(pb.WatchGameRequest(game_id=gid, after_version=kept - 1),
                                                       timeout=10)
        got = [m.version for m in stream]
    assert got[0] == kept and got == list(range(kept, got[-1] + 1))


def test_a_stream_that_ends_with_an_error_is_counted_with_its_code(trimming, redis_url):
    """A game deleted under its watchers: the stream was answered 200, then ends with an
    error item; the RPC metrics and the log line say NOT_FOUND, not OK."""
    with httpx.Client(base_url=trimming.http, timeout=10) as http:
        out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid = out["game"]["id"]
        before = _metric(http, "WatchGame", "NOT_FOUND")
        ok = _metric(http, "WatchGame", "OK")
        with http.stream("GET", f"/v1/games/{gid}/watch") as r:
            assert r.status_code == 200
            lines = r.iter_lines()
            assert next(line for line in lines if line.startswith("id: ")) == "id: 1"
            with redis.Redis.from_url(redis_url) as r2:  # gone under its watcher (the sweep finds it)
                assert r2.delete(*game_keys(gid)) > 0
            rest = "\n".join(lines)
        assert "event: tablero-error" in rest and "NOT_FOUND" in rest, rest
        assert _metric(http, "WatchGame", "NOT_FOUND") == before + 1
        assert _metric(http, "WatchGame", "OK") == ok


def test_a_client_holding_the_last_trimmed_event_is_told_to_start_from_the_kept_state(trimming):
    """A live watcher whose last event was trimmed (a snapshot came while it reconnected) and
    that resumes with that event's hash: a client is shown a keyed function of the chain hash
    (server.app.replies.public_hash), so the server cannot check it through the next entry's
    chain any more (the store keeps no hash of a trimmed entry). It is refused with what to do
    (HISTORY_TRIMMED: GET ?version=<first kept>, watch from there), and doing that works;
    without afterHash the same resume is served (test_a_watch_from_before_the_kept_events…)."""
    with httpx.Client(base_url=trimming.http, timeout=10) as http:
        out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, tokens = out["game"]["id"], [s["token"] for s in out["seats"]]
        hashes = {1: http.get(f"/v1/games/{gid}/events").json()["events"][0]["hash"]}
        for version, (seat, cell) in enumerate(MOVES, start=2):
            r = http.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                          json={"action": {"type": "place", "cell": cell}})
            assert r.status_code == 200, r.text
            # what a live watcher holds: each event's hash as it comes (listed at once, still kept)
            hashes[version] = http.get(f"/v1/games/{gid}/events", params={"afterVersion": version - 1}
                                       ).json()["events"][0]["hash"]
        kept = _first_kept(http, gid)
        r = http.get(f"/v1/games/{gid}/watch", params={"afterVersion": kept - 1, "afterHash": hashes[kept - 1]})
        e = r.json()["error"]
        assert r.status_code == 409 and e["reason"] == "HISTORY_TRIMMED", r.text
        assert f"?version={kept}" in e["message"] and f"afterVersion {kept}" in e["message"], e
        assert http.get(f"/v1/games/{gid}", params={"version": kept}).json()["version"] == kept
        with http.stream("GET", f"/v1/games/{gid}/watch",
                         params={"afterVersion": kept, "afterHash": hashes[kept]}) as r:
            assert r.status_code == 200, r.read()
            text = "".join(r.iter_text())
        ids = [int(x) for x in re.findall(r"^id: (\d+)$", text, re.M)]
        assert ids[0] == kept + 1 and "event: reset" not in text, text
