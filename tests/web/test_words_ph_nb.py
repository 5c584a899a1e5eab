"""The browser words Phoenicia and New Bedford as the terminal does (an outside tester's findings):
a priced move chosen without its payment says its price, never "for free"; New Bedford's log tells
fees to owners, a taken Post Office, a Lighthouse move and the Post Office's income; a General
Store sale says what it pays and its 1st bonus; a final tie shows the tie-break that decided it.
Real views and events from in-process games, worded by the page's own renderer modules."""

from __future__ import annotations

import random

from tablero.engines.core.testkit import random_turns

from tablero import engines


def _page(new_page, server):
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    return page


JS_ACTIONS = """async ([engine, items]) => {
    const r = (await import('/js/render/index.js')).rendererFor(engine);
    return items.map(([view, action]) => r.describeAction(action, { view, seat: 0, held: [0], seatNames: null }));
}"""
JS_EVENTS = """async ([engine, view, events]) => {
    const r = (await import('/js/render/index.js')).rendererFor(engine);
    const w = await import('/js/words.js');
    const ctx = { view, seat: 0, held: [0], seatNames: null };
    return events.map((e) => [r.describeEvent(e, ctx), [0, 1, 2, 3].map((s) => w.seatName(ctx, s))]);
}"""


def test_phoenicia_priced_moves_say_their_price(server, new_page):
    items, asked = [], []
    g = engines.LocalGame("phoenicia", seats=3, seed=1)
    rng = random.Random(1)
    while g.outcome() is None and len(items) < 30:
        seat = sorted(g.to_act())[0]
        legal = g.legal_actions(seat)
        if seat == 0:
            for a in legal:
                if a["type"] in ("buy_tool", "employ", "train", "buy_vp", "move") and "cards" not in a:
                    events = engines.replay(list(g.events)).act(0, a)
                    items.append([g.view(0), a])
                    asked.append(next((e["price"] for e in events if e["type"] == "payment_requested"), 0))
        g.act(seat, g.engine.random_action(g.state, seat, legal, rng))
    said = _page(new_page, server).evaluate(JS_ACTIONS, ["phoenicia", items])
    for (_, a), price, s in zip(items, asked, said, strict=True):
        if price:
            assert "for free" not in s and f"costs ${price}, paid at the next step" in s, (a, s)
        else:
            assert "for free" in s, (a, s)
    assert any(p for p in asked) and {a["type"] for _, a in items} >= {"buy_tool", "train"}


def _nb_game(seats: int, seed: int, options=None) -> engines.LocalGame:
    g = engines.LocalGame("new-bedford", seats=seats, seed=seed, options=options)
    g.play_random()
    return g


def test_new_bedford_log_tells_fees_ownership_lighthouse_and_income(server, new_page):
    page = _page(new_page, server)
    wanted = {
        "fee": (3, lambda e: e["type"] == "worker_placed" and e.get("fee") and "take_ownership" not in e),
        "take": (4, lambda e: e.get("take_ownership") == "post_office"),
        "income": (4, lambda e: e["type"] == "round_ended" and e.get("post_office")),
        "lighthouse": (3, lambda e: e.get("move_out")),
    }
    for what, (seats, test) in wanted.items():
        e, g = next((e, g) for seed in range(1, 12) for g in [_nb_game(seats, seed)] for e in g.events if test(e))
        [(line, names)] = page.evaluate(JS_EVENTS, ["new-bedford", g.view(0), [e]])
        names[0] = "you"  # the viewer's own seat as the sentence needs it ("paying you a $1 fee")
        if what == "fee":
            assert f"paying {names[e['owner']]} a ${e['fee']} fee" in line, line
        elif what == "take":
            assert f"takes it over from {names[e['owner']]}" in line and f"a ${e['fee']} fee" in line, line
        elif what == "income":
            po = e["post_office"]
            assert f"the Post Office pays {names[po['seat']]} ${po['money']}" in line, line
        else:
            mo = e["move_out"]
            assert f"moves ship {mo['ship']} from space {mo['from']} out to space {mo['to']}" in line, line


def test_new_bedford_general_store_sale_says_the_money_and_the_bonus(server, new_page):
    items, opts = [], []
    for seed in range(1, 6):
        for g, seat, _legal in random_turns("new-bedford", 2, seed):
            if seat == 0:
                view = g.view(0)
                for o in (view.get("pending") or {}).get("options") or []:
                    if (o.get("effect") or {}).get("sale") or o["action"]["type"] == "sell_goods":
                        items.append([view, o["action"]])
                        opts.append((view, o))
    said = _page(new_page, server).evaluate(JS_ACTIONS, ["new-bedford", items])
    seen = set()
    for (view, o), s in zip(opts, said, strict=True):
        assert "no change to money or goods" not in s, s
        eff = o["effect"]
        if eff.get("sale"):
            sell = view["pending"]["sell"][eff["space"]]
            assert "up to +$" in s, s
            if sell["first_bonus_money"]:
                assert "(first-player bonus)" in s, s
                seen.add("bonus")
        elif "gain" in eff and o["net"].get("money"):
            assert f"+${o['net']['money']}" in s, s
            seen.add("last")
    assert seen == {"bonus", "last"}, seen


def test_new_bedford_final_tie_shows_the_deciding_tie_break(server, new_page):
    g = _nb_game(2, 6)  # totals level and whale tokens level: unscored money decides
    d = g.outcome()["details"]
    assert d[0]["total"] == d[1]["total"] and d[0]["tiebreak"]["whale_tokens"] == d[1]["tiebreak"]["whale_tokens"]
    text = _page(new_page, server).evaluate("""async (view) => {
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const w = await import('/js/words.js');
        const ctx = { view, seat: 0, held: [0], seatNames: null };
        return [r.render(ctx).textContent, w.seatName(ctx, 0), w.seatName(ctx, 1)];
    }""", g.view(0))
    board, a, b = text
    assert f"broken by unscored money: {a} $1, {b} $0" in board, board


def test_new_bedford_whale_sale_under_way_is_told_in_words(server, new_page):
    """A ship home with whales to sell: the whaling board said `Sale: {"turn":0,"seller":1,...}` (the
    state's JSON); it says who sells what from which ship, and who may still buy."""
    for seed in range(3, 40):  # the first random game (from seed 3) that sells a whale
        g = engines.LocalGame("new-bedford", seats=2, seed=seed)
        rng = random.Random(seed)
        while g.view(None).get("sale") is None and g.outcome() is None:
            seat = sorted(g.to_act())[0]
            g.act(seat, rng.choice(g.legal_actions(seat)))
        if g.outcome() is None:
            break
    assert g.outcome() is None, "no game of seeds 3-39 sold a whale"
    sale = g.view(0)["sale"]
    board, seller, buyer = _page(new_page, server).evaluate("""async (view) => {
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const w = await import('/js/words.js');
        const ctx = { view, seat: 0, held: [0], seatNames: null };
        const el = r.render(ctx).querySelector('.whaling .note');
        return [el ? el.textContent : '', w.seatName(ctx, view.sale.seller), w.seatName(ctx, view.sale.queue[0])];
    }""", g.view(0))
    assert "{" not in board and "seller" not in board, board
    assert board.startswith(f"Sale: {seller} sells ") and f"from ship {sale['ship']}; to buy, in turn: {buyer}." in board, board
