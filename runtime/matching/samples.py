"""Seeded test hands drawn near a card's lines, so randomized matcher checks bite.

Random hands almost never complete a line, so most hands here are built from
one: a random line, a random variation, filled with naturals (structural groups
bound to random shapes, identical ones of different tiles), some naturals in
joker slots swapped for jokers. Every hand is legal for the card's deck: never
more copies of a kind than the deck holds, jokers only if it has them.

The mix, each kind drawn with its probability:

- 30% complete: the filled line as it is;
- 40% one or two away: a complete hand with 1 or 2 concealed tiles swapped
  for other tiles from the rest of the wall;
- 30% further: half with 3 to 6 tiles swapped, half a plain draw from the wall.

Jokers: a quarter of the filled hands take every joker the slots allow and the
deck holds; the rest take one in a joker slot with probability 1/4. Without
`card.all_joker_groups` a group keeps at least one natural.

Exposures: in 30% of the hands built from a line that may be played open (not
concealed, or any line with `open_hands`), 1 or 2 whole groups of 3 or more
(pungs, kongs..., and structural sets and runs as bound) go from the concealed
tiles to the exposures, with their jokers; an exposure keeps a natural.
Exposures are taken first: swaps touch concealed tiles only.

A hand of another `size` (13, say) drops random concealed tiles or draws more
from the wall. Randomness comes from `rng` alone.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from jongg.runtime.card import Card, Line, Variation
from jongg.runtime.hand import Hand
from jongg.runtime.matching.reference import _shapes
from jongg.runtime.tiles import Deck

COMPLETE = 0.3
NEAR = 0.4  # one or two tiles away; the rest is further
EXPOSE = 0.3
JOKER_HEAVY = 0.25
JOKER_RATE = 0.25
ATTEMPTS = 20  # lines tried before falling back to a plain draw


@dataclass(slots=True, eq=False)
class _Group:
    """A filled group: its tiles (jokers among them), and what it allows."""

    tiles: list[int]
    jokers: bool  # may a joker stand for a natural here
    exposable: bool  # a pung, kong... or a structural set or run


def sample_hands(card: Card, rng: random.Random, count: int, *, size: int | None = None,
                 open_hands: bool = False) -> list[Hand]:
    """`count` legal hands for `card`, near its lines in the mix the module states."""
    target = card.hand_size if size is None else size
    return [_sample(card, rng, target, open_hands) for _ in range(count)]


def _sample(card: Card, rng: random.Random, size: int, open_hands: bool) -> Hand:
    roll = rng.random()
    if roll < COMPLETE:
        swaps = 0
    elif roll < COMPLETE + NEAR:
        swaps = rng.randint(1, 2)
    elif rng.random() < 0.5:
        swaps = rng.randint(3, 6)
    else:
        return _resize(Hand(()), card.deck, rng, size)
    built = _complete(card, rng, open_hands)
    if built is None:
        return _resize(Hand(()), card.deck, rng, size)
    return _resize(_swap(built, card.deck, rng, swaps), card.deck, rng, size)


def _complete(card: Card, rng: random.Random, open_hands: bool) -> Hand | None:
    """A hand filling a random variation of a random line, or None if none would fill."""
    joker = card.deck.joker.index if card.deck.joker else None
    for _ in range(ATTEMPTS):
        line = rng.choice(card.lines)
        variation = rng.choice(line.variations)
        groups = _fill(card, line, variation, rng)
        if groups is None:
            continue
        exposed: list[_Group] = []
        if (open_hands or not line.concealed) and rng.random() < EXPOSE:
            exposed = _expose(groups, joker, rng)
        concealed = [t for g in groups if g not in exposed for t in g.tiles]
        return Hand(tuple(sorted(concealed)), tuple(tuple(g.tiles) for g in exposed))
    return None


def _fill(card: Card, line: Line, variation: Variation,
          rng: random.Random) -> list[_Group] | None:
    """Naturals for every slot, then jokers: those the deck's copies force, then more."""
    deck = card.deck
    groups = [_Group(list(s.tiles), s.jokers and line.jokers, s.identical and s.size >= 3)
              for s in variation.groups]
    used = Counter(t for g in groups for t in g.tiles)
    taken: list[int] = []  # tiles of identical structural groups, each its own
    for free in variation.free:
        shapes = [s for s in _shapes(free, deck) if not (len(set(s)) == 1 and s[0] in taken)]
        if not shapes:
            return None
        fitting = [s for s in shapes if _within(deck, used + Counter(s))]
        shape = rng.choice(fitting or shapes)
        identical = len(set(shape)) == 1
        if identical:
            taken.append(shape[0])
        used.update(shape)
        groups.append(_Group(list(shape), free.jokers and line.jokers and identical
                             and len(shape) >= 3, len(shape) >= 3))
    if deck.joker is None:
        return groups if _within(deck, used) else None
    left = _force_jokers(card, groups, used, deck.joker.index)
    if left is None:
        return None
    _add_jokers(card, groups, deck.joker.index, left, rng)
    return groups


def _within(deck: Deck, counts: Counter[int]) -> bool:
    return all(n <= deck.kinds[t].copies for t, n in counts.items())


def _naturals(group: _Group, joker: int) -> int:
    return sum(1 for t in group.tiles if t != joker)


def _may_take(card: Card, group: _Group, joker: int) -> bool:
    """Whether one more natural of this group may become a joker."""
    return group.jokers and _naturals(group, joker) > (0 if card.all_joker_groups else 1)


def _force_jokers(card: Card, groups: list[_Group], used: Counter[int],
                  joker: int) -> int | None:
    """Jokers for the naturals beyond the deck's copies; the jokers left, or None."""
    left = card.deck.jokers
    for tile in sorted(used):
        for _ in range(used[tile] - card.deck.kinds[tile].copies):
            group = next((g for g in groups if tile in g.tiles and _may_take(card, g, joker)),
                         None)
            if group is None or left == 0:
                return None
            group.tiles[group.tiles.index(tile)] = joker
            left -= 1
    return left


def _add_jokers(card: Card, groups: list[_Group], joker: int, left: int,
                rng: random.Random) -> None:
    """Swap naturals in joker slots for jokers: all the room allows when heavy."""
    heavy = rng.random() < JOKER_HEAVY
    slots = [(g, i) for g in groups if g.jokers for i, t in enumerate(g.tiles) if t != joker]
    rng.shuffle(slots)
    for group, i in slots:
        if left == 0:
            break
        if _may_take(card, group, joker) and (heavy or rng.random() < JOKER_RATE):
            group.tiles[i] = joker
            left -= 1


def _expose(groups: list[_Group], joker: int | None, rng: random.Random) -> list[_Group]:
    """One or two whole groups to expose, each holding a natural."""
    able = [g for g in groups if g.exposable and any(t != joker for t in g.tiles)]
    return rng.sample(able, min(len(able), rng.randint(1, 2)))


def _rest(deck: Deck, held: Iterable[int]) -> list[int]:
    """The wall without the tiles held."""
    left = Counter(held)
    rest: list[int] = []
    for tile in deck.wall():
        if left[tile]:
            left[tile] -= 1
        else:
            rest.append(tile)
    return rest


def _held(hand: Hand) -> list[int]:
    return [*hand.concealed, *(t for e in hand.exposures for t in e)]


def _swap(hand: Hand, deck: Deck, rng: random.Random, count: int) -> Hand:
    """Swap `count` concealed tiles for tiles of other kinds from the rest of the wall."""
    concealed = list(hand.concealed)
    out = [concealed.pop(rng.randrange(len(concealed)))
           for _ in range(min(count, len(concealed)))]
    pool = [t for t in _rest(deck, _held(hand)) if t not in out]
    concealed += rng.sample(pool, len(out))
    return Hand(tuple(sorted(concealed)), hand.exposures)


def _resize(hand: Hand, deck: Deck, rng: random.Random, size: int) -> Hand:
    """Drop random concealed tiles (exposures last), or draw from the wall, to `size`."""
    concealed = list(hand.concealed)
    exposures = list(hand.exposures)
    while len(concealed) + sum(map(len, exposures)) > size:
        if concealed:
            concealed.pop(rng.randrange(len(concealed)))
        else:
            exposures.pop()
    short = size - len(concealed) - sum(map(len, exposures))
    if short > 0:
        concealed += rng.sample(_rest(deck, [*concealed, *(t for e in exposures for t in e)]),
                                short)
    return Hand(tuple(sorted(concealed)), tuple(exposures))
