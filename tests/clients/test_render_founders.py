"""The Founders of Gloomhaven terminal renderer on views of real random games (1, 2 and 4 seats)."""

from __future__ import annotations

import copy

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render
from tablero_client.render.founders_of_gloomhaven import _printed

from tablero import engines

ENGINE = "founders-of-gloomhaven"


def _game(view: dict, seats: int, you: int | None, to_act: list[int]) -> Game:
    return Game(id="g1", engine=ENGINE, version=1, players=seats, status="GAME_STATUS_RUNNING", to_act=to_act,
                view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(seats)], your_seat=you)


def _name(x: str) -> str:
    cat = i18n.catalog(ENGINE, "en")
    return cat.format(f"name.{x}") if cat.has(f"name.{x}") else x


def _text(game: Game) -> str:
    console = Console(record=True, width=220, color_system=None)
    console.print(render(game))
    return console.export_text()


def _views(seats: int, seed: int):
    g = engines.LocalGame(ENGINE, seats=seats, seed=seed)
    yield g
    for steps in (15, 60, 200, 5000):
        g.play_random(max_steps=steps)
        yield g


@pytest.mark.parametrize("seats,seed", [(1, 1), (2, 1), (2, 3), (4, 1), (4, 2)])
def test_renders_real_games(seats, seed):
    for g in _views(seats, seed):
        for you in [*range(seats), None]:
            view = g.view(you)
            text = _text(_game(view, seats, you, sorted(view["to_act"])))
            assert "renderer failed" not in text, text
            worded = i18n.catalog(ENGINE, "en").format("label.phase", {"phase": view["phase"], "text": view["phase"]})
            assert f"Phase {worded.lower()}" in text  # as the catalog words it ("site": "stall site")
            for p in view["players"]:
                assert f"{p['points']} {'pt' if p['points'] == 1 else 'pts'}" in text  # 1 pt, 2 pts
                assert f"${p['money']}" in text
                assert _name(p["race"]) in text  # the race by its catalog name ("Quatryl")
            for name in view["map"]["section_names"]:
                assert name in text
            for t in view["tiles"]:
                assert f"#{t['id'] + 1} " in text  # numbered from 1 as a person counts
                if t["owner"] is not None:
                    assert f"— seat {t['owner'] + 1}" in text  # seats numbered from 1
            for pb in view["prestige"]:
                assert pb["name"] in text
            if view["result"] is not None:
                assert "Game over" in text
            if you is not None:
                own = view["players"][you]["hand"]
                if own:
                    assert "Your hand: " + ", ".join(_printed(view, c) for c in own) in text
            else:
                assert "Your hand" not in text


@pytest.mark.parametrize("seats", [2, 4])
def test_never_shows_another_seats_hand(seats):
    g = engines.LocalGame(ENGINE, seats=seats, seed=5)
    g.play_random(max_steps=80)
    view = copy.deepcopy(g.view(0))
    # Even if a view carried another seat's hand or face-down cards, only the own seat's are shown.
    for p in view["players"][1:]:
        p["hand"] = ["zzsecrethand"]
        p["played"] = [*p["played"], {"card": "zzsecretplayed", "face_up": False}]
    text = _text(_game(view, seats, 0, view["to_act"]))
    assert "zzsecret" not in text
    for p in view["players"][1:]:
        assert f"{p['hand_size']} cards" in text
    # A spectator sees no hand at all.
    spectator = _text(_game(copy.deepcopy(view), seats, None, view["to_act"]))
    assert "zzsecret" not in spectator and "Your hand" not in spectator


def test_secret_votes_stay_hidden():
    g = engines.LocalGame(ENGINE, seats=2, seed=1)
    view = copy.deepcopy(g.view(0))
    view["vote"] = {"caller": 1, "stage": "voting", "voted": [False, True], "my_vote": None,
                    "votes": [None, {"proposal": 2, "fleeting": 7, "lasting": 9}], "tied": [], "decider": None,
                    "placer": None, "card": None}
    text = _text(_game(view, 2, 0, [0]))
    # Each seat's vote as far as seat 0 may know it: seat 1 voted, in secret; seat 0 not yet (numbered from 1).
    assert "Vote: called by seat 2" in text and "seat 2: voted (secret)" in text and "seat 1 (you): not voted yet" in text
    assert "proposal 2" not in text and "influence" not in text.split("Vote: called by")[1].split("\n\n")[0]


def test_a_revealed_vote_shows_the_influence_the_totals_count():
    """A revealed vote's influence is what the totals count, 1 + fleeting + 2 x lasting (the
    engine's vote weight): the terminal said fleeting + lasting, so the votes did not add up to
    the totals beside them (the browser had the same fault; an outside player's pass)."""
    g = engines.LocalGame(ENGINE, seats=2, seed=1)
    view = copy.deepcopy(g.view(0))
    view["vote"] = {"caller": 1, "stage": "revealed", "voted": [True, True], "my_vote": None,
                    "votes": [{"proposal": 0, "fleeting": 2, "lasting": 1}, {"proposal": 1, "fleeting": 0, "lasting": 0}],
                    "tied": [], "decider": None, "placer": None, "card": None}
    text = " ".join(_text(_game(view, 2, 0, [0])).split())
    assert "with 5 influence (1 + 2 fleeting + 2 × 1 lasting)" in text, text
    assert "with 1 influence (1 + 0 fleeting + 2 × 0 lasting)" in text, text


def test_real_vote_in_progress_hides_cast_votes():
    g = engines.LocalGame(ENGINE, seats=3, seed=4)
    checked = 0
    for _ in range(3000):
        g.play_random(max_steps=1)
        vote = g.view(None)["vote"]
        if vote and vote["stage"] == "voting" and any(vote["voted"]):
            for you in (None, *(i for i, x in enumerate(vote["voted"]) if not x)):
                view = g.view(you)
                text = _text(_game(view, 3, you, view["to_act"]))
                assert "Vote: called by" in text and "you voted for" not in text
                checked += 1
        if g.view(None)["phase"] == "over":
            break
    assert checked


def test_the_shaping_history_card_is_shown_at_the_end_and_told_in_the_log():
    """Shaping history (v8): the final result names the winner's race event card, the three blanks
    to write on it, and the buildings the winner delivered to with their city sections; the log
    tells the event in words."""
    from tablero_client.render import describe_event

    from tests.engines.founders_of_gloomhaven.test_solo_and_variants import _ending

    g, events = _ending({"shaping_history": True})
    for you in (0, 1, None):
        view = g.view(you)
        game = _game(view, 4, you, [])
        text = " ".join(_text(game).split())
        assert "Shaping history: " in text and "Quatryl event card, “Quatryl city event”" in text, text
        assert "1. their favourite building" in text and "governing body" in text
        assert "delivered to: Tavern (Riverbend, 2 delivery tokens); Watchtower (Westshore, 1 delivery token)." in text
    told = describe_event(events[-1], _game(g.view(None), 4, None, []))
    assert told == ("Shaping history: seat 1 wins with the Quatryl and receives the “Quatryl City Event” card "
                    "for Gloomhaven’s event deck."), told


def test_no_shaping_history_lines_without_the_variant():
    from tests.engines.founders_of_gloomhaven.test_solo_and_variants import _ending

    g, _ = _ending({})
    text = _text(_game(g.view(0), 4, 0, []))
    assert "Game over" in text and "Shaping history" not in text


def test_a_delivery_names_the_prestige_building():
    """The terminal's log said "Stone is delivered to building 2 (requirement 0)": it names the
    building (its place in view.prestige) as the board does."""
    import random

    from tablero_client.render import describe_event

    g = engines.LocalGame(ENGINE, seats=2, seed=1)
    rng = random.Random(1)
    found: list[dict] = []
    while not found:
        assert g.outcome() is None, "the game ended without a delivery"
        seat = sorted(g.to_act())[0]
        found = [e for e in g.act(seat, rng.choice(g.legal_actions(seat))) if e["type"] == "delivered"]
    view = g.view(None)
    said = describe_event(found[0], _game(view, 2, None, sorted(g.to_act())))
    name = view["prestige"][found[0]["building"]]["name"]
    assert said == f"{found[0]['resource'].capitalize()} delivered to {name}.", said


def test_a_vote_names_its_proposals_and_a_first_proposal_winning():
    """The terminal said "Votes revealed: 3, 1, and 0." and, when proposal 1 won, not who won (a
    winner 0 counted as no winner): it names the proposals with their influence, and the winner."""
    from tablero_client.render import describe_event

    g = engines.LocalGame(ENGINE, seats=2, seed=1)
    view = g.view(0)
    names = [_printed(view, c) for c in view["proposals"]]
    said = describe_event({"type": "votes_revealed", "votes": [], "totals": [3, 1, 0], "tied": [0], "winner": 0,
                           "placer": 1, "decider": None}, _game(view, 2, 0, [0]))
    assert said == (f"Votes revealed: {names[0]} 3 influence, {names[1]} 1 influence, and {names[2]} 0 influence; "
                    f"proposal 1 ({names[0]}) wins."), said
    # late in a game one proposal may be left: the other two totals name nothing
    one = _game({**view, "proposals": view["proposals"][:1]}, 2, 0, [0])
    said = describe_event({"type": "votes_revealed", "votes": [], "totals": [3, 0, 0], "tied": [0], "winner": 0,
                           "placer": 1, "decider": None}, one)
    assert said == f"Votes revealed: {names[0]} 3 influence; proposal 1 ({names[0]}) wins.", said


def test_a_stall_site_takes_its_article_in_english():
    """A player's pass: "Blue may place a animals stall." — now "a stall of animals" (the same
    arguments as the Spanish "un puesto de animales": no article that depends on the word)."""
    cat = i18n.catalog("founders-of-gloomhaven", "en")

    def line(resource: str) -> str:
        return cat.format("event.stall_site", i18n.fields_args(
            cat, {"type": "stall_site", "seat": 1, "resource": resource, "access": False}, lambda s: "Blue"))

    assert line("animals") == "Blue may place a stall of animals."
    assert line("wood") == "Blue may place a stall of wood."


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_stalled_end_is_explained_as_the_browser_explains_it(lang, monkeypatch):
    """An outside pass ended `play founders-of-gloomhaven --bot hard` with only `Game over (stalled)`:
    the terminal now says what the browser says (label.stalled), the safety net's end."""
    monkeypatch.setattr(i18n, "current_language", lambda: lang)
    g = engines.LocalGame(ENGINE, seats=2, seed=22)  # random play ends stalled at this seed
    g.play_random(max_steps=5000)
    assert (g.outcome() or {}).get("reason") == "stalled"
    game = _game(g.view(0), 2, 0, [])
    said = " ".join(_text(game).split())
    assert " ".join(i18n.catalog(ENGINE, lang).format("label.stalled").split()) in said, said[-800:]
