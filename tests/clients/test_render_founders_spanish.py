"""Founders of Gloomhaven's terminal board in Spanish says nothing in English. Found by playing
`tablero play founders-of-gloomhaven --lang es`: the players table said `6 cards`, `2 pts`,
`3 free`, the hand listed `recruit, trade, upgrade`, the proposals `Scholars' Library — needs
books + knowledge, 2 pts, I3 grey, worker: 1 fleeting` and the setup line `Setup: drafting order
…; resources left: plant, population; placing order …`."""

from __future__ import annotations

import dataclasses
import io
import re

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render

import engines
from engines.core.testkit import random_turns

ENGLISH = re.compile(r"\b(cards?|pts|needs|worker|free|ACTIVE|face down|Setup|drafting order|resources left|"
                     r"placing order|placed|value|discount|empty|recruit|trade|upgrade|build|vote|income|"
                     r"fleeting|lasting|money|plant|population|wood|stone|clay|Tied|decided|To be placed|Chosen|proposal|"
                     r"Solo|cycle|costs|slot|Game over|Scores|Winners?|points?)\b")


def _game(g, you: int = 0) -> Game:
    return Game(id="g1", engine="founders-of-gloomhaven", version=g.version, players=g.seats,
                status="GAME_STATUS_RUNNING", to_act=sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN" if i == 0 else "SEAT_KIND_BOT") for i in range(g.seats)],
                your_seat=you, outcome=None)


def _text(renderable) -> str:
    console = Console(record=True, width=240, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _english_lines(text: str) -> list[str]:
    # Prestige buildings keep their printed (English) names, as in the browser client: drop them.
    # … and money is `7$` in Spanish, never `$7`; a list is words, not `[metal]`
    return [line for line in text.splitlines()
            if ENGLISH.search(re.sub(r"\d+\. [A-Z][\w' ]+ —", "", line)) or re.search(r"\$\d|\[\w", line)]


def test_the_founders_board_in_spanish_has_no_english_words():
    before = i18n.current_language()
    i18n.set_language("es")
    found: list[str] = []
    try:
        for seed, seats in ((1, 2), (2, 2), (3, 1)):  # one solo game: its costs line
            for n, (g, _seat, _legal) in enumerate(random_turns("founders-of-gloomhaven", seats, seed)):
                vote = g.view(0).get("vote")  # every vote on the way: tied, decided, placed
                if n % 15 == 0 or (isinstance(vote, dict) and vote.get("stage") != "voting"):
                    found += _english_lines(_text(render(_game(g))))
                if n > 400:
                    break
        for seats in (2, 1):  # the final board: the result line
            g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=4)
            g.play_random()
            game = dataclasses.replace(_game(g), status="GAME_STATUS_FINISHED", to_act=[], outcome=g.outcome())
            text = _text(render(game))
            assert "Fin de la partida" in text
            found += _english_lines(text)
    finally:
        i18n.set_language(before)
    assert not found, "\n".join(sorted(set(found))[:25])
