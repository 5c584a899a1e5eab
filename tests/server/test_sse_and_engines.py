"""Server-Sent Events as browsers handle them, GetEngine, and store outages on the write path."""

import json

import httpx
import pytest
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.errors import Unavailable
from tablero.server.store import SQLiteStore
from tablero.server.store.base import StoreError

from tablero import engines
from tests.server.conftest import auth

X_WINS = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]


def _messages(text: str) -> list[dict[str, str]]:
    """SSE messages as {field: value} (comments dropped), per the HTML spec's framing."""
    out = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
        if fields:
            out.append(fields)
    return out


def _finished_game(http):
    out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, tokens = out["game"]["id"], [s["token"] for s in out["seats"]]
    for seat, cell in X_WINS:
        assert http.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                         json={"action": {"type": "place", "cell": cell}}).status_code == 200
    return gid


def test_game_events_are_default_messages_and_end_is_named(http, server):
    gid = _finished_game(http)
    with httpx.Client(timeout=10) as c:
        text = c.get(f"{server.http}/v1/games/{gid}/watch", headers={"Accept": "text/event-stream"}).text
    msgs = _messages(text)
    # The end under its former name (`end`, until v2: older clients stop there), then `tablero-end`.
    events, legacy, control = msgs[:-2], msgs[-2], msgs[-1]
    assert [m["id"] for m in events] == [str(v) for v in range(1, 8)]
    assert all("event" not in m for m in events)  # no `event:` line: EventSource.onmessage gets them
    data = [json.loads(m["data"]) for m in events]
    assert [d["version"] for d in data] == list(range(1, 8)) and {d["gameId"] for d in data} == {gid}
    assert data[-1]["event"]["type"] == "game_won"
    assert control["event"] == "tablero-end" and json.loads(control["data"]) == {"status": "GAME_STATUS_FINISHED"}
    assert legacy["event"] == "end" and legacy["data"] == control["data"]
    # An EventSource (eventSource=true) gets the end under its name only.
    with httpx.Client(timeout=10) as c:
        text = c.get(f"{server.http}/v1/games/{gid}/watch?eventSource=true").text
    assert [m.get("event") for m in _messages(text)][-2:] == [None, "tablero-end"]


def test_a_refused_watch_says_why_in_its_status_and_body(http, server):
    with httpx.Client(timeout=10) as c:
        sse = c.get(f"{server.http}/v1/games/nope-nope/watch", headers={"Accept": "text/event-stream"})
        plain = c.get(f"{server.http}/v1/games/nope-nope/watch")
        gid = _finished_game(http)
        forged = c.get(f"{server.http}/v1/games/{gid}/watch", params={"access_token": "x.0.y"},
                       headers={"Accept": "text/event-stream"})
    assert sse.status_code == 404 and sse.headers["content-type"].startswith("text/event-stream")
    [msg] = _messages(sse.text)
    assert msg["event"] == "tablero-error" and json.loads(msg["data"])["error"]["code"] == "NOT_FOUND"
    assert json.loads(msg["data"])["error"]["reason"] == "GAME_NOT_FOUND"
    assert plain.status_code == 404 and plain.json()["error"]["code"] == "NOT_FOUND"
    assert forged.status_code == 401
    assert json.loads(_messages(forged.text)[0]["data"])["error"]["code"] == "UNAUTHENTICATED"


def test_get_engine_serves_its_schemas(http):
    r = http.get("/v1/engines/tic-tac-toe")
    assert r.status_code == 200, r.text
    e = r.json()["engine"]
    assert e["name"] == "tic-tac-toe" and e["minSeats"] == 2
    for key in ("optionsSchema", "actionSchema", "viewSchema", "eventSchema"):
        assert isinstance(e[key], dict) and e[key], key
    listed = {x["name"]: x for x in http.get("/v1/engines").json()["engines"]}
    assert listed["tic-tac-toe"] == e and set(listed) == set(engines.names())
    missing = http.get("/v1/engines/chess-9000")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"


class _RequestTableDown(SQLiteStore):
    """A real SQLite store whose idempotency table has become unreachable."""

    async def request_version(self, game_id, request_id):
        raise StoreError("connection lost")


async def test_an_accepted_action_needs_no_separate_request_id_check():
    """The request-id check is folded into the append (one store round trip): the idempotency
    table's look-up is only used after a refusal, so its outage does not stop play."""
    games = GameService(_RequestTableDown(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame("tic-tac-toe", 2))
    gid = created["game"]["id"]
    ok = await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}, request_id="r1"))
    assert ok["game"]["version"] == 2
    with pytest.raises(Unavailable):  # a refusal re-checks the request id: that look-up is timed
        await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 0}, request_id="r2"))


class _RequestTableDropsLater(SQLiteStore):
    """The idempotency table answers once, then the connection drops."""

    calls = 0

    async def request_version(self, game_id, request_id):
        self.calls += 1
        if self.calls > 0:
            raise StoreError("connection lost")
        return await super().request_version(game_id, request_id)


async def test_an_outage_on_the_second_request_id_check_after_a_refusal_is_unavailable():
    """A refused action re-checks its request id (a concurrent retry may have been applied):
    that look-up is a timed store call too."""
    games = GameService(_RequestTableDropsLater(), TokenSigner("s"))
    gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
    with pytest.raises(Unavailable):
        await games.submit_action(cmd.SubmitAction(gid, 1, {"type": "place", "cell": 4}, request_id="r1"))


async def test_the_web_client_folder_is_served_at_the_root_after_the_api(tmp_path):
    from tablero.server.http.app import build_app

    (tmp_path / "index.html").write_text("<!doctype html><title>Tablero</title>")
    (tmp_path / "app.js").write_text("console.log('hi')")
    app = build_app(api=None, lifecycle=None, web=tmp_path)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://web.test") as c:
        assert (await c.get("/")).text.startswith("<!doctype html>")
        assert (await c.get("/app.js")).headers["content-type"].startswith("text/javascript")
        missing = await c.get("/v1/nowhere")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
        assert (await c.get("/healthz")).json() == {"status": "ok"}
        assert (await c.delete("/v1/games/abc")).status_code == 405
