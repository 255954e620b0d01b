"""`jongg score riichi` agrees with an independent scorer, the `mahjong`
package's HandCalculator (PyPI, MIT; a test dependency, never imported by
jongg), on winning hands drawn to bite (tests/score_hands.py): the yaku with
their han (dora, red fives and ura-dora as the package lists them), the han,
the fu (of every hand but a yakuman, whose fu nothing reads), the total paid
with honba and riichi sticks, and whether the hand wins at all.

The package's options are set to the ruleset's for each hand (a share of the
hands draws its own options): open_tanyao -> has_open_tanyao, red_fives ->
has_aka_dora, double_yakuman -> has_double_yakuman, kazoe_yakuman ->
kazoe_limit (LIMITED, else SANBAIMAN), kiriage -> kiriage, open_pinfu_fu ->
fu_for_open_pinfu.

The default suite scores 3,000 hands; the slow suite 100,000.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from jongg.compiler.formula import compile_formula
from jongg.compiler.yaku import load_hand_scoring
from jongg.runtime.scoring.rules import HandScoring
from jongg.runtime.scoring.score import Scored, Scorer

from .score_hands import Drawn, Sampler, mix, ours, print_mix, their_options, theirs, to_win

pytest.importorskip("mahjong")

COMPARED = ("wins", "yaku", "han", "fu", "total")
# each yaku's least share of the hands drawn (so every one of them is tried)
FLOOR = {"default": 0.0005}


def agreement(rules: HandScoring, hands: list[Drawn]
              ) -> tuple[list[tuple[Drawn, Scored]], list[str]]:
    scorer = Scorer(rules)
    scored, differences = [], []
    for d in hands:
        s = scorer.score(to_win(rules, d))
        scored.append((d, s))
        a, b = ours(d, s), theirs(d, their_options(rules, d))
        if not a["wins"] and not b["wins"]:
            continue
        wrong = [k for k in COMPARED if a.get(k) != b.get(k)]
        if wrong:
            differences.append(f"{d}\n  ours:   {a}\n  theirs: {b}")
    return scored, differences


def check_mix(rules: HandScoring, scored: list[tuple[Drawn, Scored]]) -> None:
    m = mix(scored)
    print(print_mix(m, len(scored)))
    floor = max(1, int(FLOOR["default"] * len(scored)))
    low = {y.name: m["yaku"][y.name] for y in rules.yaku if m["yaku"][y.name] < floor}
    assert not low, f"yaku drawn fewer than {floor} times: {low}"
    for key, needed in (("form", {"sets", "pairs", "orphans"}),
                        ("wait", {"two-sided", "middle", "edge", "pung", "pair"}),
                        ("hand", {"open", "closed"}), ("won", {"tsumo", "ron"}),
                        ("seat", {"E", "S", "W", "N"}), ("round", {"E", "S", "W", "N"}),
                        ("declared", {"riichi", "double_riichi", "ippatsu", "last_tile",
                                      "kan_replacement", "robbed_kan", "first_draw",
                                      "first_discard"}),
                        ("bonus", {"dora", "red five", "ura-dora", "honba", "sticks"})):
        thin = {n for n in needed if m[key][n] < floor}
        assert not thin, f"{key}: {thin} drawn fewer than {floor} times"
    limits = Counter(s.limit for _, s in scored)
    for level in ("mangan", "haneman", "baiman", "sanbaiman", "yakuman", "2x yakuman",
                  "kazoe yakuman"):
        assert limits[level] >= 1, f"no hand reached {level}"


def run(count: int, seed: int) -> None:
    rules = load_hand_scoring("riichi")
    scored, differences = agreement(rules, Sampler(seed).hands(count))
    assert not differences, f"{len(differences)} of {count} hands disagree:\n" + \
        "\n".join(differences[:5])
    check_mix(rules, scored)


def test_riichi_agrees_with_the_mahjong_package_on_3000_hands() -> None:
    run(3000, seed=35)


@pytest.mark.slow
def test_riichi_agrees_with_the_mahjong_package_on_100000_hands() -> None:
    run(100_000, seed=2026)


def test_a_disagreement_is_seen() -> None:
    """The comparison can fail: a ruleset whose tanyao is worth 2 han
    disagrees with the package on the hands that score it."""
    rules = load_hand_scoring("riichi")
    hands = [d for d in Sampler(8).hands(600) if d.theme == "simples"]
    two_han = compile_formula("2", ())
    doubled = [y if y.name != "tanyao" else dataclasses.replace(y, closed=two_han, open=two_han)
               for y in rules.yaku]
    two = dataclasses.replace(rules, yaku=tuple(doubled))
    _, same = agreement(rules, hands)
    _, differ = agreement(two, hands)
    assert not same and len(differ) > 5
