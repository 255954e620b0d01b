"""Four sets and a pair: jongg's compiled matcher beside `mahjong` (PyPI).

Run: pip install -e ".[bench]" && python bench/bench_classic.py [--hands 10000]

The classic card (rulesets/cards/classic.yaml: four sets and a pair, seven
pairs, thirteen orphans; 136 tiles, no jokers) against mahjong 2.1.0 on the
same 14-tile hands: a third complete, a third one tile off, a third drawn at
random. Checks first that the answers are identical on every hand:

- complete: jongg completes some line  <=>  Agari.is_agari (which knows the
  same three hands);
- tiles away from four sets and a pair  ==  Shanten.calculate_shanten_for_
  regular_hand + 1.

Then prints medians per hand (each hand's least of three passes), one hand
at a time (from Hand objects, as `Matcher.is_complete` and
`Matcher.tiles_away` take them; mahjong gets its 34-arrays built
beforehand; the two take turns ten hands at a time, so the machine's load
lands on both alike: bench/timing.py) and batched (count vectors in), the
ratios, and the goals:

- the per-suit tables of `4[set] [pair]` on the 136 tiles built cold (no
  cache) in at most 3 s, beside the programme run vector by vector (timed
  on a sample of count vectors, scaled to all of them);
- one hand at a time: complete check at least 2x faster than is_agari, tiles
  away (all three lines) at least 5x faster than the regular-hand shanten;
- batched: at least 5x and 40x.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten
except ImportError:
    sys.exit("bench_classic needs the benchmark extra: pip install -e '.[bench]'")

import numpy as np
from timing import goal_line, paired_us

from jongg.compiler import cache
from jongg.compiler.card import load_card
from jongg.compiler.matcher import compile_matcher
from jongg.runtime.card import Card
from jongg.runtime.hand import Hand
from jongg.runtime.matching.structure import component


def mahjong_index(card: Card) -> list[int]:
    """Our kind index -> mahjong's 34-tile index (man = craks, pin = dots,
    sou = bams; honours E S W N, then white, green, red)."""
    deck = card.deck
    honours = {"E": 27, "S": 28, "W": 29, "N": 30, "WD": 31, "GD": 32, "RD": 33}
    out = []
    for kind in deck.kinds:
        if kind.suit:
            out.append({"C": 0, "D": 9, "B": 18}[kind.suit] + (kind.number or 0) - 1)
        else:
            out.append(honours[kind.code])
    return out


def draw(card: Card, rng: random.Random, count: int) -> list[Hand]:
    """Equal parts complete (four sets and a pair), one tile off, random."""
    deck = card.deck
    suits = [[k.index for k in deck.kinds if k.suit == s.code] for s in deck.suits]
    plain = [k.index for k in deck.kinds]
    hands: list[Hand] = []
    while len(hands) < count:
        kind = len(hands) % 3
        if kind == 2:
            hands.append(Hand(tuple(rng.sample(deck.wall(), 14))))
            continue
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.5:
                suit = rng.choice(suits)
                start = rng.randrange(7)
                tiles += suit[start:start + 3]
            else:
                tiles += [rng.choice(plain)] * 3
        tiles += [rng.choice(plain)] * 2
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        if kind == 1:
            wall = deck.wall()
            for t in tiles:
                wall.remove(t)
            tiles[rng.randrange(14)] = rng.choice(wall)
        hands.append(Hand(tuple(tiles)))
    return hands


def cold_build(card: Card) -> tuple[float, float]:
    """Seconds to build the card's per-suit tables with no cache, and what
    running the programme vector by vector over every count vector of every
    component would take (timed on 2,000 random vectors per component)."""
    matcher = compile_matcher(card)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        matcher.prepare(Path(folder))
        built = time.perf_counter() - start
    rng = random.Random("vectors")
    slow = 0.0
    for plan in {p.shape: p for p in matcher.programme.structural if not p.groups}.values():
        seen = set()
        for comp in matcher.programme.table_components:
            sig = (len(comp.kinds), comp.copies, comp.runs)
            if sig in seen:
                continue
            seen.add(sig)
            vectors = [tuple(rng.randrange(comp.copies + 1) for _ in comp.kinds)
                       for _ in range(2000)]
            start = time.perf_counter()
            for xs in vectors:
                component(plan.shape, xs, comp.runs)
            per = (time.perf_counter() - start) / len(vectors)
            slow += per * (comp.copies + 1) ** len(comp.kinds)
    return built, slow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", default="classic")
    args = parser.parse_args()
    card = load_card("classic")
    compiled = cache.matcher("classic")
    matcher = compiled.matcher
    built = matcher.prepare(cache.tables_dir())
    print(f"matcher {'loaded' if compiled.from_cache else 'compiled'} in "
          f"{compiled.seconds * 1000:.0f} ms; per-suit tables "
          + (f"built in {built:.1f} s (once: cached)" if built else "loaded from the cache"))
    hands = draw(card, random.Random(args.seed), args.hands)
    index = mahjong_index(card)
    arrays = []
    for hand in hands:
        counts = [0] * 34
        for t in hand.concealed:
            counts[index[t]] += 1
        arrays.append(counts)
    four = [line.id for line in card.lines].index("four-sets-and-a-pair")

    # identical answers, every hand (and every hand again once the matcher
    # has built its lookups, so both of its ways are checked)
    agari = Agari()
    wrong_complete = wrong_away = 0
    for _ in range(2):
        away, _ = matcher.tiles_away_many(hands)
        for i, (hand, counts) in enumerate(zip(hands, arrays, strict=True)):
            if (matcher.is_complete(hand) is not None) != agari.is_agari(counts):
                wrong_complete += 1
            shanten = Shanten.calculate_shanten_for_regular_hand(counts)
            if int(away[i, four]) != shanten + 1 or \
                    matcher.tiles_away(hand)[0].tiles_away != int(away[i].min()):
                wrong_away += 1
                if wrong_away <= 5:
                    print("  differs:", " ".join(card.deck.codes(hand.concealed)),
                          f"jongg {int(away[i, four])} away, shanten {shanten}")
    complete = sum(int(away[i].min()) == 0 for i in range(len(hands)))
    print(f"{len(hands)} hands ({complete} complete): complete check differs on "
          f"{wrong_complete}, tiles away differs on {wrong_away}")
    if wrong_complete or wrong_away:
        sys.exit("the answers differ: no timing")

    # batched, from count vectors (the form mahjong is given: its 34-arrays
    # are built before timing too)
    counts, jokers = matcher.counts_of(hands)
    lines, _ = matcher.complete_counts(counts, jokers)
    assert ((lines >= 0) == np.array([agari.is_agari(a) for a in arrays])).all()

    def per_hand(run: Callable[[], Any]) -> float:
        """The best of five runs over every hand (a shared machine's pauses
        land on one run, not on all five)."""
        spent = []
        for _ in range(5):
            start = time.perf_counter()
            run()
            spent.append(time.perf_counter() - start)
        return min(spent) / len(hands) * 1e6

    rows = []
    ours, theirs = paired_us([(matcher.is_complete, hands), (agari.is_agari, arrays)])
    batch = per_hand(lambda: matcher.complete_counts(counts, jokers))
    rows.append(("complete check", ours, batch, "Agari.is_agari", theirs, 2, 5))
    ours, theirs = paired_us([(matcher.tiles_away, hands),
                              (Shanten.calculate_shanten_for_regular_hand, arrays)])
    batch = per_hand(lambda: matcher.tiles_away_counts(counts, jokers))
    rows.append(("tiles away (all 3 lines)", ours, batch, "regular shanten", theirs, 5, 40))
    print(f"(from Hand objects, counting included: tiles away batched "
          f"{per_hand(lambda: matcher.tiles_away_many(hands)):.2f} us/hand)")
    print(f"\n{'query':26} {'jongg single':>13} {'jongg batched':>14}   {'mahjong':>18} "
          f"{'ratio single':>13} {'ratio batched':>14}")
    for label, single, batched, peer, theirs, _, _ in rows:
        print(f"{label:26} {single:11.2f}us {batched:12.2f}us   {peer:>15} "
              f"{theirs:4.1f}us {theirs / single:12.1f}x {theirs / batched:13.1f}x")

    cold, slow = cold_build(card)
    print(f"\nper-suit tables of the classic card (4[set] [pair], 7[pair]) built cold in "
          f"{cold:.2f} s; the programme vector by vector: ~{slow:.0f} s")
    print("\ngoals (the reference: the programme vector by vector; mahjong):")
    print(goal_line("per-suit tables built cold", cold, slow, 3.0, "s"))
    for label, single, batched, peer, theirs, single_goal, batch_goal in rows:
        print(goal_line(f"{label}, one hand: x {peer}", theirs / single, None, single_goal,
                        "x", at_least=True))
        print(goal_line(f"{label}, batched: x {peer}", theirs / batched, None, batch_goal,
                        "x", at_least=True))


if __name__ == "__main__":
    main()
