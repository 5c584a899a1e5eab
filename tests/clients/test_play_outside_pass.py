"""An outside player's pass in a real terminal (tmux), `--lang es` at 80x24: a Founders bot's card
played face up is named in the lines since one's last turn (`juega una carta boca arriba (Mejorar)`,
where it said only `juega una carta boca arriba.`), and Riverboat's end screen words its harbor boats
in Spanish (`barco 3b, capacidad 3, casilla 1, alcanzado sí`, where it said `boat 3b, capacity 3,
slot space 1, reached yes`)."""

from __future__ import annotations

import random
import re

import pytest

from tests.web.api_play import ApiGame

from .test_play_tmux import _ready

pytestmark = pytest.mark.slow


def test_a_bots_face_up_card_is_named_in_the_lines_since_my_turn(server, tmux):
    tmux.start(f"python -m tablero_client --url {server.http} --lang es play founders-of-gloomhaven --players 2")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    told: list[str] = []
    for n in range(1, 60):
        text = tmux.wait(_ready(n, "elige>"), timeout=120)
        told = [line for line in text.splitlines() if "Asiento 2 (bot) juega una carta boca arriba" in line]
        if told or "EXITED" in text:
            break
        tmux.keys("1", "Enter")
    assert told, "the bot played no card face up in 60 moves"
    assert all(re.search(r"boca arriba \((Mejorar|Comercio|Construir|Ingresos|Votar|[^)]+)\)", line) for line in told), told
    tmux.keys("q", "Enter")


def test_riverboats_end_screen_words_the_harbor_boats_in_spanish(server, tmux):
    game = ApiGame(server.http, "riverboat", ["human", "bot"])
    game.play(random.Random(4), lambda g: False, max_moves=3000)
    tmux.start(f"python -m tablero_client --url {server.http} --lang es play --game {game.id} --token={game.tokens[0]}")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    text = tmux.wait(lambda s: "EXITED" in s, timeout=60)
    assert "Puntuación final" in text and "EXITED 0" in text, text
    assert "barco " in text and "capacidad" in text, text
    for english in ("capacity", "slot space", "reached"):
        assert english not in text, (english, text)
