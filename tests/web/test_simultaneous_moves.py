"""A move chosen while another seat made its part of a simultaneous choice (a bot's or a friend's
secret bid, a worker placed at the same time): the page plays it on the game as it is now when it is
still legal, as the terminal client does (act_on_latest), instead of refusing it as stale."""

from __future__ import annotations

from tests import plainhttp

from .api_play import ApiGame
from .test_browser import wait_ready


def test_a_bid_still_legal_after_the_other_seat_bid_meanwhile_is_played(server, new_page):
    game = ApiGame(server.url, "goofspiel", ["human", "human"], {"cards": 4})
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    wait_ready(page)
    blue = {"Authorization": f"Bearer {game.tokens[1]}"}

    def blue_bids_first(route):  # Blue's bid lands while Red's is on its way: Red's expectedVersion is stale
        plainhttp.post(f"{game.path}/actions", headers=blue, json={"action": {"type": "bid", "card": 4}}).raise_for_status()
        route.continue_()

    page.route("**/tablero.v1.GameService/SubmitAction", blue_bids_first, times=1)
    page.locator(".composer button.act").first.click()
    page.wait_for_selector(".log li[data-type=bids_revealed]")
    assert [e["type"] for e in game.events()][:4] == ["game_started", "bid_placed", "bid_placed", "bids_revealed"]
    assert "moved on" not in page.inner_text("#banner"), page.inner_text("#banner")


def test_a_move_no_longer_legal_is_still_refused_as_stale(server, new_page):
    """The other side of it: when the game moved on so that the chosen move is gone, the page says
    so and plays nothing."""
    game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
    page = new_page()
    game.hold(page, [0, 1])  # a hot seat: the page plays X, the test plays O behind its back
    page.goto(f"{server.url}/#/g/{game.id}")
    wait_ready(page)
    x = {"Authorization": f"Bearer {game.tokens[0]}"}

    def x_plays_elsewhere_first(route):
        cell = plainhttp.get(f"{game.path}/legal-actions", headers=x).json()["actions"][-1]["cell"]
        plainhttp.post(f"{game.path}/actions", headers=x, json={"action": {"type": "place", "cell": cell}}).raise_for_status()
        route.continue_()

    page.route("**/tablero.v1.GameService/SubmitAction", x_plays_elsewhere_first, times=1)
    page.locator(".composer button.act").first.click()
    page.locator("#banner .note").filter(has_text="moved on").wait_for()
    assert [e["type"] for e in game.events()] == ["game_started", "mark_placed"]


def test_after_a_move_the_old_positions_moves_are_not_offered_while_the_page_reloads(server, new_page):
    """A move sent while the page was already reloading the game (a live event came first): the move
    builder came back with the old position's moves, enabled, until that reload ended; a quick second
    click sent one of them (400 "seat 0 may not act now"). The page now waits for the reload under way."""
    game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    wait_ready(page)
    held, released = [], []

    def hold(route):  # reloads wait until released
        route.continue_() if released else held.append(route)

    page.route("**/tablero.v1.GameService/GetGame", hold)

    def answer_after_a_reload_started(route):  # the live event's reload starts before the move's answer
        response = route.fetch()
        page.wait_for_timeout(200)
        for _ in range(50):
            if held:
                break
            page.wait_for_timeout(100)
        route.fulfill(response=response)

    page.route("**/tablero.v1.GameService/SubmitAction", answer_after_a_reload_started, times=1)
    with page.expect_response("**/tablero.v1.GameService/SubmitAction"):
        page.locator(".composer button.act").first.click()
    assert held, "no reload started before the move's answer"
    page.wait_for_timeout(500)
    offered = page.locator(".composer button.act:not([disabled])").count()
    released.append(True)
    for route in held:
        route.continue_()
    assert offered == 0, f"{offered} moves of the old position offered after the move"
    page.wait_for_function("!document.querySelector('.composer button.act:not([disabled])')")
