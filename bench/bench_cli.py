"""What a user waits for at the command line: start-up, checking a card,
checking every shipped variant. Each command runs as a user runs it (a new
process), beside the bare interpreter starting (`python -c pass`, the floor
no command can beat), and is held to its goal.

    python bench/bench_cli.py [--repeat 7]

The cache is a fresh folder for the run and is warmed first (what a second
run of a command meets); `--cold` measures with an empty cache each time.
Each run is timed on the wall and in CPU seconds (user + system, from the
operating system's account of the child): on a busy machine the wall time
counts the waiting for a core, the CPU time only the command's own work, and
the goals are held to the CPU time.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = sorted(str(p) for p in (ROOT / "rulesets" / "variants").glob("*.yaml"))

# (what, command, goal in seconds)
CASES = [
    ("jongg --help", ["-m", "jongg", "--help"], 0.3),
    ("jongg --version", ["-m", "jongg", "--version"], 0.3),
    ("card check sample", ["-m", "jongg", "card", "check", "sample"], 0.8),
    ("card check every shipped card", ["-m", "jongg", "card", "check",
                                        *sorted(str(p) for p in
                                                (ROOT / "rulesets" / "cards").glob("*.yaml"))],
     2.0),
    ("variant check every shipped variant", ["-m", "jongg", "variant", "check", *VARIANTS], 2.0),
]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def seconds(args: list[str], env: dict[str, str], cold: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    if cold:
        shutil.rmtree(env["JONGG_CACHE_DIR"], ignore_errors=True)
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True)
    took = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr}")
    return took


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command (median)")
    parser.add_argument("--cold", action="store_true", help="an empty cache for every run")
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="jongg-bench-cache-")
    env = dict(os.environ, JONGG_CACHE_DIR=cache, NO_COLOR="1")
    try:
        _, floor = medians([seconds(["-c", "pass"], env, False) for _ in range(args.repeat)])
        print(f"python -c pass: {floor * 1000:.0f} ms of CPU (the floor)")
        print(f"{'command':<38} {'wall':>7} {'CPU':>7} {'x floor':>8} {'goal':>6}")
        for what, command, goal in CASES:
            seconds(command, env, False)  # warm the cache
            wall, cpu = medians([seconds(command, env, args.cold) for _ in range(args.repeat)])
            verdict = "met" if cpu <= goal else "NOT met"
            print(f"{what:<38} {wall:>6.2f}s {cpu:>6.2f}s {cpu / floor:>7.1f}x {goal:>5.1f}s  "
                  f"{verdict}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
