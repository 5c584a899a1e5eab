"""What an outside acceptance pass found on the terminal's boards, on views of real games: no Python
`None` on screen, Phoenicia's introductory production cards in the own hand, Founders of Gloomhaven's
proposals numbered from 1 everywhere and squares named as the map labels them."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, i18n, render

from tablero import engines


def _game(g: engines.LocalGame, engine: str, you: int | None = 0) -> Game:
    return Game(id="g1", engine=engine, version=g.version, players=g.seats,
                status="GAME_STATUS_FINISHED" if g.outcome() is not None else "GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you,
                outcome=g.outcome())


def _text(renderable, width: int = 200) -> str:
    console = Console(record=True, width=width, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize(("engine", "seats", "options", "seen"), [
    ("riverboat", 3, None, "(taken)"),  # an opportunity space whose card was taken
    ("phoenicia", 3, {"preset_production": True}, "phase over"),  # the final screen: no step, no active seat
    ("founders-of-gloomhaven", 3, None, "roads due: "),  # a road queue with unanchored roads
])
def test_no_python_none_on_a_board(engine, seats, options, seen):
    g = engines.LocalGame(engine, seats=seats, seed=1, options=options)
    shown = False
    while True:
        g.play_random(max_steps=1)
        over = g.outcome() is not None
        if over or g.version % 3 == 0:
            for you in (0, None):
                text = _text(render(_game(g, engine, you)))
                assert "renderer failed" not in text, text
                assert "None" not in text, [line for line in text.splitlines() if "None" in line]
                shown |= seen in text
        if over:
            break
    assert shown, f"{seen!r} never shown: the case was not exercised"


def test_phoenicias_own_hand_shows_the_introductory_production_cards():
    """Option preset_production: the own hand is an introductory 5 (view: hand [], preset_cards 1), not
    empty; the others' are counted."""
    g = engines.LocalGame("phoenicia", seats=3, seed=1, options={"preset_production": True})
    view = g.view(0)
    assert view["players"][0]["hand"] == [] and view["players"][0]["preset_cards"] == 1
    text = _text(render(_game(g, "phoenicia")))
    rows = {m.group(1): line for line in text.splitlines() if (m := re.match(r"│ (\d)( \(you\))? +│", line))}
    assert "5 (introductory)" in rows["1"], text
    assert "1 card (1 introductory)" in rows["2"] and "5 (introductory)" not in rows["2"]


def _founders_vote_decided_by_tie() -> tuple[engines.LocalGame, dict]:
    g = engines.LocalGame("founders-of-gloomhaven", seats=3, seed=4)
    while g.outcome() is None:
        g.play_random(max_steps=1)
        vote = g.view(None)["vote"]
        if vote and vote["stage"] != "voting" and len(vote["tied"]) > 1 and vote["decider"] is not None:
            return g, vote
    pytest.fail("no tied vote in this game")


def test_founders_proposals_are_numbered_from_1_on_the_board_and_in_the_tie_break():
    g, vote = _founders_vote_decided_by_tie()
    decider = vote["decider"]
    game = _game(g, "founders-of-gloomhaven", decider)
    text = _text(render(game))
    names = {i: game.view["cards"][p]["name"] for i, p in enumerate(game.view["proposals"])}
    for i, name in names.items():
        assert f"{i + 1}. {name} — " in text  # the list
    tied = i18n.catalog("founders-of-gloomhaven", "en").list([f"proposal {i + 1} ({names[i]})" for i in vote["tied"]])
    assert f"tied: {tied}" in text  # the catalog's label.tied, as the page says it
    revealed = text.split("Vote: called by")[1]  # each seat's revealed vote on its own line, with its influence
    for s, x in enumerate(vote["votes"]):
        you = " (you)" if s == decider else ""
        n = 1 + x["fleeting"] + 2 * x["lasting"]  # what the totals count (the engine's vote weight)
        assert f"seat {s + 1}{you}: proposal {x['proposal'] + 1} ({names[x['proposal']]}) with {n} influence" in revealed
    labels = [action_label(a, game) for a in g.legal_actions(decider)]
    assert labels == [f"Choose proposal {i + 1} ({names[i]})" for i in vote["tied"]]


def test_founders_squares_are_named_by_the_maps_column_letters_and_row_numbers():
    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1)
    game = _game(g, "founders-of-gloomhaven")
    w = game.view["map"]["width"]
    assert w == 21
    text = _text(render(game))
    assert "    A B C D E F G H I J K L M N O P Q R S T U" in text  # the columns' labels
    row5 = next(line for line in text.splitlines() if line.startswith("  5 "))  # rows from 1
    assert len(row5) >= 4 + 2 * w
    # square 85 is row 5 (from 1), column B
    assert action_label({"type": "road", "cell": 85}, game) == "Road on square B5"
    assert action_label({"type": "upgrade", "resource": "leather", "cells": [0, 20, 21]}, game) == \
        "Upgrade to leather on squares A1, U1, A2"
    assert describe_event({"type": "road_built", "seat": 1, "cell": 85}, game) == "Seat 2 builds a road on square B5."
    for a in g.legal_actions(sorted(g.to_act())[0]):
        assert not re.search(r"square \d", action_label(a, game))


@pytest.mark.parametrize(("engine", "seats", "options"), [
    ("tic-tac-toe", 2, None), ("goofspiel", 2, None), ("riverboat", 3, None), ("phoenicia", 3, None),
    ("new-bedford", 3, None), ("founders-of-gloomhaven", 3, None), ("founders-of-gloomhaven", 1, None),
])
def test_every_legal_action_of_real_games_is_worded(engine, seats, options):
    """Each engine's renderer words every action a player is offered (the choices and the "« you:"
    lines), never the raw `type field=value` fallback."""
    from tablero_client.render import compact

    g = engines.LocalGame(engine, seats=seats, seed=2, options=options)
    seen: set[str] = set()
    while g.outcome() is None:
        seat = sorted(g.to_act())[0]
        game = _game(g, engine, seat)
        for a in g.legal_actions(seat)[:40]:
            label = action_label(a, game)  # the catalog's template
            assert label and label != compact(a) and "None" not in label and "action." not in label, (a, label)
            seen.add(a["type"])
        g.play_random(max_steps=1)
    assert len(seen) >= (1 if engine in ("tic-tac-toe", "goofspiel") else 5), seen


@pytest.mark.parametrize(("engine", "seats", "steps"), [
    ("founders-of-gloomhaven", 4, 400), ("new-bedford", 4, 140), ("phoenicia", 4, 60), ("riverboat", 4, 100),
])
def test_boards_fit_an_80_column_terminal_without_cutting_words(engine, seats, steps):
    """At 80 columns a players table too wide for the terminal is drawn turned (a column per player):
    nothing is cut to "…" (Founders' players, New Bedford's holds and buildings were); where it fits
    (New Bedford at 200 columns) the table keeps a row per player."""
    g = engines.LocalGame(engine, seats=seats, seed=1)
    g.play_random(max_steps=steps)
    game = _game(g, engine)
    narrow = _text(render(game), width=80)
    assert "…" not in narrow, [line for line in narrow.splitlines() if "…" in line]
    assert max(len(line) for line in narrow.splitlines()) <= 80
    flat = re.sub(r"[\s│┃]+", " ", narrow)
    v = game.view
    if engine == "new-bedford":
        assert re.search(r"┃ seat 3 ", narrow)  # turned: a column per player
        names = v["building_names"]
        for key, b in v["buildings"].items():
            if b.get("owner") is not None:  # its words (a name may wrap within its cell)
                assert all(word in flat for word in names.get(key, key).split()), names.get(key, key)
        wide = _text(render(game), width=200)
        assert re.search(r"│ seat 3 ", wide) and not re.search(r"┃ seat 3", wide)  # a row per player
    if engine == "founders-of-gloomhaven":
        for p in v["players"]:
            cat = i18n.catalog(engine, "en")  # races and resources by their catalog names
            assert all(cat.format(f"name.{x}") in flat for x in [p["race"], *p["resources"]])
