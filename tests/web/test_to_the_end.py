"""Each board game played to its end in the browser, by clicking the page's legal moves
against bots (and New Bedford alone against a Captain), until the final scores show; the
scores on the page are the API's outcome. A screenshot per game in tests/web/artifacts/."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests import plainhttp

from .api_play import ApiGame
from .conftest import ARTIFACTS
from .test_browser import create_in_lobby, version, wait_ready


def play_to_the_end(page, rng: random.Random, max_clicks: int) -> tuple[int, int]:
    """Click legal moves (buttons, composer steps, board pieces) until the final scores show.
    Returns (moves, composer steps); fails after `max_clicks` clicks."""
    moves = steps = 0
    while wait_ready(page) == "move":
        if moves + steps >= max_clicks:  # what the page offered when it went round in circles
            page.screenshot(path=str(ARTIFACTS / "stuck.png"), full_page=True)
            composer = page.locator(".composer").all_inner_texts()
            raise AssertionError(f"no end after {max_clicks} clicks ({moves} moves); composer: {composer}")
        before = version(page)
        acts = page.locator(".composer button.act:not([disabled])")
        spots = page.locator(".board .pickable")
        if spots.count() and rng.random() < 0.25:  # sometimes choose on the board itself
            spots.nth(rng.randrange(spots.count())).click()
            page.wait_for_function(
                f"() => parseInt(document.querySelector('.table-head h1').textContent.split('move')[1]) > {before}"
                " || document.querySelector('.crumbs') || document.querySelector('.result:not([hidden]) .scores')")
            if version(page) > before or page.locator(".result:not([hidden]) .scores").count():
                moves += 1
            else:
                steps += 1
        elif acts.count():
            acts.nth(rng.randrange(acts.count())).click()
            moves += 1
            page.wait_for_function(
                f"() => parseInt(document.querySelector('.table-head h1').textContent.split('move')[1]) > {before}")
        else:
            choices = page.locator(".composer button.choice:not([disabled])")
            choices.nth(rng.randrange(choices.count())).click()
            steps += 1
    return moves, steps


def final_scores_match_the_api(page, base: str, game_id: str) -> dict:
    g = plainhttp.get(f"{base}/v1/games/{game_id}").json()
    g = g.get("game", g)
    o = g["outcome"]
    assert o, "the page shows final scores of a game the server has not finished"
    shown = page.locator(".result tr.total td:not(.captain)").all_inner_texts()
    assert [int(x) for x in shown] == o["scores"]
    captains = page.locator(".result tr.total td.captain").all_inner_texts()
    assert [int(x) for x in captains] == [c["total"] for c in o.get("captains", [])]
    assert page.locator(".log li").count() == g["version"]
    return g


GAMES = [  # engine, seats chosen in the lobby, a breakdown row of its final scores
    ("new-bedford", ["human", "bot"], "Whale points"),
    ("riverboat", ["human", "bot"], "In game › VP"),  # the lines that add up to the score
    ("phoenicia", ["human", "bot"], "Cards VP"),
]


@pytest.mark.parametrize(("engine", "seats", "row"), GAMES, ids=[g[0] for g in GAMES])
def test_board_game_played_to_the_end_against_a_bot_by_clicking(server, new_page, engine, seats, row):
    page = new_page(1280, 900)
    started = time.monotonic()
    game_id = create_in_lobby(page, server.url, engine, seats)
    moves, steps = play_to_the_end(page, random.Random(13), max_clicks=1500)
    page.screenshot(path=str(ARTIFACTS / f"{engine}-to-the-end.png"), full_page=True)
    g = final_scores_match_the_api(page, server.url, game_id)
    assert row in page.locator(".result table.scores tbody th").all_inner_texts()
    assert not [t for t in page.locator(".log li").all_inner_texts() if not t.strip()]
    if engine == "new-bedford":
        assert steps > 0, "New Bedford's starting goods (34 choices) are composed step by step"
    print(f"{engine}: {moves} moves, {steps} composer steps, version {g['version']}, "
          f"{time.monotonic() - started:.1f}s")


def test_new_bedford_alone_against_two_captains_to_the_end(server, new_page):
    page = new_page(1280, 900)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-new-bedford]")
    page.select_option("#players", "1")
    # Captains are offered apart from the seats (they are no seats); the page sends them as the
    # `captains` option.
    assert page.locator("fieldset.captains #captain-ahab").count() == 1
    assert page.locator("form.create .opts legend").all_inner_texts() == [], "Captains twice: apart and as an option"
    assert page.get_by_label("Expert").count() == 1  # the other options stay
    game_id = create_in_lobby(page, server.url, "new-bedford", ["human"], captains=["starbuck", "ahab"])
    g = plainhttp.get(f"{server.url}/v1/games/{game_id}").json()
    g = g.get("game", g)
    assert g["players"] == 1 and [c["name"] for c in g["view"]["captains"]["captains"]] == ["ahab", "starbuck"]
    chips = [" ".join(t.split()) for t in page.locator(".seat-list .seat-chip.automa").all_inner_texts()]
    assert chips == ["Captain Ahab automa", "Captain Starbuck automa"]
    # Each Captain has its own box: its Helm with the token, its heading and orders.
    boxes = page.locator(".nb .player.captain")
    assert boxes.count() == 2
    assert boxes.nth(0).locator("h3").inner_text().strip().startswith("Captain Ahab")
    assert boxes.nth(1).locator(".helm .helm-step.at").count() == 1
    assert "Heading:" in boxes.nth(1).inner_text() and "{" not in boxes.nth(1).inner_text()
    moves, _steps = play_to_the_end(page, random.Random(3), max_clicks=600)
    page.screenshot(path=str(ARTIFACTS / "new-bedford-captains-to-the-end.png"), full_page=True)
    g = final_scores_match_the_api(page, server.url, game_id)
    o = g["outcome"]
    heads = page.locator(".result table.scores thead th").all_inner_texts()
    assert [x.strip() for x in heads[1:]] == ["Red (you)", "Captain Ahab", "Captain Starbuck"]
    winner = page.inner_text(".result .winner")
    if o["winners"]:
        assert winner.startswith("🏆 Red (you)")
    else:  # a Captain beat or tied the player: the page says which, not "a draw"
        assert all(f"Captain {n.title()}" in winner for n in o["captain_winners"]), winner
    assert "Captain Starbuck places a worker on" in page.inner_text(".log")
    assert moves > 20


def test_founders_solo_to_the_end_by_clicking(server, new_page):
    """Founders of Gloomhaven alone (its solo game: a few dozen moves, fewer since engine v9 makes
    every claim token cost influence, so a random player often loses at the first vote; against a bot a game takes
    some 230 moves of ours, two minutes of clicking: test_founders.py plays the start of one)."""
    page = new_page(1280, 900)
    game_id = create_in_lobby(page, server.url, "founders-of-gloomhaven", ["human"])
    moves, steps = play_to_the_end(page, random.Random(5), max_clicks=800)
    page.screenshot(path=str(ARTIFACTS / "founders-of-gloomhaven-to-the-end.png"), full_page=True)
    o = final_scores_match_the_api(page, server.url, game_id)["outcome"]
    winner = page.inner_text(".result .winner")
    if o["winners"]:
        assert winner.startswith("🏆 Red (you) wins"), winner
    else:  # a solo game is won or lost, never drawn
        assert winner.startswith("Red (you) did not win"), winner
    assert moves > 10 and steps > 0  # a whole cycle of cards at least, then the vote


def test_new_bedford_final_scores_name_the_buildings(server, new_page):
    """The breakdown names buildings as the game does ("Counting House", "Seamen's Bethel"),
    never by id ("counting_house"), in the cells and in row labels (Victory buildings › …)."""
    game = ApiGame(server.url, "new-bedford", ["human", "bot"])
    game.play(random.Random(2), lambda g: False, max_moves=600)
    g = game.get(0)
    names = g["view"]["building_names"]
    details = g["outcome"]["details"]
    built = [b for d in details for b in d["buildings"]]
    assert built, "no building built: the test would prove nothing"
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".result:not([hidden]) .scores")
    table = page.locator(".result")
    if table.locator("details.more").count():  # the long tail, folded away
        table.locator("details.more summary").click()
    rows = {r.locator("th").inner_text().strip(): [c.strip() for c in r.locator("td").all_inner_texts()]
            for r in table.locator("tr").all() if r.locator("th[scope=row]").count()}
    assert rows["Buildings"] == [", ".join(names[b] for b in d["buildings"]) or "none" for d in details]
    for d in details:
        for b in d.get("victory_buildings") or {}:
            assert f"Victory buildings › {names[b]}" in rows, sorted(rows)
    text = table.inner_text()
    ids = [b for b in set(built) if "_" in b or names[b] != b]
    assert not [b for b in ids if re.search(rf"\b{b}\b", text)], text
