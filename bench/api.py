"""Server benchmark: real Tic-Tac-Toe games played over REST and gRPC against a
`tablero serve` subprocess, with the SQLite or Redis store.

    python bench/api.py                      # both transports, SQLite in memory
    python bench/api.py --store redis        # a throwaway redis-server on a free port
    python bench/api.py --clients 16 --seconds 10

Prints games/s, actions/s and SubmitAction latency percentiles per transport.
Every request loop is bounded in time and count and talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import httpx  # noqa: E402
from google.protobuf import struct_pb2  # noqa: E402
from tablero.server.grpc.gen import games_pb2 as pb  # noqa: E402
from tablero.server.grpc.gen import games_pb2_grpc as pbg  # noqa: E402

from tests.redis_server import RedisServer  # noqa: E402
from tests.server.support import ServerProcess  # noqa: E402

MAX_GAMES_PER_CLIENT = 100_000


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000 if xs else float("nan")


def rest_client(url: str, deadline: float, lat: list[float], games: list[int], seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=30) as c:
        for _ in range(MAX_GAMES_PER_CLIENT):
            if time.perf_counter() > deadline:
                return
            out = c.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
            gid, tokens = out["game"]["id"], [s["token"] for s in out["seats"]]
            g = out["game"]
            while g["status"] == "GAME_STATUS_RUNNING":
                seat = g["toAct"][0]
                free = [i for i, v in enumerate(g["view"]["board"]) if v is None]
                t0 = time.perf_counter()
                r = c.post(f"/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                           json={"action": {"type": "place", "cell": rng.choice(free)}})
                lat.append(time.perf_counter() - t0)
                g = r.json()
            games.append(1)


def grpc_client(target: str, deadline: float, lat: list[float], games: list[int], seed: int) -> None:
    rng = random.Random(seed)
    with grpc.insecure_channel(target) as ch:
        stub = pbg.GameServiceStub(ch)
        for _ in range(MAX_GAMES_PER_CLIENT):
            if time.perf_counter() > deadline:
                return
            out = stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", players=2))
            gid, tokens = out.game.id, [s.token for s in out.seats]
            g = out.game
            while g.status == pb.GAME_STATUS_RUNNING:
                seat = g.to_act[0]
                board = g.view["board"]
                free = [i for i, v in enumerate(board) if v is None]
                a = struct_pb2.Struct()
                a.update({"type": "place", "cell": rng.choice(free)})
                t0 = time.perf_counter()
                g = stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=a),
                                      metadata=[("authorization", f"Bearer {tokens[seat]}")]).game
                lat.append(time.perf_counter() - t0)
            games.append(1)


def run(name: str, fn, target: str, clients: int, seconds: float) -> None:
    lat: list[float] = []
    games: list[int] = []
    deadline = time.perf_counter() + seconds
    threads = [threading.Thread(target=fn, args=(target, deadline, lat, games, i)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dt = time.perf_counter() - t0
    print(f"{name:5} clients={clients:3} games={len(games):6} games/s={len(games) / dt:8.1f} "
          f"actions/s={len(lat) / dt:8.1f}  SubmitAction ms p50={pct(lat, 50):6.2f} p90={pct(lat, 90):6.2f} "
          f"p99={pct(lat, 99):6.2f} max={max(lat) * 1000 if lat else 0:7.2f} mean={statistics.fmean(lat) * 1000:6.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", choices=["sqlite", "sqlite-file", "redis"], default="sqlite")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--transport", choices=["rest", "grpc", "both"], default="both")
    args = ap.parse_args()
    redis = None
    env = {"TABLERO_LOG_LEVEL": "warning"}
    if args.store == "redis":
        redis = RedisServer().start()
        env["TABLERO_REDIS_URL"] = redis.url
    elif args.store == "sqlite-file":
        import tempfile

        env["TABLERO_DB"] = str(Path(tempfile.mkdtemp()) / "bench.db")
    server = ServerProcess(env).start()
    print(f"store={args.store} server pid={server.proc.pid} (one process; client threads in this process)")
    try:
        if args.transport in ("rest", "both"):
            run("REST", rest_client, server.http, args.clients, args.seconds)
        if args.transport in ("grpc", "both"):
            run("gRPC", grpc_client, server.grpc, args.clients, args.seconds)
    finally:
        server.kill()
        if redis:
            redis.stop()


if __name__ == "__main__":
    main()
