"""Lists the inner loop's tests that take a second or more, for tests/slow_tests.txt.

    pytest -m "not slow" -n 3 --dist loadfile --durations=0 -q > durations.txt
    python scripts/slow_tests.py durations.txt >> tests/slow_tests.txt

With `--files`, each test file's whole time instead (the suite run as CI runs it:
`pytest -m "not faults" -n 3 --dist loadfile --durations=0`), for tests/file_seconds.txt, by
which tests/markers.py hands the files to the parallel workers longest first:

    python scripts/slow_tests.py --files durations.txt > tests/file_seconds.txt

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


def by_file(lines: list[str]) -> list[tuple[str, float]]:
    took: Counter[str] = Counter()
    for line in lines:
        m = LINE.match(line)
        if m:
            took[m.group(2).split("::")[0]] += float(m.group(1))
    return sorted(took.items(), key=lambda x: (-x[1], x[0]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("durations", help="pytest output with --durations=0")
    ap.add_argument("--threshold", type=float, default=1.0, help="seconds (default 1)")
    ap.add_argument("--files", action="store_true", help="each file's seconds (tests/file_seconds.txt)")
    a = ap.parse_args()
    with open(a.durations) as f:
        lines = f.readlines()
    if a.files:
        print("# Seconds each test file took in the suite's parallel run (setup, calls and teardowns), by")
        print("# which tests/markers.py orders the files; listed by scripts/slow_tests.py --files.")
        for path, seconds in by_file(lines):
            print(f"{path} {seconds:.1f}")
        return
    for test, seconds in slow(lines, a.threshold):
        print(f"{test}  # {seconds:.1f} s")


if __name__ == "__main__":
    main()
