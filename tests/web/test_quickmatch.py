"""Quick match in the browser (issue 33): two portal users, each in their own browser, press
"Find me a game" in the lobby, land at the same table, play it to the end by clicking the
board, and then see their ratings and the leaderboard in the lobby."""

from __future__ import annotations

import json
import time

import pytest

from tests import plainhttp

from .conftest import ARTIFACTS, Serve
from .test_portal import KEY, portal_token


@pytest.fixture(scope="module")
def portal():
    s = Serve(log="server-quickmatch.log", env={"TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY})})
    yield s
    s.stop()


def _signed_in(new_page, portal, user: str, name: str):
    page = new_page(1280, 900)
    page.goto(f"{portal.url}/#token={portal_token(user, name)}")
    page.wait_for_selector("#who-name")
    page.wait_for_selector("#quick-match")
    return page


@pytest.mark.slow
def test_two_users_quick_match_play_to_the_end_and_see_the_leaderboard(portal, new_page):
    ann, bob = _signed_in(new_page, portal, "ann", "Ann"), _signed_in(new_page, portal, "bob", "Bob")
    assert ann.inner_text("#my-ratings").startswith("No rated games yet")
    for page in (ann, bob):
        page.select_option("#qm-engine", "tic-tac-toe")
        page.click("#qm-go")
    ann.wait_for_selector("#qm-status >> text=Looking for players")
    for page in (ann, bob):
        page.wait_for_function("location.hash.startsWith('#/g/')", timeout=20_000)
    game_id = ann.evaluate("location.hash").split("/")[-1]
    assert bob.evaluate("location.hash").split("/")[-1] == game_id
    g = plainhttp.get(f"{portal.url}/v1/games/{game_id}").json()
    seats = {s["userId"]: s["seat"] for s in g["seats"]}
    assert set(seats) == {"ann", "bob"}
    pages = {seats["ann"]: ann, seats["bob"]: bob}
    deadline = time.monotonic() + 90
    while (g := plainhttp.get(f"{portal.url}/v1/games/{game_id}").json())["status"] != "GAME_STATUS_FINISHED":
        assert time.monotonic() < deadline
        page = pages[g["toAct"][0]]
        version = g["version"]
        # A locator, not an element handle: the table may re-render (a live update, the catalog
        # arriving) between finding a cell and clicking it.
        page.locator(".ttt-cell.pickable").first.click()
        while plainhttp.get(f"{portal.url}/v1/games/{game_id}").json()["version"] == version:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    for page in (ann, bob):
        page.wait_for_selector(".result:not([hidden]) .scores")
    ann.screenshot(path=str(ARTIFACTS / "quickmatch-final.png"), full_page=True)
    # Back in the lobby: the rated game shows in both users' ratings and on the leaderboard.
    ann.goto(f"{portal.url}/#/")
    ann.wait_for_selector("#my-ratings li[data-engine=tic-tac-toe]")
    ann.select_option("#lb-engine", "tic-tac-toe")
    ann.wait_for_selector("#leaderboard li[data-user=bob]")
    board = plainhttp.get(f"{portal.url}/v1/leaderboards/tic-tac-toe").json()["entries"]
    shown = ann.eval_on_selector_all("#leaderboard li", "els => els.map(e => e.dataset.user)")
    assert shown == [e["userId"] for e in board] and set(shown) == {"ann", "bob"}
    assert "1 game, " in ann.inner_text("#my-ratings")
    ann.screenshot(path=str(ARTIFACTS / "quickmatch-ratings.png"), full_page=True)


def _rated_game_of(portal, first: str, second: str) -> None:
    """A rated Tic-Tac-Toe game of two portal users, played over REST to `first`'s win."""
    me = {"Authorization": f"Bearer {portal_token(first, first)}"}
    other = {"Authorization": f"Bearer {portal_token(second, second)}"}
    r = plainhttp.post(f"{portal.url}/v1/games", headers=me, json={
        "engine": "tic-tac-toe", "rated": True, "seatSpecs": [{"kind": "me"}, {"kind": "human", "userId": second}]})
    assert r.status_code == 200, r.text
    gid = r.json()["game"]["id"]
    for seat, cell in ((0, 0), (1, 3), (0, 1), (1, 4), (0, 2)):
        r = plainhttp.post(f"{portal.url}/v1/games/{gid}/actions", headers=(me, other)[seat],
                           json={"action": {"type": "place", "cell": cell}})
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "GAME_STATUS_FINISHED"


@pytest.mark.slow
def test_users_named_dot_and_dot_dot_see_their_ratings(portal, new_page):
    """(outside tester: the lobby asked GetPlayer at /v1/players/<id>, and a browser drops a path
    segment "." or ".." before sending it, even spelt %2E: such a user saw "No rated games yet"
    after rated games.) The page asks over Connect, where the id travels in the body."""
    _rated_game_of(portal, ".", "..")
    deadline = time.monotonic() + 20
    for user in (".", ".."):  # rated (the rating is recorded just after the game's last answer)
        while plainhttp.post(f"{portal.url}/tablero.v1.PlayerService/GetPlayer", json={"userId": user}).status_code != 200:
            assert time.monotonic() < deadline, user
            time.sleep(0.1)
    for user, won in ((".", 1), ("..", 0)):
        page = _signed_in(new_page, portal, user, user)
        page.wait_for_selector("#my-ratings li[data-engine=tic-tac-toe]")
        shown = page.inner_text("#my-ratings")
        assert "No rated games yet" not in shown and f"1 game, {won} won" in shown, (user, shown)
