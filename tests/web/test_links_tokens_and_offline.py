"""Defects a third outside acceptance pass found in the browser client (two people in two browser
contexts, links, tokens, going offline): a malformed game link, a seat token the server no longer
accepts, and a page that stayed "live" through a lost connection; and a page left while it loaded
(found by CI: a table drew over the page shown after it)."""

from __future__ import annotations

import json

import pytest

from tests import plainhttp

from .api_play import ApiGame
from .test_browser import create_in_lobby, wait_ready


def test_a_game_link_that_leads_nowhere_says_the_game_is_not_found(server, new_page):
    """An unknown game id, a malformed escape (%E0%A4%A) and a path (#/g/../..) all say that
    there is no such game, on a page of their own: no page error, no old page left standing,
    no "no route /v1/" from the API."""
    page = new_page(375, 800)
    for address, shown in (("#/g/nope123", "nope123"), ("#/join/nope123", "nope123"),
                           ("#/g/%E0%A4%A", "%E0%A4%A"), ("#/g/../../v1/engines", "..")):
        page.goto(f"{server.url}/#/")
        page.wait_for_selector("form.create")
        page.goto(f"{server.url}/{address}")
        page.wait_for_selector("#not-found")
        text = page.inner_text("#main")
        assert "Game not found" in text and f"“{shown}”" in text, (address, text)
        assert "no route" not in text, (address, text)
        assert page.locator("form.create").count() == 0, address
        assert page.locator("#not-found a[href='#/']").count() == 1


# Holds the page's GetGame calls (through the fetch the SDK calls) while window.__hold is set, and
# records every RPC the page calls.
HOLD_GETGAME = """
window.__hold = 0;
window.__rpcs = [];
const realFetch = window.fetch;
window.fetch = async (...args) => {
  const url = String((args[0] && args[0].url) || args[0]);
  window.__rpcs.push(url.split('/').pop());
  if (window.__hold && url.endsWith('/GetGame')) await new Promise((r) => setTimeout(r, window.__hold));
  return realFetch(...args);
};
"""


def test_a_table_left_while_it_loaded_draws_nothing_and_opens_no_watch(server, new_page):
    """A game link followed, and left for the lobby before the game had loaded (a slow answer, a
    quick back button): the table must not draw over the lobby shown since, nor open a watch
    nobody sees. (Before, every route drew when its own answers came: the last to finish won.)"""
    game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
    page = new_page()
    page.add_init_script(HOLD_GETGAME)
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("form.create")
    page.evaluate("window.__hold = 1000")
    page.evaluate(f"location.hash = '#/g/{game.id}'")
    page.wait_for_function("window.__rpcs.includes('GetGame')")
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("form.create")
    page.wait_for_timeout(2000)  # the held GetGame has answered meanwhile
    assert page.locator("section.table").count() == 0
    assert page.locator("form.create").count() == 1
    assert "WatchGame" not in page.evaluate("window.__rpcs")
    # The same link followed again, unhurried: the table opens and watches.
    page.evaluate("window.__hold = 0")
    page.evaluate(f"location.hash = '#/g/{game.id}'")
    page.wait_for_selector(".live.live")
    assert page.locator("section.table").count() == 1
    assert page.evaluate("window.__rpcs").count("WatchGame") == 1


def test_a_seat_token_the_server_refuses_falls_back_to_watching(server, new_page):
    """A seat token kept in this browser that the server no longer accepts (its secret changed,
    or the token was damaged): the table opens for watching and says why, instead of a dead page."""
    game = ApiGame(server.url, "tic-tac-toe", ["human", "bot"])
    page = new_page()
    store = {game.id: {"engine": "tic-tac-toe", "seats": [{"seat": 0, "token": f"{game.id}.0.{'A' * 43}"}], "at": 1}}
    page.add_init_script(f"localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".ttt")
    assert "You are watching this game." in page.inner_text(".turn")
    note = page.inner_text("#banner")
    assert "seat" in note and "not accepted" in note and "invalid seat token" in note, note
    page.wait_for_selector(".live.live")
    assert "(you)" not in page.inner_text(".seat-list")
    # The token stays in the browser (the lobby still lists the game): nothing is thrown away.
    assert game.id in page.evaluate("localStorage.getItem('tablero.games.v1')")


def test_going_offline_says_so_and_coming_back_catches_up(server, new_page):
    """The connection goes (the browser's offline event): the page says so instead of "● live",
    a move tried meanwhile is not sent; back online, the page reconnects, the note goes, and the
    other player's moves made meanwhile are there once each."""
    game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
    page = new_page()
    game.hold(page, [1])
    ctx = page.context
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".live.live")
    ctx.set_offline(True)
    page.wait_for_selector(".live.offline", timeout=5_000)
    r = plainhttp.post(f"{game.path}/actions", headers={"Authorization": f"Bearer {game.tokens[0]}"},
                   json={"action": {"type": "place", "cell": 0}, "expectedVersion": 1})  # Red moves while Blue is offline
    assert r.status_code == 200, r.text
    page.wait_for_timeout(300)
    ctx.set_offline(False)
    page.wait_for_selector(".live.live", timeout=10_000)
    page.wait_for_selector('.ttt-cell[data-cell="0"].mark-X', timeout=10_000)
    wait_ready(page)
    ctx.set_offline(True)
    page.wait_for_selector(".live.offline", timeout=5_000)
    page.click('.ttt-cell.pickable[data-cell="4"]')
    page.wait_for_selector("#banner .error")
    assert "Your move was not sent" in page.inner_text("#banner")
    ctx.set_offline(False)
    page.wait_for_selector(".live.live", timeout=10_000)
    page.wait_for_function("() => document.getElementById('banner').textContent.trim() === ''", timeout=10_000)
    page.click('.ttt-cell.pickable[data-cell="4"]')
    page.wait_for_selector('.ttt-cell[data-cell="4"].mark-O')
    values = page.evaluate("[...document.querySelectorAll('.log li')].map((l) => l.value)")
    assert sorted(values) == list(range(1, len(values) + 1)) == sorted(set(values)), values


# Holds the page's ListLegalActions answers by `hold` ms, and hands on each chunk of its watch
# stream `hold` / 2 ms late (through the fetch the SDK calls).
HOLD_LEGAL = """
const hold = %d;
const realFetch = window.fetch;
const later = (ms) => new Promise((r) => setTimeout(r, ms));
window.fetch = async (...args) => {
  const url = String((args[0] && args[0].url) || args[0]);
  if (hold && url.endsWith('/ListLegalActions')) await later(hold);
  const res = await realFetch(...args);
  if (!hold || !url.endsWith('/WatchGame') || !res.body) return res;
  const reader = res.body.getReader();
  const body = new ReadableStream({
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) { c.close(); return; }
      await later(hold / 2);
      c.enqueue(value);
    },
    cancel(why) { return reader.cancel(why); },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
};
"""


# hold 400: a slow legal-actions answer, as on a loaded machine, lets the stream bring the move's
# event while the page reloads after it, after the hot seat has passed to the next seat and before
# the page draws. The stream's event marked the whole log as worded for that seat
# (app.js addEvents), so the log kept the seat before's wording: the shown seat's own bids never
# said what they were (CI failed on it, 2 runs in 4 under load).
@pytest.mark.parametrize("hold", [0, 400])
def test_a_hot_seat_log_tells_each_seat_its_own_secrets(server, new_page, hold):
    """Both Goofspiel seats in one browser: the log was read with the first seat's token only, so
    Blue never saw its own bids ("places a secret bid"), where Red saw "bids (only you see: card
    N)". Each seat shown reads its own secrets, from the live stream and the listed log alike,
    and never the other's."""
    page = new_page()
    page.add_init_script(HOLD_LEGAL % hold)
    create_in_lobby(page, server.url, "goofspiel", ["human", "human"], {"Cards": "4"})
    bids = page.locator(".log li[data-type=bid_placed]")

    def bid(n: int) -> None:  # the seat shown bids; the page then shows the seat to bid next
        wait_ready(page)
        page.locator(".composer button.act").first.click()
        bids.nth(n).wait_for()
        page.wait_for_function("() => document.querySelector('.composer button.act:not([disabled])')")

    def log_as_the_seat_shown(made: int) -> None:
        shown = page.inner_text(".turn h2").removeprefix("Your turn, ").rstrip(".")
        other = {"Red": "Blue", "Blue": "Red"}[shown]
        mine = f"() => [...document.querySelectorAll('.log li[data-type=bid_placed]')].filter((li) => li.textContent.startsWith('{shown} (you) bids in secret (your bid: ')).length"
        page.wait_for_function(f"{mine} === {made}")  # (the other seat's secrets come after the bid)
        said = [" ".join(t.split()) for t in bids.all_inner_texts()]
        assert [t for t in said if t.startswith(other)] == [f"{other} (you) bids in secret."] * (len(said) - made), said

    for n in range(5):  # Red, Blue, Blue, Red, Red: Blue is shown, to bid in the third round
        bid(n)
    assert page.inner_text(".turn h2") == "Your turn, Blue."
    log_as_the_seat_shown(2)
    page.reload()  # the listed log, read again
    bids.nth(4).wait_for()
    log_as_the_seat_shown(2)
    for n in range(5, 7):  # Blue, Blue: Red is shown
        bid(n)
    assert page.inner_text(".turn h2") == "Your turn, Red."
    log_as_the_seat_shown(3)
