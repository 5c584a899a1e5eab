"""`tablero play`: a whole game in the terminal, against bots or people.

The view is drawn with rich (board-game renderers in render/), the choice is read with
prompt_toolkit; a background watch prints the other seats' moves as they happen.
"""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import sys
import threading
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.patch_stdout import patch_stdout
from rich.console import Console
from rich.markup import escape

from .choose import options
from .client import Client, Seat
from .errors import TableroError
from .models import Event, Game
from .render import action_label, outcome_text, render, seat_name


class Quit(Exception):
    pass


def _setup(args: argparse.Namespace, c: Client, con: Console) -> Seat:
    if args.join:
        return c.join(args.join, args.token)
    if args.game:
        if not args.token:
            raise SystemExit("--game needs the seat's --token")
        return c.seat(args.game, args.token)
    if not args.engine:
        raise SystemExit("play: give an engine to start a game (e.g. `play tic-tac-toe`), or --game/--join")
    eng = c.engine(args.engine)
    players = args.players or eng.min_seats
    if not eng.min_seats <= players <= eng.max_seats:
        raise SystemExit(f"{eng.name} takes {eng.min_seats}-{eng.max_seats} players, not {players}")
    if not 0 <= args.seat < players:
        raise SystemExit(f"--seat must be 0..{players - 1}")
    kinds = []
    opened = 0
    for i in range(players):
        if i == args.seat:
            kinds.append("human")
        elif opened < args.open:
            kinds.append("open")
            opened += 1
        else:
            kinds.append("bot")
    opts = json.loads(args.options) if args.options else None
    created = c.create(eng.name, players, options=opts, seats=kinds)
    con.print(f"[bold]New game {created.game.id}[/bold] of {eng.title}: you are seat {args.seat}; "
              + ", ".join(f"seat {i} {k}" for i, k in enumerate(kinds)))
    return created.seat(args.seat)


def _watcher(seat: Seat, after: int, me: int | None, events: queue.Queue, con: Console) -> None:
    from .cli import describe_event

    try:
        for ev in seat.watch(after_version=after):
            if ev.event.get("seat") != me:
                con.print(f"[magenta]» {escape(describe_event(ev))}[/magenta]")  # its [lists] are text
            events.put(ev)
    except TableroError as e:
        con.print(f"[red]watch stopped: {escape(str(e))}[/red]")
    finally:
        events.put(None)


def _ask(session: PromptSession, text: str, n: int, back: bool) -> int | None:
    """A number 1..n; None for back. Raises Quit on q."""
    while True:
        answer = session.prompt(text).strip().lower()
        if answer in ("q", "quit", "exit"):
            raise Quit()
        if back and answer in ("b", "back", "0"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= n:
            return int(answer)
        print(f"type a number from 1 to {n}" + (", b to go back" if back else "") + ", or q to quit")


def choose_action(session: PromptSession, con: Console, game: Game, actions: list[dict[str, Any]],
                  page: int) -> dict[str, Any]:
    stack: list[list[dict[str, Any]]] = [actions]
    while True:
        current = stack[-1]
        if len(current) == 1 and len(stack) > 1:
            return current[0]  # narrowed down to one action
        path, opts = options(current, page)
        if path is None:
            con.print(f"[bold]Your move[/bold] ({len(current)} legal actions):")
            for i, o in enumerate(opts, 1):
                con.print(f"  [bold]{i:3}[/bold]. {escape(action_label(o.actions[0], game))}", highlight=False)
        else:
            con.print(f"[bold]Your move[/bold]: {len(current)} legal actions; choose step by step by [cyan]{path}[/cyan]:")
            for i, o in enumerate(opts, 1):
                con.print(f"  [bold]{i:3}[/bold]. {escape(o.label)}  [dim]({len(o.actions)} actions)[/dim]", highlight=False)
        pick = _ask(session, "choose> ", len(opts), back=len(stack) > 1)
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
                  force_terminal=sys.stdout.isatty() or None)
    session: PromptSession = PromptSession()
    with _client(args) as c:
        seat = _setup(args, c, con)
        game = seat.game()
        me = game.your_seat
        events: queue.Queue = queue.Queue()
        with patch_stdout(raw=True):
            threading.Thread(target=_watcher, args=(seat, game.version, me, events, con), daemon=True).start()
            try:
                return _loop(seat, game, me, events, session, con, args.page)
            except Quit:
                con.print(f"You left game {seat.game_id}; resume with: tablero play --game {seat.game_id} --token {seat.token}")
                return 0
            except (EOFError, KeyboardInterrupt):
                return 130


def _loop(seat: Seat, game: Game, me: int | None, events: queue.Queue, session: PromptSession, con: Console,
          page: int) -> int:
    shown_wait = -1
    watching = True
    while True:
        if game.finished:
            con.print(render(game))
            con.print(outcome_text(game))
            return 0
        if me in game.to_act:
            la = seat.legal_actions()
            if la.actions and la.version == game.version:
                con.rule(f"version {game.version}")
                con.print(render(game))
                action = choose_action(session, con, game, la.actions, page)
                try:
                    game = seat.act(action, expected_version=game.version)
                    con.print(f"[cyan]« you: {escape(action_label(action, game))}[/cyan]")
                except TableroError as e:
                    con.print(f"[red]{escape(str(e))}[/red]")
                    game = seat.game()
                continue
            game = seat.game()
            continue
        if shown_wait != game.version:
            con.print(f"[dim]waiting for {', '.join(seat_name(game, s) for s in game.to_act)}…[/dim]")
            shown_wait = game.version
        if watching:
            try:
                ev: Event | None = events.get(timeout=5)
            except queue.Empty:
                ev = None
            else:
                if ev is None:
                    watching = False
        else:
            threading.Event().wait(1)
        game = seat.game()
