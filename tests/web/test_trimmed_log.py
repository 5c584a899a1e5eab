"""A long game on a server that trims on snapshot: the page's log starts at the first event
still kept and says so, instead of failing to open the game (ListEvents from the first event
is 409 FAILED_PRECONDITION there, naming the afterVersion to list from)."""

from __future__ import annotations

import json

from tests import plainhttp

from .conftest import Serve
from .test_browser import wait_ready

MOVES = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]  # X wins on the top row


def test_the_log_of_a_trimmed_game_starts_at_the_first_kept_event(new_page):
    s = Serve(log="server-trimmed.log", env={"TABLERO_TRIM_ON_SNAPSHOT": "true", "TABLERO_SNAPSHOT_EVERY": "4"})
    try:
        out = plainhttp.post(f"{s.url}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, tokens = out["game"]["id"], {x["seat"]: x["token"] for x in out["seats"]}
        for seat, cell in MOVES:
            r = plainhttp.post(f"{s.url}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                           json={"action": {"type": "place", "cell": cell}})
            assert r.status_code == 200, r.text
        final = plainhttp.get(f"{s.url}/v1/games/{gid}").json()["version"]
        assert plainhttp.get(f"{s.url}/v1/games/{gid}/events").status_code == 409  # the start is gone
        page = new_page()
        page.goto(f"{s.url}/#/g/{gid}")
        wait_ready(page)
        note = page.locator(".log-trimmed").inner_text()
        assert "Events before move 4 are no longer kept" in note, note
        assert page.locator(".log li").count() == final - 3  # events 4 .. final
        assert page.locator(".result:not([hidden])").count() == 1  # the finished game shows its result
    finally:
        s.stop()


def test_the_page_watches_from_the_listed_log_with_its_last_hash(server, new_page):
    """The log the page lists carries each event's hash, and the watch that follows the
    listing sends the last one (afterHash): a log the server lost meanwhile is reset, not
    silently continued."""
    out = plainhttp.post(f"{server.url}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid, tokens = out["game"]["id"], {x["seat"]: x["token"] for x in out["seats"]}
    for seat, cell in MOVES[:2]:
        r = plainhttp.post(f"{server.url}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                       json={"action": {"type": "place", "cell": cell}})
        assert r.status_code == 200, r.text
    listed = plainhttp.get(f"{server.url}/v1/games/{gid}/events").json()["events"]
    page = new_page()
    watches: list[dict] = []  # the WatchGame requests' messages (a Connect stream: one enveloped JSON)
    page.on("request", lambda req: watches.append(json.loads(req.post_data_buffer[5:]))
            if req.url.endswith(".GameService/WatchGame") else None)
    page.goto(f"{server.url}/#/g/{gid}")
    page.wait_for_function("document.querySelectorAll('.log li').length === 3")
    page.wait_for_function("document.querySelector('.live') && document.querySelector('.live').textContent.includes('live')")
    assert watches and watches[0]["afterVersion"] == 3 and watches[0]["afterHash"] == listed[-1]["hash"], watches
