"""The default test suite's own time: the README's test command, run as a
user runs it, beside the same tests one after another.

    python bench/bench_suite.py [-- PYTEST ARGS]

Runs `python -m pytest -q` (the tests shared out over every core by
pytest-xdist, as pyproject.toml sets it) with `--durations=0`, and prints
the wall time against the goal of 4 minutes, the CPU seconds of every
process it started, and the reference: the sum of every test's own time
(setup, call and teardown, as pytest reports them), what one process
running them in turn would take at the least. The ratio is what sharing the
tests out buys. The slowest tests are listed, to say where the time goes.
Extra arguments after `--` go to pytest (a file, `-k`, `-n 1`).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from timing import goal_line

ROOT = Path(__file__).resolve().parents[1]
GOAL = 240.0  # seconds of wall time, on the 2-core machine
DURATION = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(.+?)\s*$")  # ids hold spaces
SUMMARY = re.compile(r"^=*\s*(\d+ (?:passed|failed|error).*?) in [\d.]+s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slowest", type=int, default=10, help="tests to list, slowest first")
    parser.add_argument("pytest", nargs="*", help="arguments for pytest, after --")
    args = parser.parse_args()
    command = [sys.executable, "-m", "pytest", "-q", "--durations=0", "--durations-min=0",
               *args.pytest]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    per_test: dict[str, float] = defaultdict(float)
    summary = "no summary line"
    for line in done.stdout.splitlines():
        found = DURATION.match(line)
        if found:
            per_test[found[3]] += float(found[1])
        said = SUMMARY.match(line)
        if said:
            summary = said[1]
    if done.returncode != 0 or not per_test:
        print(done.stdout[-4000:], done.stderr[-2000:], sep="\n")
        raise SystemExit(f"the suite failed (exit {done.returncode}): {summary}")
    serial = sum(per_test.values())
    print(f"{' '.join(command[1:])}: {summary}")
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s over every process; the tests' own times "
          f"summed {serial:.1f} s ({len(per_test)} tests)")
    print(f"\nslowest {args.slowest}:")
    for name, spent in sorted(per_test.items(), key=lambda t: -t[1])[:args.slowest]:
        print(f"  {spent:7.2f} s  {name}")
    print("\ngoals (the reference: the tests one after another, their own times summed):")
    print(goal_line("default suite, wall time", wall, serial, GOAL, "s"))


if __name__ == "__main__":
    main()
