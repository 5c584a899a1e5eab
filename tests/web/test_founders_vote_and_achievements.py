"""Founders of Gloomhaven in the browser, an outside player's pass: what a vote shows (one's own
secret vote in the log, each vote's influence as the totals count it, no tie with one winner), a
delivery made with a placement named live, the achievements of the variant on the board, and the
words of a follow and of an import chosen square by square."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

from tests import plainhttp

from .api_play import ApiGame
from .conftest import ARTIFACTS
from .test_founders import founders_name

EDITION = Path(__file__).resolve().parents[2] / "engines" / "founders_of_gloomhaven" / "edition.json"


def placing_with_a_neutral_requirement(g: ApiGame) -> bool:
    """The vote is won outright (no tie) and its building, which needs a neutral resource, is to
    be placed: its placement delivers at once (p. 11), in the same move."""
    v = g.get()["view"]
    vote = v.get("vote") or {}
    card = (v.get("cards") or {}).get(vote.get("card") or "", {})
    return (v.get("phase") == "place" and len(vote.get("tied") or []) == 1
            and bool(set(card.get("requires") or []) & set(v.get("neutral") or [])))


def seat_events(g: ApiGame, seat: int) -> list[dict]:
    out = plainhttp.get(f"{g.path}/events?pageSize=1000", headers={"Authorization": f"Bearer {g.tokens[seat]}"}, timeout=30)
    return [e["event"] for e in out.json()["events"]]


def test_founders_vote_shows_ones_own_vote_the_influence_counted_and_names_a_delivery_live(server, new_page):
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "human"])
    game.play(random.Random(21), placing_with_a_neutral_requirement, max_moves=1500)
    view = game.get(0)["view"]
    vote = view["vote"]
    assert len(vote["tied"]) == 1 and vote["votes"], "a vote with one winner, revealed"
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".fg-vote li")

    # The log: "casts a secret vote (you vote for proposal 3 (Tavern) …)", numbered from 1 with its
    # name as the vote buttons said it (it said "proposal 2", the engine's index, for the third).
    mine = [e for e in seat_events(game, 0) if e["type"] == "vote_cast" and e.get("seat") == 0][-1]
    choice = mine["private"]["0"]
    texts = page.locator("ol.log li[data-type=vote_cast]").all_inner_texts()
    own = [t for t in texts if "(you vote for" in t][0]  # the newest first: this vote's
    proposals = [e for e in game.events() if e["type"] in ("game_started", "proposals_drawn")][-1]
    cards = proposals.get("proposals") or proposals.get("cards")
    name = founders_name(cards[choice["proposal"]], view)
    assert f"you vote for proposal {choice['proposal'] + 1} ({name}) with {choice['fleeting']} fleeting" in own, own

    # The vote box: each vote's influence as the totals count it (1 + fleeting + 2 × lasting), so
    # the lines add up to the winner's total; no "tied:" line with a single winner.
    box = page.inner_text(".fg-vote")
    for s, x in enumerate(vote["votes"]):
        n = 1 + x["fleeting"] + 2 * x["lasting"]
        assert re.search(rf"{'Red' if s == 0 else 'Blue'}.*with {n} influence \(1 \+ {x['fleeting']} fleeting \+ 2 × {x['lasting']} lasting\)", box), box
    assert "tied" not in box, box

    # The placement, made while the page watches: the stream brings the building and its delivery
    # together, and the delivery names the building (it said "delivered to 0": the view did not hold it yet).
    placer = vote["placer"]
    auth = {"Authorization": f"Bearer {game.tokens[placer]}"}
    acts = plainhttp.get(f"{game.path}/legal-actions", headers=auth, timeout=30).json()
    r = plainhttp.post(f"{game.path}/actions", headers=auth, timeout=30,
                       json={"action": acts["actions"][0], "expectedVersion": acts["version"]})
    assert r.status_code == 200, r.text
    placed = [e for e in game.events() if e["type"] == "prestige_placed"][-1]
    line = page.locator("ol.log li[data-type=delivered]").first
    line.wait_for()
    text = line.inner_text()
    assert text.endswith(f"delivered to {founders_name(placed['card'], view)}."), text
    assert not re.search(r"delivered to \d", text), text
    # A follower's turn: "Blue may follow now", not "gains a follower".
    follow = page.locator("ol.log li[data-type=follower_up]")
    if follow.count():
        assert follow.first.inner_text().endswith("may follow now."), follow.first.inner_text()
    page.screenshot(path=str(ARTIFACTS / "founders-vote.png"), full_page=True)


def test_founders_shows_the_achievements_in_play_and_who_scored_them(server, new_page):
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"], {"achievements": True})
    drawn = game.get(0)["view"]["achievements"]
    assert set(drawn) == {"immediate", "mid", "end"}
    printed = json.loads(EDITION.read_text())["achievements"]
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".fg-achievements li")
    lines = dict(zip(["immediate", "mid", "end"], page.locator(".fg-achievements li").all_inner_texts(), strict=True))
    decks = {"immediate": "immediate", "mid": "mid-game", "end": "end of game"}
    for deck, card in drawn.items():
        a = printed[card]
        text = lines[deck]
        assert text.startswith(f"{decks[deck]}: {card.replace('_', ' ')} — "), text
        assert a["text"].lower().replace("tier-2/3", "tier-2/3") in text and f"{a['value']} points" in text, text
        assert text.endswith("not scored yet"), text
    # Without the variant there is nothing to show.
    plain = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    other = new_page(1280, 900)
    plain.hold(other, [0])
    other.goto(f"{server.url}/#/g/{plain.id}")
    other.wait_for_selector(".fg-vote")
    assert other.locator(".fg-achievements").count() == 0


def importing(g: ApiGame) -> bool:
    """Seat 0 may import, the square to be chosen in the next step (phase `site`)."""
    if 0 not in (g.get().get("toAct") or []):
        return False
    out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json()
    return any(a["type"] == "import" and "cell" not in a for a in out.get("actions") or [])


def test_founders_an_import_whose_square_comes_next_does_not_promise_a_square(server, new_page):
    """`Import stone`, then the square: the move's words said "Import stone to square" and stopped."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    game.play(random.Random(5), importing, max_moves=600)
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".turn .your-turn")
    for _ in range(3):
        acts = [t.strip() for t in page.locator(".composer button.act").all_inner_texts()]
        if any(t.startswith("Import ") for t in acts):
            break
        page.locator(".composer button.choice", has_text=re.compile(r"^Import")).first.click()
    imports = [t for t in acts if t.startswith("Import ")]
    assert imports, acts
    assert not [t for t in imports if re.search(r"to square\s*$", t.split("\n")[0])], imports
    assert all(re.fullmatch(r"Import [a-z]+( with access)?", t.split("\n")[0]) for t in imports), imports


def claimed(g: ApiGame) -> bool:
    return any(pb.get("neutral_claim") and not pb["complete"] for pb in g.get()["view"]["prestige"])


def test_founders_solo_shows_the_cycle_the_proposal_costs_and_the_claim_tokens(server, new_page):
    """Solo (p. 18): the cycle of 7, what each proposal costs and the neutral claim tokens the next
    vote will charge for (unpaid, the game is lost) were nowhere on the page: a solo game was lost
    at its second vote with nothing on the board saying why."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human"])
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".fg-solo")
    assert page.inner_text(".fg-solo").startswith("Solo: cycle 1 of 7 · proposals cost 1: free, 2: 2 fleeting, and 3: 4 fleeting")
    assert page.locator(".fg-claim").count() == 0
    for seed in range(10):
        if claimed(game) or game.get()["status"] == "GAME_STATUS_FINISHED":
            break
        game.play(random.Random(seed), claimed, max_moves=300)
    view = game.get()["view"]
    if not claimed(game):
        return  # lost before a building was placed: nothing more to see (rare)
    page.reload()
    page.wait_for_selector(".fg-claim")
    claims = sum(1 for pb in view["prestige"] if pb.get("neutral_claim") and not pb["complete"])
    assert page.locator(".fg-claim").count() == claims
    assert f"neutral claim tokens on the board: {claims} " in page.inner_text(".fg-solo")
    assert f"Solo: cycle {view['solo']['cycle']} of 7" in page.inner_text(".fg-solo")


def worker_on_race(g: ApiGame) -> bool:
    return any(e["type"] == "worker_placed" and e.get("target") == "race" for e in g.events())


def test_founders_log_says_a_worker_goes_on_the_race_action(server, new_page):
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "human"])
    game.play(random.Random(3), worker_on_race, max_moves=1500)
    page = new_page(1280, 900)
    page.goto(f"{server.url}/#/g/{game.id}")  # a spectator
    page.wait_for_selector("ol.log li[data-type=worker_placed]")
    texts = page.locator("ol.log li[data-type=worker_placed]").all_inner_texts()
    assert any(t.endswith("places a worker on their race action.") for t in texts), texts
    assert not [t for t in texts if "on the Race" in t], texts


def test_founders_map_names_each_prestige_building_and_its_card_says_where_it_stands(server, new_page):
    """A prestige square said "prestige of unowned" (no name) and the prestige cards said not where
    they stand: a player could not find the building a card describes on the map."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    game.play(random.Random(9), lambda g: bool(g.get()["view"]["prestige"]), max_moves=800)
    view = game.get(0)["view"]
    pb = view["prestige"][0]
    tile = next(t for t in view["tiles"] if t["id"] == pb["tile"])
    w = view["map"]["width"]
    names = [f"{chr(65 + c % w)}{c // w + 1}" for c in tile["cells"]]
    name = founders_name(pb["card"], view)
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".fg-prestige")
    squares = page.locator(".fg-map .fg-sq")
    for c in tile["cells"]:
        title = squares.nth(c).get_attribute("title")
        assert f"prestige ({name})" in title and "unowned" not in title, title
    card = page.locator(".fg-prestige", has_text=name).first.inner_text()
    assert f"square{'s' if len(names) > 1 else ''} {', '.join(names)}" in card, card


def mixed_choice(g: ApiGame) -> bool:
    """Seat 0 has many moves of several kinds; the first has a field that sorts before "type"
    (resource, tile, cell, card) and some others have not."""
    if 0 not in (g.get().get("toAct") or []):
        return False
    out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json()
    acts = out.get("actions") or []
    early = {k for k in (acts[0] if acts else {}) if k < "type"}  # the first move's leads the questions
    return len(acts) > 12 and len({a["type"] for a in acts}) > 1 and any(any(k not in a for k in early) for a in acts)


def sorted_keys(route) -> None:
    """The legal actions with their keys in alphabetical order, as a protobuf Struct may give them
    (JSON objects have no order; the move builder must not depend on one)."""
    response = route.fetch()
    body = response.json()
    body["actions"] = [dict(sorted(a.items())) for a in body.get("actions") or []]
    route.fulfill(response=response, body=json.dumps(body))


def test_founders_the_move_builder_asks_the_kind_of_move_first(server, new_page):
    """A Trade follow (imports, access, money, influence, roads) asked "Choose resource: metal,
    wood, none (14 moves)": with the actions' keys sorted, a field before "type" was asked first
    and every move without it was "none"."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    game.play(random.Random(4), mixed_choice, max_moves=800)
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.route(re.compile(r"(ListLegalActions|legal-actions)"), sorted_keys)
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".composer button.choice")
    step = page.locator(".composer .group.step h4").first.inner_text()
    assert step.startswith("What do you do?"), step
    fields = set(page.locator(".composer button.choice").evaluate_all("bs => bs.map(b => b.dataset.field)"))
    assert fields == {"type"}, fields
    assert not page.locator(".composer button.choice", has_text=re.compile(r"^none")).count()


def placing_a_big_building(g: ApiGame) -> bool:
    v = g.get()["view"]
    if v.get("phase") != "place":
        return False
    seat = v["to_act"][0]
    out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[seat]}"}, timeout=30).json()
    acts = out.get("actions") or []
    return len(acts) > 6 and all(len(a.get("cells") or []) > 1 for a in acts)


def test_founders_a_building_is_placed_by_clicking_its_squares_on_the_map(server, new_page):
    """Where a tile of several squares goes was chosen only with "+ B5" buttons: its squares on the
    map were not clickable (a click matched a whole one-square move only)."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "human"])
    game.play(random.Random(8), placing_a_big_building, max_moves=1500)
    seat = game.get()["view"]["to_act"][0]
    acts = plainhttp.get(f"{game.path}/legal-actions", headers={"Authorization": f"Bearer {game.tokens[seat]}"}, timeout=30).json()["actions"]
    cells = sorted(random.Random(1).choice(acts)["cells"])
    page = new_page(1280, 900)
    game.hold(page, [seat])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".composer button.choice")
    squares = page.locator(".fg-map .fg-sq")
    for c in cells:
        sq = squares.nth(c)
        expect_pickable = sq.evaluate("el => el.classList.contains('pickable')")
        assert expect_pickable, f"square {c} is not clickable"
        sq.click()
        page.wait_for_function(f"() => document.querySelector('.composer .crumbs') && !document.querySelectorAll('.fg-map .fg-sq')[{c}].classList.contains('pickable')")
    done = page.locator(".composer button.choice[data-done=true]")
    if done.count():
        done.click()
    before = len([e for e in game.events() if e["type"] == "prestige_placed"])
    page.wait_for_function("() => document.querySelector('.composer button.act:not([disabled])')")
    page.locator(".composer button.act").first.click()
    # (The same seat may decide again at once, a road or a delivery: the page then offers a new
    # move, so the placement is awaited in the log, not as a page without moves.)
    deadline = time.monotonic() + 15
    while len(placed := [e for e in game.events() if e["type"] == "prestige_placed"]) == before:
        assert time.monotonic() < deadline, "the placement was not made"
        time.sleep(0.1)
    assert sorted(placed[-1]["cells"]) == cells


def recruiting(g: ApiGame) -> bool:
    if 0 not in (g.get().get("toAct") or []):
        return False
    out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json()
    return any(a["type"] == "recruit" for a in out.get("actions") or [])


def test_founders_a_recruit_move_names_the_adviser_in_its_slot(server, new_page):
    """"Recruit the adviser in slot 2" left the player to count the offer's cards."""
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    game.play(random.Random(6), recruiting, max_moves=600)
    view = game.get(0)["view"]
    page = new_page(1280, 900)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".turn .your-turn")
    for _ in range(3):
        acts = [t.strip().split("\n")[0] for t in page.locator(".composer button.act").all_inner_texts()]
        if any(t.startswith("Recruit the adviser") for t in acts):
            break
        page.locator(".composer button.choice", has_text=re.compile(r"^Recruit")).first.click()
    recruits = [t for t in acts if t.startswith("Recruit the adviser")]
    assert recruits, acts
    for t in recruits:
        n = int(re.search(r"slot (\d+)", t).group(1))
        assert t == f"Recruit the adviser in slot {n} ({view['cards'][view['offer'][n - 1]]['name']})", t
