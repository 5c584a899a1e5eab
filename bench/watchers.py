"""Live play at scale through the server: W SSE watchers on one `tablero serve` on Redis
(AOF everysec) while G games are played, against the same play without watchers.

    python bench/watchers.py                          # 2,000 watchers on 50 games (40 per game)
    python bench/watchers.py --watchers 400 --games 20
    python bench/watchers.py --serve-args "--workers 2"

Each game (Tic-Tac-Toe, random legal moves, two human seats) is played by one client
over REST, one move after another, all G games at once. Phase 1 plays G games without
watchers; phase 2 opens W/G SSE watches per game (raw sockets, `Accept:
text/event-stream`), waits until every one is open, then plays the G games. The two
phases alternate `--rounds` times (default 3), with new games and watchers each round: one
round has only ~380 writes per phase, too few for a steady p99. Printed as one JSON line:
errors, per watched round how many watchers received every event of their game in order
(versions 1..final, then `end`), write p50/p99 of both phases over every round (and the
p99 ratio of each round), and the most Redis connections the server held (CLIENT LIST
without the bench's own), sampled while the watchers are open. The machine may be shared:
compare the two phases of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402

from tests.redis_server import _answers_ping, _free_port, redis_server_binary  # noqa: E402


def pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * p / 100))] * 1000, 2)


class Watcher:
    def __init__(self, port: int, gid: str) -> None:
        self.port, self.gid = port, gid
        self.versions: list[int] = []
        self.ended = False
        self.error: str | None = None
        self.opened = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(f"GET /v1/games/{self.gid}/watch HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
                         .encode())
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                self.error = status.decode(errors="replace").strip()
                self.opened.set()
                return
            event = None
            while True:
                line = await reader.readline()
                if not line:
                    break
                line = line.rstrip(b"\r\n")
                if line.startswith(b": watching"):
                    self.opened.set()
                elif line.startswith(b"event: "):
                    event = line[7:].decode()
                elif line.startswith(b"data: "):
                    data = line[6:]
                    if event is None:
                        self.versions.append(json.loads(data)["version"])
                    elif event == "end":
                        self.ended = True
                        break
                    elif event != "keepalive":
                        self.error = f"{event}: {data[:200]!r}"
                        break
                    event = None
                elif not line:
                    event = None
            writer.close()
        except Exception as e:  # counted as an error
            self.error = repr(e)
        finally:
            self.opened.set()


async def play(client: httpx.AsyncClient, gid: str, tokens: list[str], lat: list[float], errors: list[str],
               rng: random.Random) -> int:
    version = 1
    board = [None] * 9
    seat = 0
    while True:
        cell = rng.choice([i for i, c in enumerate(board) if c is None])
        t = time.perf_counter()
        r = await client.post(f"/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": cell}},
                              headers={"authorization": f"Bearer {tokens[seat]}"})
        lat.append(time.perf_counter() - t)
        if r.status_code != 200:
            errors.append(f"{r.status_code} {r.text[:200]}")
            return version
        g = r.json()
        version, board = g["version"], g["view"]["board"]
        if g["status"] == "GAME_STATUS_FINISHED":
            return version
        seat = g["toAct"][0]


async def create(client: httpx.AsyncClient, n: int) -> list[tuple[str, list[str]]]:
    out = []
    for _ in range(n):
        r = (await client.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2})).json()
        out.append((r["game"]["id"], [s["token"] for s in r["seats"]]))
    return out


async def server_connections(r: aioredis.Redis) -> int:
    me = await r.client_id()
    return sum(1 for c in await r.client_list() if int(c["id"]) != me)


def _start(a: argparse.Namespace, rport: int, hport: int, gport: int) -> tuple[subprocess.Popen, subprocess.Popen]:
    """A throwaway redis-server (AOF everysec) and the server under test."""
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-watchers-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    redis_proc = subprocess.Popen([redis_server_binary(), "--port", str(rport), "--bind", "127.0.0.1", "--dir",
                                   str(tmp), "--save", "", "--appendonly", "yes", "--appendfsync", "everysec"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not _answers_ping(rport):
        time.sleep(0.05)
    env = dict(os.environ, TABLERO_REDIS_URL=f"redis://127.0.0.1:{rport}/0", TABLERO_HOST="127.0.0.1",
               TABLERO_HTTP_PORT=str(hport), TABLERO_GRPC_PORT=str(gport), TABLERO_LOG_LEVEL="warning",
               TABLERO_SECRET="bench-secret-0123456789abcdef")
    server = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", *shlex.split(a.serve_args)], env=env,
                              cwd=ROOT)
    return redis_proc, server


class _Tally:
    """What the rounds measured, added up."""

    def __init__(self) -> None:
        self.lat1: list[float] = []  # write latencies without watchers, every round
        self.lat2: list[float] = []  # with watchers
        self.wall1 = self.wall2 = self.open_s = 0.0
        self.errors: list[str] = []
        self.watch_errors: list[str] = []
        self.in_order: list[int] = []  # per watched round: watchers that got every event in order
        self.delivered = 0
        self.ratios: list[float | None] = []
        self.conns_idle = self.conns_watched = self.conns_played = 0


async def _round(a: argparse.Namespace, client: httpx.AsyncClient, r, hport: int, rng: random.Random,
                 t_: _Tally) -> None:
    # phase 1: G games, no watchers
    games = await create(client, a.games)
    t_.conns_idle = max(t_.conns_idle, await server_connections(r))
    mine1: list[float] = []
    t = time.perf_counter()
    await asyncio.gather(*(play(client, g, tk, mine1, t_.errors, rng) for g, tk in games))
    t_.wall1 += time.perf_counter() - t
    # phase 2: G new games, W watchers on them
    games = await create(client, a.games)
    per = a.watchers // a.games
    watchers = [Watcher(hport, g) for g, _ in games for _ in range(per)]
    t = time.perf_counter()
    for w in watchers:
        w.task = asyncio.ensure_future(w.run())
    await asyncio.wait_for(asyncio.gather(*(w.opened.wait() for w in watchers)), 120)
    t_.open_s = max(t_.open_s, time.perf_counter() - t)
    t_.conns_watched = max(t_.conns_watched, await server_connections(r))
    mine2: list[float] = []
    t = time.perf_counter()
    finals = await asyncio.gather(*(play(client, g, tk, mine2, t_.errors, rng) for g, tk in games))
    t_.wall2 += time.perf_counter() - t
    t_.conns_played = max(t_.conns_played, await server_connections(r))
    await asyncio.wait_for(asyncio.gather(*(w.task for w in watchers), return_exceptions=True), 60)
    final_of = {g: v for (g, _), v in zip(games, finals, strict=True)}
    t_.watch_errors += [w.error for w in watchers if w.error]
    t_.in_order.append(sum(w.versions == list(range(1, final_of[w.gid] + 1)) and w.ended for w in watchers))
    t_.delivered += sum(len(w.versions) for w in watchers)
    t_.ratios.append(round(pct(mine2, 99) / pct(mine1, 99), 2) if mine1 and mine2 else None)
    t_.lat1 += mine1
    t_.lat2 += mine2


def _report(a: argparse.Namespace, t: _Tally) -> dict:
    lat1, lat2 = t.lat1, t.lat2
    return {
        "serve_args": a.serve_args, "games": a.games, "watchers": a.watchers // a.games * a.games,
        "rounds": a.rounds, "write_errors": len(t.errors), "watch_errors": len(t.watch_errors),
        "error_samples": (t.errors + t.watch_errors)[:5],
        "watchers_complete_in_order": t.in_order,
        "events_delivered": t.delivered,
        "writes_no_watchers": len(lat1), "write_p50_ms_no_watchers": pct(lat1, 50),
        "write_p99_ms_no_watchers": pct(lat1, 99), "moves_per_s_no_watchers": round(len(lat1) / t.wall1, 1),
        "writes_watched": len(lat2), "write_p50_ms_watched": pct(lat2, 50), "write_p99_ms_watched": pct(lat2, 99),
        "moves_per_s_watched": round(len(lat2) / t.wall2, 1),
        "p99_ratio": round(pct(lat2, 99) / pct(lat1, 99), 2) if lat1 and lat2 else None,
        "p99_ratio_by_round": t.ratios,
        "watch_open_s": round(t.open_s, 2),
        "redis_connections_idle": t.conns_idle, "redis_connections_with_watchers": t.conns_watched,
        "redis_connections_after_play": t.conns_played,
    }


async def main(a: argparse.Namespace) -> dict:
    rport, hport, gport = _free_port(), _free_port(), _free_port()
    redis_proc, server = _start(a, rport, hport, gport)
    r = aioredis.from_url(f"redis://127.0.0.1:{rport}/0")
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hport}", timeout=60,
                                     limits=httpx.Limits(max_connections=a.games)) as client:
            for _ in range(300):
                try:
                    if (await client.get("/readyz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
            rng = random.Random(a.seed)
            tally = _Tally()
            for _ in range(a.rounds):
                await _round(a, client, r, hport, rng, tally)
        return _report(a, tally)
    finally:
        await r.aclose()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        redis_proc.kill()
        redis_proc.wait()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--watchers", type=int, default=2000)
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3,
                   help="phases played alternately this many times (fresh games and watchers each round); "
                        "the p99s are over every round's writes")
    p.add_argument("--serve-args", default="")
    print(json.dumps(asyncio.run(main(p.parse_args()))))
