"""A real browser (Debian's chromium, driven by Playwright) watches a game with EventSource:
`onmessage` receives every event, the last one included, and then the named `tablero-end` message."""

import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import sync_playwright

from tests import browsers, plainhttp
from tests.server.conftest import auth
from tests.server.support import ServerThread

CHROMIUM = Path(browsers.CHROMIUM)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

WATCH_PAGE = """
async ([url]) => {
  window.got = [];
  window.done = new Promise((resolve, reject) => {
    const source = new EventSource(url);
    source.onmessage = (m) => window.got.push({id: m.lastEventId, data: JSON.parse(m.data)});
    source.addEventListener("tablero-end", (m) => { source.close(); resolve(JSON.parse(m.data)); });
    source.addEventListener("tablero-error", (m) => { source.close(); reject(new Error(m.data)); });
  });
  await new Promise((r) => setTimeout(r, 0));
  return true;
}
"""


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.exists(), "chromium is missing: apt-get install chromium (.ci/run installs it)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


def test_onmessage_receives_every_event_of_a_game_including_the_last(browser):
    with ServerThread() as server:
        out = plainhttp.post(server.http + "/v1/games",
                         json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "bot"]}).json()
        gid, token = out["game"]["id"], out["seats"][0]["token"]
        page = browser.new_page()
        page.goto(server.http + "/healthz")  # same origin as the API
        page.evaluate(WATCH_PAGE, [f"/v1/games/{gid}/watch?access_token={token}"])
        page.wait_for_function("window.got.length >= 1", timeout=10_000)  # the stream is open
        # Play while the page watches: each action also brings the bot's answer.
        with httpx.Client(base_url=server.http, timeout=10) as http:
            game = out["game"]
            while game["status"] == "GAME_STATUS_RUNNING":
                legal = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json()["actions"]
                game = http.post(f"/v1/games/{gid}/actions", headers=auth(token),
                                 json={"action": legal[0]}).json()
            events = http.get(f"/v1/games/{gid}/events").json()["events"]
        end = page.evaluate("window.done")
        got = page.evaluate("window.got")
        page.close()
    assert end == {"status": "GAME_STATUS_FINISHED"}
    # every event, in order, the last one included; each with the log's hash at it, the
    # same as the listing's (a page that lists the log and then watches resumes with it)
    assert [g["data"] for g in got] == events
    assert all(len(g["data"]["hash"]) == 16 for g in got)
    assert [g["id"] for g in got] == [str(e["version"]) for e in events]
    assert got[-1]["data"]["version"] == game["version"] == len(events)


def test_a_refused_watch_fires_onerror_and_fetch_reads_why(browser):
    with ServerThread() as server:
        page = browser.new_page()
        page.goto(server.http + "/healthz")
        result = page.evaluate("""async () => {
            const closed = await new Promise((resolve) => {
                const s = new EventSource("/v1/games/no-such-game/watch");
                s.onmessage = () => resolve("message?!");
                s.onerror = () => { resolve(s.readyState === EventSource.CLOSED ? "closed" : "retrying"); s.close(); };
            });
            const r = await fetch("/v1/games/no-such-game/watch", {headers: {Accept: "text/event-stream"}});
            return {closed, status: r.status, body: await r.text()};
        }""")
        page.close()
    assert result["closed"] == "closed" and result["status"] == 404
    assert result["body"].startswith("event: tablero-error\ndata: ")
    error = json.loads(result["body"].split("data: ", 1)[1])["error"]
    assert error["code"] == "NOT_FOUND" and error["reason"] == "GAME_NOT_FOUND"


def test_an_event_source_reads_why_its_watch_was_refused_and_how_it_ended(browser):
    """With ?eventSource=true a refused watch is a message the page reads (its reason), not an
    onerror it cannot tell from a dropped connection; a normal end is `tablero-end`."""
    with ServerThread() as server:
        out = plainhttp.post(server.http + "/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, token = out["game"]["id"], out["seats"][0]["token"]
        plainhttp.post(f"{server.http}/v1/games/{gid}/resign", headers=auth(token), json={}).raise_for_status()
        page = browser.new_page()
        page.goto(server.http + "/healthz")
        result = page.evaluate("""async ([gid, token]) => {
            const watch = (url) => new Promise((resolve) => {
                const s = new EventSource(url);
                const seen = [];
                s.onmessage = () => seen.push("message");
                s.onerror = () => { seen.push("onerror"); s.close(); resolve(seen); };
                for (const name of ["tablero-error", "tablero-end", "end"]) {
                    s.addEventListener(name, (m) => { seen.push([name, JSON.parse(m.data)]);
                                                      if (name !== "end") { s.close(); resolve(seen); } });
                }
            });
            return {
                refused: await watch(`/v1/games/${gid}/watch?eventSource=true&access_token=x.0.bad`),
                missing: await watch("/v1/games/no-such-game/watch?eventSource=true"),
                ended: await watch(`/v1/games/${gid}/watch?eventSource=true`),
            };
        }""", [gid, token])
        page.close()
    (name, data), = result["refused"]
    assert name == "tablero-error" and data["error"]["code"] == "UNAUTHENTICATED", result
    assert data["error"]["reason"] == "TOKEN_INVALID"
    (name, data), = result["missing"]
    assert name == "tablero-error" and data["error"]["reason"] == "GAME_NOT_FOUND", result
    # Every event, then tablero-end (no legacy `end` copy for an EventSource), and no onerror.
    assert result["ended"][-1] == ["tablero-end", {"status": "GAME_STATUS_FINISHED"}], result
    assert "onerror" not in result["ended"] and ["end", {"status": "GAME_STATUS_FINISHED"}] not in result["ended"]

