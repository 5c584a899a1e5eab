"""Founders of Gloomhaven and Riverboat in the terminal: printed building names whatever the view
holds, the end of the game in words, "No new proposals.", the searched pile in words."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, render
from tablero_client.render import founders_of_gloomhaven as fg

from tablero import engines

EDITION = Path(__file__).resolve().parents[2] / "engines" / "founders_of_gloomhaven" / "edition.json"


def _game(engine: str, view: dict, seats: int, you: int | None) -> Game:
    return Game(id="g1", engine=engine, version=1, players=seats, status="GAME_STATUS_RUNNING", to_act=[],
                view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(seats)], your_seat=you)


def _text(game: Game) -> str:
    console = Console(record=True, width=220, color_system=None)
    console.print(render(game))
    return console.export_text()


def test_founders_printed_names_are_the_engines():
    assert fg.PRINTED == {k: v["name"] for k, v in json.loads(EDITION.read_text())["prestige"].items()}


def test_founders_log_names_buildings_as_printed_whatever_the_view_holds():
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(None)
    game = _game("founders-of-gloomhaven", {**view, "cards": {}, "prestige": []}, 2, None)
    assert describe_event({"type": "proposals_drawn", "cards": ["foundry", "salt_barrel", "weavers_hall"]}, game) \
        == "New proposals are drawn: Foundry, Salt Barrel, and Weavers’ Hall."
    assert describe_event({"type": "proposals_drawn", "cards": []}, game) == "No new proposals."
    assert describe_event({"type": "completed", "card": "temple_great_oak"}, game) == "The Temple of the Great Oak is complete."
    assert describe_event({"type": "worker_placed", "seat": 0, "target": "grand_theater"}, game).endswith(
        "places a worker on the Grand Theater.")
    started = describe_event({"type": "game_started", "races": ["quatryl", "inox"]}, game)
    assert "seat 1 Quatryl" in started and "seat 2 Inox" in started, started


def test_founders_game_over_in_words():
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(0)
    view = {**view, "result": {"reason": "six_completions", "scores": [45, 69], "winners": [1]}}
    text = _text(_game("founders-of-gloomhaven", view, 2, 0))
    line = next(x for x in text.splitlines() if "Game over" in x)
    assert "six completions" in line and "six_completions" not in line, line
    assert "[45, 69]" not in line and "45 points" in line and "69 points" in line, line
    assert "Winner: seat 2" in line, line
    solo = engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1).view(0)
    solo = {**solo, "result": {"reason": "solo_claims_unpaid", "scores": [3], "winners": []}}
    line = next(x for x in _text(_game("founders-of-gloomhaven", solo, 1, 0)).splitlines() if "Game over" in x)
    assert "solo claims unpaid" in line and "[3]" not in line and "3 points" in line and "nobody" in line, line


def test_riverboat_searcher_sees_the_pile_in_words_and_others_nothing():
    contents = ["2-beet-corn", "2-beet-corn", "2-wheat-potato"]
    view = engines.LocalGame("riverboat", seats=2, seed=1).view(0)
    mine = _text(_game("riverboat", {**view, "search": {"seat": 0, "pile": "2-hex tiles", "contents": contents}}, 2, 0))
    assert "You search the pile of 2-hex tiles (3 tiles): 2 × beet + corn, 1 × wheat + potato" in mine, mine  # the catalog's names
    theirs = _text(_game("riverboat", {**view, "search": {"seat": 0, "pile": "2-hex tiles", "contents": None}}, 2, None))
    assert "searches the pile of 2-hex tiles" in theirs and "beet + corn" not in theirs
