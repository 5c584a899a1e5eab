"""ListLegalActions with group=type: one group per action type, with its count and its first
page; each group continues with its own page token (type = the group's type). On New
Bedford, whose place_worker step lists many worker placements beside a few purchases."""

from __future__ import annotations

import grpc
import pytest
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pb_grpc

from tests.server.conftest import auth


def new_bedford(http):
    """A New Bedford game advanced (first legal action each time) until the seat to act has
    actions of at least two types: (game id, that seat's token, its whole list)."""
    out = http.post("/v1/games", json={"engine": "new-bedford", "players": 2}).json()
    gid, tokens = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    for _ in range(40):
        game = http.get(f"/v1/games/{gid}").json()
        token = tokens[game["toAct"][0]]
        whole = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json()["actions"]
        if len({a["type"] for a in whole}) >= 2:
            return gid, token, whole
        r = http.post(f"/v1/games/{gid}/actions", headers=auth(token), json={"action": whole[0]})
        assert r.status_code == 200, r.text
    raise AssertionError("New Bedford never offered two action types")


def _by_type(actions):
    out: dict[str, list] = {}
    for a in actions:
        out.setdefault(a["type"], []).append(a)
    return out


def test_grouped_legal_actions_over_rest(http):
    gid, token, whole = new_bedford(http)
    headers = auth(token)
    expected = _by_type(whole)
    assert max(len(g) for g in expected.values()) > 3
    r = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params={"group": "type", "pageSize": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["actions"] == [] and body["nextPageToken"] == ""
    assert [g["type"] for g in body["groups"]] == list(expected)  # in the order of the whole list
    for group in body["groups"]:
        every = expected[group["type"]]
        assert group["count"] == len(every)
        assert group["actions"] == every[:3]
        got, page_token = list(group["actions"]), group["nextPageToken"]
        assert bool(page_token) == (len(every) > 3)
        while page_token:  # the group continues with its token and type = its type
            page = http.get(f"/v1/games/{gid}/legal-actions", headers=headers,
                            params={"type": group["type"], "pageToken": page_token, "pageSize": 3}).json()
            got += page["actions"]
            page_token = page["nextPageToken"]
        assert got == every
    # without pageSize each group's first page holds up to 20
    default = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params={"group": "type"}).json()
    assert [len(g["actions"]) for g in default["groups"]] == [min(20, len(g)) for g in expected.values()]
    # with a type filter: that one group
    kind = next(iter(expected))
    one = http.get(f"/v1/games/{gid}/legal-actions", headers=headers, params={"group": "type", "type": kind}).json()
    assert [(g["type"], g["count"]) for g in one["groups"]] == [(kind, len(expected[kind]))]
    # ungrouped answers carry an empty list of groups
    assert http.get(f"/v1/games/{gid}/legal-actions", headers=headers).json()["groups"] == []


def test_grouped_legal_actions_over_grpc(server, http):
    gid, token, whole = new_bedford(http)
    expected = _by_type(whole)
    md = [("authorization", f"Bearer {token}")]
    with grpc.insecure_channel(server.grpc) as ch:
        stub = pb_grpc.GameServiceStub(ch)
        reply = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, group="type", page_size=2), metadata=md)
        assert len(reply.actions) == 0
        assert [(g.type, g.count) for g in reply.groups] == [(k, len(v)) for k, v in expected.items()]
        for group in reply.groups:
            assert len(group.actions) == min(2, group.count)
            assert [a["type"] for a in group.actions] == [group.type] * len(group.actions)
            if group.count > 2:
                rest = stub.ListLegalActions(pb.ListLegalActionsRequest(
                    game_id=gid, type=group.type, page_token=group.next_page_token, page_size=10_000), metadata=md)
                assert len(group.actions) + len(rest.actions) == group.count and rest.next_page_token == ""
            else:
                assert group.next_page_token == ""
        with pytest.raises(grpc.RpcError) as e:
            stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid, group="colour"), metadata=md)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "group must be" in e.value.details()


@pytest.mark.parametrize("params, reason", [
    ({"group": "kind"}, 'group must be "type" or empty'),
    ({"group": "type", "pageToken": "abc"}, "pageToken continues one group"),
    ({"group": "type", "pageSize": -1}, "pageSize must not be negative"),
])
def test_bad_grouping_is_refused(http, params, reason):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    r = http.get(f"/v1/games/{out['game']['id']}/legal-actions", headers=auth(out["seats"][0]["token"]),
                 params=params)
    assert r.status_code == 400 and reason in r.json()["error"]["message"], r.text


def test_grouping_a_seat_that_may_not_act_gives_no_group(http):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    body = http.get(f"/v1/games/{out['game']['id']}/legal-actions", headers=auth(out["seats"][1]["token"]),
                    params={"group": "type"}).json()
    assert body["groups"] == [] and body["actions"] == []


@pytest.mark.parametrize("transport", ["rest", "grpc"])
def test_the_sdk_pages_and_groups_legal_actions(server, http, transport):
    from tablero_client import AsyncClient, Client, LegalActionGroup

    gid, token, whole = new_bedford(http)
    expected = _by_type(whole)
    target = {"rest": server.http} if transport == "rest" else {"grpc": server.grpc}
    with Client(**target) as c:
        seat = c.seat(gid, token)
        grouped = seat.legal_actions(group="type", page_size=2)
        assert grouped.actions == [] and all(isinstance(g, LegalActionGroup) for g in grouped.groups)
        assert [(g.type, g.count) for g in grouped.groups] == [(k, len(v)) for k, v in expected.items()]
        for g in grouped.groups:
            got, page_token = list(g.actions), g.next_page_token
            while page_token:
                page = seat.legal_actions(type=g.type, page_token=page_token, page_size=2)
                got, page_token = got + page.actions, page.next_page_token
            assert got == expected[g.type]
        first = c.legal_actions(gid, token, page_size=1)
        assert first.actions == whole[:1] and first.next_page_token and first.groups == []

    async def run():
        async with AsyncClient(**target) as c:
            return await c.seat(gid, token).legal_actions(group="type")

    import asyncio

    assert [g.count for g in asyncio.run(run()).groups] == [len(v) for v in expected.values()]
