"""How strong the expert agent is: `jongg arena` of the expert against
another agent on seeded deals, seats rotated, with 95% intervals.

Run: python bench/bench_strength.py [--variant nymj] [--opponent greedy]
                                    [--deals 120] [--seed 1000] [--players K] [--jobs J]

Prints, per agent, seat-rounds, round wins, points a round and match wins
with their intervals and the rating; then the expert's margin over the
opponent in round-win share and in points a round, with intervals. The
defaults play the head-to-head figures of docs/bots.md (and the slow test's
matches, tests/test_expert.py): 120 deals from seed 1000, each in both
lineups; fewer deals seldom tell points a round apart, their spread being
the value of each win.
"""

from __future__ import annotations

import argparse

from jongg.cli import main as jongg


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="nymj")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    players = ["--players", str(args.players)] if args.players else []
    return jongg(["arena", args.variant, "--agents", f"expert,{args.opponent}", "--rounds",
                  str(args.deals), "--seed", str(args.seed), "--jobs", str(args.jobs),
                  *players])


if __name__ == "__main__":
    raise SystemExit(main())
