"""Randomized checks of the reference matcher that bite: hands are drawn from
the lines themselves (complete, then with tiles taken away or swapped for
jokers, some with exposures), so most are complete or one or two tiles away."""

from __future__ import annotations

import random

import pytest

from jongg.runtime.card import Card, Line, Variation
from jongg.runtime.matching.reference import Hand, match_line

from .conftest import card


def _deal(c: Card, line: Line, variation: Variation, rng: random.Random,
          remove: int, expose: bool) -> Hand:
    """A hand that fills `variation`, jokers in some joker slots, minus `remove` tiles."""
    joker = c.deck.joker.index if c.deck.joker else None
    groups: list[list[int]] = []
    jokers_left = c.deck.jokers
    for g in variation.groups:
        tiles = list(g.tiles)
        if g.jokers and joker is not None:
            room = len(tiles) - (0 if c.all_joker_groups else 1)
            for i in range(room):
                if jokers_left and rng.random() < 0.35:
                    tiles[i] = joker
                    jokers_left -= 1
        groups.append(tiles)
    exposures: list[tuple[int, ...]] = []
    if expose and not line.concealed:
        big = [i for i, g in enumerate(variation.groups) if g.size >= 3]
        for i in rng.sample(big, k=min(len(big), rng.randint(1, 2))):
            if any(t != joker for t in groups[i]):
                exposures.append(tuple(groups[i]))
                groups[i] = []
    concealed = [t for g in groups for t in g]
    rng.shuffle(concealed)
    del concealed[:remove]
    return Hand(tuple(concealed), tuple(exposures))


@pytest.mark.parametrize("name", ["sample", "mjcg-advanced", "constructs"])
def test_hands_built_from_a_line_are_as_near_as_they_were_built(name: str) -> None:
    c = card(name)
    rng = random.Random(f"reference:{name}")
    checked = complete = 0
    for _ in range(300):
        line = rng.choice([ln for ln in c.lines if not ln.structural])
        variation = rng.choice(line.variations)
        remove = rng.choice([0, 0, 1, 2, 3])
        h = _deal(c, line, variation, rng, remove, expose=rng.random() < 0.4)
        found = match_line(line, h, c.deck, all_jokers=c.all_joker_groups)
        assert found is not None, (line.id, h)
        # never farther than the tiles taken away; exactly complete when none were
        assert found.tiles_away <= remove, (line.id, h, found.tiles_away)
        assert found.tiles_away >= c.hand_size - h.size, (line.id, h)
        assert len(found.missing) == found.tiles_away
        if remove == 0:
            assert found.tiles_away == 0
            complete += 1
        checked += 1
    assert complete >= checked // 5


@pytest.mark.parametrize("name", ["sample"])
def test_a_joker_in_a_pair_never_completes(name: str) -> None:
    """MJCG-12: swap a natural of a pair or single for a joker: the line is no
    longer complete by that variation."""
    c = card(name)
    rng = random.Random("pairs")
    joker = c.deck.joker.index
    tried = 0
    for line in c.lines:
        variation = line.variations[0]
        small = [g for g in variation.groups if not g.jokers]
        if not small:
            continue
        tiles = [t for g in variation.groups for t in g.tiles]
        victim = rng.choice(small).tiles[0]
        tiles.remove(victim)
        found = match_line(Line(line.id, line.section, line.value, line.concealed, line.pattern,
                                (variation,), line.size), Hand((*tiles, joker)), c.deck)
        assert found is not None and found.tiles_away == 1, line.id
        tried += 1
    assert tried >= 30


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sample", "mjcg-advanced", "constructs"])
def test_many_hands_built_from_lines(name: str) -> None:
    """The slow suite: thousands of hands per card, the same invariants."""
    c = card(name)
    rng = random.Random(f"slow:{name}")
    for _ in range(3000):
        line = rng.choice([ln for ln in c.lines if not ln.structural])
        remove = rng.choice([0, 1, 2, 3])
        h = _deal(c, line, rng.choice(line.variations), rng, remove, rng.random() < 0.4)
        found = match_line(line, h, c.deck, all_jokers=c.all_joker_groups)
        assert found is not None and found.tiles_away <= remove, (line.id, h)
        if remove == 0:
            assert found.tiles_away == 0, (line.id, h)
