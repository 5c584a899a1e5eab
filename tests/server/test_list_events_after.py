"""ListEvents' afterVersion (REST `?afterVersion=N`, gRPC `after_version`), on SQLite and on a
real Redis, with and without trim on snapshot.

Found by an outside acceptance pass: with TABLERO_TRIM_ON_SNAPSHOT=true a long game's
ListEvents answered 409 "ask for version N or later", but the request had no way to ask for
a start: the events the game still kept could not be listed at all. Now the listing starts
after afterVersion, and the 409 names the afterVersion to use."""

from __future__ import annotations

import re
import time

import grpc
import httpx
import pytest
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests import plainhttp
from tests.server.conftest import auth
from tests.server.support import ServerThread

# A draw: game_started, 9 moves and the draw: the game ends at version 11.
DRAW = [(0, 4), (1, 0), (0, 2), (1, 6), (0, 3), (1, 5), (0, 1), (1, 7), (0, 8)]
LAST = 11
SNAPSHOT_EVERY = 4  # snapshots at 4 and 8: with trim on, versions 1-7 go, 8-11 stay
FIRST_KEPT = 8


def _store(request) -> dict:
    return {"redis_url": request.getfixturevalue("redis_url")} if request.param == "redis" else {}


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def trimming(request):
    """A server whose store drops the events each snapshot covers."""
    with ServerThread(snapshot_every=SNAPSHOT_EVERY, trim_on_snapshot=True, **_store(request)) as s:
        yield s


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def keeping(request):
    """A server that keeps every event (the default)."""
    with ServerThread(snapshot_every=SNAPSHOT_EVERY, **_store(request)) as s:
        yield s


def _play(base: str, moves=DRAW) -> str:
    with httpx.Client(base_url=base, timeout=10) as c:
        r = c.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2})
        assert r.status_code == 200, r.text
        gid, tokens = r.json()["game"]["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
        for seat, cell in moves:
            r = c.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                       json={"action": {"type": "place", "cell": cell}})
            assert r.status_code == 200, r.text
    return gid


def _trimmed_game(base: str) -> str:
    """A finished draw whose events before FIRST_KEPT are gone (the snapshot and its trim are
    written off the reply path: wait for them)."""
    gid = _play(base)
    deadline = time.monotonic() + 10
    while plainhttp.get(f"{base}/v1/games/{gid}/events").status_code != 409:
        assert time.monotonic() < deadline, "the snapshot's trim did not happen"
        time.sleep(0.05)
    return gid


def _rest_pages(base: str, gid: str, **params) -> list[list[int]]:
    """The versions of every page, following nextPageToken (with the first request's parameters)."""
    pages, token = [], ""
    while True:
        r = plainhttp.get(f"{base}/v1/games/{gid}/events", params={**params, **({"pageToken": token} if token else {})})
        assert r.status_code == 200, r.text
        pages.append([e["version"] for e in r.json()["events"]])
        assert all(e["gameId"] == gid and e["event"]["type"] for e in r.json()["events"])
        token = r.json()["nextPageToken"]
        if not token:
            return pages
        assert len(pages) < 50


def _grpc_pages(target: str, gid: str, **fields) -> list[list[int]]:
    pages, token = [], ""
    with grpc.insecure_channel(target) as ch:
        stub = pbg.GameServiceStub(ch)
        while True:
            r = stub.ListEvents(pb.ListEventsRequest(game_id=gid, page_token=token, **fields))
            pages.append([e.version for e in r.events])
            token = r.next_page_token
            if not token:
                return pages
            assert len(pages) < 50


def _grpc_error(target: str, **fields) -> grpc.RpcError:
    with grpc.insecure_channel(target) as ch:
        with pytest.raises(grpc.RpcError) as e:
            pbg.GameServiceStub(ch).ListEvents(pb.ListEventsRequest(**fields))
    return e.value


def _flat(pages: list[list[int]]) -> list[int]:
    return [v for page in pages for v in page]


# --- a trimmed game ------------------------------------------------------------------


def test_the_409_names_the_after_version_to_list_from(trimming):
    gid = _trimmed_game(trimming.http)
    r = plainhttp.get(f"{trimming.http}/v1/games/{gid}/events")
    assert r.status_code == 409 and r.json()["error"]["code"] == "FAILED_PRECONDITION"
    message = r.json()["error"]["message"]
    assert f"events before version {FIRST_KEPT} " in message
    assert f"list with afterVersion={FIRST_KEPT - 1} or later" in message
    # A start inside the trimmed part says the same, over gRPC too.
    r = plainhttp.get(f"{trimming.http}/v1/games/{gid}/events", params={"afterVersion": FIRST_KEPT - 2})
    assert r.status_code == 409 and r.json()["error"]["message"] == message
    e = _grpc_error(trimming.grpc, game_id=gid, after_version=3)
    assert e.code() == grpc.StatusCode.FAILED_PRECONDITION and e.details() == message


def test_following_the_409_lists_every_kept_event_once_over_rest(trimming):
    gid = _trimmed_game(trimming.http)
    message = plainhttp.get(f"{trimming.http}/v1/games/{gid}/events").json()["error"]["message"]
    after = int(re.search(r"afterVersion=(\d+)", message).group(1))  # what a client reads from it
    assert after == FIRST_KEPT - 1
    for size in (1, 2, 10):
        pages = _rest_pages(trimming.http, gid, afterVersion=after, pageSize=size)
        assert _flat(pages) == list(range(FIRST_KEPT, LAST + 1)), size
        assert all(0 < len(p) <= size for p in pages)
    # Any later start works as well; the head itself lists nothing.
    assert _flat(_rest_pages(trimming.http, gid, afterVersion=LAST - 1)) == [LAST]
    assert _rest_pages(trimming.http, gid, afterVersion=LAST) == [[]]


def test_following_the_409_lists_every_kept_event_once_over_grpc(trimming):
    gid = _trimmed_game(trimming.http)
    e = _grpc_error(trimming.grpc, game_id=gid)
    assert e.code() == grpc.StatusCode.FAILED_PRECONDITION
    after = int(re.search(r"afterVersion=(\d+)", e.details()).group(1))
    for size in (1, 2):
        pages = _grpc_pages(trimming.grpc, gid, after_version=after, page_size=size)
        assert _flat(pages) == list(range(FIRST_KEPT, LAST + 1)), size


def test_get_game_at_a_trimmed_version_keeps_its_own_message(trimming):
    gid = _trimmed_game(trimming.http)
    r = plainhttp.get(f"{trimming.http}/v1/games/{gid}", params={"version": 2})
    assert r.status_code == 409 and f"ask for version {FIRST_KEPT} or later" in r.json()["error"]["message"]


# --- a game that keeps every event ---------------------------------------------------


def test_after_version_from_the_middle_over_rest(keeping):
    gid = _play(keeping.http)
    assert _flat(_rest_pages(keeping.http, gid)) == list(range(1, LAST + 1))
    assert _flat(_rest_pages(keeping.http, gid, afterVersion=0, pageSize=3)) == list(range(1, LAST + 1))
    for after in (1, 4, 5, 9):
        for size in (1, 3, 100):
            pages = _rest_pages(keeping.http, gid, afterVersion=after, pageSize=size)
            assert _flat(pages) == list(range(after + 1, LAST + 1)), (after, size)
    assert _rest_pages(keeping.http, gid, afterVersion=LAST) == [[]]
    # The raw first page: exactly the page size, a token to go on.
    r = plainhttp.get(f"{keeping.http}/v1/games/{gid}/events?afterVersion=5&pageSize=2").json()
    assert [e["version"] for e in r["events"]] == [6, 7] and r["nextPageToken"]


def test_after_version_from_the_middle_over_grpc(keeping):
    gid = _play(keeping.http)
    for after in (0, 4, 9):
        pages = _grpc_pages(keeping.grpc, gid, after_version=after, page_size=2)
        assert _flat(pages) == list(range(after + 1, LAST + 1)), after


def test_a_page_token_says_where_its_page_starts(keeping):
    """The token wins over afterVersion: sending the first request's afterVersion again with
    the token (what an SDK building its requests the same way does) continues the listing."""
    gid = _play(keeping.http)
    url = f"{keeping.http}/v1/games/{gid}/events"
    first = plainhttp.get(url, params={"afterVersion": 2, "pageSize": 3}).json()
    assert [e["version"] for e in first["events"]] == [3, 4, 5]
    token = first["nextPageToken"]
    for after in (None, 0, 2, 8):
        params = {"pageToken": token, "pageSize": 3, **({} if after is None else {"afterVersion": after})}
        r = plainhttp.get(url, params=params)
        assert r.status_code == 200, r.text
        assert [e["version"] for e in r.json()["events"]] == [6, 7, 8], after
    # Out of range is refused with a token too.
    r = plainhttp.get(url, params={"pageToken": token, "afterVersion": -1})
    assert r.status_code == 400 and "afterVersion" in r.json()["error"]["message"]


def test_a_running_game_pages_on_to_events_played_meanwhile(keeping):
    gid = _play(keeping.http, DRAW[:4])  # version 5, still running
    with httpx.Client(base_url=keeping.http, timeout=10) as c:
        r = c.get(f"/v1/games/{gid}/events", params={"afterVersion": 3, "pageSize": 1}).json()
        assert [e["version"] for e in r["events"]] == [4] and r["nextPageToken"]
        assert [e["version"] for e in c.get(f"/v1/games/{gid}/events", params={"afterVersion": 5}).json()["events"]] \
            == []
        r = c.get(f"/v1/games/{gid}/events", params={"afterVersion": 6})
        assert r.status_code == 400 and r.json()["error"]["message"] == "afterVersion 6 is beyond the game's current version 5"


def test_bad_after_versions_are_refused(keeping):
    gid = _play(keeping.http, DRAW[:2])  # version 3
    url = f"{keeping.http}/v1/games/{gid}/events"
    cases = {
        "-1": "afterVersion must be a non-negative integer",
        "4": "afterVersion 4 is beyond the game's current version 3",
        "99999999999": "afterVersion 99999999999 is beyond the game's current version 3",
        "x": "query parameter afterVersion must be an integer",
        "1.5": "query parameter afterVersion must be an integer",
    }
    for raw, message in cases.items():
        r = plainhttp.get(f"{url}?afterVersion={raw}")
        assert r.status_code == 400, (raw, r.text)
        assert r.json()["error"]["code"] == "INVALID_ARGUMENT" and r.json()["error"]["message"] == message, raw
    r = plainhttp.get(f"{url}?afterVersion=1&afterVersion=2")
    assert r.status_code == 400 and "afterVersion" in r.json()["error"]["message"]
    for after, message in ((-1, "afterVersion must be a non-negative integer"),
                           (4, "afterVersion 4 is beyond the game's current version 3")):
        e = _grpc_error(keeping.grpc, game_id=gid, after_version=after)
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and e.details() == message
    # An unknown game is still NOT_FOUND, whatever the start.
    assert plainhttp.get(f"{keeping.http}/v1/games/nosuchgame123/events?afterVersion=1").status_code == 404


def test_the_openapi_document_lists_the_parameter(keeping):
    doc = plainhttp.get(f"{keeping.http}/openapi.json").json()
    params = {p["name"]: p for p in doc["paths"]["/v1/games/{gameId}/events"]["get"]["parameters"]}
    assert params["afterVersion"]["in"] == "query"
    schema = params["afterVersion"]["schema"]
    assert schema["type"] == "integer" and "trimmed" in schema["description"]


def test_a_retried_move_from_before_the_trim_is_answered_with_the_game_now(trimming):
    """A client retries (same requestId) a move it made long ago, whose answer it lost: the
    events that led to that version are trimmed, so the answer is the game now (the move is
    in it) — not a refusal telling the client an applied move failed, and nothing appended."""
    with httpx.Client(base_url=trimming.http, timeout=10) as c:
        r = c.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2})
        gid, tokens = r.json()["game"]["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
        first = {"action": {"type": "place", "cell": DRAW[0][1]}, "requestId": "R1"}
        assert c.post(f"/v1/games/{gid}/actions", headers=auth(tokens[0]), json=first).json()["version"] == 2
        for seat, cell in DRAW[1:]:
            r = c.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]), json={"action": {"type": "place", "cell": cell}})
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 10
        while c.get(f"/v1/games/{gid}", params={"version": 2}).status_code != 409:  # trimmed off the reply path
            assert time.monotonic() < deadline, "the snapshot's trim did not happen"
            time.sleep(0.05)
        again = c.post(f"/v1/games/{gid}/actions", headers=auth(tokens[0]), json=first)
        assert again.status_code == 200, again.text
        assert again.json()["version"] == LAST and again.json()["view"]["board"][DRAW[0][1]] == 0
        assert c.get(f"/v1/games/{gid}").json()["version"] == LAST  # applied once
