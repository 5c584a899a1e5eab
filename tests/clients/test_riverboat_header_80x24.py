"""Riverboat's board head in a real terminal at 80x24 (tmux): "Round 1  phase draft  first player:
seat 1  crop card: —  cards left this round: 0" was one text wrapped anywhere, so the number of
crop cards left went alone to the next line. The head now breaks only between its parts (the
crop cards left said with the crop card), each line within the 80 columns."""

from __future__ import annotations

import re

import pytest

from .test_play_tmux import _ready

pytestmark = [pytest.mark.slow, pytest.mark.flaky(reruns=1)]

HEAD = {"en": ("Round ", "crop card:", "this round"), "es": ("Ronda ", "carta de cultivo:", "esta ronda")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_riverboat_head_keeps_each_number_with_its_words_at_80_columns(server, tmux, lang):
    tmux.start(f"python -m tablero_client --url {server.http} --lang {lang} play riverboat --players 4")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    tmux.wait(_ready(1, "elige>" if lang == "es" else "choose>"), timeout=120)
    lines = tmux.screen().splitlines()
    start, card, end = HEAD[lang]
    at = max(i for i, line in enumerate(lines) if line.startswith(start))
    head = lines[at:at + 3]
    last = next(i for i, line in enumerate(head) if end in line)  # the crop cards left this round
    head = head[:last + 2]
    assert not any(re.fullmatch(r"\s*\d+\)?\s*", line) for line in head), head  # no number alone
    head = head[:last + 1]
    assert all(len(line) <= 80 for line in head), head
    assert card in head[-1], head  # the crop card's part unbroken
    assert re.search(r"\(\D*\d+ [^)]*\)$", head[-1]), head  # "(0 left this round)": the number with its words
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
