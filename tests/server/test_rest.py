"""The REST/JSON API against a real server on a socket (embedded SQLite store)."""

import json
import threading

import httpx

from tests import plainhttp
from tests.server.conftest import auth
from tests.server.support import scrape

WIN_FOR_X = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]  # X takes the top row


def create(http, engine="tic-tac-toe", players=2, **body):
    r = http.post("/v1/games", json={"engine": engine, "players": players, **body})
    assert r.status_code == 200, r.text
    out = r.json()
    return out["game"], {s["seat"]: s["token"] for s in out["seats"]}


def act(http, gid, token, action, **extra):
    return http.post(f"/v1/games/{gid}/actions", json={"action": action, **extra}, headers=auth(token))


def err(r, status, code):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code and body["error"]["message"], body
    return body["error"]["message"]


def test_list_engines(http):
    r = http.get("/v1/engines")
    assert r.status_code == 200
    names = {e["name"]: e for e in r.json()["engines"]}
    assert names["tic-tac-toe"]["minSeats"] == 2 and names["tic-tac-toe"]["maxSeats"] == 2
    assert names["goofspiel"]["optionsSchema"]["type"] == "object"


def test_a_whole_tic_tac_toe_game(http):
    game, tokens = create(http)
    assert game["version"] == 1 and game["toAct"] == [0] and game["status"] == "GAME_STATUS_RUNNING"
    for seat, cell in WIN_FOR_X:
        legal = http.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(tokens[seat])).json()
        assert {"type": "place", "cell": cell} in legal["actions"]
        r = act(http, game["id"], tokens[seat], {"type": "place", "cell": cell})
        assert r.status_code == 200, r.text
    final = r.json()
    assert final["status"] == "GAME_STATUS_FINISHED" and final["toAct"] == []
    assert final["outcome"]["winners"] == [0] and final["outcome"]["scores"] == [1, 0]
    assert final["view"]["rows"][0] == "XXX"
    # The spectator sees the same public board; a past version shows the past.
    assert http.get(f"/v1/games/{game['id']}").json()["view"]["board"] == final["view"]["board"]
    past = http.get(f"/v1/games/{game['id']}", params={"version": 2}).json()
    assert past["version"] == 2 and past["view"]["board"][0] == 0 and past["view"]["board"][1] is None
    # No more actions once the game is over.
    err(act(http, game["id"], tokens[1], {"type": "place", "cell": 8}), 409, "FAILED_PRECONDITION")


def test_events_are_paged_in_order(http):
    game, tokens = create(http)
    for seat, cell in WIN_FOR_X:
        assert act(http, game["id"], tokens[seat], {"type": "place", "cell": cell}).status_code == 200
    seen, token = [], None
    while True:
        params = {"pageSize": 2, **({"pageToken": token} if token else {})}
        page = http.get(f"/v1/games/{game['id']}/events", params=params).json()
        seen += page["events"]
        token = page["nextPageToken"]
        if not token:
            break
    assert [e["version"] for e in seen] == list(range(1, 8))
    assert seen[0]["event"]["engine"] == "tic-tac-toe" and seen[-1]["event"]["type"] == "game_won"
    err(http.get(f"/v1/games/{game['id']}/events", params={"pageToken": "garbage!"}), 400, "INVALID_ARGUMENT")
    err(http.get(f"/v1/games/{game['id']}/events", params={"pageSize": -1}), 400, "INVALID_ARGUMENT")
    # Over the maximum (1000): clamped, not refused (docs/api.md "Page sizes and page tokens").
    assert len(http.get(f"/v1/games/{game['id']}/events", params={"pageSize": 5000}).json()["events"]) == 7


def _replayed(http) -> float:
    for line in scrape(http).splitlines():
        if line.startswith('tablero_actions_total{engine="tic-tac-toe",result="replayed"}'):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_retried_request_id_appends_nothing_and_returns_the_first_answer(http):
    replayed = _replayed(http)
    game, tokens = create(http)
    first = act(http, game["id"], tokens[0], {"type": "place", "cell": 4}, requestId="req-1")
    again = act(http, game["id"], tokens[0], {"type": "place", "cell": 4}, requestId="req-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert http.get(f"/v1/games/{game['id']}").json()["version"] == 2
    # Even after the game moved on, the retry gives the answer at that version.
    assert act(http, game["id"], tokens[1], {"type": "place", "cell": 0}).status_code == 200
    late = act(http, game["id"], tokens[0], {"type": "place", "cell": 4}, requestId="req-1")
    assert late.json()["version"] == 2
    assert http.get(f"/v1/games/{game['id']}").json()["version"] == 3
    assert _replayed(http) == replayed + 2  # the two repeats, not counted as moves made
    # A retry whose expectedVersion was refreshed meanwhile (docs/api.md: not compared) still
    # learns that its move was made, not a CONFLICT, and nothing is appended.
    fresh = act(http, game["id"], tokens[0], {"type": "place", "cell": 4}, requestId="req-1", expectedVersion=3)
    assert fresh.status_code == 200 and fresh.json()["version"] == 2
    assert http.get(f"/v1/games/{game['id']}").json()["version"] == 3


def test_concurrent_retries_of_one_request_append_once(http, server):
    game, tokens = create(http)
    results = []

    def go():
        with httpx.Client(base_url=server.http, timeout=10) as c:
            results.append(act(c, game["id"], tokens[0], {"type": "place", "cell": 4}, requestId="same").status_code)

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 8
    assert http.get(f"/v1/games/{game['id']}").json()["version"] == 2


def test_stale_expected_version_is_aborted(http):
    game, tokens = create(http)
    assert act(http, game["id"], tokens[0], {"type": "place", "cell": 4}, expectedVersion=1).status_code == 200
    msg = err(act(http, game["id"], tokens[1], {"type": "place", "cell": 0}, expectedVersion=1), 409, "ABORTED")
    assert "version 2" in msg
    assert act(http, game["id"], tokens[1], {"type": "place", "cell": 0}, expectedVersion=2).status_code == 200


def test_bad_input_gets_clear_errors_and_changes_nothing(http, server):
    game, tokens = create(http)
    gid, t0, t1 = game["id"], tokens[0], tokens[1]
    url = f"/v1/games/{gid}/actions"
    # malformed
    err(http.post(url, content=b"{not json", headers=auth(t0)), 400, "INVALID_ARGUMENT")
    err(http.post(url, json=[1, 2], headers=auth(t0)), 400, "INVALID_ARGUMENT")
    err(http.post(url, json={"action": {"type": "place", "cell": 4}, "bogus": 1}, headers=auth(t0)),
        400, "INVALID_ARGUMENT")
    err(http.post(url, json={}, headers=auth(t0)), 400, "INVALID_ARGUMENT")
    err(act(http, gid, t0, {"type": "place", "cell": "four"}), 400, "INVALID_ARGUMENT")
    err(act(http, gid, t0, {"type": "castle"}), 400, "INVALID_ARGUMENT")
    err(act(http, gid, t0, "place"), 400, "INVALID_ARGUMENT")
    err(act(http, gid, t0, {"type": "place", "cell": 4}, expectedVersion="one"), 400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 3}), 400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "chess-9000", "players": 2}), 400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": 2}), 400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "alien"]}),
        400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "tic-tac-toe", "players": "two"}), 400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "options": []}), 400, "INVALID_ARGUMENT")
    err(http.post("/v1/games", json={"engine": "goofspiel", "players": 2, "options": {"cards": 99}}),
        400, "INVALID_ARGUMENT")
    err(http.get(f"/v1/games/{gid}", params={"version": "x"}), 400, "INVALID_ARGUMENT")
    err(http.get(f"/v1/games/{gid}", params={"version": 99}), 400, "INVALID_ARGUMENT")
    # tokens
    err(http.post(url, json={"action": {"type": "place", "cell": 4}}), 401, "UNAUTHENTICATED")
    err(act(http, gid, "not-a-token", {"type": "place", "cell": 4}), 401, "UNAUTHENTICATED")
    err(act(http, gid, t0[:-3] + "abc", {"type": "place", "cell": 4}), 401, "UNAUTHENTICATED")
    err(http.post(url, json={"action": {"type": "place"}}, headers={"Authorization": "Basic abc"}),
        401, "UNAUTHENTICATED")
    other, other_tokens = create(http)
    err(act(http, gid, other_tokens[0], {"type": "place", "cell": 4}), 403, "PERMISSION_DENIED")
    # unknown things
    err(http.get("/v1/games/nope-nope"), 404, "NOT_FOUND")
    err(http.get("/v1/games/a{b}c"), 404, "NOT_FOUND")
    err(http.get("/v1/games/" + "x" * 300), 404, "NOT_FOUND")
    err(act(http, "nope-nope", t0, {"type": "place", "cell": 4}), 403, "PERMISSION_DENIED")
    err(http.get("/v1/nowhere"), 404, "NOT_FOUND")
    err(http.get("/v1/games/"), 404, "NOT_FOUND")
    err(http.delete(f"/v1/games/{gid}"), 405, "METHOD_NOT_ALLOWED")
    # against the rules
    msg = err(act(http, gid, t1, {"type": "place", "cell": 4}), 409, "FAILED_PRECONDITION")
    assert "may not act" in msg
    # oversized
    big = {"action": {"type": "place", "cell": 4, "pad": "x" * 20000}}
    err(http.post(url, json=big, headers=auth(t0)), 413, "RESOURCE_EXHAUSTED")
    # nothing changed, and the log is still valid
    g = http.get(f"/v1/games/{gid}").json()
    assert g["version"] == 1 and g["toAct"] == [0]
    assert act(http, gid, t0, {"type": "place", "cell": 4}).status_code == 200


def test_open_seats_are_joined_once(http):
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]})
    out = r.json()
    assert [s["seat"] for s in out["seats"]] == [0]
    gid = out["game"]["id"]
    j = http.post(f"/v1/games/{gid}/join")
    assert j.status_code == 200 and j.json()["seat"] == 1
    err(http.post(f"/v1/games/{gid}/join"), 409, "FAILED_PRECONDITION")
    assert act(http, gid, out["seats"][0]["token"], {"type": "place", "cell": 0}).status_code == 200
    assert act(http, gid, j.json()["token"], {"type": "place", "cell": 1}).status_code == 200
    seats = http.get(f"/v1/games/{gid}").json()["seats"]
    assert seats[1] == {"seat": 1, "kind": "SEAT_KIND_OPEN", "claimed": True}


def test_one_person_plays_against_a_bot_to_the_end(http):
    game, tokens = create(http, seats=["human", "bot"])
    gid, token = game["id"], tokens[0]
    g = game
    while g["status"] == "GAME_STATUS_RUNNING":
        assert g["toAct"] == [0]
        legal = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json()["actions"]
        g = act(http, gid, token, legal[0]).json()
    assert g["outcome"] is not None
    events = http.get(f"/v1/games/{gid}/events").json()["events"]
    assert any(e["event"].get("seat") == 1 for e in events)  # the bot's moves are ordinary events


def test_all_bot_game_is_played_by_the_server(http):
    game, tokens = create(http, engine="goofspiel", players=3, seats=["bot", "bot", "bot"])
    assert tokens == {} and game["status"] == "GAME_STATUS_FINISHED" and len(game["outcome"]["scores"]) == 3


def test_hidden_information_stays_with_its_seat(http):
    game, tokens = create(http, engine="goofspiel", players=2, options={"cards": 5})
    gid = game["id"]
    r = act(http, gid, tokens[0], {"type": "bid", "card": 5})
    assert r.json()["view"]["my_bid"] == 5
    other = http.get(f"/v1/games/{gid}", headers=auth(tokens[1])).json()["view"]
    spectator = http.get(f"/v1/games/{gid}").json()["view"]
    for v in (other, spectator):
        assert v["my_bid"] is None and v["has_bid"] == [True, False]
    ev1 = http.get(f"/v1/games/{gid}/events", headers=auth(tokens[1])).json()["events"]
    ev0 = http.get(f"/v1/games/{gid}/events", headers=auth(tokens[0])).json()["events"]
    assert "secret" not in ev1[0]["event"] and "secret" not in ev0[0]["event"]
    assert "private" not in ev1[1]["event"]
    assert ev0[1]["event"]["private"] == {"0": {"card": 5}}
    assert "prize_deck" not in json.dumps(ev1) and "prize_deck" not in json.dumps(spectator)


def test_watch_streams_new_events_as_server_sent_events(http, server):
    game, tokens = create(http, engine="goofspiel", players=2, options={"cards": 3})
    gid = game["id"]
    got = []
    ready = threading.Event()

    def watch():
        with httpx.Client(timeout=10) as c, c.stream("GET", f"{server.http}/v1/games/{gid}/watch",
                                                     headers=auth(tokens[1])) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            ready.set()
            for line in r.iter_lines():
                if line.startswith("data: "):
                    got.append(json.loads(line[6:]))
                    if len(got) == 3:
                        return

    t = threading.Thread(target=watch)
    t.start()
    assert ready.wait(10)
    act(http, gid, tokens[0], {"type": "bid", "card": 3})
    act(http, gid, tokens[1], {"type": "bid", "card": 1})
    t.join(10)
    assert [g["version"] for g in got] == [1, 2, 3]
    assert got[1]["event"]["type"] == "bid_placed" and "private" not in got[1]["event"]
    assert got[2]["event"]["private"] == {"1": {"card": 1}}
    # Resuming with Last-Event-ID gives only what came after.
    with httpx.Client(timeout=10) as c, c.stream("GET", f"{server.http}/v1/games/{gid}/watch",
                                                 headers={"Last-Event-ID": "1"}) as r:
        for line in r.iter_lines():
            if line.startswith("id: "):
                assert line == "id: 2"
                break


def test_cors_lets_a_page_on_another_origin_call(http):
    r = http.options("/v1/games", headers={"Origin": "http://example.test", "Access-Control-Request-Method": "POST",
                                           "Access-Control-Request-Headers": "authorization,content-type"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] in ("*", "http://example.test")
    # Headers a page's tracing or error reporting adds to every fetch are allowed too.
    traced = "content-type,traceparent,sentry-trace,baggage,x-request-id"
    r = http.options("/v1/games/x/actions", headers={"Origin": "http://example.test", "Access-Control-Request-Method": "POST",
                                                     "Access-Control-Request-Headers": traced})
    assert r.status_code == 200, r.text
    assert set(traced.split(",")) <= set(r.headers["access-control-allow-headers"].lower().split(",")), r.headers
    r = http.get("/v1/engines", headers={"Origin": "http://example.test"})
    assert r.headers["access-control-allow-origin"] == "*"
    # A 429's Retry-After is readable by that page's code (fetch hides other headers).
    assert r.headers["access-control-expose-headers"] == "Retry-After"
    assert http.get("/healthz", headers={"Origin": "http://example.test"}).headers[
        "access-control-expose-headers"] == "Retry-After"


def test_health_readiness_and_metrics(http):
    assert http.get("/healthz").json() == {"status": "ok"}
    assert http.get("/readyz").status_code == 200
    create(http)
    text = scrape(http)
    for name in ("tablero_rpc_requests_total", "tablero_rpc_latency_seconds", "tablero_games_created_total",
                 "tablero_actions_total", "tablero_cache_hits_total", "tablero_store_latency_seconds",
                 "tablero_watch_streams", "tablero_replayed_events"):
        assert name in text, name
    assert 'tablero_rpc_requests_total{code="OK",method="CreateGame",transport="http"}' in text


def test_metrics_have_their_own_port(http, server):
    """/metrics is served on TABLERO_METRICS_PORT only (the Service never publishes it): no
    `_created` series, latency buckets below a millisecond, the build info and the running
    games gauge."""
    import re

    assert http.get("/metrics").status_code == 404
    create(http)
    text = scrape(http)
    assert not re.search(r"^\w+_created[{ ]", text, re.M)
    assert 'tablero_rpc_latency_seconds_bucket{le="0.0001",method="CreateGame",transport="http"}' in text
    assert 'tablero_store_latency_seconds_bucket{le="0.0005"' in text
    info = re.search(r'^tablero_build_info\{(.*)\} 1\.0$', text, re.M)
    assert info and 'store="' in info.group(1) and 'version="' in info.group(1), text[:2000]
    assert re.search(r"^tablero_games_running \d+\.0$", text, re.M)
    base = server.metrics.removesuffix("/metrics")
    assert plainhttp.get(base + "/nope").status_code == 404
    assert plainhttp.post(server.metrics).status_code == 405


def test_cold_load_from_snapshot_and_replay_equals_live(http, server):
    """A game longer than the snapshot interval, loaded cold, gives the same view."""
    import asyncio

    game, tokens = create(http, engine="goofspiel", players=2, options={"cards": 8})
    gid = game["id"]
    g = game
    while g["status"] == "GAME_STATUS_RUNNING":
        for seat in list(g["toAct"]):
            card = http.get(f"/v1/games/{gid}", headers=auth(tokens[seat])).json()["view"]["hand"][0]
            g = act(http, gid, tokens[seat], {"type": "bid", "card": card}).json()
    live = http.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json()
    games = server.loop  # the server's event loop; clear its cache there
    fut = asyncio.run_coroutine_threadsafe(_clear_cache(server), games)
    fut.result(5)
    cold = http.get(f"/v1/games/{gid}", headers=auth(tokens[0])).json()
    assert cold == live


async def _clear_cache(server):
    import gc

    from tablero.server.app.repository import GameRepository

    for obj in gc.get_objects():
        if isinstance(obj, GameRepository):
            obj.clear_cache()


def test_a_json_body_is_read_whatever_its_content_type_and_anything_else_is_a_400(http):
    """As docs/api.md says: a page may send its JSON as text/plain (no CORS preflight); a body
    that is not JSON is 400 INVALID_ARGUMENT, whatever type it claims."""
    body = b'{"engine": "tic-tac-toe", "players": 2}'
    assert http.post("/v1/games", content=body, headers={"Content-Type": "text/plain;charset=UTF-8"}).status_code == 200
    r = http.post("/v1/games", content=b"<game/>", headers={"Content-Type": "application/xml"})
    assert r.status_code == 400 and r.json()["error"]["reason"] == "INVALID_ARGUMENT", r.text
