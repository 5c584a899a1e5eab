"""Phoenicia's and New Bedford's words as an outside tester read them: a priced move never says
"for free" when a payment step follows; New Bedford's log tells every change to a player's money,
goods, buildings and ships (fees to owners, a taken Post Office, a Lighthouse move, end-of-round
income); a sale says what it pays; a final tie says what broke it."""

from __future__ import annotations

import io

from rich.console import Console
from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, render

from tablero import engines


def _game(g: engines.LocalGame, engine: str, you: int | None = 0) -> Game:
    finished = g.outcome() is not None
    return Game(id="g1", engine=engine, version=g.version, players=g.seats,
                status="GAME_STATUS_FINISHED" if finished else "GAME_STATUS_RUNNING",
                to_act=[] if finished else sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN" if i == 0 else "SEAT_KIND_BOT") for i in range(g.seats)],
                your_seat=you, outcome=g.outcome())


def _text(renderable) -> str:
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


# --- Phoenicia: a priced move chosen without its payment -------------------------------------------
def _phoenicia_priced_moves(seed: int):
    """Random games until seat 0 is offered priced moves; yields (game, action, price requested)."""
    for g, seat, legal in random_turns("phoenicia", 3, seed):
        if seat == 0:
            for a in legal:
                if a["type"] in ("buy_tool", "employ", "train", "buy_vp", "move") and "cards" not in a:
                    probe = engines.replay(list(g.events))
                    events = probe.act(0, a)
                    asked = next((e["price"] for e in events if e["type"] == "payment_requested"), 0)
                    yield _game(g, "phoenicia"), a, asked


def test_a_phoenicia_move_paid_at_the_next_step_says_its_price_not_for_free():
    seen = set()
    for seed in (1, 2, 3):
        for game, a, asked in _phoenicia_priced_moves(seed):
            label = action_label(a, game)
            if asked:
                assert "for free" not in label, (label, asked)
                assert f"costs ${asked}, paid at the next step" in label, (label, asked)
            else:
                assert "for free" in label, (label, a)
            seen.add((a["type"], bool(asked)))
            if len(seen) >= 5:
                break
    assert {("buy_tool", True), ("employ", True), ("train", True)} <= seen, seen


def test_a_phoenicia_payment_request_says_what_it_is_for():
    for g, seat, legal in random_turns("phoenicia", 3, 1):
        tool = next((x for x in legal if x["type"] == "buy_tool" and "cards" not in x), None) if seat == 0 else None
        if tool is not None:
            e = next((e for e in engines.replay(list(g.events)).act(0, tool) if e["type"] == "payment_requested"), None)
            if e is not None:
                break
    else:
        raise AssertionError("no tool to pay for in the game")
    line = describe_event(e, _game(g, "phoenicia"))
    assert line.endswith(f"must pay ${e['price']} to buy a tool for {tool['tableau'].capitalize()}."), line


# --- New Bedford: the log tells every change to a player's money, goods, buildings and ships --------
def _nb_events(seats: int, options: dict | None = None, seeds=range(1, 12)):
    for seed in seeds:
        g = engines.LocalGame("new-bedford", seats=seats, seed=seed, options=options)
        g.play_random()
        game = _game(g, "new-bedford")
        for e in g.events:
            yield game, g.event_view(e, 0)


def _first(events, test):
    return next((game, e) for game, e in events if test(e))


def test_new_bedford_fees_to_owners_are_told():
    game, e = _first(_nb_events(3), lambda e: e["type"] == "worker_placed" and e.get("fee")
                     and "take_ownership" not in e)
    owner = "you" if e["owner"] == game.your_seat else player_name_or_seat(game, e["owner"])  # "paying you a $1 fee"
    assert f"paying {owner} a ${e['fee']} fee" in describe_event(e, game)
    game, e = _first(_nb_events(1, {"captains": ["starbuck", "ahab"]}),
                     lambda e: e["type"] == "captain_worker_placed" and e.get("owner_paid"))
    # solo p.12: the Captain pays nothing, the player takes $1 from the supply
    assert f"; you take ${e['owner_paid']['money']} from the supply" in describe_event(e, game)


def test_new_bedford_a_taken_post_office_and_its_income_are_told():
    game, e = _first(_nb_events(4), lambda e: e.get("take_ownership") == "post_office")
    line = describe_event(e, game)
    owner = "you" if e["owner"] == game.your_seat else player_name_or_seat(game, e["owner"])
    assert f"takes it over from {owner}" in line and f"paying {owner} a $1 fee" in line, line
    game, e = _first(_nb_events(4), lambda e: e["type"] == "round_ended" and e.get("post_office"))
    po = e["post_office"]
    paid = "you" if po["seat"] == game.your_seat else player_name_or_seat(game, po["seat"])
    assert f"the Post Office pays {paid} ${po['money']}" in describe_event(e, game)


def test_new_bedford_a_lighthouse_move_is_told():
    game, e = _first(_nb_events(3), lambda e: e.get("move_out"))
    mo = e["move_out"]
    assert f"moves ship {mo['ship']} from space {mo['from']} out to space {mo['to']}" in describe_event(e, game)


def player_name_or_seat(game: Game, player: int) -> str:
    from tablero_client.render import player_name

    return player_name(game, player)


# --- New Bedford: a sale at the General Store or Market says what it pays ----------------------------
def _sale_labels(seeds=range(1, 10)):
    for seed in seeds:
        for g, seat, _legal in random_turns("new-bedford", 2, seed):
            if seat == 0:
                game = _game(g, "new-bedford")
                for o in (game.view.get("pending") or {}).get("options") or []:
                    if (o.get("effect") or {}).get("sale") or o["action"]["type"] == "sell_goods":
                        yield game, o, action_label(o["action"], game)


def test_new_bedford_sale_options_say_the_money_and_the_first_bonus():
    kinds = set()
    for game, o, label in _sale_labels():
        assert "no change to money or goods" not in label, label
        eff = o["effect"]
        if eff.get("sale"):
            sell = game.view["pending"]["sell"][eff["space"]]
            assert "up to +$" in label, label
            if sell["first_bonus_money"]:
                assert "(first-player bonus)" in label, label
            kinds.add("open")
        elif "gain" in eff:  # the last step: the sale is made
            money = o["net"].get("money", 0)
            if money:
                assert f"+${money}" in label, label
            kinds.add("last")
    assert kinds == {"open", "last"}, kinds


# --- New Bedford: a tie at the end says what broke it ----------------------------------------------
def test_new_bedford_a_final_tie_says_the_deciding_tie_break():
    g = engines.LocalGame("new-bedford", seats=2, seed=6)
    g.play_random()
    details = g.outcome()["details"]
    assert details[0]["total"] == details[1]["total"]
    assert details[0]["tiebreak"]["whale_tokens"] == details[1]["tiebreak"]["whale_tokens"]
    text = _text(render(_game(g, "new-bedford")))
    assert "broken by unscored money: seat 1 (you) $1, seat 2 (bot) $0" in text, text
    g = engines.LocalGame("new-bedford", seats=2, seed=2)
    g.play_random()
    d = g.outcome()["details"]
    if d[0]["total"] != d[1]["total"]:
        assert "Tie on" not in _text(render(_game(g, "new-bedford")))


def test_new_bedford_step_by_step_groups_name_spaces_and_buildings_as_the_board_does():
    """An outside tester's finding: grouped spaces read `space town_hall  (7 choices)`, `space dry_dock`."""
    from tablero_client.choose import options
    from tablero_client.play import option_label

    seen: set[str] = set()
    for g, seat, legal in random_turns("new-bedford", 1, 3, options={"captains": ["starbuck", "ahab"]}):
        if seat != 0 or len(legal) <= 24:
            continue
        game = _game(g, "new-bedford")
        path, opts = options(legal, 24)
        stack = [(path, opts)]
        while stack:
            path, opts = stack.pop()
            for o in opts:
                if len(o.actions) > 1 and path:
                    label = option_label(path, o, game)
                    seen.add(path)
                    assert "_" not in label and not label.startswith("space "), (path, label)
                    sub = options(o.actions, 1)
                    if sub[0]:
                        stack.append(sub)
    assert "space" in seen, seen


def test_a_phoenicia_discard_says_who_discards_how_many_cards():
    """An outside tester's finding: the board read `discard: seats seat 0 (you) 8, when admin`."""
    for seed in range(1, 30):
        for g, seat, legal in random_turns("phoenicia", 2, seed):
            if legal and legal[0]["type"] == "discard":
                game = _game(g, "phoenicia", seat)
                text = _text(render(game))
                n = game.view["discard"]["seats"][str(seat)]
                assert f"seat {seat + 1} (you) discards {n} card" in text, text  # numbered from 1
                assert "seats seat" not in text and "when " not in text, text
                return
    raise AssertionError("no discard in that game")


def test_phoenicia_one_card_paid_is_a_card_not_cards():
    """"Blue pays 5 for Granary (cards 5)": one production card is "card 5" ("carta 5" in Spanish)."""
    from tablero_client.render import i18n

    g = engines.LocalGame("phoenicia", seats=2, seed=1)
    game = _game(g, "phoenicia")
    one = {"type": "development_bought", "seat": 1, "card": "Granary", "price": 5, "cards": [5], "disks": 0, "change": 0}
    two = {**one, "price": 9, "cards": [5, 4]}
    for lang, single, several in (("en", "(card 5)", "(cards 5 and 4)"), ("es", "(carta 5)", "(cartas 5 y 4)")):
        i18n.set_language(lang)
        try:
            assert single in describe_event(one, game), describe_event(one, game)
            assert several in describe_event(two, game), describe_event(two, game)
        finally:
            i18n.set_language("en")


def test_new_bedford_selling_none_of_a_good_says_so_not_sell_0():
    """A sale's step that sells none of a kind of good reads "Sell no food" ("No vender comida"),
    not "Sell 0 food" ("Vender 0 de comida")."""
    from tablero_client.render import i18n

    game = _game(engines.LocalGame("new-bedford", seats=2, seed=1), "new-bedford")
    for lang, none, two in (("en", "Sell no food", "Sell 2 food"), ("es", "No vender comida", "Vender 2 de comida")):
        i18n.set_language(lang)
        try:
            assert action_label({"type": "sell_goods", "good": "food", "count": 0}, game).startswith(none)
            assert action_label({"type": "sell_goods", "good": "food", "count": 2}, game).startswith(two)
        finally:
            i18n.set_language("en")
