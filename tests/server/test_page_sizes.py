"""One rule for every list's `pageSize` (docs/api.md "Page sizes"): absent or 0 is the list's
default, a size above its maximum is clamped to it (200 with a page of at most the maximum and
a nextPageToken when more follow; an over-large size was refused 400 where a product such as
Google's APIs clamps), a negative size is 400 INVALID_ARGUMENT. Checked on every list: ListGames,
ListEvents, ListLegalActions, ListNotifications, GetLeaderboard, over REST and gRPC."""

from __future__ import annotations

import grpc
import pytest
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.grpc.gen import notifications_pb2 as npb
from tablero.server.grpc.gen import notifications_pb2_grpc as npbg
from tablero.server.grpc.gen import players_pb2 as ppb
from tablero.server.grpc.gen import players_pb2_grpc as ppbg

from tests import plainhttp
from tests.ratings.support import KEYS, bearer
from tests.server.support import ServerThread

HUGE = 2**31 - 1  # the largest int32


@pytest.fixture(scope="module")
def srv():
    with ServerThread(portal_keys=KEYS) as s:
        yield s


@pytest.fixture(scope="module")
def game(srv):
    out = plainhttp.post(f"{srv.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    return out["game"]["id"], out["seats"][0]["token"]


def _lists(srv, game) -> dict[str, tuple[str, dict[str, str]]]:
    gid, token = game
    return {
        "ListGames": ("/v1/games", {}),
        "ListEvents": (f"/v1/games/{gid}/events", {}),
        "ListLegalActions": (f"/v1/games/{gid}/legal-actions", {"Authorization": f"Bearer {token}"}),
        "ListNotifications": ("/v1/notifications", bearer("pat")),
        "GetLeaderboard": ("/v1/leaderboards/tic-tac-toe", {}),
    }


@pytest.mark.parametrize("rpc", ["ListGames", "ListEvents", "ListLegalActions", "ListNotifications", "GetLeaderboard"])
def test_an_over_large_page_size_is_clamped_and_a_negative_one_refused(srv, game, rpc):
    path, headers = _lists(srv, game)[rpc]
    for size in (0, 1, 101, 1001, 10_001, HUGE):
        r = plainhttp.get(srv.http + path, params={"pageSize": size}, headers=headers)
        assert r.status_code == 200, (size, r.text)
    r = plainhttp.get(srv.http + path, params={"pageSize": -1}, headers=headers)
    assert r.status_code == 400 and r.json()["error"]["reason"] == "INVALID_ARGUMENT", r.text
    assert "pageSize must not be negative" in r.json()["error"]["message"]


def test_a_clamped_page_holds_the_maximum_and_goes_on(srv):
    """101 games, `pageSize=1000`: the lobby's maximum page (100) and a token for the rest."""
    for _ in range(101):
        assert plainhttp.post(f"{srv.http}/v1/games", json={"engine": "goofspiel", "players": 2}).status_code == 200
    first = plainhttp.get(f"{srv.http}/v1/games", params={"pageSize": 1000, "engine": "goofspiel"}).json()
    assert len(first["games"]) == 100 and first["nextPageToken"]
    rest = plainhttp.get(f"{srv.http}/v1/games", params={"pageSize": HUGE, "engine": "goofspiel",
                                                        "pageToken": first["nextPageToken"]}).json()
    assert len(rest["games"]) == 1 and not rest.get("nextPageToken")


def test_the_same_over_grpc(srv, game):
    gid, token = game
    seat = [("authorization", f"Bearer {token}")]
    jwt = [("authorization", bearer("pat")["Authorization"])]
    with grpc.insecure_channel(srv.grpc) as ch:
        games, notes, players = pbg.GameServiceStub(ch), npbg.NotificationServiceStub(ch), ppbg.PlayerServiceStub(ch)
        calls = [
            lambda n: games.ListGames(pb.ListGamesRequest(page_size=n)),
            lambda n: games.ListEvents(pb.ListEventsRequest(game_id=gid, page_size=n)),
            lambda n: games.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, page_size=n), metadata=seat),
            lambda n: notes.ListNotifications(npb.ListNotificationsRequest(page_size=n), metadata=jwt),
            lambda n: players.GetLeaderboard(ppb.GetLeaderboardRequest(engine="tic-tac-toe", page_size=n)),
        ]
        for call in calls:
            call(HUGE)
            with pytest.raises(grpc.RpcError) as e:
                call(-1)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "must not be negative" in e.value.details()


def test_the_openapi_document_says_so_for_every_page_size():
    from tablero.server.api.openapi import openapi_document

    described = {path: prm["schema"].get("description", "") for path, item in openapi_document()["paths"].items()
                 for op in item.values() for prm in op.get("parameters", ()) if prm["name"] == "pageSize"}
    assert len(described) == 5, described
    assert all("a larger page_size is taken as" in d and "negative: INVALID_ARGUMENT" in d
               for d in described.values()), described
