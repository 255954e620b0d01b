"""The web server's work against an earlier commit's, side by side in one run.

Run: python bench/bench_serve.py [--commit af2ec5e] [--variants nymj,mjcg-card,mjcg]
                                 [--tables 100] [--decisions 3000]

A server's CPU goes on the game and on telling each person at each table
their update after every decision (their view, the story, the prompt, each
action's words, the hints). bench/versus_worker.py `serve` does that work
without sockets for TABLES tables at once, one decision at each in turn
(as many tables interleave on a server), for this checkout and for the
commit, each in a process of its own, on the same seeds. It prints the CPU
milliseconds a decision on each side, the ratio, and whether every update
sent was the same on both sides. bench/bench_web.py measures the real
server, sockets and all.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_versus import ROOT, checkout, remove, side  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commit", default="af2ec5e")
    parser.add_argument("--variants", default="nymj,mjcg-card,mjcg")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=3000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="jongg-serve-"))
    tree = checkout(args.commit, folder)
    try:
        print(f"this checkout against {args.commit}: {args.tables} tables at once, two people "
              f"and two random bots each, {args.decisions} decisions; CPU time; load average "
              f"{os.getloadavg()[0]:.1f}")
        print(f"{'variant':<12} {args.commit + ' ms':>12} {'this ms':>8} {'ratio':>6} "
              f"{'updates':>8} {'load':>5}")
        for variant in filter(None, args.variants.split(",")):
            run = ("serve", variant, str(args.tables), str(args.decisions))
            old, new = side(tree, *run), side(ROOT, *run)
            ms = [1000 * float(str(s["seconds"])) / float(str(s["decisions"])) for s in (old, new)]
            same = old["digests"] == new["digests"] and old["decisions"] == new["decisions"]
            print(f"{variant:<12} {ms[0]:>12.2f} {ms[1]:>8.2f} {ms[0] / ms[1]:>5.1f}x "
                  f"{'same' if same else 'DIFFER':>8} {os.getloadavg()[0]:>5.1f}", flush=True)
    finally:
        remove(tree)


if __name__ == "__main__":
    main()
