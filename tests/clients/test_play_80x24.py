"""`play` at 80x24 in a real terminal (tmux): what the others did since the player's last turn is in
sight at the prompt. A player's pass: in a four-seat New Bedford game the bots' moves were told as
they came, then the board (taller than the screen) and the choice pushed them off the top before
the player could read them."""

from __future__ import annotations

import re

import pytest

from .test_play_tmux import _prompts, _ready

# A real terminal on a loaded machine: the screen may be read between a prompt and its redraw
# (seen twice on a busy machine, never on a quiet one): run once more, named in the summary, as
# the browser tests are (tests/markers.py).
pytestmark = [pytest.mark.slow, pytest.mark.flaky(reruns=1)]


def test_the_others_moves_since_my_last_turn_are_on_the_screen_at_my_prompt(server, tmux):
    tmux.start(f"python -m tablero_client --url {server.http} play new-bedford --players 4")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    checked = listed = 0
    def settled(n: int):  # the n-th prompt, and the board drawn after the player's last move
        ready = _ready(n)
        return lambda text: ready(text) and ("« you:" not in text or "─ version" in text[text.rindex("« you:"):])

    n = 1  # the prompt awaited: counted from the screen when a key is sent ("l" brings one more)
    for _ in range(30):
        tmux.wait(settled(n), timeout=120)
        visible = tmux.tmux("capture-pane", "-p", "-t", "play")  # the 24 rows on the screen, no history
        full = tmux.screen()
        moves = []
        if n > 1 and "« you:" in full:
            since = full[full.rindex("« you:"):]
            since = since[:since.index("─ version")]  # told as they came, above the board
            moves = re.findall(r"^» (v\d+ Seat [234] \(bot\) \S+ \S+)", since, re.M)
        if n > 1 and moves:  # the bots moved since my last move (not so within a move of several steps)
            for move in moves[-3:]:
                assert f"» {move}" in visible, (move, visible)
            assert "Since your last turn:" in visible and "Your move" in visible, visible
            assert re.search(r"^\s+1\. ", visible, re.M) and visible.rstrip().endswith("choose>"), visible
            checked += 1
            if "more events above the board" in visible and not listed:  # l lists them all, wrapped
                tmux.keys("l", "Enter")
                every = re.findall(r"^» (v\d+ .{1,40})", since, re.M)
                shown = tmux.wait(lambda s, every=every: all(f"» {e}" in s[s.rindex("choose> l"):] for e in every)
                                  if "choose> l" in s else False, timeout=20)
                listed = len(every)
                assert listed > 5, shown[-3000:]
                tmux.wait(lambda s: s.rstrip().endswith("choose>"), timeout=20)  # its own prompt
            if checked >= 4 and listed:  # the list may come after the fourth check
                break
        n = _prompts(tmux.screen()) + 1  # read before the key: its echo may come later than this
        tmux.keys("1", "Enter")
    assert checked >= 4 and listed
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_the_end_screen_shows_the_scores_by_category_at_80x24(server, tmux):
    """The end screen showed each seat's total only, where the browser shows the breakdown the
    engine's outcome gives (`details`): the scores by category are there too, the main lines last, in
    sight at 80x24 (the rest above them, in the terminal's history), as the browser words them."""
    import random

    from tests.web.api_play import ApiGame

    game = ApiGame(server.http, "new-bedford", ["human", "bot"])
    game.play(random.Random(4), lambda g: False, max_moves=3000)
    outcome = game.get()["outcome"]
    tmux.start(f"python -m tablero_client --url {server.http} play --game {game.id} --token={game.tokens[0]}")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    tmux.wait(lambda s: "EXITED" in s)
    visible = tmux.tmux("capture-pane", "-p", "-t", "play")
    assert "Final scores" in visible, visible
    for label, key in (("Money points", "money_points"), ("Building points", "building_points"), ("Total", "total")):
        row = next((line for line in visible.splitlines() if line.strip().startswith(label)), None)
        assert row is not None, (label, visible)
        assert row.split()[-2:] == [str(d[key]) for d in outcome["details"]], (row, outcome["details"])
    assert max(len(line.rstrip()) for line in tmux.screen().splitlines()) <= 80


def test_a_new_game_s_first_prompt_does_not_say_since_your_last_turn(server, tmux):
    """Outside review: a brand-new game (seat 4 of New Bedford: three bots move first) told the
    bots' opening moves under "Since your last turn:" before the player had had a turn. Until the
    player's first move the heading is a neutral one; after it, "Since your last turn:"."""
    tmux.start(f"python -m tablero_client --url {server.http} play new-bedford --players 4 --seat 3")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    first = tmux.wait(_ready(1), timeout=120)
    visible = tmux.tmux("capture-pane", "-p", "-t", "play")
    assert "Since your last turn" not in first, first[-3000:]
    assert "So far:" in visible and re.search(r"^» v\d+ Seat [123] \(bot\)", visible, re.M), visible
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
