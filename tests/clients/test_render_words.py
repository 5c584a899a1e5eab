"""The terminal names players and words events as people read them (an outside tester's findings):
every engine's events of real random games as sentences, New Bedford's Captains by name, no
tie-break line without a tie."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n, player_name, render

from tablero import engines

GAMES = [
    ("tic-tac-toe", 2, None),
    ("goofspiel", 3, None),
    ("new-bedford", 3, None),
    ("new-bedford", 1, {"captains": ["starbuck", "ahab"]}),
    ("new-bedford", 2, {"captains": ["stubb", "flask"]}),
    ("riverboat", 3, None),
    ("phoenicia", 3, None),
    ("founders-of-gloomhaven", 1, None),
    ("founders-of-gloomhaven", 3, None),
]
# What a raw event dump looks like: `key=value`, `trace=[step 1: ...`, `{a:1,b:2}`, snake_case words.
DUMP = re.compile(r"\w=|trace|\[step|\{\w+:|\b[a-z]+_[a-z_]+\b")


def _game(g: engines.LocalGame, engine: str, you: int | None = 0, finished: bool = False) -> Game:
    view = g.view(you)
    seats = g.seats
    return Game(id="g1", engine=engine, version=g.version, players=seats,
                status="GAME_STATUS_FINISHED" if finished else "GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()) if not finished else [], view=view,
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN" if i == 0 else "SEAT_KIND_BOT") for i in range(seats)],
                your_seat=you, outcome=g.outcome())


def _text(renderable) -> str:
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(("engine", "seats", "options"), GAMES)
def test_every_event_of_real_games_reads_as_a_sentence(engine, seats, options, lang):
    """Each event in words from the engine's catalog (no sentence in the client), in both languages."""
    i18n.set_language(lang)
    try:
        seen: set[str] = set()
        for seed in (1, 2):
            g = engines.LocalGame(engine, seats=seats, seed=seed, options=options)
            g.play_random()
            game = _game(g, engine)
            for event in g.events:
                ev = g.event_view(event, 0)
                seen.add(ev["type"])
                line = describe_event(ev, game)
                assert line.endswith((".", "…")), line
                assert not DUMP.search(line), f"{engine}: a raw dump: {line!r} for {ev}"
                assert "None" not in line and "event." not in line, line
                if options and options.get("captains"):
                    assert not re.search(rf"\b(seat|asiento) [{seats + 1}-9]", line), f"a Captain named as a seat: {line!r}"
        assert len(seen) >= 3
    finally:
        i18n.set_language("en")


def test_the_generic_words_for_an_unknown_event_are_readable():
    g = engines.LocalGame("new-bedford", seats=1, seed=1, options={"captains": ["starbuck"]})
    game = _game(g, "new-bedford")
    line = describe_event({"type": "sea_token_flipped", "player": 1, "token_kind": "sperm", "amounts": {"food": 2},
                           "trace": ["step 1: Starbuck's buildings: nothing"], "private": {"0": {"card": 3}}}, game)
    assert line == "Captain Starbuck: sea token flipped — token kind sperm; amounts 2 food (only you see: card 3)"
    assert describe_event({"type": "something_else"}, _game(engines.LocalGame("goofspiel", seats=2, seed=1),
                                                           "goofspiel")) == "Something else"


def test_captains_are_named_everywhere_the_terminal_names_a_player():
    """`play new-bedford --options '{"captains": ["starbuck", "ahab"]}'`: the Captains are players 1
    and 2 of the view, never seats: the board, the first player, building owners, ships and the
    log say "Captain Starbuck"."""
    g = engines.LocalGame("new-bedford", seats=1, seed=1, options={"captains": ["starbuck", "ahab"]})
    game = _game(g, "new-bedford")
    assert player_name(game, 0) == "seat 1 (you)"
    assert player_name(game, 1) == "Captain Starbuck" and player_name(game, 2) == "Captain Ahab"
    checked_owner = checked_first = False
    while g.outcome() is None and not (checked_owner and checked_first):
        g.play_random(max_steps=g.version + 5)
        game = _game(g, "new-bedford")
        text = _text(render(game))
        assert "renderer failed" not in text
        assert not re.search(r"seat [23]\b", text), text  # no Captain as a seat (seats numbered from 1)
        assert "Captain Starbuck" in text and "Captain Ahab" in text  # the Players table's rows
        first = game.view["first_player"]
        assert f"first player: {player_name(game, first)}" in text
        checked_first |= first != 0
        owners = {b["owner"] for b in game.view["buildings"].values() if b.get("owner") in (1, 2)}
        for o in owners:
            assert f"(owner {player_name(game, o)})" in text
            checked_owner = True
    assert checked_owner and checked_first
    picked = next(e for e in g.events if e["type"] == "whale_picked" and e.get("captain"))
    assert describe_event(picked, game).startswith(f"{player_name(game, picked['seat'])}’s ship ")
    assert describe_event(picked, game).startswith("Captain ")


def _founders_over(seats: int) -> Game:
    g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=1)
    g.play_random()
    assert g.outcome() is not None
    return _game(g, "founders-of-gloomhaven", finished=True)


def test_a_solo_founders_game_has_no_tie_break_line():
    game = _founders_over(1)
    assert game.view["result"].get("tie_break")  # the engine states its rule ...
    text = _text(render(game))
    assert "Game over" in text and "tie-break" not in text.lower()  # ... but one player has no tie
    line = describe_event({"type": "game_ended", "reason": "solo_complete", "scores": [40], "winners": [0],
                           "tie_break": "closest in turn order to the active player"}, game)
    assert line == "The game ends (solo complete). Scores: seat 1 (you) 40; winners: seat 1 (you)."


def test_a_founders_tie_break_line_only_when_the_best_score_is_shared():
    game = _founders_over(2)
    rule = "closest in turn order to the active player"
    for scores, shown in (([30, 30], True), ([31, 30], False)):
        game.view["result"] = {**game.view["result"], "scores": scores, "tie_break": rule}
        assert (f"tie-break: {rule}" in _text(render(game))) == shown


def test_founders_proposals_and_offer_show_what_their_cards_say():
    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=3)
    out = Console(width=200, record=True)
    out.print(render(_game(g, "founders-of-gloomhaven")))
    text = out.export_text()
    proposals = text.split("Proposals:")[1]
    for card in g.view(0)["proposals"]:
        name = g.view(0)["cards"][card]["name"]
        assert re.search(rf"\d\. {re.escape(name)} — needs \w+", proposals), proposals[:400]


def test_a_solo_new_bedford_start_says_the_captains_go_first():
    """The game_started event's first_player is the first seat; with Captains they move before the
    seats, as the board's "first player: Captain Starbuck" says (an outside pass read "seat 0 (you)
    goes first" above that header)."""
    g = engines.LocalGame("new-bedford", seats=1, seed=1, options={"captains": ["starbuck", "ahab"]})
    game = _game(g, "new-bedford")
    first = player_name(game, game.view["first_player"])
    said = describe_event(g.events[0], game)
    # (the viewer's own seat as the sentence needs it: "then you", was "then seat 1 (you)")
    assert first == "Captain Starbuck" and "the Captains, who move before the seats; then you." in said, said
    assert "goes first" not in said


# Python values and raw names on a board: `{'seat': 0, ...}`, `[1, 0]`, `general_store`, a raw tree.
BOARD_DUMP = re.compile(r"\{'|\[\d|\b[a-z]+_[a-z_]+\b|GAME_STATUS|type: ")


@pytest.mark.parametrize(("engine", "seats", "options"), GAMES)
def test_boards_show_no_python_values_or_raw_names(engine, seats, options):
    """An outside pass saw `Pending: {'seat': 0, 'kind': 'bonus_worker'}`, `bidders [1, 2, 0]`,
    `Setup: draft [1, 0], ...`, `general_store`, `phase setup` ... `choose_starting_goods` and
    Goofspiel as a raw tree: every board of a random game reads as words."""
    g = engines.LocalGame(engine, seats=seats, seed=2, options=options)
    while g.outcome() is None and g.version < 400:
        text = _text(render(_game(g, engine)))
        found = [text[max(0, m.start() - 40):m.end() + 40] for m in BOARD_DUMP.finditer(text)]
        assert not found, found[:5]
        g.play_random(max_steps=g.version + 3)


def test_riverboats_pending_benefit_in_words():
    g = engines.LocalGame("riverboat", seats=3, seed=2)
    game = _game(g, "riverboat")
    game = Game(**{**{f: getattr(game, f) for f in game.__slots__},
                   "view": {**game.view, "pending": {"seat": 0, "kind": "bonus_worker"}}})
    text = _text(render(game))
    assert "Pending: seat 1 (you): bonus worker" in text, text[-500:]


def test_one_is_singular(spanish):
    """Plurals by the language's rules (babel), from the catalog's `amount.` messages."""
    es = i18n.catalog("riverboat")
    assert i18n.amounts(es, {"coins": 1}) == "1 moneda" and i18n.amounts(es, {"coins": 2, "vp": 1}) == "2 monedas y 1 PV"
    en = i18n.catalog("riverboat", "en")
    assert i18n.amounts(en, {"coins": 1}) == "1 coin" and i18n.amounts(en, {"coins": 2, "vp": 1}) == "2 coins and 1 VP"


def test_a_new_event_type_needs_only_its_catalog_entry():
    """Adding an event type to an engine touches its rules and its catalog, no client file: here a
    Goofspiel event the client has never seen is worded, in both languages, from catalog entries
    alone (as if `event.prize_shown` had been added to engines/goofspiel/messages/*.json)."""
    from tablero.engines.core import messages

    g = engines.LocalGame("goofspiel", seats=2, seed=1)
    game = _game(g, "goofspiel")
    event = {"type": "prize_shown", "seat": 1, "prize": 7, "left": [1, 2]}
    for lang, template, said in (
            ("en", "{who} turns up the {prize} ({left_count, plural, one {# prize} other {# prizes}} left).",
             "Seat 2 (bot) turns up the 7 (2 prizes left)."),
            ("es", "{who} descubre el {prize} ({left_count, plural, one {queda # premio} other {quedan # premios}}).",
             "Asiento 2 (bot) descubre el 7 (quedan 2 premios).")):
        i18n.use("goofspiel", lang, {**messages.published("goofspiel", lang)["messages"], "event.prize_shown": template})
        i18n.set_language(lang)
        try:
            assert describe_event(event, game) == said
        finally:
            i18n.set_language("en")
            i18n._LOADED.pop(("goofspiel", lang), None)


def test_riverboats_boat_table_names_the_feature_it_gives(spanish):
    """A riverboat's benefit names the estate feature it gives as the thing itself ("granero y 1
    agente"), not the field's name before it ("elemento de la finca granero"), in both clients'
    catalogs' terms (`amount.feature`)."""
    g = engines.LocalGame("riverboat", seats=2, seed=5)
    text = _text(render(_game(g, "riverboat")))
    boats = text[text.index("Barcos fluviales"):]
    assert "elemento de la finca" not in boats and "granero" in boats, boats[:1500]
    assert re.search(r"│ 5 +│ 5 +│ agrimensor y 1 agente", boats), boats[:1500]
    en = i18n.catalog("riverboat", "en")
    assert i18n.amounts(en, {"feature": "any", "agents": 2}) == "any feature and 2 agents"
