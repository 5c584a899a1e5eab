"""`play` in Spanish in a real terminal (tmux): --lang es (or LANG=es_ES.UTF-8) words the header,
the moves, the log and the help from the server's Spanish catalogs; at 80×24 one's own goods stay
in sight above the prompt and each New Bedford building offered says what it does."""

from __future__ import annotations

import re

import pytest

from .test_play_tmux import Tmux, _ready, play_choices

pytestmark = pytest.mark.slow


@pytest.fixture
def tmux(tmp_path):
    t = Tmux(tmp_path)
    yield t
    t.close()


def test_a_whole_tic_tac_toe_game_in_spanish(server, tmux):
    tmux.start(f"LANG=es_ES.UTF-8 python -m tablero_client --url {server.http} play tic-tac-toe")
    first = tmux.wait(_ready(1))
    assert "Tres en raya" in first and "eres asiento 0 (tú)" in first and "Poner en fila 1, columna 1" in first
    assert "Tu jugada" in first
    text = play_choices(tmux, 5)
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "Fin de la partida" in text and "EXITED 0" in text
    assert re.search(r"» v\d+ Asiento 1 \(bot\) pone O en fila \d, columna \d\.", text), text[-3000:]
    assert "« you: Poner en fila" in text and "puts" not in text


def test_new_bedford_in_spanish_at_80x24_teaches_as_it_goes(server, tmux):
    tmux.start(f"python -m tablero_client --url {server.http} --lang es play new-bedford --players 2 --width 80")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    text = play_choices(tmux, 3, timeout=120)
    assert "Traceback" not in text
    assert "Tienes:" in text  # own goods, printed just above the prompt
    tail = text[text.rindex("Tienes:"):]
    assert tail.count("\n") <= 3, tail  # in sight: the prompt follows it
    assert re.search(r"Trabajador a (Granja|Bosque|Ayuntamiento|Almacén|Tienda) — ", text), text[-3000:]
    assert "añade 2 de comida" in text or "añade 2 de leña" in text  # a building's effect beside it
    tmux.keys("?", "Enter")
    helped = tmux.wait(lambda s: "Escribe el número de una jugada" in s)
    assert "ayuda" in helped
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
