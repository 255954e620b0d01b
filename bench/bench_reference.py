"""Timing of the card compiler and the reference matcher (the oracle).

Run: python bench/bench_reference.py [--hands N]

Prints medians. The compiled matcher (to come) will be timed beside this
reference in the same process and the ratio printed; until then these are
the baseline figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from jongg.compiler.card import compile_card_document, load_ruleset
from jongg.runtime.reference import Hand, match_card


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    for name in ("sample", "mjcg-advanced", "mjcg-beginner", "nymj"):
        start = time.perf_counter()
        card = compile_card_document(load_ruleset("card", name))
        compile_s = time.perf_counter() - start
        rng = random.Random(name)
        wall = card.deck.wall()
        times = []
        for _ in range(args.hands):
            line = rng.choice(card.lines)
            variation = rng.choice(line.variations)
            tiles = [t for g in variation.groups for t in g.tiles]
            if not tiles:  # structural: a random hand
                tiles = rng.sample(wall, card.hand_size)
            tiles = tiles[: card.hand_size - rng.choice([0, 1, 2])]
            start = time.perf_counter()
            match_card(card, Hand(tuple(tiles)))
            times.append(time.perf_counter() - start)
        variations = sum(len(ln.variations) for ln in card.lines)
        print(f"{name:14} lines {len(card.lines):3}  variations {variations:5}  "
              f"compile {compile_s * 1000:7.1f} ms  reference tiles-away over all lines: "
              f"median {_median_us(times):9.0f} us/hand")


if __name__ == "__main__":
    main()
