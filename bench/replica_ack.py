"""What TABLERO_REDIS_MIN_REPLICAS_ACK costs (issue 36): `tablero loadtest` against one `tablero
serve` on a Redis master with one replica (local processes), with the setting 0 and 1, in
alternating rounds of one run (so both see the same machine).

    python bench/replica_ack.py [--rounds 2] [--duration 8] [--concurrency 16]

Prints moves/s and the SubmitAction p50/p99 per setting (median over rounds) and the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.faults.app_load import Replica  # noqa: E402
from tests.faults.sentinel_set import SentinelSet  # noqa: E402


def loadtest(url: str, duration: float, concurrency: int) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, "-m", "tablero_client", "loadtest", "--url", url, "-d", str(duration),
                        "-c", str(concurrency), "--no-progress", "--json-out", out.name,
                        "--max-errors", str(10**9)],  # a run's errors are reported, not a crash
                       check=True, cwd=ROOT, capture_output=True, timeout=duration + 120)
        return json.loads(Path(out.name).read_text())


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--duration", type=float, default=8)
    p.add_argument("--concurrency", type=int, default=16)
    a = p.parse_args()
    results: dict[int, list[dict]] = {0: [], 1: []}
    with SentinelSet(replicas=1, sentinels=0) as redis:
        url = f"redis://127.0.0.1:{redis.master_port}/0"
        for _ in range(a.rounds):
            for acks in (0, 1):
                env = {"TABLERO_REDIS_URL": url, "TABLERO_REDIS_MIN_REPLICAS_ACK": str(acks),
                       "TABLERO_LOG_LEVEL": "warning"}
                server = Replica(env).start()
                try:
                    rep = loadtest(server.http, a.duration, a.concurrency)
                    problems = server.errors()
                finally:
                    log = server.log.read_text(errors="replace")
                    server.close()
                assert not rep["errors"] and not problems, (rep["errors"], rep["error_samples"][:3], log[-3000:])
                submit = rep["calls"]["SubmitAction"]
                results[acks].append({"moves_per_s": rep["actions_per_s"], "p50": submit["p50_ms"],
                                      "p99": submit["p99_ms"]})
                print(f"MIN_REPLICAS_ACK={acks}: {rep['actions_per_s']} moves/s, SubmitAction p50 "
                      f"{submit['p50_ms']:.2f} ms p99 {submit['p99_ms']:.2f} ms", flush=True)
    med = {k: {f: statistics.median(r[f] for r in v) for f in ("moves_per_s", "p50", "p99")} for k, v in results.items()}
    print("\n| MIN_REPLICAS_ACK | moves/s | SubmitAction p50 | p99 |\n|---|---|---|---|")
    for k in (0, 1):
        print(f"| {k} | {med[k]['moves_per_s']:.0f} | {med[k]['p50']:.2f} ms | {med[k]['p99']:.2f} ms |")
    print(f"\nratio (1 / 0): moves/s {med[1]['moves_per_s'] / med[0]['moves_per_s']:.2f}, "
          f"p99 {med[1]['p99'] / med[0]['p99']:.2f}")


if __name__ == "__main__":
    main()
