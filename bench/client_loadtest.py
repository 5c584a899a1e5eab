"""`tablero loadtest` beside peers/tablero/loadgen.js, same settings, same server, alternately.

    python bench/client_loadtest.py                         # Redis and SQLite, 1/10/100 games, 10 s each
    python bench/client_loadtest.py --stores sqlite --concurrency 10 --seconds 5 --watch

For each store a fresh `tablero serve` subprocess (Redis: a throwaway redis-server on a free
port; SQLite: in memory). For each concurrency: loadgen.js over REST, then `tablero loadtest`
over REST (the same workload), then `tablero loadtest` over gRPC. Prints one table of actions/s
and move (SubmitAction) latency. Everything talks to 127.0.0.1 only and every run is bounded.
Absolute figures on a shared 2-core machine are noisy: compare rows of one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.redis_server import RedisServer  # noqa: E402
from tests.server.support import ServerProcess  # noqa: E402

# shared/ sits beside the repository (or beside the folder of work trees).
LOADGEN = next((p / "shared" / "peers" / "tablero" / "loadgen.js" for p in ROOT.parents
                if (p / "shared" / "peers" / "tablero" / "loadgen.js").exists()), None)


def loadgen(url: str, c: int, seconds: float, watch: bool) -> dict:
    if LOADGEN is None:
        raise SystemExit("shared/peers/tablero/loadgen.js not found beside the repository (or pass --no-loadgen)")
    out = subprocess.run(["node", str(LOADGEN), "--url", url, "--concurrency", str(c), "--seconds", str(seconds),
                          "--watch", "1" if watch else "0"], capture_output=True, text=True, timeout=seconds + 120,
                         check=True).stdout
    d = json.loads(out.strip().splitlines()[-1])
    return {"actions_per_s": d["moves_per_s"], "p50": d["move_p50_ms"], "p99": d["move_p99_ms"],
            "notify_p50": d["notify_p50_ms"], "notify_p99": d["notify_p99_ms"], "games": d["games_completed"],
            "errors": d["errors"]}


def loadtest(target: list[str], c: int, seconds: float, watch: bool) -> dict:
    cmd = [sys.executable, "-m", "tablero_client", *target, "loadtest", "-c", str(c), "-d", str(seconds),
           "--json", "--no-progress", "--max-errors", str(10**9)] + (["--watch"] if watch else [])  # errors: in the table
    d = json.loads(subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120, check=True,
                                  cwd=ROOT).stdout)
    sub = d["calls"].get("SubmitAction", {})
    n = d["notify"] or {}
    return {"actions_per_s": d["actions_per_s"], "p50": sub.get("p50_ms"), "p99": sub.get("p99_ms"),
            "notify_p50": n.get("p50_ms"), "notify_p99": n.get("p99_ms"), "games": d["games_finished"],
            "errors": sum(d["errors"].values())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stores", default="redis,sqlite")
    ap.add_argument("--concurrency", default="1,10,100")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--watch", action="store_true")
    ap.add_argument("--no-loadgen", action="store_true")
    args = ap.parse_args()
    rows = []
    for store in args.stores.split(","):
        redis = None
        env = {"TABLERO_LOG_LEVEL": "warning"}
        if store == "redis":
            redis = RedisServer().start()
            env["TABLERO_REDIS_URL"] = redis.url
        server = ServerProcess(env).start()
        try:
            for c in (int(x) for x in args.concurrency.split(",")):
                runs = []
                if not args.no_loadgen:
                    runs.append(("loadgen.js REST", loadgen(server.http, c, args.seconds, args.watch)))
                runs.append(("loadtest REST", loadtest(["--url", server.http], c, args.seconds, args.watch)))
                runs.append(("loadtest gRPC", loadtest(["--grpc", server.grpc], c, args.seconds, args.watch)))
                for name, r in runs:
                    rows.append((store, c, name, r))
                    print(f"{store:6} c={c:3} {name:16} actions/s {r['actions_per_s']:7.1f}  move p50 {r['p50']} "
                          f"p99 {r['p99']} ms  notify p50 {r['notify_p50']} p99 {r['notify_p99']}  "
                          f"games {r['games']}  errors {r['errors']}", flush=True)
        finally:
            server.kill()
            if redis:
                redis.stop()
    print("\n| store | games in flight | driver | actions/s | move p50 ms | move p99 ms |"
          + (" notify p50 ms | notify p99 ms |" if args.watch else "") + " games | errors |")
    print("|---|---|---|---|---|---|" + ("---|---|" if args.watch else "") + "---|---|")
    for store, c, name, r in rows:
        extra = f" {r['notify_p50']} | {r['notify_p99']} |" if args.watch else ""
        print(f"| {store} | {c} | {name} | {r['actions_per_s']} | {r['p50']} | {r['p99']} |{extra} {r['games']} | "
              f"{r['errors']} |")


if __name__ == "__main__":
    main()
