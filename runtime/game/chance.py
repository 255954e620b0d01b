"""Chance: every outcome the rules leave to luck, asked for by name.

A match meets chance at four points: who deals first, the order of the
shuffled tiles each round, the die that cuts the wall, and a tie between
claims of equal rank when the variant breaks ties at random. The state asks
its Chance for each outcome; it never draws a random number itself. So a
match is fully determined by its chance and its actions: `SeededChance`
derives every outcome from the match seed (the same in every process),
`KeyedChance` from a secret key (a shared table's: nobody can predict it
from what they see), and `ArrangedChance` lets a test or a study choose the outcomes, such as a
deal that gives each seat chosen tiles (`arranged_wall`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from jongg.runtime.game.spec import GameSpec
from jongg.runtime.game.walls import lay_out


def derived_rng(seed: int, *parts: object) -> random.Random:
    """A random source for one purpose of one match: string seeds hash the same
    in every process, whatever PYTHONHASHSEED says."""
    return random.Random("/".join(map(str, (seed, *parts))))


class Chance(Protocol):
    """The outcomes of a match's chance nodes."""

    def first_dealer(self, players: int) -> int:
        """The seat that deals the first round, when the variant draws for it."""
        ...

    def shuffle(self, round_: int, tiles: list[int]) -> list[int]:
        """The round's tiles in their shuffled order (the deck's order given)."""
        ...

    def die(self, round_: int, sides: int) -> int:
        """The die thrown to cut the wall, 1 to `sides`."""
        ...

    def tie(self, round_: int, turn: int, count: int) -> int:
        """Which of `count` tied claims is granted (0 to count - 1)."""
        ...


@dataclass(frozen=True, slots=True)
class SeededChance:
    """Every outcome derived from the match seed and the outcome's name."""

    seed: int

    def first_dealer(self, players: int) -> int:
        return derived_rng(self.seed, "dealer").randrange(players)

    def shuffle(self, round_: int, tiles: list[int]) -> list[int]:
        order = list(tiles)
        derived_rng(self.seed, "shuffle", round_).shuffle(order)
        return order

    def die(self, round_: int, sides: int) -> int:
        return derived_rng(self.seed, "die", round_).randint(1, sides)

    def tie(self, round_: int, turn: int, count: int) -> int:
        return derived_rng(self.seed, "ties", round_, turn).randrange(count)


@dataclass(frozen=True, slots=True)
class KeyedChance:
    """Every outcome derived from a secret key by a keyed hash of the
    outcome's name (HMAC-SHA-256): each round's shuffle, die and ties come
    from a random source of their own, so seeing the tiles of one round
    tells nothing of the key or of another round. `seed` (derived the same
    way) seeds a table's bots."""

    key: bytes

    def _rng(self, *parts: object) -> random.Random:
        name = "/".join(map(str, parts)).encode()
        return random.Random(int.from_bytes(hmac.digest(self.key, name, hashlib.sha256)))

    @property
    def seed(self) -> int:
        return self._rng("seed").getrandbits(63)

    def first_dealer(self, players: int) -> int:
        return self._rng("dealer").randrange(players)

    def shuffle(self, round_: int, tiles: list[int]) -> list[int]:
        order = list(tiles)
        self._rng("shuffle", round_).shuffle(order)
        return order

    def die(self, round_: int, sides: int) -> int:
        return self._rng("die", round_).randint(1, sides)

    def tie(self, round_: int, turn: int, count: int) -> int:
        return self._rng("ties", round_, turn).randrange(count)


@dataclass(frozen=True)
class ArrangedChance:
    """Chosen outcomes: a shuffled order per round (`walls`), dice per
    round, a first dealer; anything not chosen falls back to the seed."""

    seed: int = 0
    walls: Mapping[int, Sequence[int]] = field(default_factory=dict)
    dice: Mapping[int, int] = field(default_factory=dict)
    dealer: int | None = None
    fallback: SeededChance = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fallback", SeededChance(self.seed))

    def first_dealer(self, players: int) -> int:
        return self.dealer if self.dealer is not None else self.fallback.first_dealer(players)

    def shuffle(self, round_: int, tiles: list[int]) -> list[int]:
        order = self.walls.get(round_)
        if order is None:
            return self.fallback.shuffle(round_, tiles)
        if Counter(order) != Counter(tiles):
            raise ValueError(f"the arranged wall of round {round_} is not the round's tiles")
        return list(order)

    def die(self, round_: int, sides: int) -> int:
        return self.dice.get(round_) or self.fallback.die(round_, sides)

    def tie(self, round_: int, turn: int, count: int) -> int:
        return self.fallback.tie(round_, turn, count)


# -- dealing --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Deal:
    """A round's deal: each seat's tiles, the wall left (drawn from its end)
    and, for walls on the table, whose wall each tile lies in."""

    hands: tuple[tuple[int, ...], ...]
    wall: list[int]
    owners: list[int]


def dealt_sizes(spec: GameSpec, dealer: int) -> list[int]:
    return [spec.deal + (spec.dealer_extra if s == dealer else 0) for s in range(spec.players)]


def deal(spec: GameSpec, shuffled: Sequence[int], dealer: int, die: int) -> Deal:
    """Deal the shuffled tiles as the variant says: each seat takes its whole
    deal from one pile, or (walls on the table, SMJ-03, SMJ-04) the walls are
    laid out, cut by the die, and dealt a few tiles at a time."""
    n = spec.players
    sizes = dealt_sizes(spec, dealer)
    order = [(dealer + i * spec.turn.direction) % n for i in range(n)]
    hands: list[list[int]] = [[] for _ in range(n)]
    wall = list(shuffled)
    owners: list[int] = []
    if spec.walls is None:
        for seat in order:
            for _ in range(sizes[seat]):
                hands[seat].append(wall.pop())
    else:
        wall, owners = lay_out(wall, order, spec.walls, die)
        take = spec.walls.take
        while any(len(hands[s]) < sizes[s] for s in order):
            for seat in order:
                for _ in range(min(take, sizes[seat] - len(hands[seat]))):
                    hands[seat].append(wall.pop())
                    owners.pop()
    return Deal(tuple(tuple(h) for h in hands), wall, owners)


def arranged_wall(spec: GameSpec, hands: Mapping[int, Sequence[int]], draws: Sequence[int],
                  dealer: int, die: int, tiles: Sequence[int],
                  shuffle: Callable[[list[int]], None] | None = None) -> list[int]:
    """A shuffled order of `tiles` whose deal gives the named seats these
    tiles (the first of their deal; a shorter list leaves the rest to chance)
    and whose wall gives `draws` first, in order; every other place is filled
    from what is left (in the order `shuffle` leaves it). Works for any
    dealing rule: the deal is run once on places, to learn where each goes."""
    places = list(range(len(tiles)))
    by_place = deal(spec, places, dealer, die)
    left = Counter(tiles)
    chosen: dict[int, int] = {}
    for seat, wanted in hands.items():
        slots = by_place.hands[seat]
        if len(wanted) > len(slots):
            raise ValueError(f"seat {seat} is dealt {len(slots)} tiles, not {len(wanted)}")
        for place, tile in zip(slots, wanted, strict=False):
            chosen[place] = tile
    for place, tile in zip(reversed(by_place.wall), draws, strict=False):
        chosen[place] = tile
    left.subtract(chosen.values())
    if any(n < 0 for n in left.values()):
        short = sorted(t for t, n in left.items() if n < 0)
        raise ValueError(f"the arranged deal uses more tiles than the deck holds: {short}")
    rest = sorted(left.elements())
    if shuffle is not None:
        shuffle(rest)
    order = [0] * len(tiles)
    for place in places:
        order[place] = chosen[place] if place in chosen else rest.pop()
    return order
