"""A CreateGame with a requestId can be retried (outside acceptance pass: a create whose answer was
lost made a game nobody had the tokens of, and the retry made a second one): the same caller and
requestId get the same game and seat tokens back, over REST, Connect and gRPC, whatever the
game did since; racing copies make one game; a retry is not counted against the create rate
limit or the open-games cap; the same requestId with other choices is refused; another caller's
requestId is another game."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from google.protobuf import struct_pb2
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.ratings.support import KEYS, bearer
from tests.redis_server import RedisServer
from tests.server.support import ServerThread, post_and_drop_the_answer

TTT = {"engine": "tic-tac-toe", "seats": ["human", "open"]}


@pytest.fixture(scope="module")
def server():
    with ServerThread(portal_keys=KEYS) as s:
        yield s


def _create(url: str, body: dict, headers: dict | None = None) -> dict:
    r = plainhttp.post(f"{url}/v1/games", json=body, headers=headers or {}, timeout=10)
    return {"status": r.status_code, **r.json()}


def _lobby(url: str, headers: dict) -> list[str]:
    return [g["id"] for g in plainhttp.get(f"{url}/v1/games?mine=true&pageSize=100", headers=headers,
                                           timeout=10).json().get("games", [])]


def test_a_create_whose_answer_was_lost_is_retried_with_its_request_id(server):
    url = server.http
    post_and_drop_the_answer(url, "/v1/games", b'{"engine": "tic-tac-toe", "seats": ["human", "human"], '
                                               b'"requestId": "lost-1-0123456789ab"}')
    again = _create(url, {"engine": "tic-tac-toe", "seats": ["human", "human"], "requestId": "lost-1-0123456789ab"})
    assert again["status"] == 200, again
    gid, tokens = again["game"]["id"], {t["seat"]: t["token"] for t in again["seats"]}
    assert sorted(tokens) == [0, 1]
    # The tokens play; a retry after the game moved on shows it as it stands, with the same tokens.
    moved = plainhttp.post(f"{url}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                           headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
    assert moved.status_code == 200, moved.text
    third = _create(url, {"engine": "tic-tac-toe", "seats": ["human", "human"], "requestId": "lost-1-0123456789ab"})
    assert third["game"]["id"] == gid and third["game"]["version"] == moved.json()["version"]
    assert {t["seat"]: t["token"] for t in third["seats"]} == tokens
    # Another requestId, or none, is another game.
    assert _create(url, {**TTT, "requestId": "lost-2-0123456789ab"})["game"]["id"] != gid
    assert _create(url, TTT)["game"]["id"] != gid


def test_the_same_request_id_with_other_choices_is_refused(server):
    first = _create(server.http, {**TTT, "requestId": "choices-1-0123456789ab"})
    assert first["status"] == 200
    for other in ({**TTT, "engine": "goofspiel"}, {**TTT, "seats": ["human", "human"]},
                  {**TTT, "options": {"x": 1}}, {**TTT, "onLeave": "bot"}, {**TTT, "clock": {"moveSeconds": 30}}):
        r = _create(server.http, {**other, "requestId": "choices-1-0123456789ab"})
        assert r["status"] == 400 and r["error"]["reason"] == "REQUEST_ID_REUSED", r
    # The way a transport leaves a field out is leaving it out, and a default spelled out is the
    # default: the same create.
    same = _create(server.http, {**TTT, "players": 2, "onLeave": "forfeit", "options": {}, "requestId": "choices-1-0123456789ab"})
    assert same["status"] == 200 and same["game"]["id"] == first["game"]["id"], same
    for a, b in (({"engine": "goofspiel", "options": {"cards": 6}}, {"engine": "goofspiel"}),
                 ({"engine": "tic-tac-toe", "seats": ["human", "bot"]}, {"engine": "tic-tac-toe",
                                                                          "seats": ["human", "bot:easy"]}),
                 ({"engine": "tic-tac-toe", "rated": False}, {"engine": "tic-tac-toe"})):  # anonymous: never rated
        rid = f"defaults-{a['engine']}-{len(str(b))}-0123456789ab"
        one, two = _create(server.http, {**a, "requestId": rid}), _create(server.http, {**b, "requestId": rid})
        assert one["status"] == two["status"] == 200 and one["game"]["id"] == two["game"]["id"], (a, b, two)
    for bad in ("x" * 129, "a\u0000b-0123456789", "tab\tin-0123456789"):  # too long, or a control character
        r = _create(server.http, {**TTT, "requestId": bad})
        assert r["status"] == 400 and "requestId" in r["error"]["message"], r
    # An anonymous caller's id is the only proof a retry is theirs (whoever sends it gets the
    # game's seat tokens): a short one, easy to guess, is refused (an outside pass found "1" used).
    r = _create(server.http, {**TTT, "requestId": "x" * 15})
    assert r["status"] == 400 and r["error"]["reason"] == "INVALID_ARGUMENT" and "at least 16" in r["error"]["message"], r
    assert _create(server.http, {**TTT, "requestId": "x" * 16})["status"] == 200


def test_racing_copies_make_one_game_and_each_caller_has_its_own_ids(server):
    url = server.http
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda _: _create(url, {**TTT, "requestId": "race-1-0123456789ab"}), range(16)))
    assert {a["status"] for a in answers} == {200}
    assert len({a["game"]["id"] for a in answers}) == 1
    assert len({a["seats"][0]["token"] for a in answers}) == 1
    # Two portal users, one requestId: two games, each in its own user's lobby once.
    body = {"engine": "tic-tac-toe", "seats": ["me", "open"], "requestId": "mine-1"}
    a, b = _create(url, body, bearer("cr-a")), _create(url, body, bearer("cr-b"))
    assert a["game"]["id"] != b["game"]["id"] != answers[0]["game"]["id"]
    assert _create(url, body, bearer("cr-a"))["game"]["id"] == a["game"]["id"]
    assert _lobby(url, bearer("cr-a")) == [a["game"]["id"]]


def test_a_retry_counts_against_neither_the_rate_limit_nor_the_open_games_cap():
    with ServerThread(portal_keys=KEYS, create_rate_limit="3/h,3", max_open_games_per_user=2) as s:
        _limits(s.http, bearer("cr-limits"))


def _limits(url: str, me: dict) -> None:
    body = {"engine": "tic-tac-toe", "seats": ["me", "open"]}
    made = [_create(url, {**body, "requestId": f"lim-{i}"}, me) for i in range(2)]
    assert [m["status"] for m in made] == [200, 200]
    # At the cap of 2 open games: a new create is refused, each retry answered with its game.
    assert _create(url, {**body, "requestId": "lim-2"}, me)["error"]["reason"] == "OPEN_GAMES_CAP"
    for _ in range(4):  # more than the rate limit's 3 an hour: retries are not counted
        again = [_create(url, {**body, "requestId": f"lim-{i}"}, me) for i in range(2)]
        assert [a["game"]["id"] for a in again] == [m["game"]["id"] for m in made]
    assert _create(url, {**body, "requestId": "lim-3"}, me)["status"] == 429


def test_the_same_request_id_over_connect_and_grpc_is_the_same_create(server):
    first = plainhttp.post(f"{server.http}/tablero.v1.GameService/CreateGame",
                           json={**TTT, "requestId": "wire-1-0123456789ab"}, timeout=10).json()
    with grpc.insecure_channel(server.grpc) as ch:
        stub = games_pb2_grpc.GameServiceStub(ch)
        second = stub.CreateGame(games_pb2.CreateGameRequest(engine="tic-tac-toe", seats=["human", "open"],
                                                             request_id="wire-1-0123456789ab"))
        with pytest.raises(grpc.RpcError) as e:
            stub.CreateGame(games_pb2.CreateGameRequest(engine="goofspiel", request_id="wire-1-0123456789ab"))
    assert second.game.id == first["game"]["id"] and second.seats[0].token == first["seats"][0]["token"]
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "requestId" in e.value.details()


def test_a_request_id_reused_for_another_action_is_refused_and_a_retry_over_another_transport_is_not(server):
    """SubmitAction: the requestId's record keeps what the action was, so a retry (over any
    transport) gets the first answer, and the same id with another action is REQUEST_ID_REUSED
    (it was answered with the first move's result, the second move silently dropped)."""
    url = server.http
    made = _create(url, {"engine": "tic-tac-toe", "seats": ["human", "human"]})
    gid, (x, o) = made["game"]["id"], [t["token"] for t in made["seats"]]

    def act(token: str, cell: int, rid: str) -> dict:
        r = plainhttp.post(f"{url}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell},
                                                                  "requestId": rid},
                           headers={"Authorization": f"Bearer {token}"}, timeout=10)
        return {**r.json(), "http": r.status_code}

    first = act(x, 4, "m-1")
    assert first["http"] == 200 and first["version"] == 2
    assert act(x, 4, "m-1")["version"] == 2  # a retry: the first answer
    with grpc.insecure_channel(server.grpc) as ch:  # the same action over gRPC is the same request
        stub = games_pb2_grpc.GameServiceStub(ch)
        action = struct_pb2.Struct()
        action.update({"type": "place", "cell": 4})
        again = stub.SubmitAction(games_pb2.SubmitActionRequest(game_id=gid, action=action, request_id="m-1"),
                                  metadata=(("authorization", f"Bearer {x}"),))
    assert again.game.version == 2
    reused = act(x, 0, "m-1")
    assert reused["http"] == 400 and reused["error"]["reason"] == "REQUEST_ID_REUSED", reused
    # Also once the game moved on (the other seat's move), for an action that would be legal
    # now; the first action itself is still a retry, answered with its first answer.
    assert act(o, 0, "o-1")["http"] == 200
    r = act(x, 1, "m-1")
    assert r["http"] == 400 and r["error"]["reason"] == "REQUEST_ID_REUSED", r
    assert act(x, 4, "m-1")["version"] == 2
    # The same id in another seat is that seat's own request.
    assert act(o, 8, "m-1")["http"] == 409  # not o's turn: a refusal of its own, not a reuse
    assert plainhttp.get(f"{url}/v1/games/{gid}", timeout=10).json()["version"] == 3


async def test_copies_racing_into_the_store_get_the_game_not_an_outage(tmp_path):
    """Copies that each find no game yet and race to the store's create: the ones that lose the
    compare-and-set answer with the game the winner made (not 503 "the event store is
    unavailable", as an outside pass found under load)."""
    from tablero.server.app import commands as cmd
    from tablero.server.app.service import GameService
    from tablero.server.auth import TokenSigner
    from tablero.server.store.sqlite import SQLiteStore

    store = SQLiteStore(str(tmp_path / "race.db"))
    games = GameService(store, TokenSigner("race-secret-0123456789"))
    try:
        c = cmd.CreateGame("tic-tac-toe", 2, request_id="race-store-0123456789ab")
        made = await asyncio.gather(*(games.create_game(c) for _ in range(8)))
        assert len({m["game"]["id"] for m in made}) == 1
        assert len({tuple(t["token"] for t in m["seats"]) for m in made}) == 1
    finally:
        await games.games.drain()
        await store.close()


def test_racing_copies_of_one_create_are_counted_once_against_the_rate_limit():
    """(outside acceptance pass: 6 racing copies of one create spent the caller's whole limit and got
    429s and 503s) Copies from one caller run one after the other on a replica: one creates, the
    others find its game, and the limit has room left for new games."""
    # On a Redis of its own (its own rate-limit buckets): the store's round trips let copies overlap.
    with RedisServer() as redis, ServerThread(portal_keys=KEYS, create_rate_limit="3/h,3", redis_url=redis.url) as s:
        for headers in ({}, bearer("cr-race")):  # by address, and by portal user
            body = {"engine": "tic-tac-toe", "seats": ["me", "open"] if headers else ["human", "open"],
                    "requestId": "race-limit-0123456789ab"}
            with ThreadPoolExecutor(6) as pool:
                answers = list(pool.map(lambda _, b=body, h=headers: _create(s.http, b, h), range(6)))
            assert {a["status"] for a in answers} == {200}, answers
            assert len({a["game"]["id"] for a in answers}) == 1
            fresh = [_create(s.http, {**body, "requestId": f"race-limit-{i}-0123456789ab"}, headers)["status"] for i in range(3)]
            assert fresh == [200, 200, 429], fresh
