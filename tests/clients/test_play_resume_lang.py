"""The resume command `play` prints (at the start, on `q`, on Ctrl-C) keeps the language the
player asked with `--lang`: run as printed, in an environment without LANG, the seat comes back in
that language. A language taken from LANG/LC_ALL is not written: the same environment gives it again."""

from __future__ import annotations

import argparse
import re

import pytest
from tablero_client.play import resume_command

from .test_play_tmux import _line_after, _ready

NO_LOCALE = "env -u LANG -u LC_ALL -u LC_MESSAGES"


@pytest.mark.slow
def test_the_resume_command_keeps_the_language_asked_with_lang(server, tmux):
    tmux.start(f"{NO_LOCALE} python -m tablero_client --url {server.http} play tic-tac-toe --lang es")
    text = tmux.wait(_ready(1, "elige>"))
    resume = _line_after(text, "Continúas con: ")
    assert re.fullmatch(rf"tablero play --game \S+ --token \S+ --url {re.escape(server.http)} --lang es", resume), resume
    tmux.keys("q", "Enter")
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "EXITED 0" in text and _line_after(text, "continúa con: ") == resume

    tmux.start(f"{NO_LOCALE} {resume}", session="again")  # as printed, still without LANG
    again = tmux.wait(_ready(1, "elige>"), session="again")
    assert "Tu jugada" in again and "choose>" not in again
    tmux.keys("C-c", session="again")
    again = tmux.wait(lambda s: "EXITED" in s, session="again")
    assert "EXITED 130" in again and _line_after(again, "continúa con: ") == resume


class _Seat:
    game_id, token = "g1", "g1.0.secret"


def test_a_language_from_the_environment_is_not_written(monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    args = argparse.Namespace(lang=None, grpc=None, url="http://127.0.0.1:1")
    assert resume_command(args, _Seat()) == "tablero play --game g1 --token g1.0.secret --url http://127.0.0.1:1"
    args.lang = "es_ES.UTF-8"  # asked with the flag: written as the language it gave
    assert resume_command(args, _Seat()).endswith("--url http://127.0.0.1:1 --lang es")
