"""The card report's memory over a long run: whether one process's resident
memory stays flat as rounds go by.

Run: python bench/bench_memory.py [--card sample] [--variant mjcg-card]
                                  [--rounds 20000] [--every 1000] [--agents greedy]

Plays the card report's job (the first round of each seed's match, counted
per line: jongg.cardlab.tally.play_rounds) in one process, a chunk of
`--every` seeds at a time, and after each chunk prints the rounds played,
the chunk's rounds a second of CPU time, the memory resident now and the
most it has been (peak RSS). The reference beside the last chunk is the
first chunk's, and the middle's: every memo a match fills is bounded
(jongg.runtime.memo.Memo), so once they are full (the sample card's within
about 10,000 rounds) the memory should not grow with the rounds; the last
line says by how much it did over the second half, per 10,000 rounds.
The tallies of the chunks merge into the report's own: the benchmark
checks that their rounds add up.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from jongg.cardlab.report import card_source
from jongg.cardlab.tally import ReportSetup, Tally, merge, play_rounds, table_game
from jongg.web.games import resident_bytes


def resident_mb() -> float:
    """The memory this process holds now (Linux: /proc/self/statm)."""
    return resident_bytes() / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--card", default="sample")
    parser.add_argument("--variant", default="mjcg-card")
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--agents", default="greedy")
    args = parser.parse_args()
    table = ReportSetup(args.variant, card_source(args.card), 4, tuple(args.agents.split(",")))
    game = table_game(table)  # compiled before any clock starts
    print(f"{args.card} ({len(game.matcher.card.lines)} lines) in {args.variant}, "
          f"{args.rounds} rounds by {args.agents}, one process; "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'rounds':>9} {'r/s CPU':>8} {'RSS MB':>8} {'peak MB':>8}")
    total = Tally()
    marks: list[tuple[int, float]] = []
    for first in range(0, args.rounds, args.every):
        seeds = range(first, min(first + args.every, args.rounds))
        start = time.process_time()
        total = merge(total, play_rounds(table, seeds))
        spent = time.process_time() - start
        marks.append((seeds.stop, resident_mb()))
        print(f"{seeds.stop:>9} {len(seeds) / spent:>8.1f} {marks[-1][1]:>8.1f} "
              f"{peak_mb():>8.1f}", flush=True)
    assert total.rounds == args.rounds, (total.rounds, args.rounds)
    (half_at, half_mb), (last_at, last_mb) = marks[(len(marks) - 1) // 2], marks[-1]
    growth = (last_mb - half_mb) / max(1, last_at - half_at) * 10_000
    print(f"after the first chunk {marks[0][1]:.1f} MB, after {half_at} rounds {half_mb:.1f} MB, "
          f"after {last_at} {last_mb:.1f} MB: {growth:+.2f} MB per 10,000 rounds over the "
          f"second half; peak {peak_mb():.1f} MB; load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
