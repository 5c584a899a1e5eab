"""`tablero play`: a whole game in the terminal, against bots or people.

The view is drawn with rich (board-game renderers in render/), the choice is read with
prompt_toolkit; a background watch prints the other players' moves, in words, as they happen.

Leaving: `q` (or `quit`, `exit`) + Enter at a prompt or while waiting for others, or Ctrl-D, exits
with status 0; Ctrl-C exits with status 130. Each prints the command that resumes the seat first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import queue
import re
import shlex
import shutil
import sys
import threading
import time
import uuid
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.patch_stdout import patch_stdout
from rich.console import Console
from rich.markup import escape

from ._plain import PlainStdout
from .choose import Option, options
from .client import Client, Seat
from .errors import Aborted, TableroError, Unavailable
from .models import Event, Game
from .render import (
    action_label,
    describe_event,
    follow,
    i18n,
    messages,
    outcome_text,
    render,
    seats_args,
    shown_seat,
    step_label,
    words,
)

QUIT_WORDS = ("q", "quit", "exit")
BACK_WORDS = ("b", "back", "0")
REFRESH = 5.0  # seconds between looks at the game while waiting, when no event came
RECONNECT = 2.0  # seconds between tries to watch again while the server cannot be reached
SETTLE = 1.0  # seconds without news after which a waiting player is shown the board as it stands
TOLD_AT_START = 30  # at most this many of the moves made before a new or joined seat's first look are told


class Quit(Exception):
    pass


class Shared:
    """What the main loop and the watcher thread share: the latest view (names in event lines)
    and whether the player is leaving (then the watcher is silent)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.leaving = threading.Event()
        self.down = False  # the server could not be reached (said once, by whoever found it first)
        # Held by the main thread while its move is sent and told, so the others' replies come after
        # "« you: ..."; held by the watcher while it tells an event.
        self.telling = threading.Lock()
        self.told = game.version  # the last version the watcher has told (or passed over)
        self.own_moves: set[int] = set()  # versions at which the player's own moves start
        # What was told since the player's own last move, (version, line): shown again above the
        # choice when a tall board has pushed those lines off an 80x24 screen.
        self.since: list[tuple[int, str, bool]] = []  # (version, line, whether a seat acted)
        # Whether the player has had a turn: until then what was told is no "since your last turn"
        # (a new game's bots' opening moves are told under a neutral heading).
        self.had_turn = False

    def lost(self, con: Console, e: Exception) -> None:
        """The watch or a look at the game found the server unreachable: told once."""
        if not self.down:
            con.print(f"[yellow]{escape(T('play.unreachable', {'why': str(e)[:120]}))}[/yellow]")
            self.down = True

    def back(self, con: Console) -> None:
        """The server answered again: told once, if it was lost."""
        if self.down:
            self.down = False
            con.print(f"[green]{escape(T('play.reachable'))}[/green]")

    def told_up_to(self, version: int, timeout: float = 2.0) -> None:
        """Wait (a little) until the watcher has told the events up to `version`: the board drawn
        next comes after them, not between them and the prompt."""
        deadline = time.monotonic() + timeout
        while self.told < version and time.monotonic() < deadline and not self.leaving.is_set():
            time.sleep(0.02)


def T(key: str, args: dict[str, Any] | None = None) -> str:  # noqa: N802 - the platform's words
    """A platform message (engines/core/messages: `play.*`) in the language in use."""
    cat = i18n.catalog("tablero") or i18n.Catalog({}, i18n.current_language())
    return cat.format(key, args)


def _server_flag(args: argparse.Namespace) -> str:
    return f"--grpc {shlex.quote(args.grpc)}" if args.grpc else f"--url {shlex.quote(args.url)}"


def resume_command(args: argparse.Namespace, seat: Seat) -> str:
    """The command that plays this seat again (a token starting with '-' is written `--token=...`).
    A language asked with `--lang` goes with it (as the language it gave: `es_ES` -> `es`); one taken
    from LANG/LC_ALL does not: the same environment gives it again."""
    token = shlex.quote(seat.token)
    tok = f"--token={token}" if token.startswith("-") else f"--token {token}"
    lang = f" --lang {shlex.quote(i18n.language(args.lang))}" if getattr(args, "lang", None) else ""
    return f"tablero play --game {shlex.quote(seat.game_id)} {tok} {_server_flag(args)}{lang}"


def join_command(args: argparse.Namespace, game_id: str) -> str:
    """The command a friend runs to claim an open seat of the game and play it."""
    return f"tablero play --join {shlex.quote(game_id)} {_server_flag(args)}"


def _players(args: argparse.Namespace, lo: int, hi: int) -> int:
    """--players, else the engine's smallest table that still has a seat for each --open seat and,
    when --bot names a level, for a bot: `play new-bedford --bot hard` made a solo game without any
    bot, and `play new-bedford --open 1` was refused (New Bedford's smallest table is one seat)."""
    if args.players:
        return args.players
    wanted = 1 + max(getattr(args, "open", 0), 0) + (1 if getattr(args, "bot", None) else 0)
    return max(lo, min(hi, wanted))


def _setup(args: argparse.Namespace, c: Client, con: Console) -> tuple[Seat, bool]:
    """The seat played, and whether it is new to the player (a game just created or joined: the moves
    made so far are told first)."""
    from .cli import _json_arg, usage_error

    if args.join:
        seat = c.join(args.join, args.token)
        con.print(f"[bold]{escape(T('play.joined', {'game': seat.game_id, 'seat': shown_seat(seat.seat)}))}[/bold]")
        con.print(escape(T("play.keep_this", {"command": resume_command(args, seat)})), soft_wrap=True)
        return seat, True
    if args.game:
        if not args.token:
            raise usage_error(T("play.need_token"))
        return c.seat(args.game, args.token), False
    if not args.engine:
        raise usage_error(T("play.need_engine"))
    eng = c.engine(args.engine)
    players = _players(args, eng.min_seats, eng.max_seats)
    if not eng.min_seats <= players <= eng.max_seats:
        span = f"{eng.min_seats}" if eng.min_seats == eng.max_seats else f"{eng.min_seats}-{eng.max_seats}"  # not "2-2"
        raise usage_error(T("play.players_range", {"engine": eng.name, "span": span, "lo": eng.min_seats,
                                                  "hi": eng.max_seats, "n": players}))  # lo, hi: older servers
    if not 0 <= args.seat < players:
        raise usage_error(T("play.seat_range", {"hi": players - 1}))
    if not 0 <= args.open < players:
        raise usage_error(T("play.open_range", {"hi": players - 1, "players": players}))
    kinds = []
    opened = 0
    for i in range(players):
        if i == args.seat:
            kinds.append("human")
        elif opened < args.open:
            kinds.append("open")
            opened += 1
        else:
            level = getattr(args, "bot", None) or "easy"
            kinds.append("bot" if level == "easy" else f"bot:{level}")
    if getattr(args, "bot", None) and not any(k.startswith("bot") for k in kinds):
        # `--bot hard --open 1 --players 2` left no seat for the bot: said, not ignored
        raise usage_error(T("play.bot_no_seat", {"level": args.bot, "players": players, "open": args.open,
                                                "more": players + 1, "has_more": str(players < eng.max_seats).lower()}))
    opts = _json_arg(args.options, "--options") if args.options else None
    created = c.create(eng.name, players, options=opts, seats=kinds)
    title = (i18n.catalog(eng.name) or i18n.Catalog({}, "en")).format("title", default=eng.title)
    # "bot:hard" is a wire spelling: the words name the kind and the bot's level
    seats = [T("play.seat_kind", {"n": shown_seat(i), "kind": k.partition(":")[0], "level": k.partition(":")[2] or "easy"})
             for i, k in enumerate(kinds)]
    con.print(escape(T("play.new_game", {"game": created.game.id, "title": title, "seat": shown_seat(args.seat),
                                          "seats": ", ".join(seats)})))
    mine = created.seat(args.seat)
    if "open" in kinds:
        con.print(escape(T("play.friend_joins", {"command": join_command(args, created.game.id)})), soft_wrap=True)
    con.print(escape(T("play.you_resume", {"command": resume_command(args, mine)})), soft_wrap=True)
    return mine, True


def _event_line(con: Console, version: int, text: str) -> None:
    con.print(f"[magenta]» v{version} {escape(text)}[/magenta]")  # its [lists] are text


def tell_so_far(seat: Seat, game: Game, me: int | None, con: Console, limit: int = TOLD_AT_START,
                since_own: bool = False, shared: Shared | None = None) -> list[tuple[int, str, bool]]:
    """The moves made before the player's first look (bots move as a game is created: a bot's opening
    move, Riverboat's first pick), in words as the watched ones; the last `limit` of them. A seat
    played again (`--game`) is told what happened since its own last event, while it was away.
    Returns the lines told, (version, text, whether a seat acted); `shared.had_turn` says whether the
    seat played before (a seat played again with events of its own)."""
    log = [ev for ev in seat.events() if ev.version <= game.version]
    seen = log
    if since_own:
        own = [i for i, ev in enumerate(seen) if me is not None and ev.event.get("seat") == me]
        if shared is not None:
            shared.had_turn = bool(own)
        seen = seen[own[-1] + 1:] if own else seen
        if seen:
            con.print(f"[magenta]{escape(T('play.while_away'))}[/magenta]")
    told = [ev for ev in seen if ev.event.get("seat") != me]
    if len(told) > limit:
        con.print(f"[magenta dim]» … {escape(T('play.earlier_events', {'n': len(told) - limit}))}[/magenta dim]")
    shown = {ev.version for ev in told[-limit:]}
    lines = []
    for ev in log:  # the whole log followed, each event worded as it was then
        follow(ev.event, game)
        if ev.version in shown:
            lines.append((ev.version, describe_event(ev.event, game), ev.event.get("seat") is not None))
            _event_line(con, *lines[-1][:2])
    return lines


def _watcher(seat: Seat, after: int, me: int | None, events: queue.Queue, con: Console, shared: Shared) -> None:
    try:
        while True:
            try:
                for ev in seat.watch(after_version=after):
                    if shared.leaving.is_set():
                        return
                    shared.back(con)
                    follow(ev.event, shared.game)
                    with shared.telling:
                        # The player's own move is told by the main loop ("« you: ..."); what else
                        # happened to their seat (an auction won, a phase bonus) is told here.
                        if ev.event.get("seat") != me or ev.version not in shared.own_moves:
                            text = describe_event(ev.event, shared.game)
                            _event_line(con, ev.version, text)
                            shared.since.append((ev.version, text, ev.event.get("seat") is not None))
                            del shared.since[:-TOLD_AT_START]  # a seat that waits long keeps the last ones
                        shared.told = ev.version
                    after = ev.version
                    events.put(ev)
                return
            except Aborted as e:  # the server lost moves it had shown: go on from what it holds
                resumed = re.search(r"resume from version (\d+)", str(e))
                if resumed is None:
                    raise
                after = int(resumed.group(1))
                con.print(f"[yellow]{escape(T('play.moves_lost', {'version': after}))}[/yellow]")
                events.put(Event(seat.game_id, after, {}))  # look at the game again
            except Unavailable as e:  # the server is down or restarting: the player stays, so does the watch
                if shared.leaving.is_set():
                    return
                shared.lost(con, e)
                if shared.leaving.wait(RECONNECT):
                    return
    except Exception as e:  # noqa: BLE001 - leaving closes the connection under the watch: nothing to say
        if not shared.leaving.is_set():
            if not isinstance(e, TableroError):
                raise
            con.print(f"[red]{escape(T('play.watch_stopped', {'why': str(e)}))}[/red]")
    finally:
        events.put(None)


def written(timeout: float = 1.0) -> None:
    """Wait until what was printed is on the terminal before a prompt starts. Under patch_stdout a
    thread writes it: a prompt drawn first had the last lines printed after it, on its line
    ("choose>    13. Dockyard ...", then a second "choose>"). Relies on the proxy's write queue."""
    out = sys.stdout
    out.flush()
    pending = getattr(out, "_flush_queue", None)
    if pending is None:
        return
    deadline = time.monotonic() + timeout
    while not pending.empty() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.02)  # the write thread took the last text off the queue: let it finish writing it


def _ask(session: PromptSession, text: str, n: int, back: bool, paged: bool = False) -> int | str | None:
    """A number 1..n; None for back; "n"/"p" for the next or previous page of a long list (`paged`).
    Raises Quit on q."""
    while True:
        written()
        answer = session.prompt(text).strip().lower()
        if answer in QUIT_WORDS:
            raise Quit()
        if answer in HELP_WORDS:
            print(help_text())
            continue
        if answer in LOG_WORDS and (shared := _SHARED.get("shared")) is not None:
            print("\n".join(f"» v{version} {text}" for version, text, _ in shared.since))  # all, wrapped
            continue
        if back and answer in BACK_WORDS:
            return None
        if paged and answer in PAGE_WORDS:
            return answer
        if (number := _number(answer)) is not None and 1 <= number <= n:
            return number
        if paged and answer and number is None:
            return Find(answer)  # words of a move in a long list: "e9" for the square E9
        print(choose_hint(n, back, paged))


class Find(str):
    """What was typed to find moves in a long list by their words."""


def _ask_or_find(session: PromptSession, con: Console, labels: list[str], back: bool, paged: bool) -> int | str | None:
    """`_ask`, and in a long list words typed find the moves that hold them: one is chosen; several
    are listed alone with their numbers (none: said so), and the prompt comes again."""
    while True:
        pick = _ask(session, T("play.prompt") + " ", len(labels), back=back, paged=paged)
        if not isinstance(pick, Find):
            return pick
        hits = found(pick, labels)
        if len(hits) == 1:
            return hits[0] + 1
        for i in hits:
            con.print(f"  [bold]{i + 1:3}[/bold]. {escape(labels[i])}", highlight=False)
        con.print(f"[dim]{escape(T('play.found', {'n': len(hits), 'text': str(pick)}))}[/dim]", highlight=False)


def found(words: str, labels: list[str]) -> list[int]:
    """The indexes of the labels holding what was typed as whole words ("e1" is not "E10"): the
    text as typed if some label holds it, else every word of it in any order."""
    def holds(label: str, text: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(text)}(?!\w)", label, re.IGNORECASE) is not None

    return ([i for i, label in enumerate(labels) if holds(label, words)]
            or [i for i, label in enumerate(labels) if all(holds(label, w) for w in words.split())])


PAGE_WORDS = ("n", "p")
HELP_WORDS = ("?", "help", "h", "ayuda")
LOG_WORDS = ("l", "log")  # what the others did since the player's last turn, every line of it
_HELP_GAME: dict[str, Game] = {}
_SHARED: dict[str, Shared] = {}


def help_text() -> str:
    """The help key's text, in the game's language (the platform's `play.help`)."""
    game = _HELP_GAME.get("game")
    cat = messages(game) if game is not None else i18n.Catalog({}, "en")
    # the engine's own example of words that find a move (Founders: a square, "E9"), if it has one
    example = cat.format("label.find_example") if cat.has("label.find_example") else ""
    return cat.format("play.help", {"has_example": str(bool(example)).lower(), "example": example},
                      default="Type the number of a move; q leaves.")


def own_resources(game: Game) -> str | None:
    """The seat's own goods as one line (`You have: $3, 2 food, 1 brick`): numbers of its entry in
    the view's `players` that the engine's catalog words as goods (`amount.<field>`; counters such
    as a training cost or the boats claimed this round are no goods), kept in sight just above the
    prompt at 80×24."""
    players = (game.view or {}).get("players")
    me = game.your_seat
    if not isinstance(players, list) or me is None or not 0 <= me < len(players) or not isinstance(players[me], dict):
        return None
    m = messages(game)
    mine = {k: v for k, v in players[me].items() if isinstance(v, int) and not isinstance(v, bool)
            and m.has(f"amount.{k}")}
    if not mine:
        return None
    return m.format("play.you_have", {"what": i18n.amounts(m, mine)})


def _number(answer: str) -> int | None:
    """The number typed, or None: str.isdigit() also takes '²' and '①', which int() refuses."""
    if not answer.isdecimal() or len(answer) > 9:
        return None
    return int(answer)


def choose_hint(n: int, back: bool, paged: bool = False) -> str:
    """What may be typed at `choose>`: b (or 0) steps back out of a step-by-step choice; n and p page
    through a list longer than --page."""
    return T("play.hint", {"n": n, "paged": str(paged).lower(), "back": str(back).lower()})


def step_field(path: str, game: Game) -> str:
    """The field a step chooses, in the engine's words (its `label.fields`)."""
    m = messages(game)
    return " ".join(m.format("label.fields", {"field": p, "text": words.name(p)}) if m.has("label.fields") else words.name(p)
                    for p in path.split("."))


PAGE = 24  # options listed at once, at most
# The lines a choice takes besides its options: what is pending, the question, "options 1-14 of 35",
# one's own goods, the hint (two lines at 80 columns, some of them wrapped) and the prompt.
OTHER_LINES = 10


def option_label(path: str, option: Option, game: Game) -> str:
    """A step's option in words: the action itself when it leads to one (its costs too: "worker on
    cell 8 (pay a coin)"), else the value chosen as the board names it ("squares H1, I1")."""
    if len(option.actions) == 1:
        return action_label(option.actions[0], game)
    return step_label(path, option.value, game)


def _rows() -> int | None:
    """The terminal's height now, or None when the output is no terminal."""
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).lines
    except (AttributeError, ValueError, OSError):  # not a terminal: nothing to fit
        return None


def fitted_page(given: int | None, reserved: int = 0) -> int:
    """How many options are listed at once: --page, else as many as fit the terminal's height
    under the board (at most 24), less `reserved` lines printed above the question (what the others
    did since the player's last turn). At 80x24 a list of 24 pushed the question and its first
    options off the top: the screen held options 6-24 of "Your move: ... by cell:"."""
    if given is not None:
        return given
    rows = _rows()
    if rows is None:
        return PAGE
    return max(5, min(PAGE, rows - OTHER_LINES - reserved))


def fitted_to_lines(heights: list[int], lines: int) -> int:
    """How many options, from the first, take at most `lines` rows of the terminal (an option that
    wraps takes two or more: at 80 columns most of New Bedford's do), at least 3."""
    used = n = 0
    for h in heights:
        if used + h > lines:
            break
        used += h
        n += 1
    return max(3, n)


def choose_action(session: PromptSession, con: Console, game: Game, actions: list[dict[str, Any]],
                  page: int | None, reserved: int = 0) -> dict[str, Any]:
    # listed flat or step by step as without the lines above (fewer of them: paged sooner)
    given, flat, lines = page, fitted_page(page), fitted_page(page, reserved)
    stack: list[list[dict[str, Any]]] = [actions]
    while True:
        current = stack[-1]
        if len(current) == 1 and len(stack) > 1:
            return current[0]  # narrowed down to one action
        path, opts = options(current, flat)
        your_move = escape(messages(game).format("play.your_move"))
        if path is None:
            con.print(f"[bold]{your_move}[/bold] ({escape(T('play.legal_actions', {'n': len(current)}))}):")
        elif path == "type":  # the kind of move first: "What do you do?", as the browser asks
            con.print(f"[bold]{your_move}[/bold] ({escape(T('play.legal_actions', {'n': len(current)}))}): "
                      f"[cyan]{escape(T('web.what_do_you_do'))}[/cyan]")
        else:
            field = step_field(path, game)
            con.print(f"[bold]{your_move}[/bold]: {escape(T('play.step_by_step', {'n': len(current)}))} "
                      f"[cyan]{escape(field)}[/cyan]:")
        rows = [(action_label(o.actions[0], game) if path is None else option_label(path, o, game),
                 "" if len(o.actions) == 1 else T('play.choices', {'n': len(o.actions)})) for o in opts]
        page = lines if given is not None else fitted_to_lines(
            [-(-(7 + len(label) + (len(more) + 4 if more else 0)) // max(20, con.width)) for label, more in rows], lines)
        paged = len(opts) > page > 0
        pick: int | str | None = "p"
        start = 0
        while isinstance(pick, str):  # a long list, `page` options at a time (numbers kept throughout)
            shown = range(start, min(start + page, len(opts))) if paged else range(len(opts))
            for i in shown:
                label, more = rows[i]
                more = f"  [dim]({escape(more)})[/dim]" if more else ""
                con.print(f"  [bold]{i + 1:3}[/bold]. {escape(label)}{more}", highlight=False)
            if paged:
                con.print(f"[dim]{escape(T('play.options_page', {'first': shown.start + 1, 'last': shown.stop, 'n': len(opts)}))}[/dim]", highlight=False)
            if (have := own_resources(game)) is not None:
                con.print(f"[bold cyan]{escape(have)}[/bold cyan]", highlight=False)
            con.print(f"[dim]{choose_hint(len(opts), len(stack) > 1, paged)}[/dim]", highlight=False)
            pick = _ask_or_find(session, con, [label for label, _ in rows], back=len(stack) > 1, paged=paged)
            if pick == "n":
                start = start + page if start + page < len(opts) else 0
            elif pick == "p":
                start = start - page if start >= page else (len(opts) - 1) // page * page
        if pick is None:
            stack.pop()
            continue
        chosen = opts[pick - 1]
        if path is None:
            return chosen.actions[0]
        stack.append(chosen.actions)


def play(args: argparse.Namespace) -> int:
    from .cli import _client

    # Sized now: under patch_stdout rich can no longer ask the terminal.
    con = Console(highlight=False, width=args.width or shutil.get_terminal_size().columns,
                  force_terminal=sys.stdout.isatty() or None, file=PlainStdout.wrap())
    con.fixed_width = args.width  # type: ignore[attr-defined]  # fit_width leaves it as it is
    i18n.set_language(getattr(args, "lang", None))
    with _client(args) as c:
        i18n.load(c, "tablero")  # the platform's words (prompts, help), before the game's
        seat, new = _setup(args, c, con)
        session: PromptSession = PromptSession()  # after the setup: a bad option is one line, no warning
        game = seat.game()
        i18n.load(c, game.engine)
        _HELP_GAME["game"] = game
        me = game.your_seat
        shared = Shared(game)
        shared.since = tell_so_far(seat, game, me, con, since_own=not new, shared=shared)
        events: queue.Queue = queue.Queue()
        _SHARED["shared"] = shared
        with patch_stdout(raw=True):
            threading.Thread(target=_watcher, args=(seat, game.version, me, events, con, shared), daemon=True).start()

            def leave(status: int) -> int:
                shared.leaving.set()  # before the connection closes under the watch
                con.print(escape(T("play.left", {"game": seat.game_id, "command": resume_command(args, seat)})), soft_wrap=True)
                return status

            try:
                return _loop(seat, game, me, events, session, con, args.page, shared)
            except (Quit, EOFError):
                return leave(0)
            except KeyboardInterrupt:
                return leave(130)
            finally:
                shared.leaving.set()


class MovedOn(Exception):
    """The game moved on while the player chose, and the chosen move is no longer legal."""


def act_on_latest(seat: Seat, action: Any, version: int, tries: int = 3, own: set[int] | None = None,
                  request_id: str | None = None) -> Game:
    """`action`, chosen on the game at `version`. When other seats acted meanwhile (a secret bid
    or vote of a simultaneous choice) and it is still legal, it is played on the game as it is
    now: what others chose in secret does not change what the player chose. Otherwise MovedOn.
    `request_id`: the move's own (a move sent again after the server was away is applied once)."""
    own = set() if own is None else own
    for _ in range(tries):
        own.add(version + 1)  # the move's first event, if it is played at `version`
        try:
            return seat.act(action, expected_version=version, request_id=request_id)
        except Aborted as e:
            if "stale version" not in str(e):
                raise
            la = seat.legal_actions()
            if action not in la.actions:
                raise MovedOn() from None
            version = la.version
    own.add(version + 1)
    return seat.act(action, expected_version=version, request_id=request_id)


class Pending:
    """A move chosen while the server could not be reached: sent again, with its own request id,
    once it can be (docs: nothing the player played is lost)."""

    def __init__(self, action: Any, label: str, version: int) -> None:
        self.action, self.label, self.version = action, label, version
        self.request_id = uuid.uuid4().hex


def wait_for_others(events: queue.Queue, watching: bool, timeout: float, prompt: str = "play.others_playing") -> str | None:
    """While others play: read a line (so `q` + Enter leaves) until an event comes, the watch ends,
    or `timeout` passes with nothing typed. Returns the line typed, or None."""
    waiting: PromptSession = PromptSession(erase_when_done=True)
    deadline = time.monotonic() + timeout

    def pre_run() -> None:
        app = get_app()

        async def poll() -> None:
            while True:
                typed = app.current_buffer.text
                if (watching and not events.empty()) or (not typed and time.monotonic() > deadline):
                    if not app.is_done:
                        app.exit(result=None)
                    return
                await asyncio.sleep(0.1)

        app.create_background_task(poll())

    written()
    return waiting.prompt(T(prompt) + " ", pre_run=pre_run)


def fit_width(con: Console, fixed: int | None) -> None:
    """The console as wide as the terminal is now (a resized terminal was drawn at its width at the
    start, wrapped into a mess), unless --width fixed it. Under patch_stdout rich cannot ask the
    terminal itself: the real stdout is asked (not COLUMNS, which a shell sets once, at the start)."""
    if fixed:
        return
    try:
        con.width = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):  # not a terminal: as it was
        pass


def _board(con: Console, game: Game) -> int:
    """The board under a rule with the game's version; returns the lines it took."""
    fit_width(con, getattr(con, "fixed_width", None))
    con.rule(T("play.version", {"version": game.version}))
    board = render(game)
    con.print(board)
    return 1 + len(con.render_lines(board, con.options, pad=False))


def _the_end(con: Console, game: Game) -> None:
    """The board as the game ended, then the final scores."""
    fit_width(con, getattr(con, "fixed_width", None))
    con.print(render(game))
    con.print(outcome_text(game, (con.width, con.height)))


SINCE_MOST = 6  # lines, at most, that retell what the others did since the player's last turn


def since_last_turn(con: Console, shared: Shared, board: int) -> int:
    """What the others did since the player's last move, one line an event (the last ones, cut to
    the width), printed between the board and the choice when the board (`board` lines) has pushed
    their lines off the screen: at 80x24 a New Bedford board of 4 seats is taller than the screen,
    and the bots' moves were above it. Returns the lines printed (the options listed make room)."""
    rows = _rows()
    told = shared.since
    if not told or rows is None or board + OTHER_LINES + 5 + len(told) <= rows:
        return 0  # nothing told, no terminal, or the lines told are still in sight above the board
    room = max(2, min(SINCE_MOST, rows // 4)) - 1  # lines under the heading
    shown = told
    if len(told) > room:  # the seats' last moves; what no seat did (a round's upkeep) is left above
        shown = [x for x in told if x[2]][-(room - 1):]
    heading = T("play.since_last_turn" if shared.had_turn else "play.so_far")  # no "last turn" before the first
    con.print(f"[magenta bold]{escape(heading)}[/magenta bold]", no_wrap=True, overflow="ellipsis")
    if len(shown) < len(told):
        con.print(f"[magenta dim]» … {escape(T('play.more_above', {'n': len(told) - len(shown)}))}[/magenta dim]",
                  no_wrap=True, overflow="ellipsis")
    for version, text, _ in shown:
        con.print(f"[magenta]» v{version} {escape(text)}[/magenta]", no_wrap=True, overflow="ellipsis")
    return 1 + len(shown) + (len(shown) < len(told))


def _loop(seat: Seat, game: Game, me: int | None, events: queue.Queue, session: PromptSession, con: Console,
          page: int | None, shared: Shared) -> int:
    shown_wait = -1
    board_shown = -1  # the version of the last board drawn
    quiet = False  # whether the last wait for others ended with no news
    watching = True
    pending: Pending | None = None  # a move chosen but not yet answered (the server was away)
    while True:
        try:
            shared.game = game
            if game.finished:
                shared.told_up_to(game.version)
                _the_end(con, game)
                return 0
            if pending is None and me in game.to_act:
                la = seat.legal_actions()
                if la.actions and la.version == game.version:
                    shared.told_up_to(game.version)
                    reserved = since_last_turn(con, shared, _board(con, game))  # the board, then what it hid
                    board_shown = game.version
                    action = choose_action(session, con, game, la.actions, page, reserved)
                    # worded on the game it was chosen on (its options)
                    pending = Pending(action, action_label(action, game), game.version)
                else:
                    game = seat.game()
                    continue
            if pending is not None:  # chosen now, or before the server went away: sent (again)
                try:
                    with shared.telling:  # the others' replies are told after the move
                        game = act_on_latest(seat, pending.action, pending.version, own=shared.own_moves,
                                             request_id=pending.request_id)
                        con.print(f"[cyan]« {escape(T('play.you_played', {'move': pending.label}))}[/cyan]")
                        shared.since.clear()  # told from here on: what the others do after this move
                        shared.had_turn = True
                    pending = None
                except MovedOn:
                    pending = None
                    con.print(f"[yellow]{escape(T('play.moved_on'))}[/yellow]")
                    game = seat.game()
                except Unavailable:
                    raise
                except TableroError as e:
                    from .cli import refusal
                    pending = None
                    con.print(f"[red]{escape(refusal(e))}[/red]")
                    game = seat.game()
                continue
            # While others play the board is shown as it stands once they pause (a wait with no news), so a
            # seat that is not to act sees the game too, once per pause rather than after every event.
            if quiet and board_shown != game.version:
                shared.told_up_to(game.version)
                _board(con, game)
                board_shown = game.version
            if shown_wait != game.version and board_shown == game.version:  # under the board, once
                said = messages(game).format('play.waiting', seats_args(game, list(game.to_act)))
                con.print(f"[dim]{escape(said)}[/dim]")
                shown_wait = game.version
            settling = board_shown != game.version
            typed = wait_for_others(events, watching, SETTLE if settling else REFRESH if watching else 1.0)
            quiet = events.empty()
            if typed is not None:
                if typed.strip().lower() in QUIT_WORDS:
                    raise Quit()
                if typed.strip():
                    con.print(f"[dim]{escape(T('play.not_your_turn'))}[/dim]")
            while watching:
                try:
                    ev: Event | None = events.get_nowait()
                except queue.Empty:
                    break
                if ev is None:
                    watching = False
            game = seat.game()
        except Unavailable as e:  # the server is down or restarting: the seat waits for it, nothing is lost
            shared.lost(con, e)
            typed = wait_for_others(events, True, RECONNECT, "play.waiting_server")
            if typed is not None and typed.strip().lower() in QUIT_WORDS:
                raise Quit() from None
            continue
        shared.back(con)

