"""The long versions of the app-level fault suite (tests/faults/test_app_faults.py), by hand:
more tables, longer load, the fault repeated. Two `tablero serve` subprocesses on a fresh
Redis (AOF, restartable) or Redis Cluster per scenario, REST players retrying the same
requestId across both replicas, an SSE watcher per game; after the run the same audit as
the tests (exactly once at the answered version, the log replays and re-decides legally,
both replicas' views and ListEvents equal the store's log, watchers equal it after their
resets). Prints one row per scenario (the table of tests/faults/README.md).

    python bench/faults.py                                  # every scenario, 3 faults each
    python bench/faults.py --scenario rollback --repeat 5 --tables 8 --duration 4
    python bench/faults.py --scenario kill-always kill-everysec --repeat 10
    python bench/faults.py --list

--duration: seconds of load after each fault (and before the first: --warm). Exit status 1
when an invariant broke (lost > 0 outside the rollback scenario, duplicated, illegal,
diverged, an unexpected answer, or a 5xx where the store never went away).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.faults import app_load as al  # noqa: E402

# name -> (title, store: "single" | "cluster", fault factory, may lose, 5xx expected, run options)
SCENARIOS = {
    "kill-always": ("Redis SIGKILL + restart, appendfsync always", "single",
                    lambda: al.redis_kill("always"), False, True, {}),
    "kill-everysec": ("Redis SIGKILL + restart, appendfsync everysec", "single",
                      lambda: al.redis_kill("everysec"), False, True, {}),
    "rollback": ("AOF restored to an older copy (rollback)", "single",
                 lambda: al.aof_rollback(0.4), True, True, {"rollback": True, "think": 0.3}),
    "replica-kill": ("replica SIGKILL (clients retry on the other), restarted", "single",
                     lambda: al.replica_kill(1.0), False, False, {}),
    "pause": ("Redis SIGSTOP 2 s", "single", lambda: al.redis_pause(2.0), False, True, {}),
    "migration": ("Cluster slot migration (MIGRATE, ASK, MOVED)", "cluster",
                  lambda: al.slot_migration(2), False, False, {}),
    "failover": ("Cluster CLUSTER FAILOVER (synced replica)", "cluster",
                 lambda: al.cluster_failover(), False, False, {}),
}


def broken(fig: al.Figures, may_lose: bool, outage: bool) -> list[str]:
    why = []
    if fig.lost and not may_lose:
        why.append(f"lost {fig.lost}")
    if may_lose and fig.lost_outside_windows():
        why.append(f"{fig.lost_outside_windows()} lost actions were answered before the copy")
    for name in ("duplicated", "misplaced", "illegal", "diverged", "unexpected"):
        if getattr(fig, name):
            why.append(f"{name} {getattr(fig, name)}")
    if fig.http_5xx and not outage:
        why.append(f"{fig.http_5xx} 5xx answers with the store up")
    if fig.recovery is None:
        why.append("no write succeeded after a fault")
    return why


async def one(name: str, args: argparse.Namespace) -> tuple[al.Figures, list[str]]:
    title, store, factory, may_lose, outage, options = SCENARIOS[name]
    context = al.single_redis() if store == "single" else al.redis_cluster()
    with context as setup:
        options = {**options}
        if args.think is not None:
            options["think"] = args.think
        fig = await al.run(setup, title, factory(), warm=args.warm, after=args.duration, tables=args.tables,
                           repeat=args.repeat, quiet=True, **options)
    if args.repeat > 1:
        fig.scenario = f"{title} ×{args.repeat}"
    return fig, broken(fig, may_lose, outage)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", nargs="*", default=list(SCENARIOS), choices=list(SCENARIOS), metavar="NAME")
    parser.add_argument("--repeat", type=int, default=3, help="faults per scenario (default 3)")
    parser.add_argument("--duration", type=float, default=3.0, help="seconds of load after each fault")
    parser.add_argument("--warm", type=float, default=2.0, help="seconds of load before the first fault")
    parser.add_argument("--tables", type=int, default=8, help="concurrent tables (2 players each, 1 watcher)")
    parser.add_argument("--think", type=float, default=None, help="max seconds a player waits between moves")
    parser.add_argument("--list", action="store_true", help="list the scenarios")
    args = parser.parse_args()
    if args.list:
        for name, (title, store, *_rest) in SCENARIOS.items():
            print(f"{name:14} {store:8} {title}")
        return 0
    if args.repeat > 1 and "failover" in args.scenario:
        print("note: each failover adds a replica to a live game's master and promotes it", file=sys.stderr)
    rows, failed = [], []
    started = time.monotonic()
    for name in args.scenario:
        t0 = time.monotonic()
        fig, why = await one(name, args)
        rows.append(fig)
        print(f"{fig.row()}  ({time.monotonic() - t0:.0f} s)", flush=True)
        for p in fig.problems[:10]:
            print(f"    {p}")
        if why:
            failed.append(f"{name}: {', '.join(why)}")
    print(f"\n{args.tables} tables, {args.repeat} fault(s) per scenario, {args.duration} s of load after each, "
          f"{time.monotonic() - started:.0f} s in all\n")
    print(al.Figures.HEADER)
    for fig in rows:
        print(fig.row())
    for f in failed:
        print(f"BROKEN {f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
