"""The `tablero` client verbs: engines, create, join, show, actions, act, watch, bot, play, match, loadtest.

    python -m tablero_client engines --url http://127.0.0.1:8080
    python -m tablero_client play tic-tac-toe            # you against a bot
    python -m tablero_client --grpc 127.0.0.1:50051 create riverboat --seats human,bot,bot
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from ._plain import plain_output
from .client import Client, Seat, seat_kind
from .errors import InvalidArgument, TableroError
from .models import Event, Game

DEFAULT_URL = "http://127.0.0.1:8080"


def _client(args: argparse.Namespace) -> Client:
    if args.grpc:
        return Client(grpc=args.grpc, timeout=args.timeout)
    return Client(rest=args.url, timeout=args.timeout)


def _console(args: argparse.Namespace | None = None):
    from rich.console import Console

    return Console(highlight=False, width=getattr(args, "width", None) or None)


def usage_error(message: str) -> SystemExit:
    """A usage error found before any request (a missing token, an argument that is not what the
    verb takes): the message on stderr and exit status 2, as argparse's own; 1 stays for what the
    server or the game refused."""
    print(message, file=sys.stderr)
    return SystemExit(2)


def _need_token(args: argparse.Namespace) -> str:
    if not args.token:
        raise usage_error("this verb needs a seat token: --token TOKEN (or TABLERO_TOKEN)")
    return args.token


def _json_arg(text: str, what: str) -> Any:
    """`text` parsed as JSON; else a refusal in the language in use (`--lang es` said
    "--options is not valid JSON: Expecting property name …" in English): where, by line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise usage_error(_say("cli.bad_json", "{what} is not valid JSON: {error} (line {line}, column {column})",
                              what=what, error=e.msg, line=e.lineno, column=e.colno)) from e
    except ValueError as e:
        raise usage_error(f"{what} is not valid JSON: {e}") from e


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, sort_keys=False, default=str))


# --- verbs ----------------------------------------------------------------------------
def cmd_engines(args: argparse.Namespace) -> int:
    with _client(args) as c:
        engines = c.engines()
        if not args.json:
            _platform_words(c)
            titles = _titles(c, engines)
    if args.json:
        _print_json([asdict(e) for e in engines])
        return 0
    from rich.table import Table

    t = Table(*(_say("cli.engines_column", column, column=column) for column in ("engine", "title", "seats", "version")))
    for e in engines:
        t.add_row(e.name, titles.get(e.name, e.title), f"{e.min_seats}-{e.max_seats}", str(e.version))
    _console(args).print(t)
    return 0


def cmd_create(args: argparse.Namespace) -> int:
    try:  # a seat kind the server would refuse (`--seats human,robot`, `bot:`) is told before any request
        seats = [seat_kind(s.strip()) for s in args.seats.split(",")] if args.seats else None
    except InvalidArgument as e:
        raise usage_error(f"--seats: {e.message}") from None
    options = _json_arg(args.options, "--options") if args.options else None
    with _client(args) as c:
        # --token: a portal JWT, for a "me" seat (the server ignores a seat token here)
        created = c.create(args.engine, args.players, options=options, seats=seats, token=args.token)
        if not args.json:
            _platform_words(c)
    if args.json:
        _print_json({"game": asdict(created.game), "seats": [asdict(s) for s in created.seats]})
        return 0
    g = created.game
    print(_say("cli.created", "game {game} ({engine}, {seats} seats, version {version})",
               game=g.id, engine=g.engine, seats=g.players, version=g.version))
    for s in created.seats:
        print(_say("cli.seat_token", "seat {seat} token {token}", seat=s.seat + 1, token=s.token))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    with _client(args) as c:
        seat = c.join(args.game_id, args.token)
        if not args.json:
            _platform_words(c)
    if args.json:
        _print_json({"gameId": seat.game_id, "seat": seat.seat, "token": seat.token})
    else:
        print(_say("cli.joined", "joined game {game} as seat {seat}", game=seat.game_id, seat=seat.seat + 1))
        print(f"token {seat.token}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with _client(args) as c:
        game = c.game(args.game_id, args.token, args.version)
        if not args.json:
            _messages(c, game.engine)
    if args.json:
        _print_json(asdict(game))
        return 0
    from .render import outcome_text, render

    con = _console(args)
    con.print(render(game))
    if game.finished:
        con.print(outcome_text(game))
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    token = _need_token(args)
    with _client(args) as c:
        la = c.legal_actions(args.game_id, token)
        game = None if args.json else c.game(args.game_id, token)  # the actions in its words
        if not args.json:
            _platform_words(c)
    if args.json:
        _print_json(la.actions)
        return 0
    from .render import action_label
    from .render.words import plural

    if not la.actions:
        print(_why_no_action(game, la.seat))
        return 0
    # The hint is a command that works as typed: the token again, unless TABLERO_TOKEN gives it.
    flag = args.token != os.environ.get("TABLERO_TOKEN")
    print(_say("cli.actions", "seat {seat}: {count} (version {version}); play one with `act {game} NUMBER`"
               + (" --token TOKEN" if flag else ""), seat=la.seat + 1, n=len(la.actions),
               count=plural(len(la.actions), "legal action"), version=la.version, game=args.game_id, token="true" if flag else "false"))
    for i, a in enumerate(la.actions, 1):
        print(f"{i:4}. {action_label(a, game)}")
    return 0


def cmd_act(args: argparse.Namespace) -> int:
    token = _need_token(args)
    action = _json_arg(args.action, "the action")
    # A number from `actions`, or an action object; `true` is no number (a bool is an int in Python).
    is_number = isinstance(action, int) and not isinstance(action, bool)
    if not is_number and not (isinstance(action, dict) and "type" in action):
        raise usage_error(f"the action is a number from `actions` or a JSON object with a \"type\" "
                         f"(e.g. '{{\"type\": \"place\", \"cell\": 4}}'), not {args.action}")
    with _client(args) as c:
        if not args.json:
            _platform_words(c)
        if is_number:  # a number from `actions`
            la = c.legal_actions(args.game_id, token)
            acts = la.actions
            if not acts:
                raise SystemExit(_why_no_action(c.game(args.game_id, token), la.seat))
            if not 1 <= action <= len(acts):
                raise SystemExit(f"there are {len(acts)} legal actions; {action} is not one of them")
            action = acts[action - 1]
        try:
            game = c.act(args.game_id, token, action, request_id=args.request_id,
                         expected_version=args.expected_version)
        except TableroError as e:
            if "may not act now" not in str(e):
                raise
            raise SystemExit(_why_no_action(c.game(args.game_id, token), c.legal_actions(args.game_id, token).seat)) from None
    if args.json:
        _print_json(asdict(game))
    else:
        print(_say("cli.ok", "ok: version {version}; {status}", version=game.version, status=_status_words(game)))
    return 0


def _i18n() -> Any:
    """The renderers' catalogs (render.i18n), or None: the SDK without its [cli] extras."""
    try:
        from .render import i18n
    except ModuleNotFoundError:
        return None
    return i18n


def _say(key: str, english: str, **args: Any) -> str:
    """A sentence of the one-shot verbs (engines/core/messages `cli.*`) in the language in use;
    `english` where no catalog is at hand (the SDK without its [cli] extras, an older server)."""
    i18n = _i18n()
    cat = i18n.catalog("tablero") if i18n is not None else None
    return cat.format(key, args) if cat is not None and cat.has(key) else english.format(**args)


def _titles(c: Any, engines: Any) -> dict[str, str]:
    """Each engine's title in the language in use (its catalog's `title`; English: the server's)."""
    i18n = _i18n()
    if i18n is None or i18n.current_language() == "en":
        return {}
    out = {}
    for e in engines:
        cat = i18n.load(c, e.name)
        if cat is not None and cat.has("title"):
            out[e.name] = cat.format("title")
    return out


def refusal(e: TableroError) -> str:
    """A refusal as the player reads it: in English the server's own words (they say more); in
    another language its reason worded by the platform's catalog (`web.reason.<REASON>`, as the
    browser client words it) with the code, when the catalog words that reason."""
    i18n = _i18n()
    if i18n is None or i18n.current_language() == "en" or not e.reason:
        return str(e)
    cat = i18n.catalog("tablero")
    key = f"web.reason.{e.reason}"
    return f"{cat.format(key)} ({e.code})" if cat is not None and cat.has(key) else str(e)


def _platform_words(c: Any) -> None:
    """The platform's catalog from the server, for a language other than English (one call)."""
    i18n = _i18n()
    if i18n is not None and i18n.current_language() != "en":
        i18n.load(c, "tablero")


def _seats(seats: Sequence[int]) -> str:
    """Seats as the screens name them: numbered from 1, as the browser does (the API and --json count from 0)."""
    return ", ".join(_say("cli.seat", "seat {n}", n=s + 1) for s in seats) or _say("cli.nobody", "nobody")


def _status_words(game: Game) -> str:
    """`the game is over` or `to act: seat 1`."""
    if game.finished:
        return _say("cli.over", "the game is over")
    return _say("cli.to_act", "to act: {who}", who=_seats(game.to_act))


def _why_no_action(game: Game, seat: int) -> str:
    """Why a seat has nothing to choose from: the game is over, or it is another seat's turn."""
    if game.finished:
        return _say("cli.game_over", "game {game} is over (version {version}): there is nothing left to play",
                    game=game.id, version=game.version)
    return _say("cli.not_your_turn", "it is not your turn (you are seat {seat}): waiting for {others} "
                "(version {version})", seat=seat + 1, others=_seats(game.to_act), version=game.version)


def _messages(c: Any, engine: str) -> None:
    """The engine's texts in the language asked (--lang, else LANG), from the server."""
    from .render import i18n

    i18n.load(c, engine)


def describe_event(ev: Event, game: Game | None = None) -> str:
    """`v3 seat 1 (bot) puts O in cell 4 (row 2, column 2).`: the event in the words the terminal's
    renderers have (render.describe_event) when the game is known, else its type and fields."""
    from .render import compact, follow
    from .render import describe_event as in_words

    if game is not None:
        follow(ev.event, game)  # events come in order: each is worded as it was then (Founders' proposals)
        return f"v{ev.version} {in_words(ev.event, game)}"
    e = dict(ev.event)
    who = f"seat {e.pop('seat') + 1}: " if isinstance(e.get("seat"), int) else ""
    return f"v{ev.version} {who}{compact(e)}"


def cmd_watch(args: argparse.Namespace) -> int:
    with _client(args) as c:
        game = None if args.json else c.game(args.game_id, args.token)  # names the players in the lines
        if game is not None:
            _messages(c, game.engine)
        for ev in c.watch(args.game_id, args.token, after_version=args.after):
            if args.json:
                print(json.dumps({"gameId": ev.game_id, "version": ev.version, "event": ev.event}), flush=True)
            else:
                print(describe_event(ev, game), flush=True)
    return 0


def play_random(seat: Seat, rng: random.Random, max_actions: int, say=print, word=None) -> Game:
    """Play `seat` with random legal actions until the game ends (or `max_actions`); `say` is told
    each move, as `word(action, game it was chosen on)` puts it (JSON by default)."""
    game = seat.game()
    done = 0
    while not game.finished and done < max_actions:
        if game.your_seat in game.to_act:
            acts = seat.legal_actions().actions
            if acts:
                action = rng.choice(acts)
                chosen_on, game = game, seat.act(action)
                done += 1
                say(f"v{game.version} played {word(action, chosen_on) if word else json.dumps(action)}")
                continue
        for _ev in seat.watch(after_version=game.version):
            break  # something happened: look again
        game = seat.game()
    return game


def cmd_bot(args: argparse.Namespace) -> int:
    token = _need_token(args)
    from .render import action_label

    rng = random.Random(args.seed)
    with _client(args) as c:
        game = play_random(c.seat(args.game_id, token), rng, args.max_actions,
                           say=(lambda s: None) if args.quiet else (lambda s: print(s, flush=True)),
                           word=action_label)
    print(f"game {game.id} at version {game.version}: {_outcome_words(game)}")
    return 0


def _outcome_words(game: Game) -> str:
    """`the game is over: seat 2 wins (scores: seat 1 3, seat 2 5)`, or who is to act."""
    if not game.finished:
        return f"the game goes on; {_status_words(game)}"
    out = game.outcome or {}
    winners = out.get("winners") or []
    if len(winners) > 1:
        said = "seats " + " and ".join(str(w + 1) for w in winners) + " win"  # seats numbered from 1
    else:
        said = f"seat {winners[0] + 1} wins" if winners else "nobody wins (a draw)"
    scores = out.get("scores")
    if isinstance(scores, list) and scores:
        said += " (scores: " + ", ".join(f"seat {i + 1} {s}" for i, s in enumerate(scores)) + ")"
    return f"the game is over: {said}"


def cmd_play(args: argparse.Namespace) -> int:
    from .play import play

    return play(args)


def cmd_match(args: argparse.Namespace) -> int:
    from .match import run

    return run(args)


def cmd_loadtest(args: argparse.Namespace) -> int:
    from .loadtest import run

    return run(args)


# --- parser ---------------------------------------------------------------------------
def _seconds(text: str) -> float:
    """--timeout: a number of seconds above 0 (a negative one ended in a traceback, 0 in an odd error)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _http_url(text: str) -> str:
    """--url / TABLERO_URL: an http:// or https:// URL with a host (without the scheme, the verbs
    failed with "UNAVAILABLE: UnsupportedProtocol" and loadtest refused to load-test '')."""
    from urllib.parse import urlsplit

    try:
        url = urlsplit(text)
        ok = url.scheme in ("http", "https") and bool(url.hostname) and url.port != 0
    except ValueError:  # a port that is no number
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http:// or https:// URL with a host "
                                         f"(e.g. {DEFAULT_URL})")
    return text


def _grpc_target(text: str) -> str:
    """--grpc / TABLERO_GRPC: HOST:PORT (or a gRPC target such as dns:///host:port), never an
    http(s):// URL (which failed with a DNS error, and loadtest refused 'http://127.0.0.1')."""
    if text.lower().startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(f"{text!r} is a URL: give HOST:PORT (e.g. 127.0.0.1:50051)")
    return text


def _common_options(suppress: bool) -> argparse.ArgumentParser:
    """The options every verb takes (before or after it; after it they must not reset them to defaults)."""
    def d(value: Any) -> Any:
        return argparse.SUPPRESS if suppress else value

    c = argparse.ArgumentParser(add_help=False)
    c.add_argument("--url", type=_http_url, default=d(os.environ.get("TABLERO_URL", DEFAULT_URL)),
                   help=f"REST base URL (env TABLERO_URL; default {DEFAULT_URL})")
    c.add_argument("--grpc", type=_grpc_target, default=d(os.environ.get("TABLERO_GRPC")), metavar="HOST:PORT",
                   help="use gRPC at HOST:PORT instead of REST (env TABLERO_GRPC)")
    c.add_argument("--token", default=d(os.environ.get("TABLERO_TOKEN")), help="seat token (env TABLERO_TOKEN)")
    c.add_argument("--timeout", type=_seconds, default=d(30.0), help="seconds per call (default 30)")
    c.add_argument("--json", action="store_true", default=d(False), help="print JSON instead of text")
    c.add_argument("--lang", default=d(None), metavar="LANG",
                   help="language of the texts: es or en (default: from LANG)")
    return c



def _add_play(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `play` verb: a whole game in the terminal."""
    s = sub.add_parser(
        "play", parents=[common], help="play a whole game in the terminal",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="A new game prints the command that resumes your seat (and, with --open, the command a\n"
               "friend runs to join); --join prints the joined seat's resume command.\n"
               "Leaving: q (or quit, exit) + Enter at a prompt or while others play, or Ctrl-D: exit status 0;\n"
               "Ctrl-C: exit status 130. Both print `resume with: tablero play --game ID --token TOKEN ...` first.")
    s.add_argument("engine", nargs="?", help="create a new game of this engine (you + bots)")
    s.add_argument("--players", type=int, help="seats (default: the engine's minimum, but room for "
                                                "the --open seats and, with --bot, a bot)")
    s.add_argument("--seat", type=int, default=0, help="your seat in a new game, counted from 0 (default 0; the screens number seats from 1, "
                        "as the browser does: --seat 0 is shown as seat 1)")
    s.add_argument("--open", type=int, default=0, help="leave this many seats open for people (the rest are bots)")
    s.add_argument("--bot", choices=("easy", "medium", "hard"),
                   help="the bots' level in a new game (default easy)")
    s.add_argument("--options", help="engine options as JSON")
    s.add_argument("--game", help="play an existing game's seat (with --token) instead")
    s.add_argument("--join", metavar="GAME_ID", help="join an open seat of this game and play it")
    s.add_argument("--page", type=int, help="list at most this many actions at once (default: as many as fit "
                                             "the terminal's height, at most 24)")
    s.add_argument("--width", type=int, help="terminal width for the rendering")
    s.set_defaults(fn=cmd_play)


def parser(prog: str = "tablero") -> argparse.ArgumentParser:
    """The CLI's parser; `prog` is how it was called (`tablero` for the server's verbs, or
    `tablero-client`), as its usage lines say."""
    common = _common_options(suppress=True)
    p = argparse.ArgumentParser(prog=prog, description="Tablero client: play, inspect and load-test games.",
                                parents=[_common_options(suppress=False)])
    sub = p.add_subparsers(dest="verb", required=True)
    s = sub.add_parser("engines", parents=[common], help="list the engines the server runs")
    s.set_defaults(fn=cmd_engines)
    s = sub.add_parser("create", parents=[common], help="create a game; prints its id and seat tokens")
    s.add_argument("engine")
    s.add_argument("--players", type=int, help="seats (default: the engine's minimum, or one per --seats kind)")
    s.add_argument("--seats", help="comma-separated seat kinds: human, open, me (a portal user's, with the JWT as "
                                   "--token) or bot; bot:medium, bot:hard name a bot's level (e.g. human,bot:hard,bot)")
    s.add_argument("--options", help="engine options as JSON")
    s.set_defaults(fn=cmd_create)
    s = sub.add_parser("join", parents=[common], help="claim an open seat of a game")
    s.add_argument("game_id")
    s.set_defaults(fn=cmd_join)
    s = sub.add_parser("show", parents=[common], help="a game as readable text (as --token's seat sees it)")
    s.add_argument("game_id")
    s.add_argument("--version", type=int, help="a past version")
    s.add_argument("--width", type=int, help="terminal width for the rendering")
    s.set_defaults(fn=cmd_show)
    s = sub.add_parser("actions", parents=[common], help="the legal actions of --token's seat, numbered")
    s.add_argument("game_id")
    s.set_defaults(fn=cmd_actions)
    s = sub.add_parser("act", parents=[common], help="submit an action (JSON, or a number from `actions`)")
    s.add_argument("game_id")
    s.add_argument("action")
    s.add_argument("--request-id")
    s.add_argument("--expected-version", type=int)
    s.set_defaults(fn=cmd_act)
    s = sub.add_parser("watch", parents=[common], help="print a game's events as they happen")
    s.add_argument("game_id")
    s.add_argument("--after", type=int, default=0, help="start after this version (default 0: all)")
    s.set_defaults(fn=cmd_watch)
    s = sub.add_parser("bot", parents=[common], help="play --token's seat with random legal actions to the end")
    s.add_argument("game_id")
    s.add_argument("--seed", type=int)
    s.add_argument("--max-actions", type=int, default=100_000)
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(fn=cmd_bot)
    _add_play(sub, common)
    from .match import add_arguments as match_arguments

    s = sub.add_parser("match", parents=[common], help="quick match (a portal user's JWT as --token), then play")
    match_arguments(s)
    s.set_defaults(fn=cmd_match)
    from .loadtest import add_arguments

    s = sub.add_parser("loadtest", parents=[common], help="play many complete games against a server")
    add_arguments(s)
    s.set_defaults(fn=cmd_loadtest)
    return p


def _set_language(tag: str | None) -> None:
    i18n = _i18n()
    if i18n is None:  # nothing is rendered
        return
    if tag and not i18n.known_language(tag):
        raise usage_error(f"--lang: no texts in {tag!r}; the languages are {', '.join(i18n.LANGS)}")
    i18n.set_language(tag)


def main(argv: Sequence[str] | None = None, prog: str = "tablero") -> int:
    plain_output()
    args = parser(prog).parse_args(list(sys.argv[1:] if argv is None else argv))
    if getattr(args, "lang", None) or "lang" in args:
        _set_language(getattr(args, "lang", None))
    try:
        return int(args.fn(args) or 0)
    except TableroError as e:
        print(f"error: {refusal(e)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("rich", "prompt_toolkit"):
            print(f"error: this verb needs {e.name}: pip install 'tablero-client[cli]'", file=sys.stderr)
            return 2
        raise
    except BrokenPipeError:
        return 0


def run() -> None:
    sys.exit(main(prog="tablero-client"))


__all__ = ["main", "parser", "play_random"]
