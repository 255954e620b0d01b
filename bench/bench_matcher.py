"""The compiled matcher beside the reference, on American-style cards.

Run: python bench/bench_matcher.py [--card sample] [--hands 2000] [--reference 300]

Hands come from jongg.runtime.matching.samples (near the card's lines: complete, one
or two away, joker-heavy, some exposed), drawn after imports with a fixed
seed. Prints medians per hand (each hand's least of three passes, without
the machine's waits: bench/timing.py) and the ratio to the reference on the same hands, then the
goals of the matcher issue and whether they are met:

- sample card (a real yearly card: 62 lines, 1,260 variations): complete
  check <= 10 us (median), tiles away over all lines <= 50 us one hand at a
  time and <= 20 us per hand batched, exposed hands included;
- compiling the sample card cold <= 1 s; loading it from the cache <= 50 ms
  (both timed in a fresh interpreter, after its imports).

The answers are checked against the reference on the hands it is timed on
before anything is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from timing import PASSES, goal_line, median_us

from jongg.compiler import cache
from jongg.compiler.card import load_card
from jongg.compiler.matcher import compile_matcher
from jongg.runtime.card import Card
from jongg.runtime.hand import Hand
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.reference import completed, match_card
from jongg.runtime.matching.samples import sample_hands

FRESH = """
import json, sys, time
from jongg.compiler import cache
start = time.perf_counter()
compiled = cache.matcher(sys.argv[1])
print(json.dumps({"seconds": time.perf_counter() - start, "cached": compiled.from_cache}))
"""



def fresh(card: str, folder: str) -> dict[str, Any]:
    """Compile (or load) in a new interpreter with the cache in `folder`."""
    env = dict(os.environ, JONGG_CACHE_DIR=folder)
    out = subprocess.run([sys.executable, "-c", FRESH, card], env=env, check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def batch_us(run: Callable[[list[Hand]], object], hands: list[Hand]) -> float:
    """One batch's time per hand, in microseconds: the least of PASSES
    passes, as each single hand keeps its least."""
    least = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter()
        run(hands)
        least = min(least, time.perf_counter() - start)
    return least / len(hands) * 1e6


def check(card: Card, matcher: Matcher, hands: list[Hand]) -> None:
    """The compiled answers are the reference's, one hand and batched."""
    away, which = matcher.tiles_away_many(hands)
    index = {line.id: li for li, line in enumerate(card.lines)}
    for i, hand in enumerate(hands):
        ref = match_card(card, hand)
        mine = [(m.line.id, m.tiles_away, m.variation) for m in matcher.tiles_away(hand)]
        assert mine == [(r.line.id, r.tiles_away, r.variation) for r in ref], hand
        assert all((int(away[i, index[r.line.id]]), int(which[i, index[r.line.id]])) ==
                   (r.tiles_away, r.variation) for r in ref), hand
        done = completed(card, hand)
        best = matcher.is_complete(hand)
        assert (best.line.id, best.variation) == (done[0].line.id, done[0].variation) \
            if done else best is None, hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--card", action="append", help="cards to time (default: all four)")
    parser.add_argument("--hands", type=int, default=2000, help="hands per card")
    parser.add_argument("--reference", type=int, default=300,
                        help="hands the (slow) reference is timed on")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    cards = args.card or ["sample", "mjcg-advanced", "mjcg-beginner", "nymj"]
    goals: list[tuple[str, float, float, str]] = []
    print(f"{'card':14} {'query':28} {'compiled us':>12} {'reference us':>13} {'ratio':>8}")
    for name in cards:
        card = load_card(name)
        matcher = compile_matcher(card)
        built = matcher.prepare(cache.tables_dir())
        if built:
            print(f"{name:14} built the per-suit tables of its structural lines in {built:.1f} s "
                  f"(once: cached in {cache.tables_dir()})")
        hands = sample_hands(card, random.Random(f"{args.seed}:{name}"), args.hands)
        few = hands[: args.reference]
        check(card, matcher, few)
        rows = [
            ("complete check", matcher.is_complete,
             lambda h, c=card: completed(c, h)),
            ("tiles away, all lines", matcher.tiles_away,
             lambda h, c=card: match_card(c, h)),
        ]
        for label, ours, theirs in rows:
            mine = median_us(ours, hands)
            ref = median_us(theirs, few, passes=1)  # the reference is slow: one pass
            print(f"{name:14} {label:28} {mine:12.1f} {ref:13.0f} {ref / mine:7.0f}x")
            if name == "sample":
                goals.append((f"sample: {label} (one hand, median)", mine, ref,
                              10.0 if label == "complete check" else 50.0, "us"))
        batched = batch_us(matcher.tiles_away_many, hands)
        plain = [h for h in hands if not h.exposures]
        plain_us = batch_us(matcher.tiles_away_many, plain)
        print(f"{name:14} {'tiles away, batched':28} {batched:12.1f}   (without exposures: "
              f"{plain_us:.1f} us/hand)")
        if name == "sample":
            goals.append(("sample: tiles away batched (per hand)", batched, None, 20.0, "us"))
    with tempfile.TemporaryDirectory() as folder:
        cold = fresh("sample", folder)
        warm = fresh("sample", folder)
    assert not cold["cached"] and warm["cached"]
    print(f"\nsample card in a fresh interpreter: compiled cold in {cold['seconds'] * 1000:.0f} ms,"
          f" loaded from the cache in {warm['seconds'] * 1000:.1f} ms")
    goals.append(("sample: compile cold", cold["seconds"] * 1000, None, 1000.0, "ms"))
    goals.append(("sample: load from cache", warm["seconds"] * 1000, None, 50.0, "ms"))
    print("\ngoals (the reference: the brute-force matcher on the same hands):")
    for label, value, reference, limit, unit in goals:
        print(goal_line(label, value, reference, limit, unit))


if __name__ == "__main__":
    main()
