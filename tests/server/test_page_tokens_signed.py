"""Page tokens are signed and bound to what they page (docs/api.md, Paging): a token the list
did not hand out is 400 PAGE_TOKEN_INVALID, over REST and gRPC.

Found by an outside acceptance pass: ListGames' tokens were bare base64 of [createTime, id], so
a forged `[9999999999.0, "zzz"]` was taken (and answered with the first page), a token was
taken with other filters than its page's, and a legal-actions token made for seat 1 was taken
for seat 0. Tokens are now HMAC-signed with a key derived from TABLERO_SECRET (by key id: they
verify on every replica, and across a rotation while the old secret stays listed)."""

from __future__ import annotations

import base64
import json

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2, status_pb2
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.errors import InvalidArgument
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.store import open_store

from tests.server.conftest import auth
from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def srv():
    with ServerThread() as s:
        with httpx.Client(base_url=s.http, timeout=10) as c:
            for _ in range(3):
                assert c.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).status_code == 200
            assert c.post("/v1/games", json={"engine": "goofspiel", "players": 2}).status_code == 200
        yield s


def _b64(doc) -> str:
    return base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")


def _refused(r: httpx.Response) -> str:
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "INVALID_ARGUMENT" and err["reason"] == "PAGE_TOKEN_INVALID", err
    return err["message"]


def _grpc_refused(call, request, token: str | None = None) -> str:
    md = (("authorization", f"Bearer {token}"),) if token else ()
    with pytest.raises(grpc.RpcError) as e:
        call(request, metadata=md, timeout=10)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = status_pb2.Status.FromString(dict(e.value.trailing_metadata())["grpc-status-details-bin"])
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and info.reason == "PAGE_TOKEN_INVALID"
    return e.value.details()


FORGED = _b64([9999999999.0, "zzz"])  # the pass's: an unsigned token of ListGames' old form


def test_a_forged_list_games_token_is_refused(srv):
    with httpx.Client(base_url=srv.http, timeout=10) as c:
        assert _refused(c.get("/v1/games", params={"pageToken": FORGED})) == "pageToken is not a token this server issued"
        token = c.get("/v1/games", params={"pageSize": 1}).json()["nextPageToken"]
        body, kid, mac = token.split(".")
        doc = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        altered = f"{_b64([doc[0], doc[1], _b64([9999999999.0, 'zzz'])])}.{kid}.{mac}"
        assert "forged or altered" in _refused(c.get("/v1/games", params={"pageToken": altered}))
        assert len(c.get("/v1/games", params={"pageSize": 1, "pageToken": token}).json()["games"]) == 1
    with grpc.insecure_channel(srv.grpc) as ch:
        stub = pbg.GameServiceStub(ch)
        assert "not a token this server issued" in _grpc_refused(stub.ListGames, pb.ListGamesRequest(page_token=FORGED))
        page = stub.ListGames(pb.ListGamesRequest(page_size=1))
        assert len(stub.ListGames(pb.ListGamesRequest(page_size=1, page_token=page.next_page_token)).games) == 1


def test_a_list_games_token_holds_only_with_its_filters(srv):
    with httpx.Client(base_url=srv.http, timeout=10) as c:
        first = c.get("/v1/games", params={"pageSize": 1, "engine": "tic-tac-toe"}).json()
        token = first["nextPageToken"]
        for other in ({}, {"engine": "goofspiel"}, {"engine": "tic-tac-toe", "status": "GAME_STATUS_FINISHED"},
                      {"engine": "tic-tac-toe", "openSeats": "false"}):
            assert "other filters" in _refused(c.get("/v1/games", params={**other, "pageToken": token}))
        again = c.get("/v1/games", params={"pageSize": 1, "engine": "tic-tac-toe", "pageToken": token}).json()
        assert again["games"][0]["engine"] == "tic-tac-toe" and again["games"] != first["games"]
    with grpc.insecure_channel(srv.grpc) as ch:
        stub = pbg.GameServiceStub(ch)
        token = stub.ListGames(pb.ListGamesRequest(page_size=1, engine="tic-tac-toe")).next_page_token
        assert "other filters" in _grpc_refused(stub.ListGames, pb.ListGamesRequest(page_token=token))


def test_a_legal_actions_token_holds_only_for_its_seat(srv):
    """Goofspiel: both seats bid at once, so both have legal actions at the same version."""
    with httpx.Client(base_url=srv.http, timeout=10) as c:
        made = c.post("/v1/games", json={"engine": "goofspiel", "players": 2}).json()
        gid, (t0, t1) = made["game"]["id"], [s["token"] for s in made["seats"]]
        token = c.get(f"/v1/games/{gid}/legal-actions", headers=auth(t1), params={"pageSize": 2}).json()["nextPageToken"]
        said = _refused(c.get(f"/v1/games/{gid}/legal-actions", headers=auth(t0), params={"pageToken": token}))
        assert "seat 1's legal actions, not seat 0's" in said
        assert c.get(f"/v1/games/{gid}/legal-actions", headers=auth(t1), params={"pageToken": token}).status_code == 200
        forged = _b64([gid, 0, 0, "", 2])  # the old unsigned form
        assert "not one this server signed" in _refused(
            c.get(f"/v1/games/{gid}/legal-actions", headers=auth(t0), params={"pageToken": forged}))
    with grpc.insecure_channel(srv.grpc) as ch:
        stub = pbg.GameServiceStub(ch)
        page = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, page_size=2),
                                     metadata=[("authorization", f"Bearer {t1}")])
        said = _grpc_refused(stub.ListLegalActions, pb.ListLegalActionsRequest(
            game_id=gid, page_token=page.next_page_token), t0)
        assert "seat 1's legal actions, not seat 0's" in said


def test_a_list_events_token_is_signed_and_of_its_game(srv):
    with httpx.Client(base_url=srv.http, timeout=10) as c:
        made = c.post("/v1/games", json={"engine": "goofspiel", "players": 2}).json()
        gid, t0 = made["game"]["id"], made["seats"][0]["token"]
        c.post(f"/v1/games/{gid}/actions", headers=auth(t0), json={"action": {"type": "bid", "card": 1}})
        other = c.post("/v1/games", json={"engine": "goofspiel", "players": 2}).json()["game"]["id"]
        token = c.get(f"/v1/games/{gid}/events", params={"pageSize": 1}).json()["nextPageToken"]
        assert token and "another game" in _refused(c.get(f"/v1/games/{other}/events", params={"pageToken": token}))
        forged = _b64(f"{gid}:1")  # the old unsigned form
        assert "not one this server signed" in _refused(c.get(f"/v1/games/{gid}/events", params={"pageToken": forged}))


async def _paged_on(maker: str, reader: str) -> Exception | None:
    """A ListGames token made by a server with TABLERO_SECRET `maker`, read by one with `reader`
    (the same store): None when it pages there, else the refusal."""
    store = open_store(None, None)
    try:
        made = GameService(store, TokenSigner(maker))
        for _ in range(2):
            await made.create_game(cmd.CreateGame("tic-tac-toe", players=2))
        token = (await made.list_games(cmd.ListGames(page_size=1)))["nextPageToken"]
        read = GameService(store, TokenSigner(reader), lobby=made.lobby)
        try:
            page = await read.list_games(cmd.ListGames(page_size=1, page_token=token))
        except InvalidArgument as e:
            assert e.reason == "PAGE_TOKEN_INVALID"
            return e
        assert len(page["games"]) == 1
        return None
    finally:
        await store.close()


async def test_tokens_page_on_every_replica_and_across_a_secret_rotation() -> None:
    assert await _paged_on("one-secret", "one-secret") is None  # another replica, the same secret
    assert await _paged_on("one-secret", "new:two-secret,old:one-secret") is None  # rotated (unnamed before)
    assert await _paged_on("k1:one-secret", "k2:two-secret,k1:one-secret") is None  # rotated, by key id
    assert "forged or altered" in str(await _paged_on("one-secret", "other-secret"))
    assert "no longer lists" in str(await _paged_on("k1:one-secret", "k2:two-secret"))
