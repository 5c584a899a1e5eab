"""The Python SDK's portal calls, as the TypeScript SDK's `client.notifications/players/matchmaking`
(they had no wrapper: a portal integrator on Python wrote raw HTTP), against a real `tablero serve`
with a portal, Web Push and ratings, over REST and gRPC, sync and async: the notification list
("whose turn is it", its int64 `version` an int), marking read, Web Push registration for seats
and the user (to a local push service: private addresses allowed), live marks, leaderboards and
players after a rated game, quick match created, watched to its match (bots fill), waited for,
cancelled, and another user's ticket refused."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import pytest
from py_vapid import Vapid
from tablero_client import (
    CANCELLED,
    MATCHED,
    WAITING,
    AsyncClient,
    Client,
    FailedPrecondition,
    MatchTicket,
    PermissionDenied,
    Unauthenticated,
)
from tablero_client._rest import PORTAL_ROUTES

from tests import plainhttp
from tests.notify.test_webpush import PushService
from tests.ratings.support import KEYS, play, strong_move, token, weak_move
from tests.server.support import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def portal():
    vapid = Vapid()
    vapid.generate_keys()
    env = {"TABLERO_PORTAL_KEYS": KEYS, "TABLERO_LOG_LEVEL": "warning", "TABLERO_WEBHOOKS_ALLOW_PRIVATE": "1",
           "TABLERO_VAPID_PRIVATE_KEY": vapid.private_pem().decode()}
    with ServerProcess(env) as s:
        yield s


@pytest.fixture(params=["rest", "grpc"])
def where(request, portal) -> dict[str, str]:
    return {"rest": portal.http} if request.param == "rest" else {"grpc": portal.grpc}


def _until(check, timeout: float = 15.0):
    end = time.monotonic() + timeout
    while True:
        out = check()
        if out or time.monotonic() > end:
            return out
        time.sleep(0.1)


def test_the_notification_list_marks_read_and_pages(portal, where):
    kind = next(iter(where))
    ann, bob = f"n-ann-{kind}", f"n-bob-{kind}"
    with Client(**where, token=token(ann)) as a, Client(**where, token=token(bob)) as b:
        game = a.create("tic-tac-toe", seats=["me", "open"])
        seat_b = b.join(game.game.id)
        game.seat(0).act({"type": "place", "cell": 4})  # bob's turn now
        page = _until(lambda: (p := b.notifications.list()).pending_turns and p)
        [n] = page.notifications
        assert (n.kind, n.type, n.game_id, n.seat, n.read) == ("turn", "turn.started", game.game.id, 1, False)
        # int64 `version`: a string in the JSON answer, an int here; `data.version` a number alike.
        assert isinstance(n.version, int) and n.version == n.data["version"] == 2 and n.timestamp > 0
        assert page.unread == 1 and b.notifications.list(unread_only=True).notifications == [n]
        assert a.notifications.list().notifications == []  # ann's turn has passed
        assert b.notifications.mark_read([n.id]) == 1 and b.notifications.list().unread == 0
        assert b.notifications.list(unread_only=True).notifications == []
        seat_b.act({"type": "place", "cell": 0})
        _until(lambda: a.notifications.list().pending_turns)
        assert a.notifications.mark_read() == 1  # none named: all
        # page by page: one item a page here, all() walks them
        game2 = a.create("tic-tac-toe", seats=["me", "open"])
        b.join(game2.game.id)
        _until(lambda: len(a.notifications.list().notifications) == 2)
        first = a.notifications.list(page_size=1)
        assert len(first.notifications) == 1 and first.next_page_token
        assert [x.game_id for x in a.notifications.all(page_size=1)] == [game2.game.id, game.game.id]
        with Client(**where) as anonymous:
            with pytest.raises(Unauthenticated) as e:
                anonymous.notifications.list()
            assert e.value.reason == "TOKEN_MISSING"
            assert anonymous.notifications.list(token=token(ann)).notifications[0].game_id == game2.game.id


def test_web_push_registration_for_seats_and_the_user(portal, where):
    kind = next(iter(where))
    push = PushService()
    try:
        with Client(**where, token=token(f"p-cal-{kind}")) as c:
            assert len(c.notifications.push_key()) > 80  # the VAPID public key, base64url
            created = c.create("tic-tac-toe", seats=["human", "human"])
            x, o = created.seat(0), created.seat(1)
            sub = push.subscription()
            reg = c.notifications.register_push({**sub, "expirationTime": None}, [o, (x.game_id, x.token)])
            assert reg.id and reg.owners == 3  # two seats and the signed-in user
            live = c.notifications.set_push_live(o.game_id, o.token)
            assert live.live and live.ttl_seconds > 0
            assert not c.notifications.set_push_live(o.game_id, o.token, live=False).live
            assert c.notifications.delete_push(sub) and not c.notifications.delete_push(sub["endpoint"])
    finally:
        push.close()


def test_a_seat_only_push_registration_is_removed_by_its_keys_not_its_endpoint(portal, where):
    """Only a subscription's owner removes it: without a portal JWT that is the browser holding
    it, which proves it by the keys (the SDK sends the whole toJSON()); the endpoint alone is
    refused, so anyone who learns an endpoint cannot switch another player's pushes off."""
    push = PushService()
    try:
        with Client(**where) as c:
            created = c.create("tic-tac-toe", seats=["human", "human"])
            sub = push.subscription()
            assert c.notifications.register_push(sub, [created.seat(0)]).owners == 1
            with pytest.raises((Unauthenticated, PermissionDenied)):
                c.notifications.delete_push(sub["endpoint"])
            assert c.notifications.delete_push(sub)
    finally:
        push.close()


def test_leaderboards_and_players_after_a_rated_game(portal, where):
    kind = next(iter(where))
    strong, weak = f"r-strong-{kind}", f"r-weak-{kind}"
    play(portal.http, strong, weak, {strong: strong_move, weak: weak_move})
    with Client(**where) as c:
        def rated() -> dict:
            entries = c.players.leaderboard("tic-tac-toe", page_size=100).entries
            return {e.user_id: e for e in entries if e.user_id in (strong, weak)}

        ours = _until(lambda: len(both := rated()) == 2 and both)
        assert ours[strong].rank < ours[weak].rank and ours[strong].wins == 1 and ours[weak].games_played == 1
        assert ours[strong].user_name == strong.upper() and ours[strong].rating > ours[weak].rating
        page = c.players.leaderboard("tic-tac-toe", page_size=1)
        assert len(page.entries) == 1 and page.next_page_token and page.total_players >= 2
        nxt = c.players.leaderboard("tic-tac-toe", page_size=1, page_token=page.next_page_token)
        assert nxt.entries[0].rank == 2 and nxt.previous_page_token
        around = c.players.leaderboard("tic-tac-toe", page_size=1, around_user_id=weak)
        assert [e.user_id for e in around.entries] == [weak]
        p = c.players.get(strong)
        assert p.user_id == strong and p.games_played == 1 and p.wins == 1
        assert [r.engine for r in p.ratings] == ["tic-tac-toe"] and p.ratings[0].rank == ours[strong].rank
        assert len(p.recent_games) == 1 and p.recent_games[0].won and p.recent_games[0].place == 1


def test_quick_match_is_watched_to_its_game_and_a_ticket_is_cancelled(portal, where):
    kind = next(iter(where))
    with Client(**where, token=token(f"m-dee-{kind}")) as c:
        ticket = c.matchmaking.create_ticket("tic-tac-toe", 2, bots_after_seconds=0.5, timeout_seconds=60)
        assert isinstance(ticket, MatchTicket) and ticket.status == WAITING and ticket.players == [2]
        seen = list(c.matchmaking.watch_ticket(ticket.id))
        assert seen[0].status in (WAITING, MATCHED) and seen[-1].status == MATCHED and seen[-1].done
        assert [t.version for t in seen] == sorted({t.version for t in seen})
        matched = c.matchmaking.wait(ticket.id)
        assert matched.matched and matched.game_id and matched.seat in (0, 1) and matched.seat_token
        assert c.seat(matched.game_id, matched.seat_token, matched.seat).game().your_seat == matched.seat
        assert c.matchmaking.get_ticket(ticket.id) == matched
        with pytest.raises(FailedPrecondition) as e:
            c.matchmaking.cancel_ticket(ticket.id)
        assert e.value.reason == "TICKET_MATCHED"
        waiting = c.matchmaking.create_ticket("tic-tac-toe", [2], options={}, timeout_seconds=60, request_id="r1")
        assert c.matchmaking.create_ticket("tic-tac-toe", [2], options={}, timeout_seconds=60,
                                           request_id="r1").id == waiting.id  # a retry: the same ticket
        with Client(**where, token=token(f"m-eve-{kind}")) as other, pytest.raises(PermissionDenied) as e:
            other.matchmaking.get_ticket(waiting.id)
        assert e.value.reason == "NOT_TICKET_OWNER"
        assert c.matchmaking.cancel_ticket(waiting.id).status == CANCELLED
        assert c.matchmaking.wait(waiting.id).status == CANCELLED


@pytest.mark.parametrize("kind", ["rest", "grpc"])
def test_the_async_client_has_them_too(portal, kind):
    where = {"rest": portal.http} if kind == "rest" else {"grpc": portal.grpc}

    async def main() -> None:
        async with AsyncClient(**where, token=token(f"a-fay-{kind}")) as c, \
                AsyncClient(**where, token=token(f"a-gus-{kind}")) as g:
            created = await c.create("tic-tac-toe", seats=["open", "me"])  # seat 0 (the first to move) is gus'
            await g.join(created.game.id)
            for _ in range(150):
                page = await g.notifications.list()
                if page.pending_turns:
                    break
                await asyncio.sleep(0.1)
            assert [n.game_id async for n in g.notifications.all()] == [created.game.id]
            assert await g.notifications.mark_read() == 1 and len(await g.notifications.push_key()) > 80
            board = await c.players.leaderboard("tic-tac-toe")
            assert board.engine == "tic-tac-toe"
            ticket = await c.matchmaking.create_ticket("tic-tac-toe", bots_after_seconds=0.5, timeout_seconds=60)
            seen = [t.status async for t in c.matchmaking.watch_ticket(ticket.id)]
            assert seen[-1] == MATCHED and (await c.matchmaking.wait(ticket.id)).matched
            other = await c.matchmaking.create_ticket("tic-tac-toe", timeout_seconds=60)
            assert (await c.matchmaking.cancel_ticket(other.id)).status == CANCELLED
            assert (await c.matchmaking.get_ticket(other.id)).done

    asyncio.run(main())


def test_the_rest_routes_are_the_protos():
    """PORTAL_ROUTES (the REST transport's) are the google.api.http annotations of every RPC of the
    notification, player and matchmaking services, with the path parameters' JSON names."""
    found = {}
    for name in ("notifications", "players"):
        text = (ROOT / "proto" / "tablero" / "v1" / f"{name}.proto").read_text()
        for rpc, verb, path in re.findall(r"rpc (\w+)\(.*?option \(google\.api\.http\) = \{\s*(get|post): \"([^\"]+)\"",
                                          text, re.S):
            found[rpc] = (verb.upper(), re.sub(r"\{(\w+)\}", lambda m: "{" + _camel(m.group(1)) + "}", path))
    assert found == PORTAL_ROUTES, json.dumps(found, indent=1)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def _seconds(rfc3339: str) -> float:
    import datetime

    return datetime.datetime.fromisoformat(rfc3339.replace("Z", "+00:00")).timestamp()


def test_times_come_as_timestamps_beside_the_seconds(portal):
    """A mobile app's codegen reads google.protobuf.Timestamp: a ticket's create, expire and match
    times, a notification's time and a recent game's creation come as Timestamps too (RFC 3339 in
    JSON), equal to the float seconds beside them (an integrator's pass: floats only)."""
    import grpc
    from tablero_client._proto import notifications_pb2, notifications_pb2_grpc, players_pb2, players_pb2_grpc

    amy, ben = "ts-amy", "ts-ben"
    with Client(rest=portal.http, token=token(amy)) as a, Client(rest=portal.http, token=token(ben)) as b:
        ticket = a.matchmaking.wait(a.matchmaking.create_ticket("tic-tac-toe", 2, bots_after_seconds=0.3,
                                                                timeout_seconds=60).id)
        game = a.create("tic-tac-toe", seats=["me", "open"])
        b.join(game.game.id)
        game.seat(0).act({"type": "place", "cell": 4})  # ben's turn: a notification for him
        _until(lambda: b.notifications.list().pending_turns)
    play(portal.http, amy, ben, {amy: strong_move, ben: weak_move})  # a rated game: a recent game

    def rest(path: str, user: str) -> dict:
        return plainhttp.get(portal.http + path, headers={"Authorization": f"Bearer {token(user)}"}, timeout=10).json()

    t = rest(f"/v1/matchmaking/tickets/{ticket.id}", amy)["ticket"]
    for name in ("create", "expire", "match"):
        assert _seconds(t[f"{name}Timestamp"]) == pytest.approx(t[f"{name}Time"], abs=1e-3), t
    n = rest("/v1/notifications", ben)["notifications"][0]
    assert _seconds(n["eventTime"]) == pytest.approx(n["timestamp"], abs=1e-3), n
    recent = _until(lambda: rest(f"/v1/players/{amy}", amy).get("player", {}).get("recentGames"))
    assert _seconds(recent[0]["createTimestamp"]) == pytest.approx(recent[0]["createTime"], abs=1e-3), recent
    with grpc.insecure_channel(portal.grpc) as ch:
        got = players_pb2_grpc.MatchmakingServiceStub(ch).GetMatchTicket(
            players_pb2.GetMatchTicketRequest(ticket_id=ticket.id), metadata=[("authorization", f"Bearer {token(amy)}")])
        assert got.ticket.match_timestamp.ToMilliseconds() == round(got.ticket.match_time * 1000)
        assert got.ticket.create_timestamp.ToMilliseconds() == round(got.ticket.create_time * 1000)
        listed = notifications_pb2_grpc.NotificationServiceStub(ch).ListNotifications(
            notifications_pb2.ListNotificationsRequest(), metadata=[("authorization", f"Bearer {token(ben)}")])
        assert listed.notifications[0].event_time.ToMilliseconds() == round(listed.notifications[0].timestamp * 1000)


def test_a_player_whose_id_is_a_dot_segment_is_found(portal, where):
    # A portal's `sub` may be "." or "..": sent as it is, the HTTP client drops it from the path
    # as a dot-segment and GetPlayer went to another route (REST: 404 "no route /v1").
    play(portal.http, "..", ".", {"..": strong_move, ".": weak_move})
    with Client(**where) as c:
        for user in ("..", "."):
            p = _until(lambda u=user: next((r for r in c.players.leaderboard("tic-tac-toe", page_size=100).entries
                                            if r.user_id == u), None))
            assert p is not None, user
            got = c.players.get(user)
            # (the module's server is shared by both transports' runs: a game each)
            assert got.user_id == user and got.games_played >= 1 and (got.wins >= 1) == (user == ".."), got
