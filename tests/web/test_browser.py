"""The browser client end to end: real `tablero serve`, Debian's chromium, Playwright."""

from __future__ import annotations

import json
import random

from tests import plainhttp

from .conftest import ARTIFACTS, Serve


def create_in_lobby(page, url: str, engine: str, seats: list[str], options: dict[str, str] | None = None,
                    captains: list[str] | None = None) -> str:
    """Create a game by filling the lobby form (New Bedford's Captains ticked apart from the seats);
    returns the game id."""
    page.goto(url + "/#/")
    page.click(f"label[for=eng-{engine}]")
    page.select_option("#players", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    for c in captains or []:
        page.check(f"#captain-{c}")
    for label, value in (options or {}).items():
        page.get_by_label(label, exact=True).fill(value)
    page.click("form.create button[type=submit]")
    page.wait_for_selector(".table .board > *")
    return page.evaluate("location.hash").split("/")[-1]


def wait_ready(page) -> str:
    """Wait until the page offers a move or shows the final scores; returns 'move' or 'over'."""
    page.wait_for_function(
        """() => {
            const over = document.querySelector('.result:not([hidden]) .scores');
            const btn = document.querySelector('.composer button:not([disabled])');
            return over || (btn && document.querySelector('.turn .your-turn'));
        }""",
        timeout=20_000,
    )
    return "over" if page.locator(".result:not([hidden]) .scores").count() else "move"


def version(page) -> int:
    return int(page.inner_text(".table-head h1").split("move")[-1].strip())


def test_page_is_served_and_lists_the_open_games_to_join_or_watch(server, new_page):
    r = plainhttp.get(server.url + "/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert '<script type="module" src="js/app.js">' in r.text
    assert plainhttp.get(server.url + "/js/app.js").status_code == 200
    # The API still answers JSON errors for unknown routes.
    assert plainhttp.get(server.url + "/v1/nope").json()["error"]["code"] == "NOT_FOUND"
    # The folder's other files are not the page's: its README and the package's __init__.py
    for other in ("/README.md", "/__init__.py"):
        r = plainhttp.get(server.url + other)
        assert r.status_code == 404 and r.json()["error"]["code"] == "NOT_FOUND", (other, r.status_code)
    assert plainhttp.get(server.url + "/style.css").status_code == 200
    assert plainhttp.post(server.url + "/index.html").json()["error"]["code"] == "METHOD_NOT_ALLOWED"
    # A game with a seat open for a friend appears in the lobby's list, with Join and Watch.
    gid = plainhttp.post(server.url + "/v1/games", json={"engine": "goofspiel", "seats": ["human", "open"]}).json()["game"]["id"]
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(f"a[href='#/join/{gid}']")
    assert page.locator(f"a[href='#/g/{gid}']").count() == 1
    names = page.locator(".engines label strong").all_inner_texts()
    assert {"Tic-Tac-Toe", "New Bedford", "Riverboat", "Phoenicia", "Goofspiel"} <= set(names)
    # The options form is generated from the schema: Phoenicia's boolean, Riverboat's enum.
    page.click("label[for=eng-phoenicia]")
    assert page.get_by_label("Preset production").count() == 1
    page.click("label[for=eng-riverboat]")
    assert page.locator("select[name=coin_draws] option").all_inner_texts()[1:] == ["Choose", "Blind"]
    # Signing in needs a portal identity this server does not have: the page says so.
    page.click("details.portal summary")
    page.fill("#portal-token", "eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhbmEiLCJleHAiOjQxMDI0NDQ4MDB9.x")
    page.press("#portal-token", "Enter")
    page.wait_for_selector("#banner .error")
    assert "this server accepts no portal tokens (TABLERO_PORTAL_KEYS is not set)" in page.inner_text("#banner")
    assert page.locator("#sign-in-link").count() == 1


def test_tic_tac_toe_between_two_browsers_one_joining_by_link(server, new_page):
    ana = new_page()
    game_id = create_in_lobby(ana, server.url, "tic-tac-toe", ["human", "open"])
    link = ana.input_value("#invite-link")
    assert link.endswith(f"#/join/{game_id}")

    ben = new_page(390, 844)  # a phone-sized screen
    ben.goto(link)
    ben.click("#join-button")
    ben.wait_for_selector(".ttt")
    assert ben.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the table overflows a phone screen"
    ana.wait_for_selector(".seat-chip.c1 >> text=friend")  # Ana sees the seat taken, live

    moves = [(ana, 0), (ben, 3), (ana, 1), (ben, 4), (ana, 2)]  # X takes the top row
    for n, (page, cell) in enumerate(moves):
        other = ben if page is ana else ana
        wait_ready(page)
        target = page.locator(f'.ttt-cell.pickable[data-cell="{cell}"]')
        if n == 2:  # keyboard only: focus the cell and press Enter
            target.focus()
            page.keyboard.press("Enter")
        else:
            target.click()
        mark = "X" if page is ana else "O"
        # The other browser sees the move through the live stream, without reloading.
        other.wait_for_selector(f'.ttt-cell[data-cell="{cell}"].mark-{mark}')
        if n < len(moves) - 1:
            assert other.locator(".ttt-cell.pickable").count() == 9 - n - 1

    for page in (ana, ben):
        assert wait_ready(page) == "over"
        assert "Red" in page.inner_text(".result .winner")
    assert "Red (you) wins" in ana.inner_text(".result .winner")
    log = ana.inner_text(".log")
    assert "Red (you) puts X in row 1, column 1." in log
    assert "Blue puts O in row 2, column 1." in log
    assert "three in a row" in log
    ana.screenshot(path=str(ARTIFACTS / "tic-tac-toe.png"), full_page=True)
    ben.screenshot(path=str(ARTIFACTS / "tic-tac-toe-phone.png"), full_page=True)
    g = plainhttp.get(f"{server.url}/v1/games/{game_id}").json()
    g = g.get("game", g)
    assert g["outcome"]["winners"] == [0]


def play_by_clicking(page, rng: random.Random, max_moves: int) -> tuple[int, int, str]:
    """Take turns by clicking until the game ends or `max_moves` moves; returns (moves, steps, state)."""
    moves = steps = 0
    state = wait_ready(page)
    while state == "move" and moves < max_moves:
        acts = page.locator(".composer button.act:not([disabled])")
        spots = page.locator(".board .pickable")
        if spots.count() and rng.random() < 0.3:  # sometimes choose on the board itself
            before = version(page)
            spots.nth(rng.randrange(spots.count())).click()
            page.wait_for_function(
                f"() => parseInt(document.querySelector('.table-head h1').textContent.split('move')[1]) > {before}"
                " || document.querySelector('.crumbs')")
            if version(page) > before:
                moves += 1
            else:
                steps += 1
        elif acts.count():
            before = version(page)
            acts.nth(rng.randrange(acts.count())).click()
            moves += 1
            page.wait_for_function(f"() => parseInt(document.querySelector('.table-head h1').textContent.split('move')[1]) > {before}")
        else:
            choices = page.locator(".composer button.choice:not([disabled])")
            choices.nth(rng.randrange(choices.count())).click()
            steps += 1
        state = wait_ready(page)
    return moves, steps, state


def test_goofspiel_to_the_end_with_an_option_and_the_generic_renderer(server, new_page):
    page = new_page()
    create_in_lobby(page, server.url, "goofspiel", ["human", "bot"], {"Cards": "3"})
    moves, _steps, state = play_by_clicking(page, random.Random(5), max_moves=10)
    assert state == "over" and moves == 3
    table = page.inner_text(".result table.scores")
    # Goofspiel's only detail, prize points, is each seat's score again: shown once, as Score.
    assert "Score" in table and "Prize points" not in table
    page.screenshot(path=str(ARTIFACTS / "goofspiel.png"), full_page=True)


def test_phoenicia_spectator_sees_no_hand_values(server, new_page):
    out = plainhttp.post(f"{server.url}/v1/games", json={"engine": "phoenicia", "players": 2, "seats": ["human", "human"]}).json()
    gid = out["game"]["id"]
    tokens = {s["seat"]: s["token"] for s in out["seats"]}
    hands = {}
    for seat, tok in tokens.items():
        g = plainhttp.get(f"{server.url}/v1/games/{gid}", headers={"Authorization": f"Bearer {tok}"}).json()
        g = g.get("game", g)
        hands[seat] = g["view"]["players"][seat]["hand"]
    assert sum(len(h) for h in hands.values()) > 0, "nothing to hide: the test would prove nothing"

    spectator = new_page()
    spectator.goto(f"{server.url}/#/g/{gid}")
    spectator.wait_for_selector(".hand")
    assert spectator.locator(".hand .card.value").count() == 0
    assert spectator.locator(".hand .card.back").count() == sum(len(h) for h in hands.values())
    html = spectator.content()
    assert '"hand":[' not in html.replace(" ", "")  # no raw view anywhere in the page
    for seat, hand in hands.items():  # each hand shows its size, and no card value
        assert spectator.inner_text(f'.hand[data-seat="{seat}"]').strip() == f"Hand ({len(hand)}):"
    assert "You are watching this game." in spectator.inner_text(".turn")

    # Seat 0's own page shows its values and still not seat 1's.
    player = new_page()
    store = {gid: {"engine": "phoenicia", "seats": [{"seat": 0, "token": tokens[0]}], "at": 0}}
    player.add_init_script(f"localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
    player.goto(f"{server.url}/#/g/{gid}")
    player.wait_for_selector('.hand[data-seat="0"]')
    assert [int(x) for x in player.locator('.hand[data-seat="0"] .card.value').all_inner_texts()] == hands[0]
    assert player.locator('.hand[data-seat="1"] .card.value').count() == 0
    spectator.screenshot(path=str(ARTIFACTS / "phoenicia-spectator.png"), full_page=True)


def test_live_updates_resume_from_the_last_version_after_a_server_restart(new_page, tmp_path):
    db = str(tmp_path / "games.db")
    s = Serve("--db", db, log="server-restart.log")
    try:
        out = plainhttp.post(f"{s.url}/v1/games", json={"engine": "tic-tac-toe", "players": 2, "seats": ["human", "human"]}).json()
        gid = out["game"]["id"]
        tokens = {x["seat"]: x["token"] for x in out["seats"]}
        page = new_page()
        store = {gid: {"engine": "tic-tac-toe", "seats": [{"seat": 0, "token": tokens[0]}], "at": 0}}
        page.add_init_script(f"localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
        page.goto(f"{s.url}/#/g/{gid}")
        wait_ready(page)
        page.click('.ttt-cell.pickable[data-cell="4"]')
        page.wait_for_selector('.ttt-cell[data-cell="4"].mark-X')
        page.wait_for_selector(".live.live")

        s.stop()  # the stream ends (event: shutdown); the page keeps trying
        page.wait_for_selector(".live.reconnecting")
        s = Serve("--db", db, http_port=s.http_port, grpc_port=s.grpc_port, log="server-restart-2.log")
        page.wait_for_selector(".live.live", timeout=30_000)
        r = plainhttp.post(f"{s.url}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[1]}"},
                       json={"action": {"type": "place", "cell": 0}})
        assert r.status_code == 200, r.text
        page.wait_for_selector('.ttt-cell[data-cell="0"].mark-O')
        wait_ready(page)
        # Every event once: the stream resumed after the last version the page had.
        assert page.locator(".log li").count() == 3
        assert [int(v) for v in page.locator(".log li").evaluate_all("els => els.map(e => e.value)")] == [3, 2, 1]
    finally:
        s.stop()


def phoenicia_position_with_a_big_payment_choice():
    from tablero.engines.core.local import LocalGame

    g = LocalGame("phoenicia", seats=3, seed=5)
    rng = random.Random(4)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        actions = g.legal_actions(seat)
        for a in actions:
            same = [b for b in actions if {k: v for k, v in b.items() if k not in ("cards", "disks")}
                    == {k: v for k, v in a.items() if k not in ("cards", "disks")}]
            if len(a.get("cards", [])) >= 3 and len(same) > 6:
                return actions, a
        g.act(seat, g.engine.random_action(g.state, seat, actions, rng))
    raise AssertionError("no position with a payment of 3+ cards in this playthrough")


def test_payments_are_composed_card_by_card_among_legal_combinations(server, new_page):
    actions, target = phoenicia_position_with_a_big_payment_choice()
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    page.evaluate(
        """async (actions) => {
            const { Composer } = await import('/js/compose.js');
            const c = new Composer({ submit: async (a) => { window.played = a; } });
            c.el.id = 'probe';
            document.body.prepend(c.el);
            c.setActions(actions);
        }""",
        actions,
    )
    cards_left = list(target["cards"])
    item_clicks = 0
    for _ in range(40):
        if page.evaluate("window.played !== undefined"):
            break
        exact = page.locator("#probe button.act").filter(has_text="")
        acts = [json.loads(x) for x in exact.evaluate_all("els => els.map(e => e.dataset.action)")]
        if target in acts:
            page.locator("#probe button.act").nth(acts.index(target)).click()
            continue
        items = page.locator("#probe button[data-item]")
        if items.count() or page.locator("#probe button[data-done]").count():
            offered = [json.loads(x) for x in items.evaluate_all("els => els.map(e => e.dataset.item)")]
            # Every card offered leads to a legal payment (the probe only offers what some action holds).
            assert offered and all(any(o in a.get("cards", []) for a in actions) for o in offered) or not cards_left
            if cards_left:
                card = cards_left.pop(0)
                assert card in offered, (card, offered)
                page.locator(f'#probe button[data-item="{json.dumps(card)}"]').click()
                item_clicks += 1
                if item_clicks == 2:
                    page.locator("#probe").screenshot(path=str(ARTIFACTS / "payment-composer.png"))
            else:
                page.locator("#probe button[data-done]").click()
            continue
        field = page.locator("#probe button.choice").first.get_attribute("data-field")
        value = target
        for part in field.split("."):
            value = value[part]
        page.locator(f"#probe button.choice[data-field='{field}'][data-value='{json.dumps(value)}']").click()
    assert page.evaluate("window.played") == target
    assert item_clicks == len(target["cards"]) >= 3


def test_the_watch_skips_keepalives_and_replays_then_ends(server, new_page):
    """The page's watch is a Connect stream (@tablero/client): keep-alives (empty messages),
    a replayed version, then the end of the stream: the game events once each, then onEnd."""
    frames = [{"gameId": "g", "version": 1, "event": {"type": "mark_placed", "seat": 0, "cell": 4}}, {},
              {"gameId": "g", "version": 2, "event": {"type": "mark_placed", "seat": 1, "cell": 0}},
              {"gameId": "g", "version": 2, "event": {"type": "mark_placed", "seat": 1, "cell": 0}},
              {"gameId": "g", "version": 3, "event": {"type": "mark_placed", "seat": 0, "cell": 8}}]
    body = b"".join(b"\0" + len(m).to_bytes(4, "big") + m for m in (json.dumps(f).encode() for f in frames))
    body += b"\x02" + (2).to_bytes(4, "big") + b"{}"
    page = new_page()
    page.route("**/tablero.v1.GameService/WatchGame", lambda route: route.fulfill(
        status=200, headers={"content-type": "application/connect+json"}, body=body))
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    got = page.evaluate(
        """async () => {
            const { Watch } = await import('/js/sse.js');
            const seen = [];
            return await new Promise((done) => {
                const w = new Watch('g', { onEvent: (d) => seen.push([d.version, d.event.cell]),
                    onEnd: () => done({ seen, version: w.version }) });
            });
        }"""
    )
    assert got == {"seen": [[1, 4], [2, 0], [3, 8]], "version": 3}


def test_a_resume_the_log_no_longer_matches_is_reset_and_replayed(server, new_page):
    """The stream reader resumes with the hash of its last event; when the server's log no
    longer holds that event (a Redis rollback; here a hash the log never had), the server
    sends `event: reset` first: the reader drops what it had after it and takes the log's
    history again."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    got = page.evaluate(
        """async () => {
            const { Watch } = await import('/js/sse.js');
            const post = (path, body, token) => fetch(path, { method: 'POST', body: JSON.stringify(body),
                headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } })
                .then((r) => r.json());
            const g = await post('/v1/games', { engine: 'tic-tac-toe', players: 2 });
            const id = g.game.id, [x, o] = g.seats.map((s) => s.token);
            await post(`/v1/games/${id}/actions`, { action: { type: 'place', cell: 0 } }, x);
            await post(`/v1/games/${id}/actions`, { action: { type: 'place', cell: 4 } }, o);
            const seen = [];
            const resets = [];
            await new Promise((done) => {
                const w = new Watch(id, { afterVersion: 3, afterHash: 'ffffffffffffffff',
                    onReset: (v) => resets.push([v, w.version]),
                    onEvent: (d) => { seen.push([d.version, typeof d.hash]); if (d.version === 3) { w.stop(); done(); } } });
            });
            return { seen, resets };
        }"""
    )
    assert got == {"resets": [[0, 0]], "seen": [[1, "string"], [2, "string"], [3, "string"]]}


def test_open_games_lists_only_games_to_join_and_the_rest_apart_to_watch(server, new_page):
    def create(seats: list[str]) -> dict:
        return plainhttp.post(server.url + "/v1/games", json={"engine": "goofspiel", "seats": seats}).json()

    open_game = create(["human", "open"])["game"]["id"]
    full_game = create(["human", "bot"])["game"]["id"]
    taken = create(["human", "open"])["game"]["id"]
    plainhttp.post(f"{server.url}/v1/games/{taken}/join", json={}).raise_for_status()
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(f"#open-games li[data-game='{open_game}']")
    joinable = page.locator("#open-games")
    assert joinable.locator(f"a[href='#/join/{open_game}']").count() == 1
    # No game without an open seat under "Open games", whatever the reason (bots, a friend joined).
    assert "no open seat" not in page.inner_text("section[aria-labelledby=open-h]")
    for gid in (full_game, taken):
        assert joinable.locator(f"li[data-game='{gid}']").count() == 0
        assert page.locator(f"#watch-games li[data-game='{gid}'] a[href='#/g/{gid}']").count() == 1
    assert page.locator(f"#watch-games li[data-game='{open_game}']").count() == 0
    assert page.inner_text("#watch-h").startswith("Watch: games in progress, no seat open")
    assert page.locator("#watch-games").get_attribute("aria-labelledby") == "watch-h"


def test_hot_seat_playing_as_shows_the_chosen_seat_until_a_move_is_made(server, new_page):
    """Both seats held on one device: "Playing as" another seat than the one to move shows that
    seat (it used to switch straight back to the seat to move); a move hands the turn on again."""
    out = plainhttp.post(f"{server.url}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
    gid = out["game"]["id"]
    store = {gid: {"engine": "tic-tac-toe", "seats": [{"seat": s["seat"], "token": s["token"]} for s in out["seats"]],
                   "at": 0}}
    page = new_page()
    page.add_init_script(f"localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
    page.goto(f"{server.url}/#/g/{gid}")
    assert wait_ready(page) == "move"
    buttons = page.locator(".table-head button[aria-pressed]")
    assert buttons.count() == 2 and buttons.nth(0).get_attribute("aria-pressed") == "true"  # seat 0 is to move
    buttons.nth(1).click()
    page.wait_for_timeout(600)  # a refresh or two
    assert buttons.nth(1).get_attribute("aria-pressed") == "true", "the chosen seat did not hold"
    # the seat to move is named: "Waiting for your move." told the players at the screen nothing
    # (outside review; tests/web/test_hot_seat_waiting_names_the_seat.py)
    assert "Waiting for Red." in page.inner_text(".turn"), page.inner_text(".turn")
    buttons.nth(0).click()  # back to the seat to move, which moves: then the turn passes to seat 1
    wait_ready(page)
    page.locator(".composer button:not([disabled])").first.click()
    page.wait_for_function("document.querySelectorAll('.table-head button[aria-pressed=true]')[0]"
                           " === document.querySelectorAll('.table-head button[aria-pressed]')[1]")


def test_a_board_pick_that_every_remaining_move_shares_chooses_nothing(server, new_page):
    """A board piece whose value all the remaining moves have is not offered (pickable) and a click
    on it adds no step: before, each click pushed the same crumb again, so a page that clicked
    the board went round in circles (a Riverboat planting whose cells every move shared)."""
    actions = [{"type": "plant", "slot": s, "cells": [11, 4], "crop": c} for s in (0, 1) for c in ("a", "b", "c", "d")]
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    out = page.evaluate(
        """async (actions) => {
            const { Composer } = await import('/js/compose.js');
            const c = new Composer({ submit: async (a) => { window.played = a; } });
            c.setActions(actions);
            const keys = [...c.pickable()];
            c.pick('cells', JSON.stringify([11, 4]));  // shared by all 8: nothing chosen
            const after = c.chosen.length;
            c.pick('slot', '1');  // narrows to 4
            const narrowed = [c.chosen.length, c.candidates().length, [...c.pickable()]];
            c.pick('slot', '1');  // shared by all 4 now: nothing
            c.pick('crop', '"c"');  // the one move left: played
            return { keys, after, narrowed, chosen: c.chosen.length };
        }""",
        actions,
    )
    assert "cells=[11,4]" not in out["keys"] and "type=\"plant\"" not in out["keys"]
    assert {"slot=0", "slot=1", 'crop="a"'} <= set(out["keys"])
    assert out["after"] == 0
    assert out["narrowed"][:2] == [1, 4] and "slot=1" not in out["narrowed"][2]
    assert page.evaluate("window.played") == {"type": "plant", "slot": 1, "cells": [11, 4], "crop": "c"}
