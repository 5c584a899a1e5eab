"""Benchmark of issue 6's ranked-list aggregation: 10,000 lists of 20 entries over 5,000 distinct
titles (seeded random), timed through `rankings.aggregate` (the REST entry point, request
checking included). Titles are written in several spellings (case, a leading article, subtitle
separator) so the title matching works as it does on real input; 1 list in 10 is unranked.
Also prints the size of that body as JSON (the REST route refuses bodies over
TABLERO_MAX_RANKINGS_BODY, default 8 MiB) and the time to resolve a 10,000-long alias chain
{"k0": "k1", …, "k9999": "k10000"} (linear since the chain fix; the quadratic scan took ~0.7 s).

    python bench/rankings.py [--lists 10000] [--entries 20] [--titles 5000] [--repeats 3] [--seed 6]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

# Run as `python bench/rankings.py`, Python puts bench/ first on sys.path, where bench/server.py
# would shadow the `server` package: put the repository root there instead.
_BENCH = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _BENCH]
sys.path.insert(0, str(_BENCH.parent))

from tablero.rankings import aggregate  # noqa: E402
from tablero.rankings.titles import Aliases  # noqa: E402

_WORDS = (
    "castle river crown harbor empire forest dragon merchant island canal trail clock rail tower garden "
    "spice star ocean desert temple market guild storm mountain valley silver iron kingdom night journey"
).split()


def make_body(lists: int, entries: int, titles: int, seed: int) -> dict:
    rng = random.Random(seed)
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < titles:
        name = " ".join(w.capitalize() for w in rng.sample(_WORDS, rng.randint(1, 3)))
        if rng.random() < 0.3:
            name += f": {rng.choice(_WORDS).capitalize()} {rng.randint(2, 999)}"
        if name not in seen:
            seen.add(name)
            names.append(name)

    def spelling(name: str) -> str:
        r = rng.random()
        if r < 0.1:
            return name.lower()
        if r < 0.15:
            return "The " + name
        if r < 0.2:
            return name.replace(":", " -")
        return name

    weights = [1 / (i + 1) ** 0.6 for i in range(titles)]  # some games are on many lists
    body_lists = []
    for i in range(lists):
        chosen: set[int] = set()
        while len(chosen) < entries:
            chosen.update(rng.choices(range(titles), weights, k=entries - len(chosen)))
        picks = list(chosen)
        rng.shuffle(picks)
        body_lists.append(
            {
                "source": f"Channel {i % 4000}",
                "title": f"Top {i}",
                "ranked": i % 10 != 0,
                "entries": [spelling(names[p]) for p in picks],
            }
        )
    return {"lists": body_lists}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, default=10_000)
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--titles", type=int, default=5_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--chain", type=int, default=10_000, help="length of the alias chain timed")
    args = parser.parse_args()
    body = make_body(args.lists, args.entries, args.titles, args.seed)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        result = aggregate(body)
        times.append(time.perf_counter() - start)
    totals = result["totals"]
    top = result["ranking"][0]
    print(
        f"aggregate: {args.lists} lists × {args.entries} entries over {args.titles} titles "
        f"→ {totals['games']} games, {totals['sources']} sources; #1 {top['title']!r} with {top['points']} points"
    )
    print(
        "times: "
        + ", ".join(f"{t:.3f} s" for t in times)
        + f"; best {min(times):.3f} s, median {statistics.median(times):.3f} s"
    )
    size = len(json.dumps(body, ensure_ascii=False).encode())
    print(f"body: {size / 2**20:.1f} MiB as JSON ({size / (args.lists * args.entries):.0f} bytes per entry)")
    chain = {f"k{i}": f"k{i + 1}" for i in range(args.chain)}
    chain_times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        resolved = Aliases(chain)
        chain_times.append(time.perf_counter() - start)
    assert resolved.resolve("k0") == f"k{args.chain}"
    print(
        f"alias chain of {args.chain} ({len(json.dumps(chain)) / 1000:.0f} KB): "
        + ", ".join(f"{t:.3f} s" for t in chain_times)
        + f"; best {min(chain_times):.3f} s"
    )


if __name__ == "__main__":
    main()
