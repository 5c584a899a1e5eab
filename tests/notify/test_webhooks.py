"""Webhooks end to end on a real server: the event kinds of a portal game (join, turns,
resign, finish), signatures with rotated secrets, the notification list, dead letters and
their replay, and the destination checks."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import time
from datetime import UTC, datetime

import jwt
import pytest
from standardwebhooks.webhooks import Webhook
from tablero.server.notify import admin
from tablero.server.notify.events import KINDS
from tablero.server.notify.queue import SQLiteQueue
from tablero.server.notify.webhooks import Endpoint, Refused, Sender, headers, parse_endpoints, payload

from tests import plainhttp
from tests.notify.receiver import Receiver, endpoints_json, secret
from tests.redis_server import RedisServer
from tests.server.support import ServerThread

KEY = "a-portal-secret-of-at-least-32-bytes!"


def portal(user: str) -> dict[str, str]:
    claims = {"sub": user, "name": user.title(), "exp": int(time.time()) + 600}
    return {"Authorization": "Bearer " + jwt.encode(claims, KEY, algorithm="HS256", headers={"kid": "k1"})}


def test_settings_are_checked_and_secrets_rotate() -> None:
    with pytest.raises(ValueError, match="url"):
        parse_endpoints('[{"secret": "whsec_x"}]')
    with pytest.raises(ValueError, match="secret"):
        parse_endpoints('[{"url": "https://a.example/h", "secret": "whsec_c2hvcnQ="}]')
    with pytest.raises(ValueError, match="events"):
        parse_endpoints(json.dumps([{"url": "https://a.example/h", "secret": secret(), "events": ["game.eaten"]}]))
    [ep] = parse_endpoints(json.dumps([{"url": "https://a.example/h", "secret": [secret(1), secret(2)]}]))
    assert ep.events == frozenset(KINDS)
    ev = {"id": "evt_g_1_turn_started", "type": "turn.started", "timestamp": time.time(), "data": {"gameId": "g"}}
    body = payload(ev)
    hdrs = headers(ep, ev["id"], body)
    assert hdrs["webhook-signature"].count("v1,") == 2
    for s in (secret(1), secret(2)):  # a receiver holding either secret verifies it
        assert Webhook(s).verify(body, hdrs)["id"] == ev["id"]
    with pytest.raises(Exception):  # noqa: B017 - and one holding another does not
        Webhook(secret(3)).verify(body, hdrs)


async def test_private_destinations_are_refused_and_redirects_not_followed() -> None:
    sender = Sender(timeout=2, allow_private=False)
    try:
        for url in ("http://127.0.0.1:9/h", "http://10.1.2.3/h", "http://[::1]:9/h", "http://localhost:9/h",
                    "http://169.254.169.254/latest"):
            with pytest.raises(Refused, match="private or loopback"):
                await sender.post(url, b"{}", {})
    finally:
        await sender.close()
    # A redirect is an answer like any other non-2xx: not followed.
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    hits = []

    class Redirect(BaseHTTPRequestHandler):
        def log_message(self, *a) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            hits.append(self.path)
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self.send_response(307)
            self.send_header("location", "/elsewhere")
            self.send_header("content-length", str(200_000))
            self.end_headers()
            with contextlib.suppress(OSError):
                self.wfile.write(b"x" * 200_000)

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    sender = Sender(timeout=2, allow_private=True)
    try:
        status, _ = await sender.post(f"http://127.0.0.1:{srv.server_address[1]}/h", b"{}", {})
        assert status == 307 and hits == ["/h"]
    finally:
        await sender.close()
        srv.shutdown()


def _kinds(rec: Receiver, game_id: str) -> list[str]:
    return [d["type"] for d in rec.accepted if d["data"]["gameId"] == game_id]


def test_a_portal_game_join_turns_resign_finish_and_the_notification_list() -> None:
    with Receiver(secret()) as rec, ServerThread(portal_keys=json.dumps({"k1": KEY}), webhooks_allow_private=True,
                                                 webhooks=endpoints_json((rec.url, secret()))) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        alice, bob = portal("alice"), portal("bob")
        game = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"]},
                          headers=alice).json()["game"]
        gid = game["id"]
        assert plainhttp.post(f"{h}/v1/games/{gid}/join", json={}, headers=bob).json()["seat"] == 1
        for who, cell in [(alice, 4), (bob, 0), (alice, 2)]:
            plainhttp.post(f"{h}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                       headers=who).raise_for_status()
        # Bob's turn now: his list has it, Alice's does not.
        assert rec.wait_for(lambda acc: sum(d["type"] == "turn.started" for d in acc) >= 4, 10)
        mine = plainhttp.get(f"{h}/v1/notifications", headers=bob).json()
        assert [(n["kind"], n["gameId"]) for n in mine["notifications"]] == [("turn", gid)]
        assert mine["pendingTurns"] == 1 and mine["unread"] == 1
        assert plainhttp.get(f"{h}/v1/notifications", headers=alice).json()["notifications"] == []
        plainhttp.post(f"{h}/v1/games/{gid}/resign", json={}, headers=bob).raise_for_status()
        assert rec.wait_for(lambda acc: "game.finished" in [d["type"] for d in acc], 10)
        kinds = _kinds(rec, gid)
        # Joins come from the seat directory, not the log: derived when seen, so Alice's first
        # turn may come before or after Bob's join; the rest is in the log's order.
        assert sorted(kinds) == sorted(["game.created", "turn.started", "seat.joined", "game.started",
                                        "turn.started", "turn.started", "turn.started", "seat.left",
                                        "game.finished"]), kinds
        assert kinds[0] == "game.created" and kinds[-2:] == ["seat.left", "game.finished"]
        assert kinds.index("seat.joined") + 1 == kinds.index("game.started")
        joined = next(d for d in rec.accepted if d["type"] == "seat.joined")
        assert joined["data"] == {"gameId": gid, "version": 0, "seat": 1, "userId": "bob"}
        turn = [d for d in rec.accepted if d["type"] == "turn.started"][-1]
        assert turn["data"]["seats"] == [{"seat": 1, "userId": "bob"}]
        finished = next(d for d in rec.accepted if d["type"] == "game.finished")
        assert finished["data"]["outcome"]["winners"] == [0]
        # Both lists show the result; paged; marked read.
        for who in (alice, bob):
            assert rec.wait_for(lambda acc: True, 0)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                items = plainhttp.get(f"{h}/v1/notifications", headers=who).json()["notifications"]
                if items and items[0]["kind"] == "result":
                    break
                time.sleep(0.1)
            assert [i["kind"] for i in items] == ["result"] and items[0]["data"]["outcome"]["winners"] == [0]
        page = plainhttp.get(f"{h}/v1/notifications", params={"pageSize": 1}, headers=alice).json()
        assert page["nextPageToken"] == ""
        assert plainhttp.post(f"{h}/v1/notifications:markRead", json={}, headers=alice).json() == {"marked": 1}
        assert plainhttp.get(f"{h}/v1/notifications", headers=alice).json()["unread"] == 0
        assert plainhttp.get(f"{h}/v1/notifications").status_code == 401
        assert plainhttp.get(f"{h}/v1/notifications", params={"pageToken": "zz"}, headers=alice).status_code == 400


def test_the_move_that_wins_starts_no_turn() -> None:
    """The winning move's write holds the mark (after which, alone, it would be O's turn) and the
    game's end: O gets no turn.started for it (acceptance pass: a portal told O "your turn" in a
    finished game)."""
    with Receiver(secret()) as rec, ServerThread(portal_keys=json.dumps({"k1": KEY}), webhooks_allow_private=True,
                                                 webhooks=endpoints_json((rec.url, secret()))) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        al, bea = portal("al"), portal("bea")
        gid = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [
            {"kind": "me"}, {"kind": "human", "userId": "bea"}]}, headers=al).json()["game"]["id"]
        for who, cell in [(al, 4), (bea, 0), (al, 2), (bea, 1), (al, 6)]:
            last = plainhttp.post(f"{h}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                                  headers=who)
            last.raise_for_status()
            rec.wait_for(lambda acc, v=last.json()["version"]: any(
                d["data"]["gameId"] == gid and d["data"]["version"] >= v - 1 for d in acc), 10)
        assert rec.wait_for(lambda acc: "game.finished" in _kinds(rec, gid), 10)
        end = last.json()["version"]
        turns = [d["data"] for d in rec.accepted if d["type"] == "turn.started" and d["data"]["gameId"] == gid]
        assert [t["newly"] for t in turns] == [[0], [1], [0], [1], [0]], turns
        assert all(t["version"] < end - 1 for t in turns), (end, turns)


def test_dead_letters_are_listed_and_replayed_with_their_webhook_id() -> None:
    with RedisServer() as redis, Receiver(secret(), fail_rate=1.0) as rec, \
            ServerThread(redis_url=redis.url, webhooks=endpoints_json((rec.url, secret())), notify_worker="inline",
                         webhooks_allow_private=True, webhooks_retry_for=0.6, webhooks_backoff=0.05,
                         webhooks_backoff_max=0.1) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid = g["game"]["id"]
        # Everything fails for 0.6 s: the lane's head (game.created) becomes a dead letter, then the next...
        deadline = time.monotonic() + 20
        dead: list[dict] = []
        while time.monotonic() < deadline and len(dead) < 3:
            dead = asyncio.run(_dead(redis.url))
            time.sleep(0.2)
        assert [d["item"]["event"]["type"] for d in dead] == ["game.created", "game.started", "turn.started"]
        assert all(d["attempts"] >= 2 and d["error"].startswith("HTTP 500") for d in dead)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert admin.main(["--redis-url", redis.url, "dead-letters"]) == 0
        assert f"evt_{gid}_0_game_created  game.created" in out.getvalue()
        rec.fail_rate = 0.0
        assert admin.main(["--redis-url", redis.url, "replay", "--id", "evt_nothing"]) == 1
        assert admin.main(["--redis-url", redis.url, "replay", "--all"]) == 0
        assert rec.wait_for(lambda acc: {d["id"] for d in acc} >= {d["item"]["event"]["id"] for d in dead}, 10)
        assert asyncio.run(_dead(redis.url)) == []
        assert rec.headers[0]["webhook-id"] == f"evt_{gid}_0_game_created"


async def _dead(url: str) -> list[dict]:
    from tablero.server.notify import open_queue

    q = open_queue(url, None)
    try:
        return await q.dead_letters()
    finally:
        await q.close()


async def test_a_lane_is_sent_in_order_and_only_its_claimer_settles_it() -> None:
    q = SQLiteQueue(None)
    items = [json.dumps({"event": {"id": f"e{i}"}, "queued": time.time()}) for i in range(3)]
    assert await q.commit("g", None, "c1", [("ep", "g", i) for i in items])
    assert not await q.commit("g", None, "c1", [("ep", "g", items[0])])  # the cursor moved: nothing queued
    [(lane, token, raw, _)] = await q.claim("ep", 10, lease=0.05)
    assert json.loads(raw)["event"]["id"] == "e0" and await q.claim("ep", 10, lease=0.05) == []
    await asyncio.sleep(0.06)  # the lease ran out: another claims the same head
    [(_, token2, raw2, _)] = await q.claim("ep", 10, lease=5)
    assert raw2 == raw and token2 != token
    assert not await q.settle("ep", lane, token, "ack", 0)  # the first claimer's token is void
    assert await q.settle("ep", lane, token2, "ack", 0)
    [(_, token3, raw3, _)] = await q.claim("ep", 10, lease=5)
    assert json.loads(raw3)["event"]["id"] == "e1"
    assert (await q.stats(["ep"]))["ep"][0] == 2


def test_signature_timestamp_is_the_attempts() -> None:
    ep = Endpoint("x", "https://a.example", (secret(),), frozenset(KINDS))
    when = datetime(2030, 1, 1, tzinfo=UTC)
    assert headers(ep, "m", b"{}", when)["webhook-timestamp"] == str(int(when.timestamp()))
    assert base64.b64decode(headers(ep, "m", b"{}", when)["webhook-signature"].split(",")[1])


def test_simultaneous_turns_on_a_sqlite_file_through_the_worker_process(tmp_path) -> None:
    """Goofspiel (both seats bid at once): one turn.started per round naming both; derivation and
    delivery in the notifier's worker process (a SQLite file is shared), its counts on /metrics."""
    with Receiver(secret()) as rec, ServerThread(db=str(tmp_path / "t.db"), webhooks_allow_private=True,
                                                 webhooks=endpoints_json((rec.url, secret()))) as srv:
        assert srv.config.notify_worker == "process"
        h = f"http://127.0.0.1:{srv.http_port}"
        g = plainhttp.post(f"{h}/v1/games", json={"engine": "goofspiel", "players": 2, "options": {"cards": 3}}).json()
        gid, tokens, game = g["game"]["id"], {s["seat"]: s["token"] for s in g["seats"]}, g["game"]
        while game["status"] != "GAME_STATUS_FINISHED":
            for seat in list(game["toAct"]):
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                action = plainhttp.get(f"{h}/v1/games/{gid}/legal-actions", headers=auth).json()["actions"][0]
                game = plainhttp.post(f"{h}/v1/games/{gid}/actions", headers=auth, json={"action": action}).json()
                game = game.get("game", game)
        assert rec.wait_for(lambda acc: "game.finished" in [d["type"] for d in acc], 20)
        turns = [d["data"] for d in rec.accepted if d["type"] == "turn.started"]
        assert [t["newly"] for t in turns] == [[0, 1]] * 3 and [t["version"] for t in turns] == [1, 4, 7]
        assert _kinds(rec, gid) == ["game.created", "game.started", *["turn.started"] * 3, "game.finished"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "deliveries_total{result=\"ok\"" not in plainhttp.get(srv.metrics).text:
            time.sleep(0.2)
        assert 'tablero_notify_deliveries_total{result="ok",target="' in plainhttp.get(srv.metrics).text


def test_a_turn_clock_gives_deadlines_and_turn_timed_out() -> None:
    with Receiver(secret()) as rec, ServerThread(webhooks_allow_private=True,
                                                 webhooks=endpoints_json((rec.url, secret()))) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        g = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2,
                                              "clock": {"moveSeconds": 1, "onTimeout": "bot"}}).json()
        gid = g["game"]["id"]
        assert rec.wait_for(lambda acc: "turn.timed_out" in [d["type"] for d in acc], 15)
        timed_out = next(d for d in rec.accepted if d["type"] == "turn.timed_out")
        assert timed_out["data"]["seat"] == 0 and timed_out["data"]["gameId"] == gid
        # The deadline rides on the turn of the game's head when it is derived (the clock's record).
        turns = [d["data"] for d in rec.accepted if d["type"] == "turn.started"]
        assert any(s.get("deadline", 0) > time.time() - 60 for t in turns for s in t["seats"]), turns
        # The bot's move for seat 0 is in the same write: seat 1's turn follows the timeout (its
        # delivery may still be on its way when the timeout's arrived).
        def after_timeout(_acc) -> list[str]:
            kinds = _kinds(rec, gid)
            return kinds[kinds.index("turn.timed_out") + 1:]

        assert rec.wait_for(lambda acc: after_timeout(acc) != [], 15), _kinds(rec, gid)
        assert after_timeout(rec.accepted)[0] == "turn.started", _kinds(rec, gid)


async def test_sqlite_dead_letters_and_replay_keep_the_lane() -> None:
    q = SQLiteQueue(None)
    items = [json.dumps({"event": {"id": f"e{i}"}, "queued": time.time()}) for i in range(2)]
    assert await q.commit("g", None, "c1", [("ep", "g", i) for i in items])
    [(lane, token, raw, _)] = await q.claim("ep", 10, lease=5)
    record = {"target": "ep", "lane": lane, "raw": raw, "item": json.loads(raw), "attempts": 3, "error": "HTTP 500"}
    assert await q.settle("ep", lane, token, "dead", 0, json.dumps(record))
    assert [d["item"]["event"]["id"] for d in await q.dead_letters()] == ["e0"]
    [(_, token, raw, _)] = await q.claim("ep", 10, lease=5)  # the lane goes on with the next event
    assert json.loads(raw)["event"]["id"] == "e1"
    assert await q.settle("ep", lane, token, "ack", 0)
    assert await q.replay("nope") == 0 and await q.replay("e0") == 1 and await q.dead_letters() == []
    [(_, token, raw, _)] = await q.claim("ep", 10, lease=5)
    assert json.loads(raw)["event"]["id"] == "e0"


def test_an_endpoint_every_delivery_is_refused_for_is_said_in_the_log(caplog) -> None:
    """Found by an outside acceptance pass: webhooks to a loopback address without
    TABLERO_WEBHOOKS_ALLOW_PRIVATE=1 failed silently (only the metrics showed it). The server says
    so at start, and logs failed deliveries (at most once a minute per endpoint)."""
    caplog.set_level("WARNING", logger="tablero.notify")
    with Receiver(secret()) as rec, ServerThread(webhooks=endpoints_json((rec.url, secret()))) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        for _ in range(3):
            plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).raise_for_status()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any("failed (retried" in r.getMessage() for r in caplog.records):
            time.sleep(0.1)
    said = [r.getMessage() for r in caplog.records if r.name == "tablero.notify"]
    assert any("every delivery will be refused" in s and "TABLERO_WEBHOOKS_ALLOW_PRIVATE=1" in s for s in said), said
    failed = [s for s in said if "failed (retried" in s]
    assert len(failed) == 1 and "private or loopback" in failed[0], said
    assert rec.accepted == []  # nothing reached it


def test_a_clock_that_starts_at_the_last_join_gives_the_first_seats_deadline() -> None:
    """A game with an open seat runs no clock until the seat is taken: the first seat's
    turn.started came at creation without a deadline; once the clock starts, a turn.started
    gives it (acceptance pass: no webhook ever carried it)."""
    with Receiver(secret()) as rec, ServerThread(portal_keys=json.dumps({"k1": KEY}), webhooks_allow_private=True,
                                                 webhooks=endpoints_json((rec.url, secret()))) as srv:
        h = f"http://127.0.0.1:{srv.http_port}"
        kim, lee = portal("kim"), portal("lee")
        gid = plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "open"], "clock": {
            "moveSeconds": 300, "onTimeout": "bot"}}, headers=kim).json()["game"]["id"]
        assert rec.wait_for(lambda acc: "turn.started" in _kinds(rec, gid), 10)
        plainhttp.post(f"{h}/v1/games/{gid}/join", json={}, headers=lee).raise_for_status()
        assert rec.wait_for(lambda acc: _kinds(rec, gid).count("turn.started") >= 2, 10), _kinds(rec, gid)
        first, clocked = [d for d in rec.accepted if d["type"] == "turn.started" and d["data"]["gameId"] == gid][:2]
        assert "deadline" not in first["data"]["seats"][0]
        due = plainhttp.get(f"{h}/v1/games/{gid}", headers=kim).json()["deadlines"]
        assert clocked["id"].endswith("_clock") and clocked["data"]["newly"] == [0]
        assert [(s["seat"], s["userId"]) for s in clocked["data"]["seats"]] == [(0, "kim")]
        assert abs(clocked["data"]["seats"][0]["deadline"] - due[0]["deadline"]) < 1, (clocked, due)
        assert _kinds(rec, gid).index("game.started") < len(_kinds(rec, gid)) - 1
        # Kim's move: Lee's turn, with its deadline, and no second _clock turn.
        plainhttp.post(f"{h}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                       headers=kim).raise_for_status()
        assert rec.wait_for(lambda acc: _kinds(rec, gid).count("turn.started") >= 3, 10)
        third = [d for d in rec.accepted if d["type"] == "turn.started" and d["data"]["gameId"] == gid][2]
        assert third["data"]["newly"] == [1] and "deadline" in third["data"]["seats"][0]
        time.sleep(0.5)
        assert sum(d["id"].endswith("_clock") for d in rec.accepted if d["data"]["gameId"] == gid) == 1


def test_a_payloads_timestamp_has_one_form_also_on_a_whole_second() -> None:
    """RFC 3339 in UTC to the millisecond, whatever the fraction (was `...51.599000Z`, and
    `...51Z` on a whole second)."""
    ev = {"id": "evt_g_1_turn_started", "type": "turn.started", "data": {"gameId": "g"}}
    assert json.loads(payload({**ev, "timestamp": 1796648400.0}))["timestamp"] == "2026-12-07T13:00:00.000Z"
    assert json.loads(payload({**ev, "timestamp": 1796648400.599}))["timestamp"] == "2026-12-07T13:00:00.599Z"
