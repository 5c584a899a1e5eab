"""Founders of Gloomhaven in the browser: its own renderer (city map, offer, players), played by clicking."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

from tests import plainhttp

from .api_play import ApiGame, unwrap
from .conftest import ARTIFACTS
from .test_browser import play_by_clicking, version

EDITION = Path(__file__).resolve().parents[2] / "engines" / "founders_of_gloomhaven" / "edition.json"


def test_founders_renders_its_map_and_plays_against_a_bot_by_clicking(server, new_page):
    page = new_page(1280, 900)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    # An unticked Races list is left out (the engine's default), not sent as [].
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot")
    page.click("form.create button[type=submit]")
    page.wait_for_selector(".board .fg .fg-map .fg-sq")
    # Squares named column letter + row number ("B5"): the letters above, each row's number first.
    columns, width, height = page.evaluate("[getComputedStyle(document.querySelector('.fg-map')).gridTemplateColumns.split(' ').length,"
                                           " Number(document.querySelector('.fg-map').dataset.width),"
                                           " document.querySelectorAll('.fg-map .fg-sq').length]")
    assert width > 1 and height % width == 0 and columns == width + 1
    assert page.locator(".fg-council >> text=Adviser offer").count() == 1
    assert page.locator(".fg .player").count() == 2
    # Each proposal shows what its card says (from the view's `cards`): what it needs, its points.
    proposals = page.locator(".fg-proposal")
    assert proposals.count() >= 1
    for i in range(proposals.count()):
        text = proposals.nth(i).inner_text()
        assert "needs " in text and re.search(r"\b(1 pt|\d+ pts)\b", text), text
    start = version(page)
    moves, _steps, state = play_by_clicking(page, random.Random(7), max_moves=8)
    assert moves == 8 or state == "over"
    assert version(page) >= start + moves
    # Only the viewer's own hand is shown.
    assert page.locator(".fg .player.me .fg-hand").count() <= 1
    assert page.locator(".fg .player:not(.me) .fg-hand").count() == 0
    page.screenshot(path=str(ARTIFACTS / "founders-of-gloomhaven.png"), full_page=True)
    # The log is in words: every entry so far has its own sentence, not the generic field dump
    # ("Red: stall imported — resource metal; cell 226; ...").
    entries = page.locator("ol.log li").all_inner_texts()
    assert entries, "the log is empty"
    dumps = [e for e in entries if " — " in e]
    assert not dumps, dumps


def races_selects(page):
    return page.locator("fieldset.per-seat-field[data-option=Races] select")


def test_founders_races_are_chosen_seat_by_seat_in_the_lobby(server, new_page):
    """The `races` option ("races by seat") is one select per seat, sent in seat order; Random
    everywhere leaves it out; a seat left on Random among chosen ones is refused before sending."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    page.select_option("#players", "3")
    assert races_selects(page).count() == 3, "one race per seat"
    assert page.locator("form.create input[type=checkbox][id*=races]").count() == 0
    page.select_option("#players", "2")
    assert races_selects(page).count() == 2
    first, second = races_selects(page).nth(0), races_selects(page).nth(1)
    assert first.locator("option").all_inner_texts()[:2] == ["Random", "Aesther"]
    page.select_option("#seat-1", "bot")
    # Vermling for seat 1 (Red), then Aesther for seat 2 (Blue): sent in seat order, not sorted.
    first.select_option(label="Vermling")
    # One seat chosen, the other on Random: the page says what to do and sends nothing.
    page.click("form.create button[type=submit]")
    page.wait_for_selector("#banner .error")
    assert "Races: choose one for every seat, or leave every seat on Random" in page.inner_text("#banner")
    assert page.evaluate("location.hash") == "#/"
    # A race taken by one seat cannot be chosen for another.
    assert second.locator("option", has_text="Vermling").is_disabled()
    second.select_option(label="Aesther")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(".GameService/CreateGame")) as req:
        page.click("form.create button[type=submit]")
    assert req.value.post_data_json["options"]["races"] == ["vermling", "aesther"]
    page.wait_for_selector(".board .fg .player")
    gid = page.evaluate("location.hash").split("/")[-1]
    g = unwrap(plainhttp.get(f"{server.url}/v1/games/{gid}").json())
    assert [p["race"] for p in g["view"]["players"]] == ["vermling", "aesther"]
    assert "Vermling" in page.locator(".fg .player.c0 h3 small").inner_text()

    # All on Random: the option is left out (the engine deals the races).
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(".GameService/CreateGame")) as req:
        page.click("form.create button[type=submit]")
    assert "races" not in req.value.post_data_json["options"]
    page.wait_for_selector(".board .fg .player")


def founders_name(card: str, view: dict) -> str:
    """The page's name for a prestige card: its printed name (the engine's data), whatever the view holds."""
    named = {k: x["name"] for k, x in json.loads(EDITION.read_text())["prestige"].items()}
    return named.get(card, card.replace("_", " ").title())


def test_founders_played_cards_show_which_are_face_down(server, new_page):
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    rng = random.Random(11)

    def mixed(g: ApiGame) -> bool:  # seat 0 has cards face up and face down before it
        played = g.get(0)["view"]["players"][0].get("played") or []
        return any(c["face_up"] for c in played) and any(not c["face_up"] for c in played)

    game.play(rng, mixed)
    view = game.get(0)["view"]
    played = view["players"][0]["played"]
    up = [c["card"] for c in played if c["face_up"]]
    down = [c["card"] for c in played if not c["face_up"]]
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    mat = page.locator(".fg .player.c0")
    mat.locator(".fg-played-cards").wait_for()
    face = lambda where: [x.strip() for x in mat.locator(f".fg-played-group[data-face={where}] .fg-played").all_inner_texts()]  # noqa: E731
    title = lambda c: c.replace("_", " ").capitalize()  # noqa: E731
    assert face("up") == [title(c) for c in up]
    assert face("down") == [f"🂠 {title(c)}" for c in down]
    assert "(face down)" not in mat.inner_text()
    # A spectator sees that cards lie face down, not which.
    spectator = new_page()
    spectator.goto(f"{server.url}/#/g/{game.id}")
    hidden = spectator.locator(".fg .player.c0 .fg-played-group[data-face=down]")
    hidden.wait_for()
    n = len(down)
    assert hidden.inner_text().strip() == f"· face down: 🂠 {n} hidden card{'s' if n > 1 else ''}"


def test_founders_log_names_the_proposals_of_a_vote(server, new_page):
    """`Votes revealed: Salt Barrel 5 influence, …`: the proposals on the table at the vote
    (from the log, not today's view), not `proposal 1 5`."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    game.play(random.Random(12), lambda g: any(e["type"] == "votes_revealed" for e in g.events()))
    game.play(random.Random(12), lambda g: [e["type"] for e in g.events()].count("proposals_drawn") >= 1, max_moves=200)
    events = game.events()
    at = next(i for i, e in enumerate(events) if e["type"] == "votes_revealed")
    before = [e for e in events[:at] if e["type"] in ("game_started", "proposals_drawn")][-1]
    cards = before["proposals"] if before["type"] == "game_started" else before["cards"]
    totals = events[at]["totals"]
    spectator = new_page()
    spectator.goto(f"{server.url}/#/g/{game.id}")
    line = spectator.locator("ol.log li[data-type=votes_revealed]").last  # the oldest: the log is newest first
    line.wait_for()
    text = line.inner_text()
    view = game.get()["view"]
    assert view["proposals"] != cards, "the view's proposals are still the vote's: the test would not tell them apart"
    named = [f"{founders_name(c, view)} {t} influence" for c, t in zip(cards, totals, strict=True)]
    expected = ", ".join(named[:-1]) + ", and " + named[-1] if len(named) > 2 else " and ".join(named)
    assert text.startswith(f"Votes revealed: {expected}"), text
    assert not re.search(r"proposal \d+ \d+", text), text


NOTES = """async ([game]) => {
    const { result } = await import('/js/scores.js');
    const founders = (await import('/js/render/founders.js')).default;
    const el = result(game, { seatNames: null }, founders.outcomeNames(game), founders.outcomeNotes(game, {}));
    return [...el.querySelectorAll('.outcome-note')].map((p) => p.textContent);
}"""


def test_founders_final_scores_show_the_shaping_history_event_card_only_with_the_variant(server, new_page):
    """Shaping history (engine v8): the final scores name the winner's race event card, the three
    blanks written on it and the buildings the winner delivered to, each with its city section;
    a game without the variant shows no such line."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["bot", "bot"], {"shaping_history": True})
    deadline = time.monotonic() + 240
    while game.get()["status"] != "GAME_STATUS_FINISHED":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    g = game.get()
    hist = g["outcome"]["shaping_history"]
    assert hist["seat"] == g["outcome"]["winners"][0]
    page = new_page()
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".outcome-note")
    notes = page.locator(".outcome-note").all_inner_texts()
    assert notes[0].startswith("📜 Shaping history:") and f"“{hist['card']}”" in notes[0], notes
    assert "favourite building" in notes[1] and "governing body" in notes[1], notes
    for b in hist["buildings"]:
        assert f"{b['name']} ({b['section']}" in notes[2], notes
    # the same outcome without the variant: no line about an event card
    plain = dict(g, outcome={k: v for k, v in g["outcome"].items() if k != "shaping_history"})
    assert page.evaluate(NOTES, [plain]) == []
    assert page.evaluate(NOTES, [g])[0] == notes[0]
