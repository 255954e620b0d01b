"""The sampler of test hands: every hand legal, the same seed the same hands, and
the mix near enough to the lines that randomized matcher checks bite.

Legality and determinism are checked on 300 hands per card. The mix is measured
on all 300 by the compiled matcher (which test_matcher holds to the reference on
this sampler's hands); the slow run measures it again with the reference matcher
itself, which takes 20 to 200 ms a hand."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

import pytest

from jongg.compiler.matcher import compile_matcher
from jongg.runtime.card import Card
from jongg.runtime.matching.answers import Nearness
from jongg.runtime.matching.reference import Hand, match_card
from jongg.runtime.matching.samples import sample_hands

from .conftest import card

DRAWN = 300
CARDS = ["mjcg-advanced", "mjcg-beginner", "nymj", "sample"]


@cache
def _hands(name: str) -> tuple[Hand, ...]:
    return tuple(sample_hands(card(name), random.Random(f"samples:{name}"), DRAWN))


def _assert_legal(c: Card, hands: list[Hand] | tuple[Hand, ...], size: int) -> None:
    deck = c.deck
    joker = deck.joker.index if deck.joker else None
    for h in hands:
        assert h.size == size, h
        held = Counter(h.concealed) + Counter(t for e in h.exposures for t in e)
        for tile, n in held.items():
            assert 0 <= tile < len(deck.kinds), h
            assert n <= deck.kinds[tile].copies, (deck.code(tile), n, h)
        for exposure in h.exposures:
            assert any(t != joker for t in exposure), h


def _jokers(c: Card, h: Hand) -> int:
    joker = c.deck.joker.index if c.deck.joker else None
    return sum(1 for t in h.concealed if t == joker) + sum(
        1 for e in h.exposures for t in e if t == joker)


@pytest.mark.parametrize("name", CARDS)
def test_every_hand_is_legal_and_the_seed_fixes_them(name: str) -> None:
    c = card(name)
    hands = _hands(name)
    _assert_legal(c, hands, c.hand_size)
    again = sample_hands(c, random.Random(f"samples:{name}"), DRAWN)
    assert tuple(again) == hands
    other = sample_hands(c, random.Random(f"samples:{name}:other"), DRAWN)
    assert tuple(other) != hands


@pytest.mark.parametrize("name", CARDS)
def test_other_sizes_and_open_hands_stay_legal(name: str) -> None:
    c = card(name)
    rng = random.Random(f"sizes:{name}")
    _assert_legal(c, sample_hands(c, rng, 100, size=c.hand_size - 1), c.hand_size - 1)
    opened = sample_hands(c, rng, 100, open_hands=True)
    _assert_legal(c, opened, c.hand_size)
    assert any(h.exposures for h in opened)


def _assert_mix(c: Card, hands: tuple[Hand, ...], nearest_of: Callable[[Hand], Sequence[Nearness]]
                ) -> None:
    nearest = []
    for h in hands:
        found = nearest_of(h)
        nearest.append(found[0].tiles_away if found else None)
    n = len(hands)
    complete = sum(1 for a in nearest if a == 0)
    near = sum(1 for a in nearest if a in (1, 2))
    exposed = sum(1 for h in hands if h.exposures)
    assert complete >= 0.2 * n, (complete, n)
    assert near >= 0.3 * n, (near, n)
    assert exposed >= 0.1 * n, (exposed, n)
    if c.deck.jokers:
        heavy = sum(1 for h in hands if _jokers(c, h) >= 3)
        assert heavy >= 0.1 * n, (heavy, n)


@pytest.mark.parametrize("name", CARDS)
def test_the_mix_is_near_the_lines(name: str) -> None:
    _assert_mix(card(name), _hands(name), compile_matcher(card(name)).tiles_away)


@pytest.mark.slow
@pytest.mark.parametrize("name", CARDS)
def test_the_mix_is_near_the_lines_by_the_reference(name: str) -> None:
    c = card(name)
    _assert_mix(c, _hands(name), lambda h: match_card(c, h))
