"""Issue 17 item 6: big answers are compressed (gzip over REST, gRPC compression), encoded
off the event loop, and legal actions can be asked for by page and by type."""

from __future__ import annotations

import gzip
import json

import grpc
import httpx
import pytest
from tablero.server.api import codec
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pb_grpc

from tests.relay import CountingRelay
from tests.server.conftest import auth


def phoenicia(http):
    """A Phoenicia game (its first player has a dozen or so actions of several types):
    the game id, the token of the seat to act, and its whole list of legal actions."""
    out = http.post("/v1/games", json={"engine": "phoenicia", "players": 2}).json()
    gid, tokens = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    token = tokens[out["game"]["toAct"][0]]
    whole = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json()
    assert whole["nextPageToken"] == "" and len(whole["actions"]) >= 10
    assert len({a["type"] for a in whole["actions"]}) >= 3
    return gid, token, whole["actions"]


# --- gzip over REST ---------------------------------------------------------------------------

def test_big_rest_answers_are_gzipped_when_the_client_accepts_it(server):
    url = f"{server.http}/v1/engines"
    with httpx.Client() as c:
        zipped = c.get(url, headers={"Accept-Encoding": "gzip"})
        plain = c.get(url, headers={"Accept-Encoding": "identity"})
        with c.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
            wire = b"".join(r.iter_raw())
    assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert zipped.json() == plain.json()
    assert json.loads(gzip.decompress(wire)) == plain.json()
    assert len(wire) < len(plain.content) / 3, (len(wire), len(plain.content))


def test_small_answers_and_sse_are_not_gzipped(http):
    r = http.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers and r.json() == {"status": "ok"}
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["bot", "bot"]}).json()
    with http.stream("GET", f"/v1/games/{out['game']['id']}/watch", headers={"Accept-Encoding": "gzip"}) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in r.headers
        assert b"event: end" in b"".join(r.iter_raw())


# --- gRPC compression ---------------------------------------------------------------------------

def _list_engines_bytes(server, options) -> tuple[int, int]:
    """(bytes on the wire from the server, size of the response message) for one ListEngines."""
    host, port = server.grpc.rsplit(":", 1)
    proxy = CountingRelay(host, int(port))
    try:
        with grpc.insecure_channel(proxy.address, options=options) as ch:
            reply = pb_grpc.GameServiceStub(ch).ListEngines(pb.ListEnginesRequest(), timeout=10)
        return proxy.down, reply.ByteSize()
    finally:
        proxy.close()


def test_grpc_answers_are_gzipped_when_the_client_accepts_gzip(server):
    wire, size = _list_engines_bytes(server, [])
    assert size > 10_000
    assert wire < size / 3, (wire, size)


def test_grpc_answers_go_uncompressed_to_a_client_without_gzip(server):
    # Only "identity" in the client's grpc-accept-encoding.
    wire, size = _list_engines_bytes(server, [("grpc.compression_enabled_algorithms_bitset", 1)])
    assert wire > size, (wire, size)


def test_grpc_accepts_gzip_compressed_requests(server):
    with grpc.insecure_channel(server.grpc, compression=grpc.Compression.Gzip) as ch:
        stub = pb_grpc.GameServiceStub(ch)
        out = stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", players=2), timeout=10)
        assert out.game.version == 1


# --- large answers are encoded off the event loop -----------------------------------------------

def test_the_size_estimate_tells_big_answers_from_small_ones():
    small = {"actions": [{"type": "place", "cell": i} for i in range(9)], "version": 3, "seat": 0}
    big = {"actions": [{"type": "sail", "from": f"harbour-{i}", "cargo": [1, 2, 3]} for i in range(4931)]}
    for answer in (small, big):
        actual = len(json.dumps(answer, separators=(",", ":")))
        assert codec.is_large(answer) == (actual > codec.LARGE), actual
    assert codec.is_large({"view": {"log": ["x" * 100] * 1000}})
    assert not codec.is_large({"events": []})


# --- paged and filtered legal actions ---------------------------------------------------------

def test_legal_actions_by_page_add_up_to_the_whole_list(http):
    gid, token, whole = phoenicia(http)
    headers = auth(token)
    pages, token = [], ""
    while True:
        params = {"pageSize": 4, **({"pageToken": token} if token else {})}
        page = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params=params).json()
        pages.append(page["actions"])
        token = page["nextPageToken"]
        if not token:
            break
    assert [len(p) for p in pages] == [min(4, len(whole) - i) for i in range(0, len(whole), 4)]
    assert [a for p in pages for a in p] == whole


def test_legal_actions_of_one_type(http):
    gid, token, whole = phoenicia(http)
    headers = auth(token)
    types = [a["type"] for a in whole]
    common = max(set(types), key=types.count)  # the type with the most actions
    assert types.count(common) >= 2
    auctions = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params={"type": common}).json()
    assert auctions["actions"] == [a for a in whole if a["type"] == common]
    unknown = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params={"type": "no_such_type"})
    assert unknown.status_code == 400 and "no action type 'no_such_type'" in unknown.json()["error"]["message"]
    first = http.get(f"/v1/games/{gid}/legal-actions", headers=headers,
                     params={"type": common, "pageSize": 1}).json()
    rest = http.get(f"/v1/games/{gid}/legal-actions", headers=headers,
                    params={"type": common, "pageToken": first["nextPageToken"]}).json()
    assert first["actions"] + rest["actions"] == auctions["actions"] and rest["nextPageToken"] == ""
    # A token is bound to its type filter.
    r = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params={"pageToken": first["nextPageToken"]})
    assert r.status_code == 400 and "same type filter" in r.json()["error"]["message"]


def test_a_page_token_holds_only_at_its_version(http):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, (x, _) = out["game"]["id"], [s["token"] for s in out["seats"]]
    page = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(x), params={"pageSize": 2}).json()
    assert len(page["actions"]) == 2 and page["nextPageToken"]
    assert http.post(f"/v1/games/{gid}/actions", headers=auth(x),
                     json={"action": {"type": "place", "cell": 4}}).status_code == 200
    stale = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(x), params={"pageToken": page["nextPageToken"]})
    assert stale.status_code == 400 and "list the legal actions again" in stale.json()["error"]["message"]


@pytest.mark.parametrize("params, reason", [
    ({"pageSize": -1}, "pageSize must not be negative"),
    ({"pageSize": "many"}, "must be an integer"),
    ({"pageToken": "not-a-token"}, "not a token this game's ListLegalActions returned"),
])
def test_bad_paging_is_refused(http, params, reason):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    r = http.get(f"/v1/games/{out['game']['id']}/legal-actions", headers=auth(out["seats"][0]["token"]),
                 params=params)
    assert r.status_code == 400 and reason in r.json()["error"]["message"], r.text


def test_legal_actions_by_page_over_grpc(server, http):
    gid, token, every = phoenicia(http)
    md = [("authorization", f"Bearer {token}")]
    kind = every[0]["type"]
    with grpc.insecure_channel(server.grpc) as ch:
        stub = pb_grpc.GameServiceStub(ch)
        whole = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid), metadata=md)
        assert len(whole.actions) == len(every) and whole.next_page_token == ""
        first = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, page_size=1000, type=kind),
                                      metadata=md)
        assert len(first.actions) == sum(a["type"] == kind for a in every) and first.next_page_token == ""
        page = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, page_size=3), metadata=md)
        more = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, page_token=page.next_page_token),
                                     metadata=md)
        assert list(page.actions) + list(more.actions) == list(whole.actions)
        with pytest.raises(grpc.RpcError) as e:
            stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, page_size=-2), metadata=md)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
