"""Bot strength and speed (issue 34): round robins of the levels per engine, solo New Bedford
against Captains, solo Founders; win rates with 95 % confidence intervals (Wilson), and the
time per decision (p50/p95, the level's own thinking; legal actions listed outside), as CPU
seconds of the thinking thread (what "one core" gives it) and as wall time (which a busy shared
machine inflates).

    python bench/bots.py                          # everything, 200 games per pairing (hours)
    python bench/bots.py --games 20 --jobs 2      # fewer games, two processes
    python bench/bots.py --engines riverboat --pairings hard-easy --hard-seconds 0.3
    python bench/bots.py --solo-only --games 20
    python bench/bots.py --engines new-bedford --pairings hard-medium --budget rollout_plies=3,hard_candidates=8
    python bench/bots.py --latency [--moves 300]  # human moves' latency with and without 20 hard bot games

A pairing "a-b" at n players seats level a in one seat and b in the others; the seats rotate
game by game (a sits in seat g mod n), so no level keeps the first move. A game counts as a
win of a when a is among the winners (a shared win counts half). Solo: the win rate of one
seat against the Captains or the solo rules. Budgets are the engines' own (`evaluation.py`)
unless --hard-seconds / --medium-seconds / --budget replace them; say so when quoting figures.
Games are dealt game by game across the pairings, so a run stopped early (its last --progress
table) has about as many games in every row.

Besides the bot levels, a pairing may name the pseudo-level `first`: a player that always plays
the FIRST listed legal action (`legal_actions(...)[0]`, no thinking). In Phoenicia that opens an
auction on the first card at its minimum bid and always raises by one while it can pay (an
outside player's strategy that beat Phoenicia's medium bot 2 games in 3):

    python bench/bots.py --engines phoenicia --pairings medium-first,hard-first --counts 2 --games 100
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.engines.core import LocalGame, search  # noqa: E402

from tablero import engines  # noqa: E402

ENGINES = ("new-bedford", "riverboat", "phoenicia", "founders-of-gloomhaven")
# The most common table per engine (the box's sweet spot), besides 2 players.
COMMON = {"new-bedford": 3, "riverboat": 3, "phoenicia": 4, "founders-of-gloomhaven": 3}
PAIRINGS = ("hard-easy", "hard-medium", "medium-easy")
FIRST = "first"  # pseudo-level: always the first listed legal action (module docstring)
MAX_DECISIONS = 5000  # a game still running after this many decisions counts as unfinished (not a win)


def _budget(name: str, hard: float | None, medium: float | None, extra: dict | None = None) -> None:
    engine = engines.get(name)
    ev = search.evaluation(engine)
    b = dataclasses.replace(ev.budget, **(extra or {}))
    if hard is not None:
        b = dataclasses.replace(b, hard_seconds=hard)
    if medium is not None:
        b = dataclasses.replace(b, medium_seconds=medium)
    search._EVALUATIONS[name] = dataclasses.replace(ev, budget=b)  # keeps the engine's other hooks


def play(name: str, levels: list[str], seed: int, options: dict | None, hard: float | None,
         medium: float | None, extra: dict | None = None) -> dict:
    """One game; levels per seat. Returns winners and per-level decision times."""
    _budget(name, hard, medium, extra)
    g = LocalGame(name, seats=len(levels), seed=seed, options=options)
    engine = g.engine
    rng = random.Random(seed * 7919 + 1)
    times: dict[str, list[float]] = {lv: [] for lv in set(levels)}
    cpu: dict[str, list[float]] = {lv: [] for lv in set(levels)}
    decisions = 0
    while g.outcome() is None and decisions < MAX_DECISIONS:
        decisions += 1
        seat = min(g.to_act())
        actions = g.legal_actions(seat)
        t, c = time.perf_counter(), time.thread_time()
        action = actions[0] if levels[seat] == FIRST else \
            search.choose(engine, g.state, seat, levels[seat], rng, actions).action
        times[levels[seat]].append(time.perf_counter() - t)
        cpu[levels[seat]].append(time.thread_time() - c)
        g.act(seat, action)
    if g.outcome() is None:  # a game that does not end (seen: Phoenicia, medium vs easy, seed 74)
        return {"winners": [], "unfinished": True, "times": times, "cpu": cpu}
    out = {"winners": g.outcome().get("winners") or [], "times": times, "cpu": cpu}
    if len(levels) == 1 and name == "founders-of-gloomhaven":  # solo Founders: how it ended
        out["reason"] = g.outcome().get("reason")
        out["completions"] = g.state["completions"]
    return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _jobs(args) -> list[tuple[str, str, list[str], int, dict | None, int]]:
    """(label, engine, levels per seat, seed, options, the seat whose wins count) per game."""
    out = []
    if not args.solo_only:
        for name in args.engines:
            for n in sorted({2, COMMON[name]} if args.counts == "both" else {int(args.counts)}):
                for pairing in args.pairings:
                    a, b = pairing.split("-")
                    for gi in range(args.first_seed, args.first_seed + args.games):
                        levels = [b] * n
                        levels[gi % n] = a
                        out.append((f"{name} {n}p {pairing}", name, levels, gi, None, gi % n))
    if args.solo or args.solo_only:  # the solo games of the engines named (all by default)
        for level in args.solo_levels:
            if "new-bedford" in args.engines:
                for caps in (["starbuck"], ["starbuck", "ahab", "flask"]):
                    for gi in range(args.first_seed, args.first_seed + args.games):
                        out.append((f"new-bedford solo {level} vs {len(caps)} Captain(s)", "new-bedford", [level],
                                    gi, {"captains": caps}, 0))
            if "founders-of-gloomhaven" in args.engines:
                for gi in range(args.first_seed, args.first_seed + args.games):
                    out.append((f"founders-of-gloomhaven solo {level}", "founders-of-gloomhaven", [level], gi, None,
                                0))
    # Game by game across the pairings, so that a run stopped early (--progress) has as many
    # games in every row.
    return sorted(out, key=lambda j: j[3])


def _run(job, hard, medium, extra=None):
    label, name, levels, seed, options, hero = job
    r = play(name, levels, seed, options, hard, medium, extra)
    return label, hero, r


def _server(env: dict[str, str]):
    import os
    import socket
    import subprocess

    import httpx

    ports = []
    for _ in range(2):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            ports.append(sock.getsockname()[1])
    proc = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--host", "127.0.0.1", "--grpc-port",
                             str(ports[0]), "--http-port", str(ports[1])],
                            env={**os.environ, "TABLERO_SECRET": "bench-secret-0123456789", **env},
                            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{ports[1]}"
    for _ in range(300):
        try:
            if httpx.get(url + "/readyz", timeout=0.5).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def _human_moves(url: str, moves: int, rng: random.Random) -> list[float]:
    """Seconds per SubmitAction of people playing Riverboat hot-seat games (random legal moves)."""
    import httpx

    out: list[float] = []
    with httpx.Client(base_url=url, timeout=30) as h:
        while len(out) < moves:
            g = h.post("/v1/games", json={"engine": "riverboat", "players": 2}).json()
            gid, tokens = g["game"]["id"], {s["seat"]: s["token"] for s in g["seats"]}
            game = g["game"]
            while game["status"] != "GAME_STATUS_FINISHED" and len(out) < moves:
                seat = game["toAct"][0]
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                acts = h.get(f"/v1/games/{gid}/legal-actions", headers=auth).json()["actions"]
                t = time.perf_counter()
                r = h.post(f"/v1/games/{gid}/actions", headers=auth, json={"action": rng.choice(acts)})
                out.append(time.perf_counter() - t)
                r.raise_for_status()
                game = r.json()
                game = game.get("game", game)
    return out


def latency(moves: int, bot_games: int, env: dict[str, str] | None = None) -> int:
    """Human moves' p50/p99 on a `tablero serve` (its default pool of bot processes), alone and
    while `bot_games` hard-vs-hard Riverboat games run on it."""
    import httpx

    proc, url = _server(env or {})
    try:
        _human_moves(url, 40, random.Random(0))  # warm up
        alone = _human_moves(url, moves, random.Random(1))
        ids = [httpx.post(url + "/v1/games", json={"engine": "riverboat", "seats": ["bot:hard", "bot:hard"]},
                          timeout=30).json()["game"]["id"] for _ in range(bot_games)]
        def versions() -> int:
            return sum(httpx.get(f"{url}/v1/games/{g}", timeout=30).json()["version"] for g in ids)

        v0 = versions()
        for _ in range(60):  # measure once the bots are thinking (their pool warm), if they get the CPU
            if versions() > v0 + 2:
                break
            time.sleep(0.2)
        v0 = versions()
        t0 = time.perf_counter()
        busy = _human_moves(url, moves, random.Random(1))
        elapsed = time.perf_counter() - t0
        v1 = versions()
    finally:
        proc.terminate()
        proc.wait(30)
    print(f"# bench/bots.py --latency --moves {moves}: human Riverboat moves (SubmitAction) on one server")
    for label, xs in (("alone", alone), (f"with {bot_games} hard bot games", busy)):
        print(f"{label:28} n={len(xs)}  p50 {_pct(xs, .5) * 1000:.1f} ms  p99 {_pct(xs, .99) * 1000:.1f} ms")
    print(f"p99 ratio {_pct(busy, .99) / _pct(alone, .99):.2f}; the bot games advanced {v1 - v0} versions meanwhile "
          f"({elapsed:.0f} s)")
    return 0


def _report(results: dict[str, dict], argv, started: float, json_path: str | None, partial: bool = False) -> None:
    print(f"# bench/bots.py {' '.join(argv if argv is not None else sys.argv[1:])}  ({time.time() - started:.0f} s)")
    print(f"{'pairing':46} {'games':>5} {'win rate':>8} {'95% CI':>15}   per decision, ms: CPU p50/p95 (wall p50/p95)")
    out = {}
    for label in sorted(results):
        row = results[label]
        lo, hi = wilson(row["wins"], row["games"])
        rate = row["wins"] / row["games"]
        t = "  ".join(f"{lv} {_pct(row['cpu'][lv], .5) * 1000:.1f}/{_pct(row['cpu'][lv], .95) * 1000:.1f}"
                      f" ({_pct(ts, .5) * 1000:.0f}/{_pct(ts, .95) * 1000:.0f})"
                      for lv, ts in sorted(row["times"].items()) if lv not in ("easy", FIRST))
        if row.get("unfinished"):
            t += f"  [{row['unfinished']} unfinished]"
        if row.get("reasons"):  # solo Founders: the ends and the buildings completed (of 6)
            t += "  [" + ", ".join(f"{k} {v}" for k, v in sorted(row["reasons"].items())) + \
                 f"; completions mean {sum(row['completions']) / len(row['completions']):.2f}]"
        print(f"{label:46} {row['games']:>5} {rate:>8.1%} [{lo:5.1%}, {hi:5.1%}]   {t}")
        out[label] = {"games": row["games"], "win_rate": rate, "ci95": [lo, hi],
                      "cpu_p50_ms": {lv: _pct(ts, .5) * 1000 for lv, ts in row["cpu"].items()},
                      "cpu_p95_ms": {lv: _pct(ts, .95) * 1000 for lv, ts in row["cpu"].items()},
                      "wall_p50_ms": {lv: _pct(ts, .5) * 1000 for lv, ts in row["times"].items()},
                      "wall_p95_ms": {lv: _pct(ts, .95) * 1000 for lv, ts in row["times"].items()}}
        if row.get("reasons"):
            out[label]["ends"] = dict(row["reasons"])
            out[label]["completions"] = list(row["completions"])
    if partial:
        print(f"# (partial: {sum(r['games'] for r in results.values())} games so far)", flush=True)
    if json_path:
        Path(json_path).write_text(json.dumps(out, indent=1))


def _fields(text: str) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        key, _, val = item.partition("=")
        kind = type(getattr(search.Budget(), key))
        out[key] = (val in ("1", "true")) if kind is bool else kind(float(val)) if kind is int else kind(val)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    p.add_argument("--first-seed", type=int, default=0,
                   help="seed of the first game (a second run on other games: --first-seed 1000)")
    p.add_argument("--engines", type=lambda s: s.split(","), default=list(ENGINES))
    p.add_argument("--pairings", type=lambda s: s.split(","), default=list(PAIRINGS))
    p.add_argument("--counts", default="both", help='"both" (2 and the common count) or one player count')
    p.add_argument("--solo", action="store_true", help="also the solo games")
    p.add_argument("--solo-only", action="store_true")
    p.add_argument("--solo-levels", type=lambda s: s.split(","), default=["easy", "hard"])
    p.add_argument("--hard-seconds", type=float, help="replace the engines' hard budget")
    p.add_argument("--medium-seconds", type=float, help="replace the engines' medium budget")
    p.add_argument("--budget", type=_fields, default={},
                   help="replace Budget fields of every engine, e.g. rollout_plies=4,hard_candidates=8")
    p.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    p.add_argument("--json", help="write the results to this file too")
    p.add_argument("--progress", type=int, default=0, help="print the table so far every N games")
    p.add_argument("--latency", action="store_true", help="measure human moves' latency beside hard bot games")
    p.add_argument("--moves", type=int, default=300, help="--latency: human moves measured per run")
    p.add_argument("--bot-games", type=int, default=20, help="--latency: hard bot games running")
    p.add_argument("--bot-processes", help="--latency: the server's TABLERO_BOT_PROCESSES (default: its own)")
    p.add_argument("--bot-nice", help="--latency: the server's TABLERO_BOT_NICE (default: its own)")
    args = p.parse_args(argv)
    if args.latency:
        env = {"TABLERO_BOT_PROCESSES": args.bot_processes, "TABLERO_BOT_NICE": args.bot_nice}
        return latency(args.moves, args.bot_games, {k: v for k, v in env.items() if v})
    jobs = _jobs(args)
    results: dict[str, dict] = {}
    started = time.time()
    done = 0
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(_run, j, args.hard_seconds, args.medium_seconds, args.budget) for j in jobs]
        for f in concurrent.futures.as_completed(futs):
            label, seat, r = f.result()
            row = results.setdefault(label, {"games": 0, "wins": 0.0, "times": {}, "cpu": {}})
            row["games"] += 1
            row["unfinished"] = row.get("unfinished", 0) + bool(r.get("unfinished"))
            if seat in r["winners"]:
                row["wins"] += 1 / len(r["winners"])
            if "reason" in r:
                row.setdefault("reasons", {})[r["reason"]] = row.get("reasons", {}).get(r["reason"], 0) + 1
                row.setdefault("completions", []).append(r["completions"])
            for key in ("times", "cpu"):
                for lv, ts in r[key].items():
                    row[key].setdefault(lv, []).extend(ts)
            done += 1
            if args.progress and done % args.progress == 0 and done < len(futs):
                _report(results, argv, started, None, partial=True)
    _report(results, argv, started, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
