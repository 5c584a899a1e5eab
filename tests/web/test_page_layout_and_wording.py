"""Defects an outside acceptance pass found in the browser client: a double click that played a
move, pages wider than a phone, a stray "null", log lines not in words, race ids, the join
page of a finished game, Captains moved out of their seats silently, and wording."""

from __future__ import annotations

import random
import re

import pytest

from tests import plainhttp

from .api_play import ApiGame
from .test_browser import create_in_lobby, version, wait_ready

BOARD_GAMES = {"new-bedford": "newbedford", "phoenicia": "phoenicia", "riverboat": "riverboat",
               "founders-of-gloomhaven": "founders"}


def sample(schema: dict, name: str = ""):
    """A value the JSON schema allows (first alternative, first enum value, one list item)."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    alts = schema.get("oneOf") or schema.get("anyOf")
    if alts:
        return sample(alts[0], name)
    t = schema.get("type")
    if isinstance(t, list):
        t = t[0]
    if t == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        if not props and isinstance(schema.get("additionalProperties"), dict):
            return {"0": sample(schema["additionalProperties"])}
        return {k: sample(v, k) for k, v in props.items()}
    if t == "array":
        if "prefixItems" in schema:
            return [sample(x) for x in schema["prefixItems"]]
        return [sample(schema.get("items") or {"type": "integer"})]
    if t in ("integer", "number"):
        return max(1, schema.get("minimum", 1)) if name not in ("seat", "player", "first_player", "overlord") else 1
    if t == "boolean":
        return True
    if t == "string":
        return "lumber" if "pattern" in schema else "x"
    return 1


def describe_all(page, base: str, engine: str, events: list[dict]) -> list[tuple[str, str]]:
    """(the page's sentence, the generic fallback's) for each event, by the page's own modules."""
    page.goto(base + "/#/")
    page.wait_for_selector(".engines label")
    return page.evaluate(
        """async ([engine, events]) => {
            const w = await import('/js/words.js');
            const r = (await import('/js/render/index.js')).rendererFor(engine);
            const ctx = { held: [0], seatNames: null, view: {}, log: [], at: 0, engine };
            return events.map((e) => [w.describeEvent(e, { ...ctx, log: [{ version: 1, event: e }] }, r), w.describeEvent(e, ctx, null)]);
        }""",
        [engine, events],
    )


@pytest.mark.parametrize("engine", sorted(BOARD_GAMES))
def test_every_event_of_the_board_games_is_a_sentence(server, new_page, engine):
    """Each event type in the engine's event schema (and the platform's tablero.* events) reads
    as a sentence of its own, not the generic "x y — k v" fallback."""
    d = plainhttp.get(f"{server.url}/v1/engines/{engine}").json()
    d = d.get("engine", d)
    events = [sample(alt) for alt in d["eventSchema"]["oneOf"]]
    events += [{"type": "tablero.turn_timed_out", "seat": 0, "then": "bot"},
               {"type": "tablero.seat_left", "seat": 1, "reason": "resigned", "then": "bot"},
               {"type": "tablero.seat_left", "seat": 1, "reason": "abandoned", "then": "forfeit"}]
    page = new_page()
    said = describe_all(page, server.url, engine, events)
    # Every type has its catalog template: none reads as the platform's fallback ("who: type — fields").
    generic = [e["type"] for e, (s, _) in zip(events, said, strict=True) if f": {e['type'].replace('_', ' ')}" in s]
    assert generic == [], generic
    assert not [s for s, _ in said if " — " in s], said
    for e, (s, _) in zip(events, said, strict=True):
        assert not re.search(r"undefined|null|NaN|\[object|\{", s), (e, s)
        assert "tablero." not in s and not re.search(r"\b[a-z]+_[a-z_]+\b", s), (e, s)


def test_the_log_lines_the_tester_quoted_read_as_sentences(server, new_page):
    page = new_page()
    cases = {
        "new-bedford": [({"type": "sale_opened", "seat": 1, "space": "general_store", "kinds": ["lumber"]},
                         "Blue goes to sell at the General Store: lumber may be sold."),
                        ({"type": "inn_workers_picked_up", "seat": 0, "spaces": ["farm", "seamens_bethel"]},
                         "Red (you) picks up their workers from the Farm and the Seamen’s Bethel (Inn), to place them again."),
                        ({"type": "tablero.turn_timed_out", "seat": 0, "then": "bot"},
                         "Red (you) ran out of time for this turn: a bot plays it.")],
        "phoenicia": [({"type": "payment_requested", "seat": 2, "price": 5, "action": {"type": "buy_tool", "tableau": "farming"}},
                       "Green must pay $5 to buy a tool for Farming."),
                      ({"type": "production_dealt", "seat": 1, "cards": 1, "undealt": 0, "disks": 1},
                       "Blue receives 1 production card and 1 disk.")],
    }
    for engine, pairs in cases.items():
        said = describe_all(page, server.url, engine, [e for e, _ in pairs])
        assert [s for s, _ in said] == [want for _, want in pairs]


def test_a_double_click_on_a_composer_step_makes_one_choice(server, new_page):
    """The second click of a double click lands on the next step's button (it replaced the first
    in the same spot): it must not choose too, let alone play a move. Keys still work."""
    page = new_page()
    game_id = create_in_lobby(page, server.url, "new-bedford", ["human", "bot"])
    assert wait_ready(page) == "move"
    first = page.locator("section.composer .group button >> nth=0")
    assert "choice" in (first.get_attribute("class") or ""), "the test needs a step, not a move"
    before = version(page)
    page.dblclick("section.composer .group button >> nth=0")
    page.wait_for_selector(".composer .crumbs")
    page.wait_for_timeout(600)
    assert version(page) == before
    assert page.locator(".composer .crumbs .crumb").count() == 1
    # (the bot, seat 1, chooses its own starting goods when its turn comes, in the background)
    mine = [e["event"]["type"] for e in plainhttp.get(f"{server.url}/v1/games/{game_id}/events").json()["events"]
            if e["event"].get("seat") == 0]
    assert "starting_goods_chosen" not in mine
    # The keyboard (Enter: a click of detail 0) still chooses.
    page.focus("section.composer .group button >> nth=0")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelectorAll('.composer .crumbs .crumb').length > 1"
        f" || parseInt(document.querySelector('.table-head h1').textContent.split('move')[1]) > {before}")


@pytest.fixture(scope="module")
def founders_over(server):
    """A finished solo game of Founders of Gloomhaven."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human"])
    game.play(random.Random(7), lambda g: False, max_moves=400)
    assert game.get()["status"] == "GAME_STATUS_FINISHED"
    return game


@pytest.fixture(scope="module")
def new_bedford_vs_captains_over(server):
    game = ApiGame(server.url, "new-bedford", ["human"], {"captains": ["starbuck", "ahab"]})
    game.play(random.Random(4), lambda g: False, max_moves=600)
    assert game.get()["status"] == "GAME_STATUS_FINISHED"
    return game


def assert_fits(page, width: int) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide}px wide on a {width}px screen"


def test_pages_fit_a_phone(server, new_page, founders_over, new_bedford_vs_captains_over):
    """390×844: the Founders map, New Bedford's final scores against two Captains and the log
    stay inside the screen (wide parts scroll in their own box); so does a running game."""
    running = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    running.play(random.Random(1), lambda g: len(g.events()) > 25)
    for game, what in ((running, ".fg-map"), (founders_over, ".result .scores"), (new_bedford_vs_captains_over, ".result .scores")):
        page = new_page(390, 844)
        game.hold(page, [0])
        page.goto(f"{server.url}/#/g/{game.id}")
        page.wait_for_selector(what)
        page.wait_for_selector(".log li")
        assert_fits(page, 390)
    page = new_page(390, 844)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-new-bedford]")
    assert_fits(page, 390)


def test_founders_final_scores_name_the_races(server, new_page, founders_over):
    g = founders_over.get(0)
    races = [d["race"] for d in g["outcome"]["details"]]
    page = new_page()
    founders_over.hold(page, [0])
    page.goto(f"{server.url}/#/g/{founders_over.id}")
    page.wait_for_selector(".result:not([hidden]) .scores")
    text = page.inner_text(".result")
    for race in races:
        shown = race[:1].upper() + race[1:].replace("_", " ")
        assert shown in text and not re.search(rf"\b{race}\b", text), text


def test_the_join_link_of_a_finished_game_offers_its_final_scores(server, new_page, founders_over):
    page = new_page()
    page.goto(f"{server.url}/#/join/{founders_over.id}")
    page.wait_for_selector("#join-over")
    text = page.inner_text("main")
    assert "is over" in text and "no free seat" not in text and page.locator("#join-button").count() == 0
    page.click("#view-scores")
    page.wait_for_selector(".result:not([hidden]) .scores")


def test_the_lobby_shows_no_stray_null_when_no_game_is_open(server, new_page):
    page = new_page()
    page.route(re.compile(r".*/tablero\.v1\.GameService/ListGames"), lambda route: route.fulfill(json={"games": []}))
    page.goto(server.url + "/#/")
    page.wait_for_selector("#no-open-games")
    box = page.locator("section[aria-labelledby=open-h]").inner_text()
    assert "null" not in box, box


def test_new_bedford_captains_are_chosen_apart_from_the_seats(server, new_page):
    """Captains are not seats (they always sit after them): the lobby lists them apart and says
    who sits where, so none is moved out of a seat the user chose."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.click("label[for=eng-new-bedford]")
    page.select_option("#players", "1")
    assert not [o for o in page.locator("#seat-0 option").all_inner_texts() if "Captain" in o]
    page.check("#captain-ahab")
    assert page.inner_text("#table-order") == "At the table: Red: Me · Blue: Captain Ahab."
    # The building list names buildings as the game does.
    page.get_by_label("Buildings", exact=True).select_option(label="Choose from a list")
    labels = page.locator("form.create .opts label").all_inner_texts()
    assert "Seamen's Bethel" in labels and "Dry Dock" in labels and "Seamens bethel" not in labels
    # Seats and Captains stay within the table: more seats than leave room for a Captain ticked
    # sends that Captain away (and says so); seat counts with no room for those ticked are off.
    page.select_option("#players", "3")
    page.check("#captain-ahab")
    assert page.locator("#players option[value='4']").is_disabled()
    page.evaluate("() => { const p = document.querySelector('#players'); p.value = '4';"
                  " p.dispatchEvent(new Event('change')); }")  # forced past the disabled option
    assert not page.is_checked("#captain-ahab")
    assert "Captain Ahab left: 4 seats leave no room at a table of 4" in page.inner_text("#table-order")
    assert not page.locator("#players option[value='4']").is_disabled()


def test_founders_actions_are_in_words(server, new_page):
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate("""async () => {
        const r = (await import('/js/render/index.js')).rendererFor('founders-of-gloomhaven');
        return r.describeAction({ type: 'draft_resource', resource: 'plant' }, { view: {} });
    }""")
    assert said == "Draft plant"
