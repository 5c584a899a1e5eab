"""Defects a second outside acceptance pass found in the browser client (whole games clicked
through in headless Chromium): a running game's seat forgotten in one click, a hot seat's secret
shown to the next player, seats numbered from 0, Founders' wording, a server that cannot be
reached, raw identifiers in the move builder, links not understood, and lobby details."""

from __future__ import annotations

import json
import random
import re

from tests import plainhttp

from .api_play import ApiGame
from .conftest import Serve
from .test_browser import create_in_lobby, phoenicia_position_with_a_big_payment_choice, wait_ready
from .test_page_layout_and_wording import describe_all


def held_item(page, game_id: str):
    return page.locator("section[aria-labelledby=mine-h] li").filter(has=page.locator(f"a[href='#/g/{game_id}']"))


def test_a_running_game_cannot_be_forgotten_a_finished_one_can(server, new_page):
    """The seat's token lives only in this browser: "Forget" on a running game would give the seat
    up for good, and the game would wait for it forever. Only finished games offer Forget."""
    running = ApiGame(server.url, "goofspiel", ["human", "human"])
    over = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
    over.play(random.Random(1), lambda g: False)
    page = new_page()
    store = {g.id: {"engine": g.engine, "seats": [{"seat": 0, "token": g.tokens[0]}], "at": n} for n, g in enumerate((running, over))}
    page.add_init_script(f"localStorage.getItem('tablero.games.v1') || localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
    page.goto(server.url + "/#/")
    done = held_item(page, over.id)
    done.get_by_role("button", name="Forget").wait_for()
    live = held_item(page, running.id)
    live.locator(".held-state").filter(has_text="in progress").wait_for()
    assert live.get_by_role("button").count() == 0, live.inner_text()
    done.get_by_role("button", name="Forget").click()
    assert done.count() == 0
    page.reload()
    held_item(page, running.id).locator(".held-state").filter(has_text="in progress").wait_for()
    assert held_item(page, over.id).count() == 0
    kept = json.loads(page.evaluate("localStorage.getItem('tablero.games.v1')"))
    assert list(kept) == [running.id] and kept[running.id]["seats"][0]["token"] == running.tokens[0]


def test_a_hot_seat_shows_the_next_player_no_secret_of_the_last(server, new_page):
    """Goofspiel with both seats in one browser: once Red has bid, the page passes to Blue; the
    log must not tell Blue Red's card, then or after a reload. Red's bid is marked in Red's hand."""
    page = new_page()
    create_in_lobby(page, server.url, "goofspiel", ["human", "human"], {"Cards": "3"})
    wait_ready(page)
    assert page.inner_text(".turn h2") == "Your turn, Red."
    page.locator(".composer button.act").first.click()
    page.wait_for_function("() => document.querySelector('.turn h2').textContent === 'Your turn, Blue.'")
    page.wait_for_selector(".log li[data-type=bid_placed]")
    for _ in range(2):
        log = page.inner_text(".log")
        assert "only you see" not in log and not re.search(r"card \d", log), log
        assert "Red (you) bids in secret." in log, log
        page.reload()
        wait_ready(page)
        page.wait_for_selector(".log li[data-type=bid_placed]")
    assert page.inner_text(".turn h2") == "Your turn, Blue."


def test_goofspiel_names_whose_bid_is_whose_and_who_won(server, new_page):
    """The prizes so far and the log name the players ("Blue wins"), not seat indices ("winner 0");
    the card a player bid is marked in their hand until the reveal; a spectator sees no hand or bid."""
    game = ApiGame(server.url, "goofspiel", ["human", "human"], {"cards": 4})
    auth = lambda s: {"Authorization": f"Bearer {game.tokens[s]}"}  # noqa: E731
    for seat, card in ((0, 1), (1, 4)):  # Blue wins the first prize
        plainhttp.post(f"{game.path}/actions", headers=auth(seat), json={"action": {"type": "bid", "card": card}}).raise_for_status()
    prize = game.get()["view"]["history"][0]["prize"]
    plainhttp.post(f"{game.path}/actions", headers=auth(0), json={"action": {"type": "bid", "card": 3}}).raise_for_status()
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".log li[data-type=bids_revealed]")
    assert page.inner_text(".log li[data-type=bids_revealed]") == "Bids revealed: Red (you) 1 and Blue 4; Blue wins the prize."
    history = page.locator(".board table").filter(has_text="Won by")
    assert history.locator("thead th").all_inner_texts() == ["Prize", " Your bid", " Blue's bid", "Won by"]
    assert history.locator("tbody tr").first.locator("td").all_inner_texts() == [str(prize), "1", "4", "Blue"]
    # Red's 3 is bid: still in the hand until the reveal, marked so, and no longer a bid to make.
    hand = page.locator(".board .hand")
    assert hand.locator(".card.bid").inner_text().split() == ["3", "bid"]
    assert sorted(int(x.split()[0]) for x in hand.locator(".card").all_inner_texts()) == [2, 3, 4]
    assert "Your bid: 3" in page.inner_text(".board")
    # A spectator: no hand, no bid of their own.
    spectator = new_page()
    spectator.goto(f"{server.url}/#/g/{game.id}")
    spectator.wait_for_selector(".log li[data-type=bids_revealed]")
    board = spectator.inner_text(".board")
    assert "hand" not in board.lower().replace("cards in hand", "") and "bid:" not in board.lower(), board


def test_new_bedford_first_player_is_chosen_among_the_seats_by_name(server, new_page):
    """The engine counts seats from 0; the lobby calls Red "Seat 1". The First player option is a
    choice among the seats there are, by the lobby's names, and sends the engine's number."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.click("label[for=eng-new-bedford]")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot")
    first = page.get_by_label("First player", exact=True)
    assert first.locator("option").all_inner_texts() == ["Random", "Seat 1 (Red)", "Seat 2 (Blue)"]
    page.select_option("#players", "3")
    assert first.locator("option").all_inner_texts()[-1] == "Seat 3 (Green)"
    first.select_option(label="Seat 3 (Green)")
    page.select_option("#players", "2")  # Green is gone: back to Random
    assert first.input_value() == ""
    page.select_option("#seat-1", "bot")
    first.select_option(label="Seat 2 (Blue)")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(".GameService/CreateGame")) as req:
        page.click("form.create button[type=submit]")
    assert req.value.post_data_json["options"]["first_player"] == 1
    page.wait_for_selector(".nb .player.c1 h3")
    assert "first player" in page.inner_text(".nb .player.c1 h3")


def test_new_bedford_fees_name_who_is_paid(server, new_page):
    """"Bank: pay $1 to seat 1" (seat 1 being Captain Ahab) named Ahab as a seat; the fee for a Captain's
    building goes to the supply (solo p.12: Captains collect nothing) and names him as its owner."""
    game = ApiGame(server.url, "new-bedford", ["human"], {"captains": ["ahab"]})

    def fee_due(g: ApiGame) -> bool:
        opts = ((g.get(0)["view"].get("pending") or {}).get("options")) or []
        return any("to the supply (a Captain's building)" in (o.get("text") or "") for o in opts)

    game.play(random.Random(3), fee_due, max_moves=300)
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".nb .player")
    said = page.evaluate(
        """async ([id, token]) => {
            const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
            const { api, unwrapGame } = await import('/js/api.js');
            const game = unwrapGame(await api('GET', `/v1/games/${id}`, { token }));
            const ctx = { view: game.view, game, seat: 0, held: [0], seatNames: r.seatNames(game) };
            return game.view.pending.options.map((o) => r.describeAction(o.action, ctx));
        }""",
        [game.id, game.tokens[0]],
    )
    assert [s for s in said if "pay $1 to the supply (Captain Ahab's building" in s], said
    assert not [s for s in said if "to Captain Ahab" in s], said
    assert not [s for s in said if "to seat" in s], said


def test_founders_actions_read_as_the_terminal_client_says_them(server, new_page):
    """Squares as the map labels them ("square B5": column letter, row number), proposals numbered
    from 1 with their names ("proposal 2 (…)"), an import whose square comes in the next step
    without "undefined": the browser says each legal move as the terminal client does."""
    from tablero_client.models import Game
    from tablero_client.render import action_label, player_name
    from tablero_client.render.founders_of_gloomhaven import square

    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    seen: list[tuple[dict, list[dict]]] = []

    def look(g: ApiGame) -> bool:
        out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json()
        if out.get("actions"):
            seen.append((plainhttp.get(g.path, headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json(), out["actions"]))
        kinds = {a["type"] for _, acts in seen for a in acts}
        return len(seen) >= 60 or {"import", "vote", "road"} <= kinds and len(seen) >= 25

    game.play(random.Random(21), look, max_moves=300)
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(
        """async (seen) => {
            const r = (await import('/js/render/index.js')).rendererFor('founders-of-gloomhaven');
            const { unwrapGame } = await import('/js/api.js');
            const { seatName } = await import('/js/words.js');
            return [seen.map(([g, actions]) => actions.map((a) => [r.describeAction(a, { view: unwrapGame(g).view }),
                a.cell === undefined ? null : r.valueName('cell', a.cell, { view: unwrapGame(g).view })])),
              [0, 1].map((s) => seatName({ view: unwrapGame(seen[0][0]).view }, s))];
        }""",
        seen,
    )
    said, web_seats = said
    kinds, differ = set(), []
    for (g, actions), words in zip(seen, said, strict=True):
        model = Game.from_json(g)
        for a, (js, cell) in zip(actions, words, strict=True):
            kinds.add(a["type"])
            if "cell" in a:  # a square chosen step by step: named as on the map
                assert cell == f"square {square(model, a['cell'])}", (a, cell)
            py = action_label(a, model)
            for seat, web in enumerate(web_seats):  # a tile's owner: each client names seats its way
                py = py.replace(f" · {player_name(model, seat)}, ", f" · {web}, ")
            if js != py[:1].upper() + py[1:]:
                differ.append((a, js, py))
            assert "undefined" not in js and not re.search(r"square \d", js), (a, js)
    assert {"import", "play_card", "vote"} <= kinds, kinds
    assert any(a["type"] == "import" and "cell" not in a for _, acts in seen for a in acts)  # the trade's first step
    assert differ == [], differ[:8]


def test_a_move_while_the_server_is_down_is_not_sent_and_the_note_goes_when_it_is_back(new_page, tmp_path):
    """The server stops: a click on a move says the move was not sent (to try again), not "Could not
    load the game"; once the server is back and the page live again, the note goes by itself."""
    db = str(tmp_path / "games.db")
    s = Serve("--db", db, log="server-down.log")
    try:
        game = ApiGame(s.url, "tic-tac-toe", ["human", "human"])
        page = new_page()
        game.hold(page, [0])
        page.goto(f"{s.url}/#/g/{game.id}")
        wait_ready(page)
        page.wait_for_selector(".live.live")
        s.stop()
        page.wait_for_selector(".live.reconnecting")
        page.click('.ttt-cell.pickable[data-cell="4"]')
        page.wait_for_selector("#banner .error")
        note = page.inner_text("#banner")
        assert "Your move was not sent" in note and "Try it again" in note and "Could not load" not in note, note
        page.wait_for_timeout(500)  # (no later refresh replaces it)
        assert "Your move was not sent" in page.inner_text("#banner")
        s = Serve("--db", db, http_port=s.http_port, grpc_port=s.grpc_port, log="server-down-2.log")
        page.wait_for_selector(".live.live", timeout=30_000)
        page.wait_for_function("() => document.getElementById('banner').textContent.trim() === ''")
        wait_ready(page)
        page.click('.ttt-cell.pickable[data-cell="4"]')  # and the move goes now
        page.wait_for_selector('.ttt-cell[data-cell="4"].mark-X')
    finally:
        s.stop()


def _new_bedford_placing(server, new_page):
    """A page holding seat 0 of a New Bedford game against a bot, at a turn with more than 12
    worker placements to choose from (the builder asks for the space step by step)."""
    game = ApiGame(server.url, "new-bedford", ["human", "bot"])

    def placing(g: ApiGame) -> bool:
        out = plainhttp.get(f"{g.path}/legal-actions", headers={"Authorization": f"Bearer {g.tokens[0]}"}, timeout=30).json()
        return sum(a["type"] == "place_worker" for a in out.get("actions") or []) > 12

    game.play(random.Random(2), placing, max_moves=60)
    page = new_page()
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    wait_ready(page)
    return page


def test_the_move_builder_names_values_and_counts_apart(server, new_page):
    """New Bedford's spaces by name in the step-by-step builder ("Town Hall", not "town_hall"), also
    once chosen; each choice's count of moves apart from its value ("0" then "12 moves", not "0 12")."""
    page = _new_bedford_placing(server, new_page)
    if page.locator(".composer button.choice[data-field=type]").count():
        page.click(".composer button.choice[data-value='\"place_worker\"']")
    page.wait_for_selector(".composer button.choice[data-field=space]")
    choices = page.locator(".composer button.choice")
    values = [b.evaluate("b => b.firstChild.textContent.trim()") for b in choices.all()]
    counts = choices.locator(".count").all_inner_texts()
    assert "Town Hall" in values and not [v for v in values if re.search(r"_|^[a-z]", v)], values
    assert len(counts) == len(values) and all(re.fullmatch(r"1 move|\d+ moves", c) for c in counts), counts
    assert re.search(r"\(\d+ legal moves\)", page.inner_text(".composer h4"))
    page.click(".composer button.choice[data-value='\"town_hall\"']")
    page.wait_for_selector(".composer .crumbs")
    assert page.locator(".composer .crumb").all_inner_texts() == ["space: Town Hall"]


def test_the_move_builder_counts_one_move_in_the_singular(server, new_page):
    """A Phoenicia payment built card by card down to one legal move: "(1 legal move)"."""
    actions, target = phoenicia_position_with_a_big_payment_choice()
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    page.evaluate(
        """async (actions) => {
            const { Composer } = await import('/js/compose.js');
            const c = new Composer({ submit: async () => {} });
            c.el.id = 'probe';
            document.body.prepend(c.el);
            c.setActions(actions);
        }""",
        actions,
    )
    said, cards = [], list(target["cards"])
    for _ in range(40):
        said += page.locator("#probe h4").all_inner_texts()
        if page.locator("#probe button[data-item]").count() and cards:
            page.locator(f'#probe button[data-item="{json.dumps(cards.pop(0))}"]').click()
        elif page.locator("#probe button.choice:not([data-item]):not([data-done])").count():
            field = page.locator("#probe button.choice").first.get_attribute("data-field")
            value = target
            for part in field.split("."):
                value = value[part]
            page.locator(f"#probe button.choice[data-field='{field}'][data-value='{json.dumps(value)}']").click()
        else:
            break
    assert not [s for s in said if "(1 legal moves)" in s], said
    assert [s for s in said if "(1 legal move)" in s], said


def test_a_link_not_understood_is_said_so(server, new_page):
    """"Join or watch by link" with a bad link says what is wrong beside the field; an address the
    page does not know (#/foo/bar, #/g/ without a game) says so above the lobby."""
    page = new_page(390, 844)
    page.goto(server.url + "/#/")
    for value, said in (("", "Paste a game link"), (f"{server.url}/#/join/", "no game at its end"),
                        ("https://example.com/foo", "not a game link"), ("abc def", "neither a game link nor a game id")):
        page.fill("#join-link", value)
        page.press("#join-link", "Enter")
        error = page.locator("#join-link-error")
        assert said in error.inner_text() and error.is_visible(), (value, error.inner_text())
        assert page.evaluate("location.hash") == "#/"
    for address in ("#/foo/bar", "#/g/"):
        page.goto(f"{server.url}/{address}")
        page.wait_for_selector("#banner .error")
        assert f"does not understand the link “{address}”" in page.inner_text("#banner")
        assert page.locator("form.create").count() == 1  # and the lobby is there


def test_phoenicia_says_the_discount_between_the_bid_and_the_price(server, new_page):
    """"Blue bids 33", "Blue wins City Walls for 27", then cards of 29: the log says the discount the
    rules take off the bid (the event's own parts) and the change given back."""
    page = new_page()
    said = describe_all(page, server.url, "phoenicia", [
        {"type": "auction_won", "seat": 1, "card": "City Walls", "bid": 33, "discount": 6, "price": 27},
        {"type": "development_bought", "seat": 1, "card": "City Walls", "price": 27, "cards": [10, 10, 9], "disks": 0, "change": 2},
        {"type": "auction_won", "seat": 0, "card": "Temple", "bid": 12, "discount": 0, "price": 12},
    ])
    assert [s for s, _ in said] == [
        "Blue wins City Walls with a bid of $33, less a discount of $6: the price is $27.",
        "Blue pays $27 for City Walls (cards 10, 10, and 9; 2 back in disks).",
        "Red (you) wins Temple for $12.",
    ]


def test_lobby_options_on_a_phone_keep_each_checkbox_beside_its_label(server, new_page):
    """390×844: an option's checkbox on the line of its label, not alone above it; hints say the
    default in words where the field does not show it (no `Default: "thematic"`)."""
    page = new_page(390, 844)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    # (Options of other player counts are hidden, docs/api.md "Options a lobby shows": at two
    # players Founders shows the most.)
    page.select_option("#players", "2")
    checks = page.locator("form.create .field.check:visible")
    assert checks.count() >= 3
    for i in range(checks.count()):
        box = checks.nth(i).locator("input[type=checkbox]").bounding_box()
        label = checks.nth(i).locator("label").bounding_box()
        assert label["y"] < box["y"] + box["height"] and box["y"] < label["y"] + label["height"], (box, label)
        assert label["x"] > box["x"]
    hints = " ".join(page.locator("form.create .hint").all_inner_texts())
    assert '"' not in hints and "Default: false" not in hints and "Default: thematic" not in hints.lower(), hints
    page.click("label[for=eng-goofspiel]")
    assert "Default: 6." in page.inner_text("form.create .opts")


def test_a_list_chosen_as_a_set_is_not_asked_again_when_its_order_still_differs(server, new_page):
    """Found in CI (Spanish Riverboat played by clicking, 1,500 clicks without a move): moves that
    differ only in the order of their cells ([33, 32] and [32, 33]) made the builder ask for the
    cells again after each "That's all", a crumb more each time. The cells chosen in an order a
    move has are that move's; the field is not asked again."""
    actions = [{"type": "plant", "cells": cells, "crop": crop}
               for cells in ([33, 32], [32, 33], [10, 11]) for crop in ("corn", "beet", "potato", "pumpkin")]
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    page.evaluate(
        """async (actions) => {
            const { Composer } = await import('/js/compose.js');
            window.__played = [];
            const c = new Composer({ submit: async (a) => { window.__played.push(a); } });
            c.el.id = 'probe';
            document.body.prepend(c.el);
            c.setActions(actions);
        }""",
        actions,
    )
    clicks = 0
    while not page.evaluate("window.__played.length") and clicks < 30:
        probe = page.locator("#probe")
        if probe.locator("button[data-item]").count():  # cells one at a time: 33, then 32, then that's all
            chosen = probe.inner_text()
            item = "32" if "So far: 33" in chosen else "33"
            probe.locator(f'button[data-item="{item}"]').click()
        elif probe.locator("button[data-done]").count():
            probe.locator("button[data-done]").click()
        elif probe.locator("button.choice").count():
            probe.locator("button.choice").first.click()
        else:
            probe.locator("button.act").first.click()
        clicks += 1
    crumbs = page.locator("#probe .crumb").all_inner_texts()
    played = page.evaluate("window.__played")
    assert len(played) == 1 and played[0]["cells"] == [33, 32], (played, crumbs, clicks)
    assert sum("cells" in c for c in crumbs) <= 1, crumbs


def test_a_half_built_move_survives_a_language_switch(server, new_page):
    """The header's language switch draws the table again in the other language: the move being
    built keeps its steps (a user pass: the crumbs were cleared), now worded in that language."""
    page = _new_bedford_placing(server, new_page)
    if page.locator(".composer button.choice[data-field=type]").count():
        page.click(".composer button.choice[data-value='\"place_worker\"']")
    page.wait_for_selector(".composer button.choice[data-field=space]")
    several = [b for b in page.locator(".composer button.choice[data-field=space]").all()
               if b.locator(".count").inner_text() != "1 move"]  # a step, not a whole move
    assert several
    several[0].click()
    page.wait_for_selector(".composer .crumbs")
    before = page.locator(".composer .crumb").all_inner_texts()
    assert before and before[-1].startswith("space: "), before
    page.select_option("#lang", "es")
    page.wait_for_function("document.querySelector('header nav').textContent === 'Sala'")
    page.wait_for_function("document.querySelector('.composer h3') && document.querySelector('.composer .crumbs')"
                           " && !document.querySelector('.composer .crumb').textContent.startsWith('space: ')")
    after = page.locator(".composer .crumb").all_inner_texts()
    assert len(after) == len(before) and after[-1] != before[-1], (before, after)
    assert page.locator(".composer button.choice[data-field=space]").count() == 0  # still past that step


def test_a_reload_while_the_language_loads_does_not_take_the_half_built_move(server, new_page):
    """The table being left may still reload while the new language's texts come (its watch
    reconnected, a move came): it neither takes the half-built move meant for the table drawn again
    nor draws over the page (CI saw the move builder come back empty after a switch)."""
    page = _new_bedford_placing(server, new_page)
    if page.locator(".composer button.choice[data-field=type]").count():
        page.click(".composer button.choice[data-value='\"place_worker\"']")
    page.wait_for_selector(".composer button.choice[data-field=space]")
    several = [b for b in page.locator(".composer button.choice[data-field=space]").all()
               if b.locator(".count").inner_text() != "1 move"]
    several[0].click()
    page.wait_for_selector(".composer .crumbs")
    before = page.locator(".composer .crumb").all_inner_texts()
    held: list = []
    page.route(re.compile(r"/messages\?lang=es"), lambda route: route.continue_() if held == [None] else held.append(route))
    page.select_option("#lang", "es")
    page.wait_for_function("document.querySelector('.live') && 1")
    # the old table's stream reconnects (the browser is back online) and reloads meanwhile
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(1500)
    waiting, held[:] = held[:], [None]
    for route in waiting:
        route.continue_()
    page.wait_for_function("document.querySelector('header nav').textContent === 'Sala'")
    page.wait_for_function("document.querySelector('.composer h3') && document.querySelector('.composer .crumbs')"
                           " && !document.querySelector('.composer .crumb').textContent.startsWith('space: ')")
    page.wait_for_timeout(1000)  # any draw still to come
    after = page.locator(".composer .crumb").all_inner_texts()
    assert len(after) == len(before) and after[-1] != before[-1], (before, after)
