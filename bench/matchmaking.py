"""Matchmaking across two replicas on one Redis, one of them SIGKILLed midway (issue 33).

    python bench/matchmaking.py                       # 2,000 tickets from 1,000 portal users
    python bench/matchmaking.py --users 100 --tickets 200   # the slow test's size

Every user gets a seeded Tic-Tac-Toe rating (mu ~ N(25, 6), sigma 3). Tickets arrive at
--rate per second, alternating replicas; 5 % are cancelled after 0.3-3 s, 10 % ask for bots
after 8 s, each expires after 30 s. When half the tickets are made, replica A is SIGKILLed:
the rest go to replica B, and a create that A never answered is retried on B with the same
requestId. The bench then waits until no ticket waits, and checks, from Redis and the game
store (over B's REST API):
  - every ticket made ended MATCHED, CANCELLED or EXPIRED (none lost, none stuck);
  - each game's seats hold exactly the users of the tickets matched to it, each user once;
  - no game was made twice for one match, and none holds a ticket's user without its ticket.
It prints the median and p99 time to match (server clocks: matchTime - createTime) and the
rating spread per game (max - min of the seated users' ratings).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import jwt  # noqa: E402
import redis  # noqa: E402

from tests.redis_server import RedisServer, _free_port  # noqa: E402

KEY = "bench-matchmaking-" + "k" * 32
ENGINE = "tic-tac-toe"


@functools.cache
def bearer(user: str) -> dict[str, str]:
    t = jwt.encode({"sub": user, "name": user.upper(), "exp": int(time.time()) + 3600}, KEY, algorithm="HS256",
                   headers={"kid": "k1"})
    return {"Authorization": "Bearer " + t}


class Replica:
    def __init__(self, redis_url: str, logdir: Path, name: str) -> None:
        self.http_port, self.grpc_port = _free_port(), _free_port()
        self.http = f"http://127.0.0.1:{self.http_port}"
        self.redis_url = redis_url
        env = {**os.environ, "TABLERO_REDIS_URL": redis_url, "TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY}),
               "TABLERO_SECRET": "bench-secret-of-the-replicas-0123456789", "TABLERO_LOG_LEVEL": "warning",
               "TABLERO_MAX_OPEN_GAMES_PER_USER": "0"}
        self.log = open(logdir / f"{name}.log", "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "tablero.server", "serve", "--host", "127.0.0.1", "--http-port",
                                      str(self.http_port), "--grpc-port", str(self.grpc_port)],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=self.log)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.http + "/readyz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("replica did not start")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


def seed(url: str, users: list[str], rng: random.Random) -> dict[str, float]:
    """Ratings as the server keeps them (server/ratings/store.py)."""
    from tablero.server.ratings.model import Rating

    r = redis.Redis.from_url(url)
    pipe = r.pipeline(transaction=False)
    scores = {}
    for u in users:
        rating = Rating(rng.gauss(25, 6), 3.0, 10, 5)
        scores[u] = rating.score
        pipe.hset("tablero:{ratings}:u:" + u, ENGINE, rating.dumps())
        pipe.zadd("tablero:{ratings}:lb:" + ENGINE, {u: rating.score})
    pipe.execute()
    r.close()
    return scores


async def _create(client: httpx.AsyncClient, replicas: list[Replica], pick: int, user: str, body: dict) -> dict:
    """Make a ticket, on the replica picked; on the other one (same requestId) if it is gone."""
    order = [replicas[pick], replicas[1 - pick]]
    for attempt in range(20):
        rep = order[0] if attempt == 0 and order[0].proc.poll() is None else order[1]
        try:
            r = await client.post(rep.http + "/v1/matchmaking/tickets", json=body, headers=bearer(user))
            if r.status_code == 200:
                return r.json()["ticket"]
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.2)
    raise RuntimeError(f"no ticket for {user}")


async def _cancel_later(client: httpx.AsyncClient, replicas: list[Replica], user: str, tid: str,
                        delay: float) -> None:
    await asyncio.sleep(delay)
    rep = replicas[1] if replicas[0].proc.poll() is not None else replicas[0]
    with contextlib.suppress(httpx.HTTPError):
        await client.post(f"{rep.http}/v1/matchmaking/tickets/{tid}:cancel", json={}, headers=bearer(user))


def _lease_holder(url: str) -> str:
    r = redis.Redis.from_url(url)
    try:
        return (r.get("tablero:{mm}:lease:" + ENGINE) or b"").decode()
    finally:
        r.close()


def make_a_the_matcher(url: str, replicas: list[Replica]) -> None:
    """Replica A takes the engine's lease (B paused meanwhile), so that killing A kills the matcher."""
    a, b = replicas
    os.kill(b.proc.pid, signal.SIGSTOP)
    try:
        h = bearer("warm-up")
        t = httpx.post(a.http + "/v1/matchmaking/tickets", json={"engine": ENGINE}, headers=h).json()["ticket"]
        deadline = time.monotonic() + 10
        while f":{a.proc.pid}:" not in _lease_holder(url):
            if time.monotonic() > deadline:
                raise RuntimeError("replica A never took the lease")
            time.sleep(0.05)
        httpx.post(f"{a.http}/v1/matchmaking/tickets/{t['id']}:cancel", json={}, headers=h)
    finally:
        os.kill(b.proc.pid, signal.SIGCONT)


async def _kill_mid_match(a: Replica, patience: float = 5.0) -> bool:
    """SIGKILL A the moment a match is claimed and not yet finished (A is the matcher), or after
    `patience` seconds. Whether a match was caught in flight."""
    import redis.asyncio as aioredis

    r = aioredis.Redis.from_url(a.redis_url)
    try:
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            if await r.zcard("tablero:{mm}:m"):
                a.kill()
                return bool(await r.zcard("tablero:{mm}:m"))
            await asyncio.sleep(0.0005)
        a.kill()
        return False
    finally:
        await r.aclose()


async def drive(replicas: list[Replica], users: list[str], tickets: int, rate: float, rng: random.Random) -> list:
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(timeout=10, limits=limits) as client:
        return await _drive(client, replicas, users, tickets, rate, rng)


async def _drive(client: httpx.AsyncClient, replicas: list[Replica], users: list[str], tickets: int, rate: float,
                 rng: random.Random) -> list:
    made: list[asyncio.Task] = []
    cancels: list[asyncio.Task] = []
    order = [users[i % len(users)] for i in range(tickets)]
    rng.shuffle(order)
    start = time.monotonic()
    for i, user in enumerate(order):
        if i == tickets // 2:
            caught = await _kill_mid_match(replicas[0])
            print(f"replica A SIGKILLed after {i} tickets ({time.monotonic() - start:.1f} s), "
                  f"{'with' if caught else 'without'} a match claimed but not finished", flush=True)
        await asyncio.sleep(max(0.0, start + i / rate - time.monotonic()))
        body = {"engine": ENGINE, "players": [2], "timeoutSeconds": 30, "requestId": f"bench-{i}",
                **({"botsAfterSeconds": 8} if rng.random() < 0.10 else {})}
        made.append(asyncio.create_task(_create(client, replicas, i % 2, user, body)))
        if rng.random() < 0.05:
            async def later(task=made[-1], user=user, delay=rng.uniform(0.3, 3)):
                t = await task
                await _cancel_later(client, replicas, user, t["id"], delay)
            cancels.append(asyncio.create_task(later()))
    out = await asyncio.gather(*made)
    await asyncio.gather(*cancels, return_exceptions=True)
    return out


def settle(url: str, ids: list[str], timeout: float = 120) -> dict[str, dict]:
    r = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    while True:
        raws = r.mget(["tablero:{mm}:t:" + i for i in ids])
        tickets = {i: json.loads(x) if x else None for i, x in zip(ids, raws, strict=True)}
        open_ = [i for i, t in tickets.items() if t is None or t["status"] in ("WAITING", "MATCHING")]
        if not open_ or time.monotonic() > deadline:
            r.close()
            return tickets
        time.sleep(0.5)


def check(url: str, http: str, made: list[dict], tickets: dict[str, dict], scores: dict[str, float]) -> dict:
    status: dict[str, int] = {}
    for t in tickets.values():
        key = "LOST" if t is None else t["status"]
        status[key] = status.get(key, 0) + 1
    games: dict[str, list[dict]] = {}
    for t in tickets.values():
        if t and t["status"] == "MATCHED":
            games.setdefault(t["gameId"], []).append(t)
    problems = []
    r = redis.Redis.from_url(url)
    lobby = {g.decode() for g in r.zrange("tablero:lobby", 0, -1)}
    r.close()
    with httpx.Client(timeout=10) as client:
        for gid, ts in games.items():
            g = client.get(f"{http}/v1/games/{gid}").json()
            seated = {s["seat"]: s.get("userId") for s in g["seats"]}
            if len({t["user"] for t in ts}) != len(ts):
                problems.append(f"{gid}: a user twice")
            for t in ts:
                if seated.get(t["seat"]) != t["user"]:
                    problems.append(f"{gid}: seat {t['seat']} is {seated.get(t['seat'])!r}, ticket says {t['user']}")
            humans = [u for u in seated.values() if u]
            if sorted(humans) != sorted(t["user"] for t in ts):
                problems.append(f"{gid}: users {humans} but tickets of {[t['user'] for t in ts]}")
    orphans = lobby - set(games)
    if orphans:
        problems.append(f"{len(orphans)} games no ticket names (a match made twice?)")
    waits = sorted(t["matchTime"] - t["created"] for ts in games.values() for t in ts)
    spreads = sorted(max(scores[t["user"]] for t in ts) - min(scores[t["user"]] for t in ts)
                     for ts in games.values() if len(ts) > 1)
    q = statistics.quantiles
    return {"tickets": len(made), "distinct ticket ids": len(tickets), "status": status, "games": len(games),
            "games with bots": sum(1 for ts in games.values() if len(ts) == 1),
            "time to match s": {"median": round(statistics.median(waits), 3), "p99": round(q(waits, n=100)[98], 3),
                                "max": round(waits[-1], 3)},
            "rating spread per game": {"median": round(statistics.median(spreads), 2),
                                       "p90": round(q(spreads, n=10)[8], 2), "max": round(spreads[-1], 2),
                                       "population sd": round(statistics.pstdev(scores.values()), 2)},
            "problems": problems}


def run(users: int, tickets: int, rate: float, seed_: int = 1) -> dict:
    rng = random.Random(seed_)
    logdir = Path(tempfile.mkdtemp(prefix="tablero-bench-mm-"))
    with RedisServer() as server:
        names = [f"user{i:04d}" for i in range(users)]
        scores = seed(server.url, names, rng)
        replicas = [Replica(server.url, logdir, "A"), Replica(server.url, logdir, "B")]
        try:
            for rep in replicas:
                rep.wait_ready()
            make_a_the_matcher(server.url, replicas)
            made = asyncio.run(drive(replicas, names, tickets, rate, rng))
            tickets_now = settle(server.url, sorted({t["id"] for t in made}))
            report = check(server.url, replicas[1].http, made, tickets_now, scores)
        finally:
            for rep in replicas:
                rep.stop()
    report["matches finished by the surviving replica"] = (logdir / "B.log").read_text().count("not finished")
    report["logs"] = str(logdir)
    return report


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--users", type=int, default=1000)
    p.add_argument("--tickets", type=int, default=2000)
    p.add_argument("--rate", type=float, default=100.0, help="tickets per second")
    a = p.parse_args()
    t0 = time.monotonic()
    report = run(a.users, a.tickets, a.rate)
    report["wall s"] = round(time.monotonic() - t0, 1)
    print(json.dumps(report, indent=2))
    sys.exit(1 if report["problems"] or report["status"].get("LOST") or report["distinct ticket ids"] != a.tickets
             else 0)


if __name__ == "__main__":
    main()
