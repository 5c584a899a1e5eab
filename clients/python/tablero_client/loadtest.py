"""`tablero loadtest`: complete, legal games of the chosen engines, played concurrently against a
server over REST or gRPC, optionally with a live watch per seat, then a report.

The workload is that of peers/tablero/loadgen.js: C workers each create a game (every seat
human, tokens in the answer), optionally open one watch per seat, play the whole game with
random legal moves (one move in flight per game) and start the next, until --duration is up
(no game starts after it; games in flight get --grace more seconds) or --games were started.

Call kinds timed: CreateGame, ListLegalActions, SubmitAction, WatchOpen (a game's watches, one
per seat, opened together until every one is ready: one figure per game, not per watch) and
Notify (a move sent -> every other seat's watch delivered its first event).
Tic-Tac-Toe moves come from the view (empty cells), as loadgen.js does; other engines ask
ListLegalActions for every move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import math
import os
import random
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from ._lean import LeanRestTransport
from ._rest import AsyncRestTransport
from .client import AsyncClient
from .errors import Aborted, TableroError
from .models import Game

CALLS = ("CreateGame", "ListLegalActions", "SubmitAction", "WatchOpen", "Notify")


class Usage(Exception):
    """A usage error found by the verb itself (a bad value, an engine the server does not run): said
    in one line, exit status 2 as argparse's own errors (1 is a failed run)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engines", default="tic-tac-toe",
                   help="comma-separated engines, played in turn by each worker (default tic-tac-toe)")
    p.add_argument("--players", type=int, help="seats per game (default: each engine's minimum)")
    p.add_argument("--concurrency", "-c", type=int, default=10, help="games in flight at once (default 10)")
    p.add_argument("--duration", "-d", type=float, default=10.0, help="seconds during which games start (default 10)")
    p.add_argument("--games", "-n", type=int, help="stop after starting this many games, 1 or more (default: no cap)")
    p.add_argument("--grace", type=float, default=15.0,
                   help="seconds games in flight get after --duration before they are abandoned (default 15)")
    p.add_argument("--watch", action="store_true", help="one live watch per seat; reports notify latency")
    p.add_argument("--http-client", choices=["lean", "httpx"], default="lean",
                   help="REST unary calls over a lean HTTP/1.1 connection per worker (default) or the SDK's httpx")
    p.add_argument("--compare", action="store_true",
                   help="the same load over REST (--url) and over gRPC (--grpc, default 127.0.0.1:50051), "
                        "alternately, then both side by side with gRPC's ratios to REST")
    p.add_argument("--rounds", type=int, default=1, help="with --compare: REST/gRPC pairs (default 1); "
                                                          "the comparison takes each transport's median")
    p.add_argument("--max-errors", type=int, default=0, metavar="N",
                   help="exit 1 when the run had more than N failed calls and abandoned games together "
                        "(default 0: any error or abandoned game fails the run)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json-out", metavar="PATH", help="also write the report as JSON to PATH")
    p.add_argument("--no-progress", action="store_true", help="no live progress bar")
    p.add_argument("--i-mean-it", action="store_true",
                   help="allow a target that is not on this machine (loopback); never aim at a server you don't run")


def pct(xs: list[float], p: float) -> float | None:
    """The same percentile as loadgen.js: sorted[round(p/100 * (n-1))]."""
    if not xs:
        return None
    s = sorted(xs)
    i = math.floor(p / 100 * (len(s) - 1) + 0.5)  # JavaScript's Math.round
    return round(s[min(len(s) - 1, max(0, i))], 3)


def loopback_only(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror:
        return False
    return bool(infos) and all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback for i in infos)


def target_host(args: argparse.Namespace) -> str:
    if args.grpc:
        host = args.grpc.rsplit(":", 1)[0]
        return host.strip("[]")
    return urlsplit(args.url).hostname or ""


class Stats:
    def __init__(self, deadline: float) -> None:
        self.lat: dict[str, list[float]] = {k: [] for k in CALLS}
        self.errors: Counter[str] = Counter()
        self.error_samples: list[str] = []
        self.deadline = deadline
        self.games_started = self.games_finished = self.games_abandoned = 0
        self.attempts = 0  # games begun, created or not (--games caps these)
        self.games_in_window = self.actions = self.actions_in_window = 0
        self.conflicts = 0
        self.game_ms: list[float] = []

    def time(self, kind: str, t0: float) -> float:
        t = time.perf_counter()
        self.lat[kind].append((t - t0) * 1000)
        return t

    def error(self, e: BaseException) -> None:
        code = e.code if isinstance(e, TableroError) else f"CLIENT_{type(e).__name__}"
        self.errors[code] += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{code}: {getattr(e, 'message', e)}"[:300])


class Watches:
    """One watch per seat; waiters keyed by version are resolved when that seat's stream delivers it."""

    def __init__(self, client: AsyncClient, game: Game, tokens: dict[int, str], stats: Stats) -> None:
        self.client, self.game, self.tokens, self.stats = client, game, tokens, stats
        self.seen: dict[int, set[int]] = {s: set() for s in tokens}
        self.waiters: dict[tuple[int, int], asyncio.Future] = {}
        self.ready: dict[int, asyncio.Future] = {}
        self.tasks: list[asyncio.Task] = []

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        for seat, token in self.tokens.items():
            self.ready[seat] = loop.create_future()
            self.tasks.append(asyncio.create_task(self._run(seat, token)))
        # A watch is open once its stream answered: the game's first event (version 1) arrives at once.
        await asyncio.gather(*self.ready.values())
        self.stats.time("WatchOpen", t0)

    async def _run(self, seat: int, token: str) -> None:
        try:
            async for ev in self.client.watch(self.game.id, token, after_version=self.game.version - 1):
                self.seen[seat].add(ev.version)
                if not self.ready[seat].done():
                    self.ready[seat].set_result(None)
                w = self.waiters.pop((seat, ev.version), None)
                if w and not w.done():
                    w.set_result(time.perf_counter())
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - reported, the game goes on without this watch
            self.stats.error(e)
            if not self.ready[seat].done():
                self.ready[seat].set_exception(e)

    def expect(self, mover: int, version: int) -> list[asyncio.Future]:
        loop = asyncio.get_running_loop()
        futs = []
        for seat in self.tokens:
            if seat == mover:
                continue
            f = loop.create_future()
            if version in self.seen[seat]:
                f.set_result(time.perf_counter())
            else:
                self.waiters[(seat, version)] = f
            futs.append(f)
        return futs

    async def close(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def view_moves(game: Game) -> list[dict[str, Any]] | None:
    """Legal moves read from the view where that is exact (Tic-Tac-Toe), as loadgen.js does."""
    if game.engine == "tic-tac-toe":
        return [{"type": "place", "cell": i} for i, v in enumerate(game.view["board"]) if v is None]
    return None


async def play_game(client: AsyncClient, engine: str, players: int | None, watch: bool, rng: random.Random,
                    stats: Stats, op_timeout: float, made: list[bool] | None = None) -> None:
    g0 = t0 = time.perf_counter()
    created = await client.create(engine, players)
    stats.time("CreateGame", t0)
    stats.games_started += 1
    if made is not None:
        made.append(True)
    game = created.game
    tokens = {s.seat: s.token for s in created.seats}
    watches = Watches(client, game, tokens, stats) if watch else None
    try:
        if watches:
            await watches.open()
        failures = 0
        while not game.finished:
            mover = game.to_act[0]
            token = tokens[mover]
            moves = view_moves(game)
            try:
                if moves is None:
                    t0 = time.perf_counter()
                    moves = (await client.legal_actions(game.id, token)).actions
                    stats.time("ListLegalActions", t0)
                if not moves:
                    raise TableroError(f"seat {mover} must act but has no legal action")
                action = rng.choice(moves)
                waits = watches.expect(mover, game.version + 1) if watches else []
                t0 = time.perf_counter()
                game = await client.act(game.id, token, action)
                t1 = stats.time("SubmitAction", t0)
                stats.actions += 1
                if t1 <= stats.deadline:
                    stats.actions_in_window += 1
                if waits:
                    done = await asyncio.wait_for(asyncio.gather(*waits), op_timeout)
                    stats.lat["Notify"].append((max(done) - t0) * 1000)
            except Aborted as e:  # a version conflict: read the game again and go on
                stats.conflicts += 1
                stats.error(e)
                game = await client.game(game.id, token)
            except (TableroError, TimeoutError) as e:
                stats.error(e)
                failures += 1
                if failures > 5:
                    raise
                game = await client.game(game.id, token)
        stats.games_finished += 1
        t = time.perf_counter()
        stats.game_ms.append((t - g0) * 1000)
        if t <= stats.deadline:
            stats.games_in_window += 1
    finally:
        if watches:
            await watches.close()


async def _run(args: argparse.Namespace, progress: Any) -> dict[str, Any]:
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    # gRPC: one channel, multiplexed. REST: one shared httpx pool for the watches and, by default,
    # a lean keep-alive connection per worker for the unary calls (--http-client httpx: the SDK's
    # httpx for everything, one pool per worker: a shared async pool costs more CPU as it grows).
    if args.grpc:
        client = AsyncClient(grpc=args.grpc, timeout=args.timeout)
        clients = [client] * args.concurrency
    else:
        conns = args.concurrency * ((args.players or 4) + 1) + 16
        client = AsyncClient(rest=args.url, timeout=args.timeout, max_connections=conns)
        if args.http_client == "lean" and urlsplit(args.url).scheme == "http":
            assert isinstance(client.transport, AsyncRestTransport)
            http = client.transport.http
            clients = [AsyncClient(transport=LeanRestTransport(args.url, args.timeout, http=http))
                       for _ in range(args.concurrency)]
        else:
            clients = [client] + [AsyncClient(rest=args.url, timeout=args.timeout, max_connections=8)
                                  for _ in range(args.concurrency - 1)]
    try:
        known = {e.name: e for e in await client.engines()}
        for e in engines:
            if e not in known:
                raise Usage(f"the server runs no engine {e!r}; it has {', '.join(sorted(known))}")
            lo, hi = known[e].min_seats, known[e].max_seats
            if args.players is not None and not lo <= args.players <= hi:
                raise Usage(f"--players {args.players}: {known[e].title} takes "
                                 f"{lo if lo == hi else f'{lo} to {hi}'} players")
        t_start = time.perf_counter()
        stats = Stats(t_start + args.duration)
        hard = stats.deadline + args.grace
        rng = random.Random(args.seed)

        async def worker(w: int) -> None:
            wrng = random.Random(rng.random())
            wclient = clients[w]
            i = 0
            while time.perf_counter() < stats.deadline and (not args.games or stats.attempts < args.games):
                stats.attempts += 1
                engine = engines[(w + i) % len(engines)]
                i += 1
                made: list[bool] = []  # a game counts as started (and abandoned) once it was created
                try:
                    await play_game(wclient, engine, args.players, args.watch, wrng, stats, args.timeout, made)
                except asyncio.CancelledError:
                    stats.games_abandoned += bool(made)
                    raise
                except Exception as e:  # noqa: BLE001 - counted; the worker starts another game
                    stats.error(e)
                    stats.games_abandoned += bool(made)

        async def ticker() -> None:
            while True:
                if progress:
                    progress(stats, time.perf_counter() - t_start)
                await asyncio.sleep(0.25)

        tick = asyncio.create_task(ticker())
        workers = [asyncio.create_task(worker(w)) for w in range(args.concurrency)]
        _done, pending = await asyncio.wait(workers, timeout=max(0.0, hard - time.perf_counter()))
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        tick.cancel()
        wall = time.perf_counter() - t_start
        if progress:
            progress(stats, wall)
        return report(args, engines, stats, wall, sum(c.retry_count for c in set(clients)))
    finally:
        for c in {client, *clients}:
            await c.close()


def report(args: argparse.Namespace, engines: list[str], stats: Stats, wall: float, retries: int) -> dict[str, Any]:
    window = min(wall, args.duration)
    calls = {}
    for k, xs in stats.lat.items():
        if xs:
            calls[k] = {"count": len(xs), "p50_ms": pct(xs, 50), "p95_ms": pct(xs, 95), "p99_ms": pct(xs, 99),
                        "max_ms": pct(xs, 100)}
    return {
        "target": args.grpc or args.url, "transport": "grpc" if args.grpc else "rest",
        "http_client": None if args.grpc else args.http_client, "engines": engines,
        "concurrency": args.concurrency, "watch": bool(args.watch), "duration_s": args.duration,
        "window_s": round(window, 2), "wall_s": round(wall, 2),
        "games_started": stats.games_started, "games_finished": stats.games_finished,
        "games_abandoned": stats.games_abandoned,
        "games_per_s": round(stats.games_in_window / window, 1) if window else 0.0,
        "actions": stats.actions, "actions_per_s": round(stats.actions_in_window / window, 1) if window else 0.0,
        "calls": calls,
        "notify": calls.get("Notify"),
        "game_p50_ms": pct(stats.game_ms, 50), "game_p99_ms": pct(stats.game_ms, 99),
        "errors": dict(stats.errors), "error_samples": stats.error_samples,
        "conflicts": stats.conflicts, "retries": retries,
    }


def print_report(rep: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(highlight=False)
    con.print(f"[bold]loadtest[/bold] {rep['transport']} {rep['target']}  engines {', '.join(rep['engines'])}  "
              f"concurrency {rep['concurrency']}  watch {'on' if rep['watch'] else 'off'}  "
              f"window {rep['window_s']} s (wall {rep['wall_s']} s)")
    con.print(f"games finished {rep['games_finished']} (started {rep['games_started']}, abandoned "
              f"{rep['games_abandoned']})  games/s {rep['games_per_s']}  actions {rep['actions']}  "
              f"actions/s {rep['actions_per_s']}")
    t = Table("call", "count", "p50 ms", "p95 ms", "p99 ms", "max ms")
    for k, c in rep["calls"].items():
        t.add_row(k, str(c["count"]), *(f"{c[f]:.2f}" for f in ("p50_ms", "p95_ms", "p99_ms", "max_ms")))
    con.print(t)
    errs = ", ".join(f"{k} {v}" for k, v in sorted(rep["errors"].items())) or "none"
    con.print(f"errors: {errs}  version conflicts: {rep['conflicts']}  retries: {rep['retries']}")
    for s in rep["error_samples"]:
        con.print(f"  [dim]{s}[/dim]")


DEFAULT_GRPC = "127.0.0.1:50051"


def compare(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Each transport's median actions/s and SubmitAction p50/p99 over its rounds, and gRPC's
    ratios to REST (actions/s: higher is better; latencies: lower is better)."""
    def median(xs: list[float]) -> float | None:
        xs = sorted(x for x in xs if x is not None)
        return xs[len(xs) // 2] if xs else None

    out: dict[str, Any] = {}
    for transport in ("rest", "grpc"):
        mine = [r for r in reports if r["transport"] == transport]
        submit = [r["calls"].get("SubmitAction") or {} for r in mine]
        out[transport] = {"rounds": len(mine), "actions_per_s": median([r["actions_per_s"] for r in mine]),
                          "submit_p50_ms": median([c.get("p50_ms") for c in submit]),
                          "submit_p99_ms": median([c.get("p99_ms") for c in submit]),
                          "errors": sum(sum(r["errors"].values()) for r in mine)}
    rest, grpc = out["rest"], out["grpc"]
    out["ratio"] = {k: round(grpc[k] / rest[k], 2) if grpc[k] and rest[k] else None
                    for k in ("actions_per_s", "submit_p50_ms", "submit_p99_ms")}
    return out


def print_comparison(cmp: dict[str, Any], watch: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(f"transport (watch {'on' if watch else 'off'})", "rounds", "actions/s", "SubmitAction p50 ms",
              "SubmitAction p99 ms", "errors")
    for k in ("rest", "grpc"):
        c = cmp[k]
        t.add_row(k, str(c["rounds"]), *(f"{c[f]:.1f}" if c[f] is not None else "-"
                                         for f in ("actions_per_s", "submit_p50_ms", "submit_p99_ms")), str(c["errors"]))
    r = cmp["ratio"]
    t.add_row("grpc / rest", "", *(f"{r[f]:.2f}x" if r[f] is not None else "-"
                                   for f in ("actions_per_s", "submit_p50_ms", "submit_p99_ms")), "")
    Console(highlight=False).print(t)


def _compare(args: argparse.Namespace) -> int:
    """--compare: REST and gRPC rounds, alternately, against the same server."""
    import copy

    if args.rounds < 1:
        raise Usage(f"--rounds must be 1 or more, not {args.rounds}")
    grpc_target = args.grpc or DEFAULT_GRPC
    for host in (urlsplit(args.url).hostname or "", grpc_target.rsplit(":", 1)[0].strip("[]")):
        if not loopback_only(host) and not args.i_mean_it:
            print(f"refusing to load-test {host!r}: it is not a loopback address of this machine. "
                  "Pass --i-mean-it if you run that server and mean to load it.", file=sys.stderr)
            return 2
    reports = []
    for _ in range(args.rounds):
        for transport in ("rest", "grpc"):
            one = copy.copy(args)
            one.grpc = grpc_target if transport == "grpc" else None
            reports.append(asyncio.run(_run(one, None)))
    out = {"compare": compare(reports), "reports": reports}

    def show() -> None:
        for rep in reports:
            print_report(rep)
        print_comparison(out["compare"], bool(args.watch))

    written = _emit(args, out, show)
    return verdict(reports, args.max_errors) or (0 if written else 1)


def verdict(reports: list[dict[str, Any]], max_errors: int) -> int:
    """The exit status of a run: 1 when no game finished and calls failed, or when its failed calls
    and abandoned games together exceed `max_errors` (said on stderr); else 0."""
    if any(r["errors"] and not r["games_finished"] for r in reports):
        print("loadtest: no game was finished; every attempt failed (errors above)", file=sys.stderr)
        return 1
    errors = sum(sum(r["errors"].values()) for r in reports)
    abandoned = sum(r["games_abandoned"] for r in reports)
    if errors + abandoned > max_errors:
        print(f"loadtest: {errors} failed call(s) and {abandoned} abandoned game(s), more than --max-errors "
              f"{max_errors}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    """The verb: exit status 0 for a good run, 1 for a failed one (verdict) or a report that could not
    be written to --json-out, 2 for a usage error (as argparse's own)."""
    try:
        return _checked_run(args)
    except Usage as e:
        print(f"loadtest: {e}", file=sys.stderr)
        return 2


def _checked_run(args: argparse.Namespace) -> int:
    for bad, what in ((args.concurrency < 1, f"--concurrency must be 1 or more, not {args.concurrency}"),
                      (args.duration <= 0, f"--duration must be more than 0 seconds, not {args.duration:g}"),
                      (args.games is not None and args.games < 1, f"--games must be 1 or more, not {args.games} "
                                                                   "(without -n: no cap)"),
                      (args.grace < 0, f"--grace must be 0 seconds or more, not {args.grace:g}"),
                      (args.players is not None and args.players < 1, f"--players must be 1 or more, not {args.players}"),
                      (args.max_errors < 0, f"--max-errors must be 0 or more, not {args.max_errors}"),
                      (args.rounds != 1 and not args.compare, "--rounds applies to --compare only")):
        if bad:
            raise Usage(what)
    if args.json_out:  # checked now, not after the whole run
        _check_json_out(args.json_out)
    if not [e for e in args.engines.split(",") if e.strip()]:
        raise Usage("--engines names no engine: give one or more, comma-separated (e.g. tic-tac-toe,riverboat)")
    if args.compare:
        return _compare(args)
    host = target_host(args)
    if not loopback_only(host) and not args.i_mean_it:
        print(f"refusing to load-test {host!r}: it is not a loopback address of this machine. "
              "Pass --i-mean-it if you run that server and mean to load it.", file=sys.stderr)
        return 2
    progress: Callable[[Stats, float], None] | None = None
    if not args.no_progress and sys.stderr.isatty():
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("[bold]loadtest"), BarColumn(), TextColumn("{task.description}"),
                       TimeElapsedColumn(), transient=False)
        task = bar.add_task("", total=args.duration)
        bar.start()

        def show(stats: Stats, elapsed: float) -> None:
            errors = sum(stats.errors.values())
            bar.update(task, completed=min(elapsed, args.duration),
                       description=f"games {stats.games_finished} actions {stats.actions} errors {errors}")

        progress = show
    try:
        rep = asyncio.run(_run(args, progress))
    finally:
        if progress:
            bar.stop()
    written = _emit(args, rep, lambda: print_report(rep))
    return verdict([rep], args.max_errors) or (0 if written else 1)


def _check_json_out(path: str) -> None:
    """--json-out before the run (after it, a bad path lost the whole run's report in a traceback):
    not a folder, in a folder that exists, and a file this process may open for writing (tried
    without truncating it; a file created for the try is removed)."""
    if os.path.isdir(path):
        raise Usage(f"--json-out {path!r} is a folder: name a file in it (e.g. {os.path.join(path, 'report.json')})")
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise Usage(f"--json-out: the folder of {path!r} does not exist")
    existed = os.path.lexists(path)
    try:  # (O_NONBLOCK: a named pipe nobody reads is refused, not waited on for ever)
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666))
    except OSError as e:
        raise Usage(f"--json-out: cannot write {path!r} ({e.strerror or e})") from None
    if not existed:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _emit(args: argparse.Namespace, report: dict[str, Any], show: Callable[[], None]) -> bool:
    """The report: written to --json-out, and printed as JSON (--json) or as tables. False when
    --json-out could not be written all the same (a full disk, /dev/full): the report is printed,
    and its JSON too, and stderr says so, rather than lost in a traceback."""
    text = json.dumps(report, indent=2)
    failed: OSError | None = None
    if args.json_out:
        try:
            with open(args.json_out, "w") as f:
                f.write(text + "\n")
        except OSError as e:
            failed = e
    if args.json:
        print(text)
    else:
        show()
        if failed is not None:
            print(text)
    if failed is not None:
        print(f"loadtest: the report could not be written to {args.json_out!r} ({failed.strerror or failed}); "
              "its JSON is printed on stdout instead", file=sys.stderr)
        return False
    return True
