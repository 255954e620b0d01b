"""Riichi hands scored: `jongg score riichi` beside the `mahjong` package's
HandCalculator (PyPI, pinned in the bench and test extras).

Run: pip install -e ".[bench]" && python bench/bench_score.py [--hands 100000] [--seed 2026]

Draws winning hands to bite (tests/score_hands.py: every yaku and yakuman,
open and closed, every wait, dora, red fives and ura-dora, every seat and
round wind, tsumo and ron, riichi, ippatsu, honba, a share with their own
rule options), scores each with both, and prints:

- the agreement: hands, disagreements in whether the hand wins, its yaku
  with their han, the han, the fu (not of a yakuman) and the total paid;
- the sampler's mix (yaku, forms, waits, ...);
- hands per second of CPU time for each scorer, and the ratio. Both are
  timed over the same hands, prepared beforehand (our Win values, the
  package's tiles, melds and HandConfig), each answer's reading left out
  of the timing, in alternating blocks of 500 so
  the machine's load lands on both alike.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jongg.compiler.yaku import load_hand_scoring  # noqa: E402
from jongg.runtime.scoring.score import Scorer  # noqa: E402
from tests.score_hands import (  # noqa: E402
    Sampler,
    mix,
    ours,
    print_mix,
    their_answer,
    their_input,
    their_options,
    to_win,
)

BLOCK = 500


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    rules = load_hand_scoring("riichi")
    scorer = Scorer(rules)
    hands = Sampler(args.seed).hands(args.hands)
    wins = [to_win(rules, d) for d in hands]
    inputs = [their_input(d, their_options(rules, d)) for d in hands]
    from mahjong.hand_calculating.hand import HandCalculator

    estimate = HandCalculator.estimate_hand_value

    ours_cpu = theirs_cpu = 0.0
    mine, package = [], []
    for start in range(0, len(hands), BLOCK):
        block = range(start, min(start + BLOCK, len(hands)))
        t = time.process_time()
        mine += [scorer.score(wins[i]) for i in block]
        ours_cpu += time.process_time() - t
        t = time.process_time()
        results = [estimate(*inputs[i][:5], ura_dora_indicators=inputs[i][5]) for i in block]
        theirs_cpu += time.process_time() - t
        package += [their_answer(r) for r in results]

    compared = ("wins", "yaku", "han", "fu", "total")
    disagree = {k: 0 for k in compared}
    differing = 0
    for d, s, b in zip(hands, mine, package, strict=True):
        a = ours(d, s)
        if not a["wins"] and not b["wins"]:
            continue
        wrong = [k for k in compared if a.get(k) != b.get(k)]
        differing += bool(wrong)
        for k in wrong:
            disagree[k] += 1
    print(f"agreement: {len(hands):,} hands, {differing:,} disagreeing "
          f"({', '.join(f'{k} {n}' for k, n in disagree.items())})")
    print(print_mix(mix(list(zip(hands, mine, strict=True))), len(hands)))
    ours_rate, theirs_rate = len(hands) / ours_cpu, len(hands) / theirs_cpu
    print(f"jongg score: {ours_rate:,.0f} hands/s (CPU)")
    print(f"mahjong HandCalculator: {theirs_rate:,.0f} hands/s (CPU)")
    print(f"ratio: {ours_rate / theirs_rate:.2f}x")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
