"""`play` in a real terminal: tmux runs it, send-keys types the choices, capture-pane reads the screen.

A private tmux server (-L) per test, so nothing else's sessions are touched. The player always
types 1 (the first option; step-by-step groups narrow down to one legal action).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from tablero_client.play import REFRESH

ROOT = Path(__file__).resolve().parents[2]


class Tmux:
    def __init__(self, tmp: Path) -> None:
        if shutil.which("tmux") is None:
            pytest.fail("tmux is not installed: apt-get install tmux")
        self.sock = f"tablero-test-{uuid.uuid4().hex[:8]}"
        self.conf = tmp / "tmux.conf"
        self.conf.write_text("set -g history-limit 100000\nset -g default-size 200x50\n")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.sock, "-f", str(self.conf), *args], check=True,
                              capture_output=True, text=True, timeout=20).stdout

    def start(self, command: str, session: str = "play") -> None:
        env = f"cd {ROOT} && export PATH={os.path.dirname(sys.executable)}:$PATH && "
        self.tmux("new-session", "-d", "-s", session, "-x", "200", "-y", "50",
                  env + command + "; echo EXITED $?; sleep 120")

    def screen(self, session: str = "play") -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-")

    def keys(self, *keys: str, session: str = "play") -> None:
        self.tmux("send-keys", "-t", session, *keys)

    def wait(self, predicate, timeout: float = 60, session: str = "play") -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen(session)
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; the screen was:\n{text[-6000:]}")
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True, timeout=20)


def _prompts(text: str, prompt: str = "choose>") -> int:
    return text.count(prompt)


def _ready(n: int, prompt: str = "choose>"):
    """The n-th prompt is on screen and waits for input: nothing typed after the last prompt (a
    watched event may be printed after it, on the same line: "choose> » v16 ...")."""
    def check(text: str) -> bool:
        if "EXITED" in text:
            return True
        if _prompts(text, prompt) < n:
            return False
        typed = text[text.rindex(prompt) + len(prompt):].lstrip(" ")
        return not typed[:1].isdigit()
    return check


def play_choices(t: Tmux, choices: int, timeout: float = 90, prompt: str = "choose>") -> str:
    """Answer `choices` prompts with 1; returns the screen. `prompt`: the prompt's word in the
    language played ("elige>" in Spanish)."""
    text = ""
    for n in range(1, choices + 1):
        text = t.wait(_ready(n, prompt), timeout)
        if "EXITED" in text:
            return text
        t.keys("1", "Enter")
    return t.wait(lambda s: _prompts(s, prompt) >= choices and ("EXITED" in s or _ready(choices + 1, prompt)(s)), timeout)


# the `tmux` fixture (a Tmux session, closed after the test) is in conftest.py


def test_a_whole_tic_tac_toe_game(server, tmux):
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe")
    first = tmux.wait(_ready(1))
    assert "you are seat 1" in first and "Place in row 1, column 1" in first
    text = play_choices(tmux, 5)
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "Game over" in text and "EXITED 0" in text
    # The bot's moves appeared as they happened, in words.
    assert re.search(r"» v\d+ Seat 2 \(bot\) puts O in row \d, column \d\.", text), text[-3000:]
    assert "mark_placed" not in text
    assert "« you: Place in row" in text
    assert "FINISHED" in text


@pytest.mark.parametrize(("engine", "players", "marks", "choices"), [
    ("new-bedford", 3, ["Whaling track", "Town spaces", "Ocean bag", "step by step"], 14),
    ("riverboat", 3, ["Riverboats", "Opportunity spaces", "crop card", "step by step"], 10),
    ("phoenicia", 3, ["Display (development cards for auction)", "overlord: seat", "Hunting:"], 10),
])
def test_first_rounds_of_each_board_game(server, tmux, engine, players, marks, choices):
    tmux.start(f"python -m tablero_client --grpc {server.grpc} play {engine} --players {players}")
    text = play_choices(tmux, choices, timeout=120)
    assert "Traceback" not in text and "renderer failed" not in text, text[-4000:]
    for m in marks:
        assert m in text, f"{m!r} not on screen"
    assert "seat 2 bot" in text and "seat 3 bot" in text
    assert "» v" in text, "other seats' moves were not shown"
    assert text.count("« you:") >= 3, "fewer than three of my moves were played"
    # My moves in words, as the choices were (New Bedford's come from the view's options).
    mine = re.findall(r"« you: (.*)", text)
    assert not [m for m in mine if re.search(r"=|\b[a-z]+_[a-z_]+\b", m)], mine
    # The game moved on: my turns came at versions far apart (bots and I played many events).
    versions = [int(v) for v in re.findall(r"─ version (\d+) ─", text)]
    assert len(versions) >= 3 and versions == sorted(versions) and versions[-1] - versions[0] >= 10, versions
    tmux.keys("q", "Enter")
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "EXITED 0" in text and "resume with: tablero play --game" in text


def _line_after(text: str, label: str) -> str:
    """The command printed after `label` (the last time it was printed)."""
    return text[text.rindex(label) + len(label):].splitlines()[0].strip()


def test_a_friend_joins_with_the_printed_command_and_both_leave_and_resume(server, tmux):
    """`play --open 1`: the creator is told the friend's join command and their own resume command;
    `q` + Enter while waiting leaves (status 0), Ctrl-C at a prompt leaves (status 130), each after
    printing the resume command; the printed commands work as printed."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe --open 1 --seat 1")
    text = tmux.wait(lambda s: "waiting for seat 1" in s)
    gid = re.search(r"New game (\S+) of Tic-Tac-Toe", text).group(1)
    join = _line_after(text, "A friend joins with: ")
    assert join == f"tablero play --join {gid} --url {server.http}"
    resume = _line_after(text, "You resume with: ")
    assert re.fullmatch(rf"tablero play --game {re.escape(gid)} --token \S+ --url {re.escape(server.http)}", resume)

    tmux.start(join, session="friend")  # exactly as printed (`tablero` forwards the client verbs)
    friend = tmux.wait(_ready(1), session="friend")
    assert f"You joined game {gid} as seat 1" in friend
    friend_resume = _line_after(friend, "resume with: ")
    assert friend_resume.startswith(f"tablero play --game {gid} --token ") and friend_resume != resume
    tmux.keys("1", "Enter", session="friend")
    # The creator sees the friend's move in words, then gets a prompt, and presses Ctrl-C there.
    text = tmux.wait(_ready(1))
    assert "» v2 Seat 1 puts X in row 1, column 1." in text
    tmux.keys("C-c")
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "EXITED 130" in text and "Traceback" not in text
    assert _line_after(text, "You left game " + gid + "; resume with: ") == resume

    # The friend waits for the creator's move; q + Enter there leaves.
    tmux.wait(lambda s: "waiting for seat 2" in s, session="friend")
    tmux.keys("q", "Enter", session="friend")
    friend = tmux.wait(lambda s: "EXITED" in s, session="friend")
    assert "EXITED 0" in friend and _line_after(friend, "resume with: ") == friend_resume
    assert "watch stopped" not in friend and "Traceback" not in friend

    # The creator's seat is not lost: the resume command plays it again.
    tmux.start(resume, session="again")
    again = tmux.wait(_ready(1), session="again")
    assert "you are seat 2" in again and "Place in row 1, column 2" in again
    tmux.keys("q", "Enter", session="again")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s, session="again")


def test_ctrl_c_while_waiting_prints_the_resume_command(server, tmux):
    tmux.start(f"python -m tablero_client --grpc {server.grpc} play tic-tac-toe --open 1 --seat 1")
    text = tmux.wait(lambda s: "waiting for seat 1" in s)
    resume = _line_after(text, "You resume with: ")
    assert resume.endswith(f" --grpc {server.grpc}")
    time.sleep(0.5)  # the wait has begun reading the keyboard
    tmux.keys("C-c")
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "EXITED 130" in text and _line_after(text, "resume with: ") == resume
    assert "Traceback" not in text and "watch stopped" not in text


def test_quitting_a_joined_game_over_grpc_is_quiet(server, tmux):
    """After `q` over gRPC the closed channel ends the watch: that is no news for the player."""
    from tablero_client import Client

    with Client(grpc=server.grpc) as c:
        gid = c.create("tic-tac-toe", seats=["open", "human"]).game.id
    tmux.start(f"python -m tablero_client play --join {gid} --grpc {server.grpc}")
    tmux.wait(_ready(1))
    tmux.keys("q", "Enter")
    text = tmux.wait(lambda s: "EXITED" in s)
    time.sleep(1)  # anything the watch thread would print after the resume line
    text = tmux.screen()
    assert "EXITED 0" in text and f"tablero play --game {gid} --token " in text
    after = text[text.rindex("resume with: "):]
    assert "watch stopped" not in text and "CANCELLED" not in text and "Traceback" not in text, after


def test_captains_are_named_in_the_terminal(server, tmux):
    options = '{"captains": ["starbuck", "ahab"]}'
    tmux.start(f"python -m tablero_client --url {server.http} play new-bedford --options '{options}'")
    text = play_choices(tmux, 8, timeout=120)
    assert "Traceback" not in text and "renderer failed" not in text, text[-4000:]
    assert "Captain Starbuck" in text and "Captain Ahab" in text
    assert not re.search(r"seat [23]\b", text), "a Captain shown as a seat"
    assert re.search(r"» v\d+ Captain (Starbuck|Ahab) ", text), "the Captains' moves were not told by name"
    assert "trace" not in text and "[step" not in text
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_loadtest_progress_bar_and_report_in_a_terminal(server, tmux):
    tmux.start(f"python -m tablero_client --url {server.http} loadtest -c 2 -d 3")
    tmux.wait(lambda s: "loadtest ━" in s and "games " in s, timeout=30)  # the live bar
    text = tmux.wait(lambda s: "EXITED" in s, timeout=60)
    assert "EXITED 0" in text and "games finished" in text and "SubmitAction" in text
    assert re.search(r"games \d+ actions \d+ errors 0", text)


def test_a_secret_bid_made_while_the_other_seat_bid_is_played(server, tmux):
    """Simultaneous choices (Goofspiel bids): the other seat bids while this one chooses, so the
    game is a version further than the board the choice was made on. The bid is still legal, so
    it is played (an outside pass found it refused as "stale version" every round)."""
    tmux.start(f"python -m tablero_client --url {server.http} play goofspiel --open 1")
    text = tmux.wait(lambda s: "A friend joins with: " in s)
    tmux.start(_line_after(text, "A friend joins with: "), session="friend")
    tmux.wait(_ready(1), session="friend")
    tmux.wait(_ready(1))
    tmux.keys("1", "Enter")  # the creator bids first...
    tmux.wait(lambda s: re.search(r"» v\d+ Seat 1 bids in secret", s) is not None, session="friend")
    tmux.keys("1", "Enter", session="friend")  # ...then the friend, on the board from before that bid
    friend = tmux.wait(lambda s: "« you:" in s or "stale version" in s or "choose again" in s, session="friend")
    assert "« you:" in friend and "stale version" not in friend, friend[-3000:]
    # Both bids were played: the round was scored and the next one asks both again.
    tmux.wait(_ready(2), session="friend")
    for session in ("play", "friend"):
        tmux.keys("q", "Enter", session=session)


def test_a_bots_opening_move_is_told_before_the_first_prompt(server, tmux):
    """`play tic-tac-toe --seat 1`: the bot moved first, as the game was created; that move is told in
    words like the later ones, before the player's first choice."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe --seat 1")
    text = tmux.wait(_ready(1))
    before = text[:text.index("choose>")]
    assert "» v1 The game starts: seat 1 (bot) plays X, seat 2 (you) plays O." in before, before[-2000:]
    assert re.search(r"» v2 Seat 1 \(bot\) puts X in row \d, column \d\.", before), before[-2000:]
    assert "type a number from 1 to 8, ? for help, or q to quit\n" in before  # what may be typed (no step to go back to)
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def _boards(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"─ version (\d+) ─", text)]


def test_a_seat_waiting_for_others_sees_the_board_once_per_pause(server, tmux):
    """A seat not to act is shown the board as it stands when the others pause (not only at its own
    turn), once per version: no redraw while nothing happens."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe --open 1 --seat 1")
    # the whole board drawn (a loaded machine can show its first lines before the rest)
    text = tmux.wait(lambda s: "─ version 1 ─" in s and "waiting for seat 1" in s[s.index("─ version 1 ─"):])
    board = text[text.index("─ version 1 ─"):]
    assert "to act: seat 1" in board and "you are seat 2" in board and "waiting for seat 1" in board
    assert re.search(r"· +· +·", board), board  # the empty board (numbers only where one is to type)
    time.sleep(REFRESH + 2)  # a look at the game with no news: no new board
    assert _boards(tmux.screen()) == [1]
    tmux.start(_line_after(text, "A friend joins with: "), session="friend")
    tmux.wait(_ready(1), session="friend")
    tmux.keys("1", "Enter", session="friend")  # X in cell 0: the creator's turn, board v2 with a prompt
    tmux.wait(_ready(1))
    tmux.keys("1", "Enter")  # O in cell 1: waiting for the friend again
    text = tmux.wait(lambda s: "─ version 3 ─" in s)
    assert _boards(text) == [1, 2, 3], _boards(text)
    after = text[text.index("─ version 3 ─"):]
    assert "to act: seat 1" in after and re.search(r"X +O +·", after), after
    # "waiting for" once per board, under it (not also before it).
    assert text.count("waiting for seat 1") == 2, text[-3000:]
    for session in ("play", "friend"):
        tmux.keys("q", "Enter", session=session)


def _two_people_game(server, moves):
    """A tic-tac-toe game of two human seats with `moves` (cells, X first) played: (id, tokens)."""
    from tablero_client import Client

    with Client(rest=server.http) as c:
        created = c.create("tic-tac-toe", seats=["human", "human"])
        gid, tokens = created.game.id, [created.token(0), created.token(1)]
        for i, cell in enumerate(moves):
            c.act(gid, tokens[i % 2], {"type": "place", "cell": cell})
    return gid, tokens


def test_a_resumed_seat_is_told_the_moves_made_while_it_was_away(server, tmux):
    """`play --game ID --token T` (and coming back after q): the moves since the seat's own last
    one are told, in words, before its prompt (an outside pass saw the board change untold)."""
    gid, tokens = _two_people_game(server, [0, 3, 1, 4])
    tmux.start(f"python -m tablero_client --url {server.http} play --game {gid} --token={tokens[0]}")
    text = tmux.wait(_ready(1))
    before = text[:text.index("choose>")]
    assert "While you were away:" in before, before[-2000:]
    assert "» v5 Seat 2 puts O in row 2, column 2." in before, before[-2000:]
    assert "» v3 " not in before and "» v4 " not in before  # my own move, and what came before it
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_my_own_results_are_told_after_my_move_and_before_the_board(server, tmux):
    """What my move brought about for my seat (here: the win) is told, after "« you: ..." and not as
    a second copy of my move; the game over board comes after them."""
    gid, tokens = _two_people_game(server, [0, 3, 1, 4])
    tmux.start(f"python -m tablero_client --url {server.http} play --game {gid} --token={tokens[0]}")
    tmux.wait(_ready(1))
    tmux.keys("1", "Enter")  # cell 2: three in a row
    text = tmux.wait(lambda s: "EXITED" in s)
    after = text[text.index("« you: Place in row 1, column 3"):]
    assert re.search(r"» v7 Seat 1 \(you\) has three in a row and wins\.", after), after
    assert "» v6 " not in text  # my move is told once, as "« you"
    assert after.index("» v7") < after.index("FINISHED") and "EXITED 0" in after


def test_messages_come_in_order_my_move_the_replies_the_board_the_prompt(server, tmux):
    """After my move: my move line, the others' replies, the board, then the prompt's hint (an outside
    pass saw "« you" after the bot's reply and a reply after the hint)."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe")
    play_choices(tmux, 3)
    text = tmux.screen()
    for mine in list(re.finditer(r"« you: .*", text))[:2]:
        rest = text[mine.end():]
        reply = re.search(r"» v\d+ Seat 2 \(bot\) puts O", rest)
        assert reply, rest[:2000]
        board, hint = rest.index("─ version"), rest.index("type a number")
        assert reply.start() < board < hint, rest[:2000]
        assert "» v" not in rest[board:hint], rest[:2000]
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_the_numbers_on_the_tic_tac_toe_board_are_the_numbers_to_type(server, tmux):
    """An outside pass typed 5 for the board's square 5 and played elsewhere (the board showed cells
    0-8, the choices were numbered 1.. over the empty squares): at my turn each empty square shows
    the number of the choice that plays there, and the choices name squares by row and column."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe --seat 1")
    text = tmux.wait(_ready(1))
    board = text[text.rindex("─ version"):text.rindex("Your move")]
    grid = [line.split() for line in board.splitlines()[2:5]]
    assert len(grid) == 3 and all(len(row) == 3 for row in grid), board
    choices = re.findall(r"^\s+(\d)\. Place in (row \d, column \d)$", text, re.M)
    assert len(choices) == 8, text[-2000:]
    for n, label in choices:
        r, c = (int(d) for d in re.findall(r"\d", label))
        assert grid[r - 1][c - 1] == n, (n, label, grid)
    assert sum(cell.isdigit() for row in grid for cell in row) == 8
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_a_list_longer_than_the_page_is_shown_a_page_at_a_time(server, tmux):
    """`--page 4`: nine squares are listed four at a time (n: next page), numbered throughout; the
    number typed plays that option even when it is on another page than the first."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe --page 4")
    text = tmux.wait(_ready(1))
    assert "   4. Place in row 2, column 1" in text and "   5. " not in text, text[-2000:]
    assert "options 1-4 of 9" in text and "n or p for the next or previous page" in text
    tmux.keys("n", "Enter")
    text = tmux.wait(lambda s: "options 5-8 of 9" in s)
    assert "   5. Place in row 2, column 2" in text
    tmux.keys("5", "Enter")
    text = tmux.wait(lambda s: "« you:" in s)
    assert "« you: Place in row 2, column 2" in text
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_a_seat_waiting_through_a_server_restart_is_told_the_next_move(tmp_path, tmux):
    """The server stops for longer than the SDK's retries while a seat waits, and comes back (same
    SQLite file): the player is told it cannot be reached, then the other seat's next move in
    words, as before; the watch does not give up."""
    from tablero_client import Client

    from tests.server.support import ServerProcess

    with ServerProcess({"TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "games.db")}) as s:
        with Client(rest=s.http) as c:
            created = c.create("tic-tac-toe", seats=["human", "human"])
            gid, tokens = created.game.id, [created.token(0), created.token(1)]
        tmux.start(f"python -m tablero_client --url {s.http} play --game {gid} --token={tokens[1]}")
        tmux.wait(lambda t: "waiting for seat 1" in t)
        s.terminate()
        tmux.wait(lambda t: "cannot be reached" in t, 30)
        time.sleep(4)  # well past the SDK's own retries
        s.start()
        with Client(rest=s.http) as c:
            c.act(gid, tokens[0], {"type": "place", "cell": 4})
        text = tmux.wait(lambda t: "» v2" in t, 30)
        assert "watch stopped" not in text, text[-2000:]
        assert "in touch with the server again" in text
        tmux.keys("q", "Enter")


def test_a_move_typed_while_the_server_is_away_is_played_once_it_is_back(tmp_path, tmux):
    """An outside pass typed its move after the server stopped: the client said "nothing you
    played is lost", then asked for the move again once the server was back (the move was
    dropped). It is sent again now, with its own request id, so it is played once."""
    from tablero_client import Client

    from tests.server.support import ServerProcess

    with ServerProcess({"TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "games.db")}) as s:
        with Client(rest=s.http) as c:
            created = c.create("tic-tac-toe", seats=["human", "human"])
            gid, tokens = created.game.id, [created.token(0), created.token(1)]
        tmux.start(f"python -m tablero_client --url {s.http} play --game {gid} --token={tokens[0]}")
        tmux.wait(_ready(1))
        s.terminate()
        tmux.keys("5", "Enter")  # the centre
        tmux.wait(lambda t: "cannot be reached" in t, 30)
        time.sleep(4)  # well past the SDK's own retries
        s.start()
        text = tmux.wait(lambda t: "« " in t, 30)
        with Client(rest=s.http) as c:
            game = c.game(gid)
        assert game.version == 2 and game.view["board"][4] == 0, text[-2500:]  # seat 0's mark
        assert text.count("« ") == 1, text[-2500:]  # played once
        tmux.keys("q", "Enter")


def test_garbage_pasted_at_the_prompt_is_asked_again(server, tmux):
    """An outside tester's finding: '²' (a digit to str.isdigit, not to int) ended `play` in a traceback,
    with no resume command."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe")
    tmux.wait(_ready(1))
    for garbage in ("²", "①", "1²", "٣x", "\x1b[200~5\x1b[201~junk", "9" * 5000):
        tmux.keys("-l", garbage)
        tmux.keys("Enter")
    text = tmux.wait(lambda s: s.count("type a number from 1 to 9") >= 7 or "EXITED" in s)
    assert "Traceback" not in text and "EXITED" not in text, text[-3000:]
    tmux.keys("5", "Enter")
    text = tmux.wait(lambda s: "« you: Place in row 2, column 2" in s and _ready(2)(s))
    tmux.keys("q", "Enter")
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "EXITED 0" in text and "resume with: tablero play --game" in text


def test_a_whole_game_in_a_terminal_that_is_not_utf8(server, tmux):
    """An outside tester's finding: with an ASCII locale (LC_ALL=C, no UTF-8 coercion) `play` ended
    in a UnicodeEncodeError traceback at the first `»` line; then `«` and `·` came out as `?`."""
    tmux.start(f"LC_ALL=C LANG=C PYTHONCOERCECLOCALE=0 PYTHONUTF8=0 python -m tablero_client --url {server.http} "
               "play tic-tac-toe")
    play_choices(tmux, 5)
    text = tmux.wait(lambda s: "EXITED" in s)
    assert "Traceback" not in text and "EXITED 0" in text, text[-3000:]
    assert ">> v1 The game starts" in text and "<< you: Place in row" in text and "Game over" in text
    assert "?" not in text.replace("? ", ""), text[-3000:]


def test_verbs_print_plain_text_to_an_ascii_output(server):
    from tests.clients.conftest import cli

    with_ascii = {"PYTHONIOENCODING": "ascii"}
    created = json.loads(cli("--url", server.http, "create", "riverboat", "--seats", "human,bot", "--json").stdout)
    gid, token = created["game"]["id"], created["seats"][0]["token"]
    cli("--url", server.http, "bot", gid, f"--token={token}", "--quiet", timeout=120)
    for verb in (["watch", gid], ["show", gid], ["bot", gid, f"--token={token}"]):
        p = cli("--url", server.http, *verb, check=False, env=with_ascii)
        assert p.returncode == 0 and "Traceback" not in p.stderr, (verb, p.stderr[-2000:])


def test_the_board_is_drawn_to_the_terminal_width_after_a_resize(server, tmux):
    """An outside tester's finding: the width was read once at the start, so after narrowing the
    terminal every board was drawn at the old width and wrapped into a mess."""
    tmux.start(f"sleep 1; python -m tablero_client --url {server.http} play new-bedford --players 2")
    tmux.tmux("resize-window", "-t", "play", "-x", "160", "-y", "50")
    first = tmux.wait(_ready(1))
    assert "┃ player       ┃ $ ┃ lumber ┃" in first  # wide enough for the players table as it is
    tmux.tmux("resize-window", "-t", "play", "-x", "60", "-y", "50")
    time.sleep(0.5)
    text = play_choices(tmux, 2)
    assert "Traceback" not in text and "EXITED" not in text, text[-3000:]
    lines = text.splitlines()  # -J joins what the terminal wrapped: a line too wide for it is long here
    last = lines[max(i for i, line in enumerate(lines) if "─ version " in line):]
    assert len(last[0].rstrip()) <= 60, last[0]  # the rule over the board
    heavy = [line.rstrip() for line in last if line.startswith(("┏", "┃", "┡"))]  # the players table
    assert heavy and max(len(line) for line in heavy) <= 60, "\n".join(last)
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)


def test_words_typed_in_a_long_list_find_the_move(server, tmux):
    """A long list (Founders places a stall or a prestige building among ~290 squares, 14 a page)
    had no way to a square but paging: words typed now find the move. One move holding them is
    played; several are listed alone with their numbers; none is said."""
    tmux.start(f"python -m tablero_client --url {server.http} play tic-tac-toe --page 4")
    text = tmux.wait(_ready(1))
    assert "or words to find a move" in text, text[-1500:]
    tmux.keys("row 3, column 2", "Enter")  # on the third page, not shown
    text = tmux.wait(lambda s: "« you:" in s)
    assert "« you: Place in row 3, column 2" in text, text[-2000:]
    tmux.wait(_ready(2))
    tmux.keys("zzz", "Enter")
    text = tmux.wait(lambda s: "no move listed holds “zzz”" in s)
    tmux.keys("column 3", "Enter")
    text = tmux.wait(lambda s: "moves hold “column 3”" in s)
    listed = re.findall(r"^\s+(\d)\. Place in (row \d, column 3)$", text[text.rindex("zzz"):], re.M)
    assert 2 <= len(listed) <= 3, text[-2000:]
    tmux.keys(listed[-1][0], "Enter")
    text = tmux.wait(lambda s: s.count("« you:") >= 2)
    assert f"« you: Place in {listed[-1][1]}" in text, text[-2000:]
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
