"""`play` in Spanish in a real terminal (tmux): --lang es (or LANG=es_ES.UTF-8) words the header,
the moves, the log and the help from the server's Spanish catalogs; at 80×24 one's own goods stay
in sight above the prompt and each New Bedford building offered says what it does."""

from __future__ import annotations

import re

import pytest

from .test_play_tmux import _ready, play_choices

pytestmark = pytest.mark.slow


def test_a_whole_tic_tac_toe_game_in_spanish(server, tmux):
    tmux.start(f"LANG=es_ES.UTF-8 python -m tablero_client --url {server.http} play tic-tac-toe")
    first = tmux.wait(_ready(1, "elige>"))
    assert "Tres en raya" in first and "eres asiento 1" in first and "eres asiento 1 (tú)" not in first and "Poner en fila 1, columna 1" in first
    assert "Tu jugada" in first
    text = play_choices(tmux, 5, prompt="elige>")
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "Fin de la partida" in text and "EXITED 0" in text
    assert re.search(r"» v\d+ Asiento 2 \(bot\) pone O en fila \d, columna \d\.", text), text[-3000:]
    assert "« tú: Poner en fila" in text and "puts" not in text and "choose>" not in text


def test_new_bedford_in_spanish_at_80x24_teaches_as_it_goes(server, tmux):
    tmux.start(f"python -m tablero_client --url {server.http} --lang es play new-bedford --players 2 --width 80")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    text = play_choices(tmux, 3, timeout=120, prompt="elige>")
    assert "Traceback" not in text
    assert "Tienes:" in text  # own goods, printed just above the prompt
    tail = text[text.rindex("Tienes:"):]
    assert tail.count("\n") <= 3, tail  # in sight: the prompt follows it
    assert re.search(r"Trabajador (a la Granja|al Bosque|al Ayuntamiento|al Almacén|a la Tienda) — ", text), text[-3000:]
    assert "añade 2 de comida" in text or "añade 2 de leña" in text  # a building's effect beside it
    tmux.keys("?", "Enter")
    helped = tmux.wait(lambda s: "Escribe el número de una jugada" in s)
    assert "ayuda" in helped
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


# English words the Spanish screens must not show (the commands printed to resume a seat are
# commands, not words: their lines are left out).
ENGLISH = re.compile(r"\b(the|and|you|your|ship|round|phase|players?|buildings?|workers?|waiting|choose|legal|"
                     r"places?|takes?|game|moves?|score|seat|turn|whales?|money|food|lumber|brick|space|town|"
                     r"track|bag|sale|over|winner|version|type|help|quit)\b", re.I)


def _english(screen: str) -> list[str]:
    return [line for line in screen.splitlines()
            if "tablero" not in line and "EXITED" not in line and ENGLISH.search(line)]


def test_a_whole_new_bedford_game_in_spanish_to_the_end(server, tmux):
    """A board game played to its end in Spanish (always the first option, a bot opposite): every
    screen on the way is Spanish — board, moves, log, prompts and the final scores."""
    tmux.start(f"python -m tablero_client --url {server.http} --lang es play new-bedford --players 2")
    deadline = 600
    n = 0
    text = ""
    import time

    start = time.monotonic()
    while "EXITED" not in text:
        assert time.monotonic() - start < deadline, "the game did not end in time"
        n += 1
        text = tmux.wait(_ready(n, "elige>"), timeout=120)
        if "EXITED" in text:
            break
        tmux.keys("1", "Enter")
    assert "EXITED 0" in text and "Traceback" not in text, text[-3000:]
    assert "Fin de la partida" in text or "TERMINADA" in text, text[-3000:]
    assert "elige>" in text and "« tú:" in text and "Ronda " in text
    english = _english(text)
    assert not english, "\n".join(english[:20])


@pytest.mark.parametrize(("lang", "level", "words"), [("es", "hard", "asiento 2 bot (difícil)"),
                                                      ("en", "medium", "seat 2 bot (medium)")])
def test_a_new_game_names_its_bots_level_in_words(server, tmux, lang, level, words):
    """`play --bot hard` words the bot's level in the player's language, not the wire's "bot:hard"."""
    tmux.start(f"python -m tablero_client --url {server.http} --lang {lang} play riverboat --players 3 --bot {level}")
    text = tmux.wait(_ready(1, "elige>" if lang == "es" else "choose>"))
    start = text.index("Nueva partida" if lang == "es" else "New game")
    head = " ".join(text[start:text.index("Continúas con" if lang == "es" else "You resume", start)].split())
    assert words in head and head.count(" bot (") == 2 and "bot:" not in head, head
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_a_long_list_at_80x24_keeps_the_question_and_its_first_options_in_sight(server, tmux):
    """Riverboat's extra worker (35 cells) at 80x24: the list is paged to what fits the terminal, so
    the question ("Tu jugada: ... por casilla") and option 1 are on the screen with the prompt. With a
    page of 24 they had scrolled off the top: the screen began at option 6."""
    tmux.start(f"python -m tablero_client --url {server.http} --lang es play riverboat --players 2")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    for n in range(1, 12):
        tmux.wait(_ready(n, "elige>"), timeout=120)
        visible = tmux.tmux("capture-pane", "-p", "-t", "play")  # the 24 rows on the screen, no history
        if "opciones 1-" in visible:
            break
        tmux.keys("1", "Enter")
    else:
        raise AssertionError("no list longer than a page came up")
    assert "Tu jugada:" in visible and re.search(r"^\s+1\. ", visible, re.M), visible
    assert visible.rstrip().endswith("elige>"), visible
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
