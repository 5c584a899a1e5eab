"""Lists the inner loop's tests that take a second or more, for tests/slow_tests.txt.

    pytest -m "not slow" -n 3 --dist loadfile --durations=0 -q > durations.txt
    python scripts/slow_tests.py durations.txt >> tests/slow_tests.txt

A test's setup, call and teardown are added up (a module's server started in a test's setup
counts for that test). The tests printed are not yet marked slow (they ran in `not slow`);
tests/markers.py marks every id listed in tests/slow_tests.txt `slow`.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

LINE = re.compile(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(\S.*?)\s*$")


def slow(lines: list[str], threshold: float) -> list[tuple[str, float]]:
    took: Counter[str] = Counter()
    for line in lines:
        m = LINE.match(line)
        if m:
            took[m.group(2)] += float(m.group(1))
    return sorted(((t, s) for t, s in took.items() if s >= threshold), key=lambda x: (-x[1], x[0]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("durations", help="pytest output with --durations=0")
    ap.add_argument("--threshold", type=float, default=1.0, help="seconds (default 1)")
    a = ap.parse_args()
    with open(a.durations) as f:
        for test, seconds in slow(f.readlines(), a.threshold):
            print(f"{test}  # {seconds:.1f} s")


if __name__ == "__main__":
    main()
